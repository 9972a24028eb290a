"""The student edition of the book (``make book-student``) holds no solution.

Every file of the built site (HTML pages, ``_sources``, downloads, the search index) is
searched for the code and the text of every exercise solution of the chapters (the
gated ``{solution-start}`` ... ``{solution-end}`` blocks of ``book/*.md``): none may
appear, while the exercises themselves are there. Skipped when the student edition has
not been built (``SVMTEXT_REQUIRE_STUDENT_BOOK=1`` makes that a failure).
"""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "assignments"))
import student_chapters  # noqa: E402

SITE = ROOT / "_build" / "student" / "_build" / "html"


def _split(chapter: Path) -> tuple[list[str], list[str]]:
    """The lines of a chapter inside its solution blocks, and the other lines."""
    import jupytext

    inside, sol, rest = False, [], []
    for cell in jupytext.read(chapter).cells:
        if cell.cell_type == "markdown":
            for part in re.split(r"(\{solution-(?:start|end)\}[^\n]*)", cell.source):
                if part.startswith("{solution-start}"):
                    inside = True
                elif part.startswith("{solution-end}"):
                    inside = False
                else:
                    (sol if inside else rest).extend(part.splitlines())
        else:
            (sol if inside else rest).extend(cell.source.splitlines())
    return sol, rest


def solution_fingerprints(chapter: Path, chapters: list[Path]) -> list[str]:
    """Distinctive lines of a chapter's solutions: code lines and sentences that occur
    inside a solution block and nowhere outside the solutions of the book's chapters."""
    sol, _ = _split(chapter)
    others = {l.strip() for c in chapters for l in _split(c)[1]}
    keep = []
    for line in sol:
        s = line.strip()
        if (len(s) >= 30 and s not in others and not s.startswith(("#", ":", "```", "$$"))
                and not re.fullmatch(r"[\W\d_]+", s)):
            keep.append(s)
    return keep


def _site_text() -> dict[Path, str]:
    return {p: p.read_text(encoding="utf-8", errors="replace") for p in SITE.rglob("*")
            if p.is_file() and p.suffix in (".html", ".txt", ".md", ".ipynb", ".js", ".json")}


def _stale() -> bool:
    """Whether the student site is older than a chapter or the script that builds it."""
    index = SITE / "index.html"
    if not index.exists():
        return False
    sources = [*(ROOT / "book").glob("*.md"), ROOT / "assignments" / "student_book.py",
               ROOT / "assignments" / "student_chapters.py"]
    return index.stat().st_mtime < max(p.stat().st_mtime for p in sources)


@pytest.mark.skipif(not SITE.is_dir() and not os.environ.get("SVMTEXT_REQUIRE_STUDENT_BOOK"),
                    reason="student edition not built (make book-student)")
@pytest.mark.skipif(_stale() and not os.environ.get("SVMTEXT_REQUIRE_STUDENT_BOOK"),
                    reason="the student edition in _build/student is older than the chapters "
                           "(make book-student rebuilds it and runs this test)")
def test_student_site_has_no_solution():
    import html

    assert SITE.is_dir(), f"{SITE} missing: run make book-student"
    texts = _site_text()
    flat = {p: html.unescape(re.sub(r"<[^>]+>", "", t)) for p, t in texts.items()}
    chapters = student_chapters.chapters(ROOT)
    n_lines, found = 0, []
    for chapter in chapters:
        for line in solution_fingerprints(chapter, chapters):
            n_lines += 1
            hits = [p for p, t in texts.items() if line in t or line in flat[p]]
            if hits:
                found.append((chapter.stem, line, [str(h.relative_to(SITE)) for h in hits[:3]]))
    print(f"{n_lines} solution lines of {len(chapters)} chapters searched in "
          f"{len(texts)} files: {len(found)} found")
    assert n_lines > 50
    assert not found, found[:10]
    names = {c.stem for c in chapters}
    assert not [p for p, t in texts.items() if p.name.split(".")[0] in names
                and ("solution-start" in t or 'class="solution' in t)]
    assert any("exercise" in t for p, t in texts.items() if p.suffix == ".html")
    assert (SITE / "_sources").is_dir()
