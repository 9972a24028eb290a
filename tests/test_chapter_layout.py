"""Every chapter is stored in the layout jupytext writes, so that opening a chapter in
JupyterLab and saving it leaves the file unchanged (``make test-lab`` checks it in the
browser; ``tools/normalise_chapters.py`` rewrites a chapter that drifted)."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import normalise_chapters  # noqa: E402

CHAPTERS = normalise_chapters.chapters()


def test_every_chapter_is_found():
    names = {p.stem for p in CHAPTERS}
    assert {"margin", "duality", "smo", "practice", "ecology", "coulomb", "psvm",
            "enumsv"} <= names


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_a_jupytext_round_trip_changes_nothing(path):
    text = path.read_text(encoding="utf-8")
    assert normalise_chapters.normalised(path) == text, (
        f"{path.name} is not in jupytext's layout: saving it from JupyterLab would rewrite "
        f"it; run `.venv/bin/python tools/normalise_chapters.py` and commit the result")


def test_multi_line_captions_become_one_paragraph():
    assert normalise_chapters._one_paragraph("a\n  b\n\nc\nd\n") == "a b\n\nc d"
