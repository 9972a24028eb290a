"""The chapter quizzes (``book/<chapter>_quiz.md``, ``svmtext.quiz``).

Every chapter of the book has a quiz page as its section in _toc.yml, with at least four
multiple-choice questions (an exercise with options (a)-(d), an answer cell, a gated
solution that sets the answer, a check cell); the digests of the page encode exactly the
letters of its solutions (the page's own last solution asserts a full score when the book
runs it); and the student version of a quiz (the solutions dropped, as in ``make
book-student`` and ``make notebooks STUDENT=1``) keeps every question and check cell but
no answer letter or reason, and runs without error, scoring 0. The student edition's grep
for solution text (tests/test_student_book.py) covers the quiz pages as it covers the
chapters.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import yaml

from svmtext.quiz import Quiz, answer_digest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "assignments"))
import student_chapters  # noqa: E402

TOC = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
CHAPTERS = [c for part in TOC["parts"] if part.get("caption") == "Chapters"
            for c in part["chapters"]]
QUIZZES = sorted((ROOT / "book").glob("*_quiz.md"))
MIN_QUESTIONS = 4


def test_quiz_checks_without_telling():
    q = Quiz("demo", {1: answer_digest("demo", 1, "b"), 2: answer_digest("demo", 2, "d")})
    assert q.correct(1, "b") and q.correct(1, " (B) ") and not q.correct(1, "a")
    assert not q.correct(2, "")                        # not answered yet
    assert q.score({1: "b", 2: "c"}, verbose=False) == 1
    assert q.score({1: "b", 2: "d"}, verbose=False) == len(q) == 2
    with pytest.raises(ValueError, match="no question 3"):
        q.check(3, "a")
    with pytest.raises(ValueError, match='one of "a", "b", "c", "d"'):
        q.check(1, "e")
    with pytest.raises(TypeError, match="q1 must be a letter"):
        q.check(1, 2)
    with pytest.raises(ValueError, match=r"lacks questions \[2\]"):
        q.score({1: "b"})
    with pytest.raises(ValueError, match="digests is empty"):
        Quiz("demo", {})
    # the digest depends on the quiz and the question, not on the letter alone
    assert len({answer_digest("a", 1, "b"), answer_digest("b", 1, "b"),
                answer_digest("a", 2, "b")}) == 3


def test_every_chapter_has_its_quiz_as_a_section():
    for entry in CHAPTERS:
        name = entry["file"].split("/")[-1]
        sections = [s["file"] for s in entry.get("sections", [])]
        assert f"book/{name}_quiz" in sections, f"{name}: no quiz page in _toc.yml"
    assert len(QUIZZES) == len(CHAPTERS)


def _parse(path: Path):
    """(digests, {question: solution letter}, {question: option letters}) of a quiz page."""
    text = path.read_text(encoding="utf-8")
    name = path.stem.removesuffix("_quiz")
    digests = dict((int(k), v) for k, v in re.findall(r'(\d+): "([0-9a-f]{16})"', text))
    letters, options = {}, {}
    for k, body in re.findall(r"```\{exercise\}\n:label: quiz-" + name + r"-(\d+)\n(.*?)\n```",
                              text, re.S):
        options[int(k)] = re.findall(r"^- \*\*\(([a-d])\)\*\* ", body, re.M)
    for k, sol in re.findall(r"```\{solution-start\} quiz-" + name + r"-(\d+)\n(.*?)"
                             r"```\{solution-end\}", text, re.S):
        m = re.search(r'^q' + k + r' = "([a-d])"$', sol, re.M)
        letters[int(k)] = m.group(1) if m else None
    return name, digests, letters, options


@pytest.mark.parametrize("path", QUIZZES, ids=lambda p: p.stem)
def test_quiz_page(path):
    name, digests, letters, options = _parse(path)
    text = path.read_text(encoding="utf-8")
    n = len(digests)
    assert n >= MIN_QUESTIONS, f"{path.name}: {n} questions"
    assert sorted(digests) == sorted(letters) == sorted(options) == list(range(1, n + 1))
    for k in range(1, n + 1):
        assert options[k] == list("abcd"), f"{path.name} q{k}: options {options[k]}"
        assert letters[k], f"{path.name} q{k}: the solution sets no letter"
        assert digests[k] == answer_digest(name, k, letters[k]), \
            f"{path.name} q{k}: the digest does not encode the solution's letter"
        assert f'q{k} = ""  # your answer' in text and f"quiz.check({k}, q{k})" in text
    assert f'Quiz("{name}", {{' in text
    assert len(set(letters.values())) >= 3, "the answers are not all the same letter"


@pytest.mark.parametrize("path", QUIZZES, ids=lambda p: p.stem)
def test_student_quiz_hides_the_answers(path):
    nb = student_chapters.student_notebook(path)
    source = "\n".join(c.source for c in nb.cells)
    name, digests, letters, _ = _parse(path)
    assert not re.search(r'^q\d+ = "[a-d]"', source, re.M), "an answer letter is left"
    assert not re.search(r"^\*\*\([a-d]\)\.\*\*", source, re.M), "an answer's reason is left"
    assert "solution-start" not in source and "solution-end" not in source
    for k in digests:
        assert f"quiz.check({k}, q{k})" in source and f"quiz-{name}-{k}" in source


def test_student_quiz_runs_and_scores_zero(tmp_path):
    import nbformat
    from nbclient import NotebookClient

    nb = student_chapters.student_notebook(ROOT / "book" / "margin_quiz.md")
    NotebookClient(nb, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    out = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                  for o in c.outputs)
    assert "Question 1: no answer yet" in out
    assert "Quiz margin: 0 of 4 correct." in out
    assert not [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
                if o.output_type == "error"]
    nbformat.validate(nb)
