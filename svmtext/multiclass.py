r"""LIBSVM's one-vs-one vote (book: :ref:`sec-practice-multiclass`).

For :math:`k` classes LIBSVM trains the :math:`k(k-1)/2` binary SVMs of the pairs
:math:`(i, j)`, :math:`i < j` (in the order of ``classes_``); at a point :math:`x`
the pair's decision value :math:`f_{ij}(x) > 0` is a vote for :math:`i`, otherwise for
:math:`j`, and the prediction is the class with the most votes -- **on a tie, the
first of the tied classes** (``svm_predict_values``: ``if (vote[i] > vote[max])``).
scikit-learn's ``SVC`` predicts by this rule; its ``OneVsOneClassifier`` breaks ties
by the summed confidences instead.
"""
from __future__ import annotations

import numpy as np

__all__ = ["ovo_pair_decisions", "libsvm_vote"]


def ovo_pair_decisions(ovo, X) -> np.ndarray:
    r"""Decision values :math:`f_{ij}(x)` of a fitted scikit-learn
    ``OneVsOneClassifier``, in LIBSVM's sign (:math:`> 0`: class :math:`i`), shape
    ``(n, k(k-1)/2)``, pairs in the order (0,1), (0,2), ..., (k-2,k-1)."""
    # each binary estimator was fitted on labels {i, j} with classes_[1] = j: f > 0 is j
    return np.column_stack([-est.decision_function(X) for est in ovo.estimators_])


def libsvm_vote(F, n_classes) -> tuple:
    r"""Class index with most votes from pairwise decisions ``F`` (LIBSVM's sign and
    pair order); ties go to the lowest index. Returns ``(winner, votes, tie)``."""
    F = np.atleast_2d(F)
    votes = np.zeros((len(F), n_classes), dtype=int)
    p = 0
    for i in range(n_classes):
        for j in range(i + 1, n_classes):
            win_i = F[:, p] > 0
            votes[:, i] += win_i
            votes[:, j] += ~win_i
            p += 1
    winner = np.argmax(votes, axis=1)           # first maximum: LIBSVM's tie rule
    tie = np.sum(votes == votes.max(axis=1, keepdims=True), axis=1) > 1
    return winner, votes, tie
