r"""LIBSVM's one-vs-one: the pairs, the layout of their solutions, the vote (book:
:ref:`sec-practice-multiclass`).

For :math:`k` classes LIBSVM trains the :math:`k(k-1)/2` binary SVMs of the pairs
:math:`(i, j)`, :math:`i < j` (in the order of ``classes_``, sorted, as scikit-learn's
``SVC`` orders them; LIBSVM's command line takes the classes in the order of their
first appearance in the data), the pair's class
:math:`i` as :math:`y = +1`; at a point :math:`x` the pair's decision value
:math:`f_{ij}(x) > 0` is a vote for :math:`i`, otherwise for :math:`j`, and the
prediction is the class with the most votes -- **on a tie, the first of the tied
classes** (``svm_predict_values``: ``if (vote[i] > vote[max])``).
scikit-learn's ``SVC`` predicts by this rule; its ``OneVsOneClassifier`` breaks ties
by the summed confidences instead.

The solutions are stored as LIBSVM (and ``SVC``) store them: the support vectors of
every pair together, grouped by class, and ``dual_coef_`` of shape
:math:`(k - 1, n_{SV})`, a support vector of class :math:`c` holding its
:math:`\alpha y` of the pair :math:`(c, o)` in row :math:`o - 1` if :math:`o > c`,
in row :math:`o` if :math:`o < c`.
"""
from __future__ import annotations

import numpy as np

__all__ = ["ovo_pairs", "ovo_layout", "ovo_decisions", "ovo_pair_decisions", "libsvm_vote"]


def ovo_pairs(n_classes) -> list:
    """The pairs :math:`(i, j)`, :math:`i < j`, in LIBSVM's order (0,1), (0,2), ...,
    (k-2,k-1)."""
    return [(i, j) for i in range(n_classes) for j in range(i + 1, n_classes)]


def _row(c, o):
    """Row of ``dual_coef_`` holding a class-``c`` support vector's coefficient of the
    pair with class ``o``."""
    return o - 1 if o > c else o


def ovo_layout(codes, n_classes, solutions) -> tuple:
    r"""LIBSVM's layout of the pairs' solutions.

    Parameters
    ----------
    codes : (n,) int array
        Class index of every training point.
    n_classes : int
    solutions : list of ``(rows, alpha)``, one per pair of :func:`ovo_pairs`
        The training points of the pair and their :math:`\alpha`.

    Returns
    -------
    support : (n_SV,) int array
        Points with :math:`\alpha > 0` in some pair, grouped by class, increasing index
        within a class.
    n_support : (k,) int32 array
    dual_coef : (k - 1, n_SV) array
        :math:`\alpha_i y_i` (:math:`y_i = +1` for the pair's first class), 0 where the
        point has no coefficient in that pair.
    """
    codes = np.asarray(codes)
    in_support = np.zeros(len(codes), dtype=bool)
    for rows, alpha in solutions:
        in_support[rows[alpha > 0]] = True
    support = np.flatnonzero(in_support)
    support = support[np.argsort(codes[support], kind="stable")]
    column = np.full(len(codes), -1)
    column[support] = np.arange(len(support))
    dual_coef = np.zeros((max(n_classes - 1, 1), len(support)))
    for (i, j), (rows, alpha) in zip(ovo_pairs(n_classes), solutions):
        sv = rows[alpha > 0]
        first = codes[sv] == i
        dual_coef[_row(i, j), column[sv[first]]] = alpha[alpha > 0][first]
        dual_coef[_row(j, i), column[sv[~first]]] = -alpha[alpha > 0][~first]
    n_support = np.bincount(codes[support], minlength=n_classes).astype(np.int32)
    return support, n_support, dual_coef


def ovo_decisions(K, n_support, dual_coef, intercept) -> np.ndarray:
    r"""The pairs' decision values :math:`f_{ij}(x) = \sum_{s \in S_i \cup S_j}
    \alpha_s y_s k(x_s, x) + b_{ij}` in LIBSVM's sign (:math:`> 0`: class :math:`i`),
    shape ``(n, k(k-1)/2)``, from ``K`` :math:`= k(x, x_s)` against the support vectors
    ``(n, n_SV)`` in the layout of :func:`ovo_layout`."""
    start = np.concatenate([[0], np.cumsum(n_support)])
    F = np.empty((len(K), len(intercept)))
    for p, (i, j) in enumerate(ovo_pairs(len(n_support))):
        si, sj = slice(start[i], start[i + 1]), slice(start[j], start[j + 1])
        F[:, p] = (K[:, si] @ dual_coef[_row(i, j), si] + K[:, sj] @ dual_coef[_row(j, i), sj]
                   + intercept[p])
    return F


def ovo_pair_decisions(ovo, X) -> np.ndarray:
    r"""Decision values :math:`f_{ij}(x)` of a fitted scikit-learn
    ``OneVsOneClassifier``, in LIBSVM's sign (:math:`> 0`: class :math:`i`), shape
    ``(n, k(k-1)/2)``, pairs in the order of :func:`ovo_pairs`."""
    # each binary estimator was fitted on labels {i, j} with classes_[1] = j: f > 0 is j
    return np.column_stack([-est.decision_function(X) for est in ovo.estimators_])


def libsvm_vote(F, n_classes) -> tuple:
    r"""Class index with most votes from pairwise decisions ``F`` (LIBSVM's sign and
    pair order); ties go to the lowest index. Returns ``(winner, votes, tie)``."""
    F = np.atleast_2d(F)
    votes = np.zeros((len(F), n_classes), dtype=int)
    for p, (i, j) in enumerate(ovo_pairs(n_classes)):
        win_i = F[:, p] > 0
        votes[:, i] += win_i
        votes[:, j] += ~win_i
    winner = np.argmax(votes, axis=1)           # first maximum: LIBSVM's tie rule
    tie = np.sum(votes == votes.max(axis=1, keepdims=True), axis=1) > 1
    return winner, votes, tie
