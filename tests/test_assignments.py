"""Tests of the assignments' tests (assignments/<name>/<name>.md, otter-grader).

For every assignment, generated with ``otter assign`` into a temporary folder:

* the solution notebook passes every test (full marks);
* the student notebook, run as handed out, scores nothing on any question;
* the student notebook contains no solution code and no hidden test, and keeps the
  visible tests; the autograder zip holds the hidden ones;
* the solution with one typical mistake gets partial credit, and the failing test's
  message says what to fix.

Grading here runs otter's own test files (``tests/*.py`` of the autograder zip, through
``otter.test_files.ExceptionTestFile``) against the notebook executed in this process,
so no kernel starts and the module stays fast (about 15 s). One case goes through the
real command line, ``otter run`` (no Docker), to show that both agree; the full matrix
through ``otter assign`` (with its own run of the tests against the solutions) and
``otter run`` is slower (about 4 min) and runs with ``SVMTEXT_FULL_ASSIGNMENTS=1``
(``make test-assignments``).
"""
from __future__ import annotations

import importlib.util
import json
import os
import re
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "assignments"))
import make_assignments as build  # noqa: E402
import planted_bugs  # noqa: E402

pytestmark = pytest.mark.skipif(importlib.util.find_spec("otter") is None,
                                reason="otter-grader not installed (pinned in requirements.txt)")
FULL = pytest.mark.skipif(not os.environ.get("SVMTEXT_FULL_ASSIGNMENTS"),
                          reason="full otter assign/otter run matrix: SVMTEXT_FULL_ASSIGNMENTS=1 "
                                 "(make test-assignments)")

NAMES = list(build.masters())

# One typical mistake per assignment: (text of the solution, the mistake, the question
# that must lose points, words its failure message must contain).
MISTAKES = {
    "margin": ("np.min(y * signed_distance(w, b, X))",
               "np.min(np.abs(signed_distance(w, b, X)))",
               "q2", "times the distance"),
    "duality": ("free = (alpha > eps * C) & (alpha < (1 - eps) * C)",
                "free = alpha > eps * C",
                "q2", "free support vectors only"),
    "smo": ("eta = min((g[i] - g[j]) / a, room_i, room_j)",
            "eta = (g[i] - g[j]) / a",
            "q2", "clip the step length"),
    "practice": ("p = np.concatenate([z - epsilon, -z - epsilon])",
                 "p = np.concatenate([z - epsilon, z - epsilon])",
                 "q2", "p = (z - epsilon, -z - epsilon)"),
    "ecology": ("return 1.0 - y_new * (k @ (alpha * y_S) + b)",
                "return 1.0 - y_new * (k @ y_S + b)",
                "q1", "abundances alpha_j weight the sum"),
    "coulomb": ("off = D + np.diag(np.full(len(X), np.inf))\n    r2 = off.min(axis=1)\n    P =",
                "off = D\n    r2 = off.min(axis=1)\n    P =",
                "q1", "NEAREST OTHER point"),
    "psvm": ("beyond = order[(X[order] - X[i]) @ normal > 0]",
             "beyond = order",
             "q1", "beyond the half-space"),
    "enumsv": ("F = sorted(F + [int(i)])",
               "F = sorted(F)",
               "q2", "branched on before it"),
}


# The module of svmtext each assignment checks against.
MODULES = {"margin": "svmtext.qp", "duality": "svmtext.qp", "smo": "svmtext.smo",
           "practice": "svmtext.svr", "ecology": "svmtext.eco", "coulomb": "svmtext.coulomb",
           "psvm": "svmtext.psvm", "enumsv": "svmtext.enumsv"}


@pytest.fixture(autouse=True)
def _module_present(request):
    name = getattr(request.node, "callspec", None) and request.node.callspec.params.get("name")
    if name and importlib.util.find_spec(MODULES[name]) is None:
        pytest.skip(f"{MODULES[name]} is not in this tree: the {name} assignment cannot run")


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """Every assignment through ``otter assign`` (in this process, tests not rerun)."""
    out = tmp_path_factory.mktemp("assignments")
    for name in NAMES:
        build.assign(name, out, run_tests=False, in_process=True)
    return out


def _cells(nb_path: Path) -> list[str]:
    import nbformat

    return [c.source for c in nbformat.read(nb_path, as_version=4).cells
            if c.cell_type == "code"]


def _solution_lines(md: Path) -> list[str]:
    """Code the student must write: in the master's code cells, the lines between
    ``# BEGIN SOLUTION`` and ``# END SOLUTION`` and the lines ending in ``# SOLUTION``."""
    import jupytext

    lines = []
    for cell in jupytext.read(md).cells:
        if cell.cell_type != "code":
            continue
        inside = False
        for line in cell.source.splitlines():
            s = line.strip()
            if s.endswith("# BEGIN SOLUTION"):
                inside = True
            elif s.endswith("# END SOLUTION"):
                inside = False
            elif s.endswith("# SOLUTION"):
                lines.append(s[: -len("# SOLUTION")].strip())
            elif inside and s and not s.startswith("#"):
                lines.append(s)
    return lines


def _hidden_tests(md: Path) -> list[str]:
    """Names of the test functions whose cell is configured ``hidden: true``."""
    text = md.read_text()
    return re.findall(r"hidden: true\n.*?\n\"\"\" # END TEST CONFIG\ndef (test_\w+)", text, re.S)


def _mutated_cells(folder: Path, name: str) -> list[str]:
    old, new, _, _ = MISTAKES[name]
    cells = _cells(build.solution_notebook(folder))
    assert sum(old in c for c in cells) == 1, f"{name}: the mistake's text must occur once"
    return [c.replace(old, new) for c in cells]


def test_every_chapter_has_an_assignment():
    """Each chapter of the book is paired with an assignment, and the instructor's page
    lists every one."""
    assert set(NAMES) == set(build.CHAPTERS)
    page = (ROOT / "book" / "instructor.md").read_text(encoding="utf-8")
    assert all(f"| `{name}` |" in page for name in NAMES)
    assert "in preparation" not in page
    assert set(MISTAKES) >= set(NAMES), "every assignment needs a typical-mistake case"
    assert set(MODULES) >= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_student_version_has_no_solution_and_no_hidden_test(generated, name):
    md = build.masters()[name]
    student = build.student_notebook(generated / name).read_text()
    solution_lines = _solution_lines(md)
    assert len(solution_lines) >= 3
    meta = json.loads(student)["metadata"]
    visible = meta["otter"]["tests"]
    student_lines = {line.strip() for src in _cells(build.student_notebook(generated / name))
                     + list(visible.values()) for line in src.splitlines()}
    leaked = [s for s in solution_lines if s in student_lines and s not in ("", "...")]
    assert not leaked, f"solution code in the student notebook: {leaked}"
    hidden = _hidden_tests(md)
    assert hidden, f"{name}: no hidden test"
    assert not [h for h in hidden if f"def {h}(" in student], "hidden tests in the student notebook"
    with zipfile.ZipFile(build.autograder_zip(generated / name)) as z:
        tests = "".join(z.read(n).decode() for n in z.namelist() if n.startswith("tests/"))
    assert all(f"def {h}(" in tests for h in hidden), "the autograder lacks hidden tests"
    # the visible tests travel with the student's notebook (otter's metadata)
    assert visible and all("hidden=False" in t for t in visible.values())
    assert "grader.check(" in student
    assert "**Solution.**" not in student, "a hand-graded question's solution reached the students"


@pytest.mark.parametrize("name", NAMES)
def test_solution_passes_every_test(generated, name):
    folder = generated / name
    scores = build.grade_in_process(build.solution_notebook(folder),
                                    build.autograder_zip(folder))
    total = scores.pop("total")
    assert total["score"] == total["max_score"] > 0, "\n".join(
        s["output"] for s in scores.values()) + total["output"]


@pytest.mark.parametrize("name", NAMES)
def test_student_version_as_handed_out_fails(generated, name):
    folder = generated / name
    scores = build.grade_in_process(build.student_notebook(folder),
                                    build.autograder_zip(folder))
    scores.pop("total")
    assert len(scores) >= 3
    passed = {q: s["score"] for q, s in scores.items() if s["score"] > 0}
    assert not passed, f"questions scoring before any work: {passed}"


@pytest.mark.parametrize("name", NAMES)
def test_typical_mistake_gets_partial_credit_and_a_useful_message(generated, name):
    folder = generated / name
    _, _, question, words = MISTAKES[name]
    scores = build.grade_in_process(None, build.autograder_zip(folder),
                                    cells=_mutated_cells(folder, name))
    total = scores.pop("total")
    assert 0 < total["score"] < total["max_score"], {q: s["score"] for q, s in scores.items()}
    assert scores[question]["score"] < scores[question]["max_score"]
    assert words in scores[question]["output"], scores[question]["output"]


def test_no_ungraded_why_question():
    """A question is graded (by a test or, for a derivation, by hand) or not asked."""
    for name, md in build.masters().items():
        text = md.read_text(encoding="utf-8").lower()
        assert "not graded" not in text, f"{name}: an ungraded question"


def test_every_assignment_has_a_hand_graded_derivation():
    for name, md in build.masters().items():
        text = md.read_text(encoding="utf-8")
        assert re.search(r"# BEGIN QUESTION\nname: q\d\nmanual: true\npoints: \d", text), name
        assert "**Solution.**" in text and "(derivation, graded by hand)" in text, name


@pytest.mark.parametrize("name", NAMES)
def test_data_come_from_the_students_id(name):
    text = build.masters()[name].read_text(encoding="utf-8")
    assert 'STUDENT_ID = "0"' in text and "hashlib.sha256(STUDENT_ID.encode())" in text
    assert re.search(r"random_state=seed|default_rng\(seed\)|range\(seed, ", text), name


OTHER_IDS = ["s1234567", "jane.doe"]


@FULL
@pytest.mark.parametrize("name", NAMES)
def test_solution_passes_for_other_student_ids(generated, name):
    """The tests compare with references computed from the student's own data, so the
    solution keeps full marks whatever the ID (no answer fixed by one data set)."""
    import contextlib
    import io

    folder = generated / name
    cells = _cells(build.solution_notebook(folder))
    assert sum('STUDENT_ID = "0"' in c for c in cells) == 1
    for sid in OTHER_IDS:
        mine = [c.replace('STUDENT_ID = "0"', f'STUDENT_ID = "{sid}"') for c in cells]
        with contextlib.redirect_stdout(io.StringIO()):
            scores = build.grade_in_process(None, build.autograder_zip(folder), cells=mine)
        total = scores.pop("total")
        assert total["score"] == total["max_score"], (sid, {q: s["score"] for q, s in
                                                            scores.items()})


BUG_CASES = [(name, label) for name in NAMES for label, *_ in planted_bugs.BUGS.get(name, [])]


def test_every_assignment_has_six_planted_bugs_of_several_kinds():
    for name in NAMES:
        bugs = planted_bugs.BUGS.get(name, [])
        assert len(bugs) >= 6, f"{name}: {len(bugs)} planted bugs"
        kinds = {kind for _, kind, _, _ in bugs}
        assert planted_bugs.LIB in kinds and len(kinds) >= 4, f"{name}: kinds {kinds}"


@pytest.mark.parametrize("name,label", BUG_CASES, ids=[f"{n}-{l}" for n, l in BUG_CASES])
def test_planted_bug_loses_points(generated, name, label):
    """Each plausible student bug, planted in the solution, scores less than full marks
    (and the rest of the notebook still runs: the score is not simply 0 from a crash
    of the whole notebook unless the bug breaks the first question)."""
    import contextlib
    import io

    folder = generated / name
    _, _, old, new = next(b for b in planted_bugs.BUGS[name] if b[0] == label)
    cells = planted_bugs.mutate(_cells(build.solution_notebook(folder)), old, new)
    with contextlib.redirect_stdout(io.StringIO()):
        scores = build.grade_in_process(None, build.autograder_zip(folder), cells=cells)
    total = scores.pop("total")
    assert total["score"] < total["max_score"], f"{label!r} keeps full marks"


def test_otter_run_agrees_with_the_in_process_grading(generated, tmp_path):
    """The command instructors use, ``otter run``, on the SMO assignment with the
    unclipped step: the same partial score and message."""
    import nbformat

    folder = generated / "smo"
    nb = nbformat.read(build.solution_notebook(folder), as_version=4)
    old, new, question, words = MISTAKES["smo"]
    for c in nb.cells:
        if c.cell_type == "code":
            c.source = c.source.replace(old, new)
    sub = tmp_path / "smo.ipynb"
    nbformat.write(nb, sub)
    ran = build.otter_run(sub, build.autograder_zip(folder))
    here = build.grade_in_process(sub, build.autograder_zip(folder))
    assert {q: s["score"] for q, s in ran.items()} == pytest.approx(
        {q: s["score"] for q, s in here.items()}, abs=1e-4)   # otter run rounds
    assert 0 < ran["total"]["score"] < ran["total"]["max_score"]
    assert words in ran[question]["output"]


@FULL
@pytest.mark.parametrize("name", NAMES)
def test_full_otter_assign_and_otter_run(tmp_path, name):
    """``make assignments``' path: ``otter assign`` grades the solution itself (and
    fails the build otherwise); ``otter run`` gives the student version 0, the
    solution full marks and the mistake partial credit."""
    import nbformat

    folder = build.assign(name, tmp_path, run_tests=True)
    zip_path = build.autograder_zip(folder)
    sol = build.otter_run(build.solution_notebook(folder), zip_path)["total"]
    assert sol["score"] == sol["max_score"] > 0
    assert build.otter_run(build.student_notebook(folder), zip_path)["total"]["score"] == 0
    nb = nbformat.read(build.solution_notebook(folder), as_version=4)
    old, new, _, _ = MISTAKES[name]
    for c in nb.cells:
        if c.cell_type == "code":
            c.source = c.source.replace(old, new)
    sub = tmp_path / f"{name}-mistake.ipynb"
    nbformat.write(nb, sub)
    mis = build.otter_run(sub, zip_path)["total"]
    assert 0 < mis["score"] < mis["max_score"]
