"""One meaning per symbol: the notation table of ``book/intro.md`` rules every chapter.

For the symbols the table lists and this test knows how to read, every definition
``$<symbol> = <right-hand side>`` in a chapter's prose or displayed mathematics (code
cells aside) must agree with the table's meaning: its right-hand side must match one
of the forms allowed below (the table's defining formula, a value, or an equivalent
form). A chapter that gives a listed symbol another meaning — ``$K = \\nu/2$`` for a
total charge, ``$t = \\bar d/\\ldots$`` for a test statistic, ``$\\tau = 10^{-3}$``
for a tolerance — fails with the chapter, the line and the definition.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"

NUMBER = r"[-+]?\s*(\d|\\infty|\\tfrac|\\frac\{?\d|\d*\.\d|10\^)"

# symbol (as written in TeX) -> right-hand sides that keep the table's meaning
ALLOWED = {
    r"K": [r"\\bigl\(\\begin\{smallmatrix\}", r"K_", r"k\(", r"P\b", r"X\s*X"],
    r"Q": [r"\\diag\(\\vy\)\s*K", r"-A\b", r"y_i\s*y_j"],
    r"G": [r"Q\\valpha\s*-\s*\\ve", r"-\\ve", r"-\\mathbf p"],
    r"g_i": [r"1\s*-\s*y_i", r"1\s*-\s*\(Q\\valpha\)_i", NUMBER],
    r"a_{ij}": [r"K_\{ii\}\s*\+\s*K_\{jj\}\s*-\s*2\s*K_\{ij\}", r"\\norm\{\\vphi",
                r"2\s*-\s*2", NUMBER],
    r"\tau": [NUMBER],
    r"\mathrm{tol}": [NUMBER, r"2\\,\\mathrm\{tol\}_"],
    r"\varepsilon": [NUMBER],
    r"m": [NUMBER, r"\\max_\{?k\s*\\in\s*\\Iup"],
    r"M": [NUMBER, r"\\min_\{?k\s*\\in\s*\\Ilow"],
    r"t": [NUMBER],
}


def notation_symbols() -> str:
    """The first column of the notation table in book/intro.md, as one string."""
    text = (BOOK / "intro.md").read_text(encoding="utf-8")
    start = text.index("(sec-intro-notation)=")
    rows = [line for line in text[start:].splitlines()[:80] if line.startswith("| $")]
    return " ".join(row.split("|")[1] for row in rows)


def chapter_prose(path: Path) -> list[tuple[int, str]]:
    """(line number, line) of a chapter outside its code cells; a line of a displayed
    equation (``$$`` or ``{math}`` block) starts with ``$`` as inline math does."""
    out, in_code, in_display = [], False, False
    for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("```{code-cell}"):
            in_code = True
        elif in_code and line.startswith("```"):
            in_code = False
        elif not in_code:
            if line.startswith("$$") or line.startswith("```{math}") or (
                    in_display and line.startswith("```")):
                in_display = not in_display
                continue
            out.append((k, "$" + line.lstrip(" &") if in_display else line))
    return out


def definitions(symbol: str, path: Path):
    """Every ``$symbol = rhs`` of the chapter at ``path``: (line, rhs)."""
    pattern = re.compile(r"\$\s*" + re.escape(symbol) + r"(?![A-Za-z_{(\\'])\s*=\s*([^$]{1,60})")
    for k, line in chapter_prose(path):
        for m in pattern.finditer(line):
            yield k, m.group(1).strip()


def test_checked_symbols_are_in_the_table():
    table = notation_symbols()
    for symbol in ALLOWED:
        assert symbol in table, f"{symbol} is not in book/intro.md's notation table"


def test_the_tolerance_and_the_tube_have_separate_symbols():
    table = (BOOK / "intro.md").read_text(encoding="utf-8")
    assert re.search(r"\| \$\\mathrm\{tol\}\$ \| stopping tolerance", table)
    assert re.search(r"\| \$\\varepsilon\$ \| the half-width of the \$\\varepsilon\$-insensitive",
                     table)


@pytest.mark.parametrize("chapter", sorted(p.name for p in BOOK.glob("*.md")))
def test_chapters_keep_the_table_meanings(chapter):
    path = BOOK / chapter
    wrong = []
    for symbol, forms in ALLOWED.items():
        for k, rhs in definitions(symbol, path):
            if not any(re.match(form, rhs) for form in forms):
                wrong.append(f"{chapter}:{k}: ${symbol} = {rhs}")
    assert not wrong, ("symbols of the notation table (book/intro.md) given another "
                       "meaning:\n  " + "\n  ".join(wrong))


def test_the_check_catches_a_redefinition(tmp_path):
    bad = tmp_path / "bad.md"
    bad.write_text("Let $\\tau = \\max_k |G_k|$ be the tolerance and $K = \\nu/2$.\n"
                   "```{code-cell} ipython3\nt = 5  # code is not prose\n```\n")
    found = [(s, rhs) for s in ALLOWED for _, rhs in definitions(s, bad)
             if not any(re.match(f, rhs) for f in ALLOWED[s])]
    assert [s for s, _ in found] == [r"K", r"\tau"]
