"""Grading a class (assignments/grading.py, ``make grade``).

A class with a hang, a crash, a syntax error and a correct notebook is graded through
``otter run``, each submission in its own process: the hang is stopped at the time
limit and scores 0 ("timed out"), the crash scores 0 ("crashed"), the syntax error's
feedback names the student's cell and exception, the correct one gets full marks, and
the CSV has a row for every submission with the roster's student IDs; Canvas and
Moodle import files are written.
"""
from __future__ import annotations

import csv
import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "assignments"))
import grading  # noqa: E402
import make_assignments as build  # noqa: E402

pytestmark = pytest.mark.skipif(importlib.util.find_spec("otter") is None,
                                reason="otter-grader not installed (pinned in requirements.txt)")


@pytest.fixture(scope="module")
def smo(tmp_path_factory):
    out = tmp_path_factory.mktemp("assignments")
    return build.assign("smo", out, run_tests=False, in_process=True)


def test_roster_is_read_and_checked(tmp_path):
    good = tmp_path / "r.csv"
    good.write_text("submission,student_id,name\nann.ipynb,S1,Ann\nbo,S2,Bo\n")
    assert grading.read_roster(good) == {"ann": {"student_id": "S1", "name": "Ann"},
                                         "bo": {"student_id": "S2", "name": "Bo"}}
    bad = tmp_path / "bad.csv"
    bad.write_text("file,id\nann,S1\n")
    with pytest.raises(ValueError, match="'submission' and 'student_id'"):
        grading.read_roster(bad)


def test_first_error_names_the_students_cell():
    import nbformat

    sub = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import otter\ngrader = otter.Notebook('smo.ipynb')"),
        nbformat.v4.new_code_cell("x = 1"),
        nbformat.v4.new_code_cell("def f(x)\n    return x")])
    ran = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import otter\ngrader = otter.Notebook('smo.ipynb')",
                                  outputs=[nbformat.v4.new_output(
                                      "error", ename="FileNotFoundError", evalue="x",
                                      traceback=[])]),
        nbformat.v4.new_code_cell("x = 1"),
        nbformat.v4.new_code_cell("def f(x)\n    return x", outputs=[nbformat.v4.new_output(
            "error", ename="SyntaxError", evalue="expected ':'", traceback=[])])])
    msg = grading.first_error(ran, sub)
    assert msg == "first error: code cell 3 (`def f(x)`): SyntaxError: expected ':'"


def test_a_class_with_a_hang_a_crash_and_a_syntax_error(smo, tmp_path):
    import nbformat

    select = "i = int(np.flatnonzero(up)[np.argmax(g[up])])"
    changes = {"good": None,
               "hang": (select, "while True:\n        pass\n    " + select),
               "crash": (select, "import os; os._exit(1)\n    " + select),
               "syntax": ("def select_pair(g, y, alpha, C):", "def select_pair(g, y, alpha, C)")}
    subs = tmp_path / "subs"
    subs.mkdir()
    for who, change in changes.items():
        nb = nbformat.read(build.solution_notebook(smo), as_version=4)
        if change:
            cell = next(c for c in nb.cells if c.cell_type == "code" and change[0] in c.source)
            cell.source = cell.source.replace(*change)
        nbformat.write(nb, subs / f"{who}.ipynb")
    roster = tmp_path / "roster.csv"
    roster.write_text("submission,student_id,name\n"
                      + "".join(f"{w}.ipynb,S{k},{w}\n" for k, w in enumerate(changes)))
    path = grading.grade_class("smo", build.autograder_zip(smo), subs, tmp_path / "g.csv",
                               jobs=2, timeout=40, roster=roster, quiet=True)
    with open(path) as fh:
        rows = {r["submission"]: r for r in csv.DictReader(fh)}
    assert set(rows) == {f"{w}.ipynb" for w in changes}
    assert rows["good.ipynb"]["total"] == rows["good.ipynb"]["possible"] == "12"
    assert rows["hang.ipynb"]["status"] == "timed out" and rows["hang.ipynb"]["total"] == "0"
    assert rows["crash.ipynb"]["status"] == "crashed" and rows["crash.ipynb"]["total"] == "0"
    assert rows["syntax.ipynb"]["status"] == "graded"
    assert float(rows["syntax.ipynb"]["total"]) < 12
    assert [rows[f"{w}.ipynb"]["student_id"] for w in changes] == ["S0", "S1", "S2", "S3"]
    feedback = tmp_path / "feedback"
    assert "timed out" in (feedback / "hang.txt").read_text()
    assert "crashed" in (feedback / "crash.txt").read_text()
    text = (feedback / "syntax.txt").read_text()
    assert "first error: code cell" in text and "SyntaxError" in text
    assert "def select_pair(g, y, alpha, C)" in text
    canvas = list(csv.reader((tmp_path / "smo-canvas.csv").read_text().splitlines()))
    assert canvas[0][:3] == ["Student", "ID", "SIS User ID"] and len(canvas) == 2 + len(changes)
    moodle = list(csv.reader((tmp_path / "smo-moodle.csv").read_text().splitlines()))
    assert moodle[0][0] == "ID number" and {r[0] for r in moodle[1:]} == {"S0", "S1", "S2", "S3"}
