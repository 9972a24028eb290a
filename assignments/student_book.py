#!/usr/bin/env python3
"""The student edition of the book: every chapter without its exercise solutions.

    python assignments/student_book.py            # sources -> _build/student-src,
                                                  # HTML -> _build/student/_build/html
    python assignments/student_book.py --no-execute
    make book-student

The book (``make book``) is the instructor edition: its exercises keep their solutions,
folded. Here each chapter goes through ``student_chapters.student_notebook`` (every
``{solution-start}`` ... ``{solution-end}`` block, text and code, replaced by a note)
and is written back as a MyST notebook into a copy of the book's sources, which
Jupyter Book builds like the book itself. So the HTML, the page sources
(``_sources``) and the downloads (``.md``, ``.ipynb``) hold no solution;
``tests/test_student_book.py`` greps the built site for every solution's code and text.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
import student_chapters  # noqa: E402

SRC = ROOT / "_build" / "student-src"
OUT = ROOT / "_build" / "student"
TITLE_SUFFIX = " (student edition)"


def write_sources(dest: Path = SRC, execute: bool = True) -> Path:
    """A copy of the book's sources with the chapters' solutions removed."""
    import jupytext

    shutil.rmtree(dest, ignore_errors=True)
    (dest / "book").mkdir(parents=True)
    shutil.copytree(ROOT / "book" / "_ext", dest / "book" / "_ext")
    chapters = {p.name for p in student_chapters.chapters(ROOT)}
    for p in (ROOT / "book").iterdir():
        if p.is_file() and p.name not in chapters:
            shutil.copy(p, dest / "book" / p.name)
    for chapter in student_chapters.chapters(ROOT):
        nb = student_chapters.student_notebook(chapter)
        jupytext.write(nb, dest / "book" / chapter.name, fmt="md:myst")
    shutil.copy(ROOT / "_toc.yml", dest / "_toc.yml")
    config = (ROOT / "_config.yml").read_text(encoding="utf-8")
    config = re.sub(r'^title: "(.*)"$', lambda m: f'title: "{m.group(1)}{TITLE_SUFFIX}"',
                    config, count=1, flags=re.M)
    if not execute:
        config = config.replace("execute_notebooks: force", "execute_notebooks: 'off'")
    (dest / "_config.yml").write_text(config, encoding="utf-8")
    if (ROOT / "_vendor").exists():
        os.symlink(ROOT / "_vendor", dest / "_vendor")
    return dest


def build(src: Path = SRC, out: Path = OUT) -> Path:
    exe = Path(sys.executable).parent / "jupyter-book"
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, MPLBACKEND="module://matplotlib_inline.backend_inline")
    subprocess.run([str(exe), "build", "-n", "--keep-going", "--path-output", str(out),
                    str(src)], check=True, env=env)
    return out / "_build" / "html"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--no-execute", action="store_true", help="build without running the cells")
    ap.add_argument("--sources-only", action="store_true")
    args = ap.parse_args(argv)
    src = write_sources(SRC, execute=not args.no_execute)
    print(f"student sources in {src}")
    if not args.sources_only:
        print(f"student edition in {build(src)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
