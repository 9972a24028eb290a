#!/usr/bin/env python3
"""The book's chapters as student notebooks: exercises kept, solutions dropped.

    python assignments/student_chapters.py                 # every chapter -> _build/student-notebooks
    python assignments/student_chapters.py book/smo.md --out DIR
    make notebooks STUDENT=1                               # the same, through make

Every chapter ends with exercises written with sphinx-exercise's gated directives,

    ```{exercise}                 <- kept
    ...
    ```
    ```{solution-start} ex-label  <- dropped, with everything up to
    ...                              (text and code cells of the solution)
    ```{solution-end}             <- and including this fence
    ```

(and plain ```` ```{solution} ```` blocks, also dropped). In the HTML book the
solutions stay, folded in a dropdown (``:class: dropdown``); in the notebooks written
here a short note takes their place. The chapter is read and written with jupytext, so
cell tags, metadata and the hidden macro cell are kept as they are; outputs are not
stored (a student runs the notebook).
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "_build" / "student-notebooks"
NOTE = ("*(The solution of this exercise is in the instructor edition of the book, "
        "`make book`; this student edition, `make book-student`, leaves it out.)*")

_START = re.compile(r"^(`{3,}|:{3,})\{solution-start\}[^\n]*\n(?:.*?\n)??\1[ \t]*(?:\n|$)",
                    re.M | re.S)
_END = re.compile(r"^(`{3,}|:{3,})\{solution-end\}[^\n]*\n\1[ \t]*(?:\n|$)", re.M)
_PLAIN = re.compile(r"^(`{3,}|:{3,})\{solution\}[^\n]*\n.*?^\1[ \t]*(?:\n|$)", re.M | re.S)


def chapters(root: Path = ROOT) -> list[Path]:
    """The executable chapters (jupytext MyST notebooks) of ``book/``."""
    return sorted(p for p in (root / "book").glob("*.md")
                  if "jupytext:" in p.read_text(encoding="utf-8")[:400])


def _strip_markdown(text: str, inside: bool) -> tuple[str, bool]:
    """Remove solution text from one markdown cell; ``inside``: a solution block is
    open at the start of the cell. Returns the new text and whether one is still open."""
    out, pos = [], 0
    while True:
        if inside:
            m = _END.search(text, pos)
            if not m:
                return "".join(out), True
            pos, inside = m.end(), False
            continue
        m = _START.search(text, pos)
        if not m:
            out.append(text[pos:])
            break
        out.append(text[pos:m.start()] + NOTE + "\n")
        pos, inside = m.end(), True
    return _PLAIN.sub(NOTE + "\n", "".join(out)), False


def student_notebook(chapter: Path):
    """The chapter as a notebook (nbformat) without its solutions."""
    import jupytext

    nb = jupytext.read(chapter)
    cells, inside = [], False
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            text, inside = _strip_markdown(cell.source, inside)
            if text.strip():
                cell.source = text.strip("\n")
                cells.append(cell)
        elif not inside:
            cells.append(cell)
    if inside:
        raise ValueError(f"{chapter}: a {{solution-start}} block is never closed")
    nb.cells = cells
    nb.metadata.pop("jupytext", None)
    return nb


def write(chapter: Path, out: Path = OUT) -> Path:
    import jupytext

    out.mkdir(parents=True, exist_ok=True)
    dest = out / (chapter.stem + ".ipynb")
    jupytext.write(student_notebook(chapter), dest, fmt="ipynb")
    return dest


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("chapters", nargs="*", type=Path, help="default: every chapter in book/")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    for chapter in args.chapters or chapters():
        print(write(chapter, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
