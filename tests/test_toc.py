"""The table of contents and the chapter files agree.

Every entry of ``_toc.yml`` exists; every notebook in ``book/`` is in the toc (no
chapter is silently left out of the book and of the test run); every notebook in the
toc has code to execute; the references page closes the book.
"""
from __future__ import annotations

from pathlib import Path

import jupytext
import pytest
import yaml

from conftest import ROOT, is_notebook, is_text_notebook, toc_chapters, toc_entries

BOOK = ROOT / "book"


def book_notebooks() -> list[Path]:
    """Every notebook under ``book/``: jupytext ``.md`` files and ``.ipynb`` files."""
    found = [p for p in BOOK.rglob("*.md") if is_text_notebook(p)]
    found += [p for p in BOOK.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts]
    return sorted(p.resolve() for p in found)


def test_toc_format():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    assert toc["format"] == "jb-book"
    assert toc["root"] == "book/intro"


@pytest.mark.parametrize("entry", toc_entries())
def test_toc_entry_exists(entry):
    candidates = [ROOT / (entry + s) for s in ("", ".md", ".ipynb")]
    assert any(p.is_file() for p in candidates), (
        f"_toc.yml lists {entry!r} but none of {entry}.md / {entry}.ipynb exists")


def test_toc_has_no_duplicates():
    entries = toc_entries()
    assert len(entries) == len(set(entries)), entries


def test_every_book_notebook_is_in_toc():
    listed = set(toc_chapters(ROOT))
    missing = [str(p.relative_to(ROOT)) for p in book_notebooks() if p not in listed]
    assert not missing, f"notebooks in book/ missing from _toc.yml: {missing}"


@pytest.mark.parametrize("path", [p for p in toc_chapters(ROOT) if is_notebook(p)],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_toc_notebook_has_code(path):
    nb = jupytext.read(path)
    code = [c for c in nb.cells if c.cell_type == "code" and c.source.strip()]
    assert code, f"{path.relative_to(ROOT)} is in _toc.yml but has no code cell"


def test_references_page_is_last():
    entries = toc_entries()
    if "book/references" in entries:
        assert entries[-1] == "book/references", (
            "insert chapters before book/references in _toc.yml")
