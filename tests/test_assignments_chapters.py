"""Chapters as student notebooks (assignments/student_chapters.py, ``make notebooks STUDENT=1``).

Every chapter of the table of contents that has code ends with an *Exercises* section
whose solutions are gated sphinx-exercise blocks folded in the HTML (``:class:
dropdown``; their code cells run in ``make test`` and ``make book``). The student
version of each chapter keeps every exercise and drops every solution: its text and
its code cells.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "assignments"))
sys.path.insert(0, str(ROOT))
import student_chapters  # noqa: E402
from conftest import is_text_notebook, toc_chapters  # noqa: E402

CHAPTERS = [p for p in toc_chapters(ROOT) if p.is_file() and is_text_notebook(p)
            and p.stem != "intro"]
# the quiz pages (book/<chapter>_quiz.md) end with the score, not with exercises
# (tests/test_quiz.py); their student notebooks drop the answers like any chapter's
WITH_EXERCISES = [p for p in CHAPTERS if not p.stem.endswith("_quiz")]


def _solution_code_cells(chapter: Path) -> list[str]:
    """Code cells between a markdown ``{solution-start}`` and the next ``{solution-end}``."""
    import jupytext

    inside, found = False, []
    for cell in jupytext.read(chapter).cells:
        if cell.cell_type == "markdown":
            for tag in re.findall(r"\{solution-(start|end)\}", cell.source):
                inside = tag == "start"
        elif inside:
            found.append(cell.source)
    return found


def test_chapters_found():
    assert {"margin", "duality", "smo", "ecology"} <= {p.stem for p in CHAPTERS}


@pytest.mark.parametrize("chapter", WITH_EXERCISES, ids=lambda p: p.stem)
def test_chapter_ends_with_exercises_and_folded_solutions(chapter):
    text = chapter.read_text(encoding="utf-8")
    heads = re.findall(r"^## (.+)$", text, re.M)
    assert heads and heads[-1].strip() == "Exercises", f"last section: {heads[-1:]}"
    n_ex = len(re.findall(r"^```\{exercise\}", text, re.M))
    starts = re.findall(r"^```\{solution-start\}[^\n]*\n([^\n]*)", text, re.M)
    assert n_ex >= 3 and len(starts) == n_ex, "one gated solution per exercise"
    assert all(s.strip() == ":class: dropdown" for s in starts), "solutions folded (dropdown)"
    assert len(re.findall(r"^```\{solution-end\}", text, re.M)) == n_ex
    assert _solution_code_cells(chapter), "solutions with code that runs in the build"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_student_notebook_keeps_exercises_and_drops_solutions(chapter, tmp_path):
    import nbformat

    path = student_chapters.write(chapter, tmp_path)
    nb = nbformat.read(path, as_version=4)
    text = "\n".join(c.source for c in nb.cells)
    source = chapter.read_text(encoding="utf-8")
    assert text.count("```{exercise}") == source.count("```{exercise}")
    assert "solution-start" not in text and "solution-end" not in text
    assert "{solution}" not in text
    assert text.count(student_chapters.NOTE) == source.count("{solution-start}")
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    solutions = _solution_code_cells(chapter)
    assert not [s for s in solutions if s in code], "solution code left in"
    import jupytext

    all_code = [c.source for c in jupytext.read(chapter).cells if c.cell_type == "code"]
    assert len(code) == len(all_code) - len(solutions), "a non-solution cell went missing"
    # the macro cell and the chapter's label survive
    assert nb.cells[0].metadata.get("tags") == ["remove-cell"]
    assert "(sec-" in text


def test_strip_handles_a_solution_inside_one_cell_and_plain_solutions():
    text = ("Before.\n\n```{exercise}\n:label: ex-a\n\nDo it.\n```\n\n"
            "```{solution-start} ex-a\n:class: dropdown\n```\n\nSecret text.\n\n"
            "```{solution-end}\n```\n\nAfter.\n\n"
            "```{solution} ex-b\n:class: dropdown\n\nAlso secret.\n```\n")
    out, inside = student_chapters._strip_markdown(text, False)
    assert not inside
    assert "Secret" not in out and "Also secret" not in out
    assert "Before." in out and "After." in out and "Do it." in out
    out, inside = student_chapters._strip_markdown(
        "```{solution-start} ex-c\n:class: dropdown\n```\n\nOpen.", False)
    assert inside and "Open" not in out
