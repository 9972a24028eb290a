"""Self-checking multiple-choice quizzes of the chapters (the pages ``book/<chapter>_quiz.md``).

A quiz page states each question as an exercise with options (a)-(d); the reader writes
a letter into ``q1``, ``q2``, ... and runs the check cell. The page holds the answers
only as salted SHA-256 digests (:func:`answer_digest`), so a student notebook (``make
notebooks STUDENT=1``) or the student edition of the book (``make book-student``) says
whether an answer is right without printing the right one; the answer and its reason
are the exercise's gated solution, which the student edition drops. The digests of four
letters can of course be tried one by one, as the check cell itself can: this is a
self-check for reading, not a graded test (the graded work is the assignments,
``assignments/``).
"""
from __future__ import annotations

import hashlib
from collections.abc import Mapping

__all__ = ["Quiz", "answer_digest"]

OPTIONS = ("a", "b", "c", "d")


def answer_digest(quiz: str, number: int, letter: str) -> str:
    """The digest a quiz page stores for the answer ``letter`` of question ``number``.

    ``sha256("svmtext-quiz:<quiz>:<number>:<letter>")``, first 16 hex digits.
    """
    text = f"svmtext-quiz:{quiz}:{int(number)}:{letter.strip().lower()}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class Quiz:
    """The answer digests of one chapter's quiz.

    Parameters
    ----------
    name : str
        The chapter's name (``"margin"``, ``"smo"``, ...), part of every digest.
    digests : mapping of int to str
        Question number -> :func:`answer_digest` of its answer.
    """

    def __init__(self, name: str, digests: Mapping[int, str]):
        if not isinstance(name, str) or not name:
            raise TypeError(f"name must be the chapter's name as a non-empty str, got {name!r}")
        if not digests:
            raise ValueError("digests is empty: give one digest per question")
        self.name = name
        self.digests = {int(k): str(v) for k, v in digests.items()}

    def __len__(self) -> int:
        return len(self.digests)

    def _answer(self, number, answer) -> str:
        if number not in self.digests:
            raise ValueError(f"quiz {self.name!r} has no question {number!r}; its questions "
                             f"are {sorted(self.digests)}")
        if not isinstance(answer, str):
            raise TypeError(f"q{number} must be a letter as a str, e.g. q{number} = \"a\"; "
                            f"got {answer!r}")
        letter = answer.strip().lower().strip("()")
        if letter and letter not in OPTIONS:
            raise ValueError(f"q{number} = {answer!r}: write one of "
                             + ", ".join(f'"{o}"' for o in OPTIONS))
        return letter

    def correct(self, number: int, answer: str) -> bool:
        """Whether ``answer`` (a letter; ``""`` for none yet) answers question ``number``."""
        letter = self._answer(number, answer)
        return bool(letter) and answer_digest(self.name, number, letter) == self.digests[number]

    def check(self, number: int, answer: str) -> bool:
        """Print and return whether ``answer`` is right (without giving the right one)."""
        letter = self._answer(number, answer)
        ok = self.correct(number, answer)
        if not letter:
            print(f"Question {number}: no answer yet (q{number} = \"a\", \"b\", \"c\" or \"d\").")
        elif ok:
            print(f"Question {number}: ({letter}) is correct.")
        else:
            print(f"Question {number}: ({letter}) is not the answer; reread and retry.")
        return ok

    def score(self, answers: Mapping[int, str], verbose: bool = True) -> int:
        """The number of right answers in ``answers`` (question number -> letter)."""
        missing = sorted(set(self.digests) - set(answers))
        if missing:
            raise ValueError(f"answers lacks questions {missing}: give every question, "
                             "with \"\" for one not answered")
        n = sum(self.correct(k, v) for k, v in answers.items())
        if verbose:
            print(f"Quiz {self.name}: {n} of {len(self)} correct.")
        return n
