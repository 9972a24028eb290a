r"""Many small linear SVMs at once, each solved by the book's SMO (book: :ref:`sec-psvm-linear`).

A prototype-SVM ensemble trains one linear SVM per model and iteration: thousands
of problems of a few dozen to a few hundred points in a handful of dimensions.
Each problem is the soft-margin dual of :ref:`sec-smo` with the linear kernel,

.. math::

    \max_{\alpha}\ W(\alpha) = \sum_i \alpha_i
      - \tfrac12 \sum_{i,j} \alpha_i\alpha_j y_i y_j \langle x_i, x_j\rangle
    \quad\text{s.t.}\quad \sum_i y_i\alpha_i = 0,\ 0 \le \alpha_i \le C ,

solved by the compiled WSS2 loop every SMO in the package runs
(:func:`svmtext.smo._core.dense_loop`) until the gap :math:`m(\alpha) - M(\alpha)` is
below ``tol``; then :math:`w = \sum_i \alpha_i y_i x_i` and the bias :math:`b` is the
mean of :math:`-y_kG_k` over the free multipliers (the midpoint of
:math:`[m(\alpha), M(\alpha)]` without free ones), as in
:func:`svmtext.kkt.bias_from_gradient`. One compiled driver loops over the problems,
so the cost per problem is the solver's work, not Python's call overhead. Unlike
scikit-learn's ``LinearSVC`` (liblinear), the bias is not regularised.
"""
from __future__ import annotations

import numpy as np

from .._numba import njit
from ..kkt import LOWER
from ..smo._core import bias, dense_loop

__all__ = ["fit_linear_svms", "LinearSVMs"]

_NO_PAIRS = np.empty((0, 2), dtype=np.int64)


@njit(cache=True)
def _fit_all(X, ptr, idx, labels, C, tol, tau, max_iter, pairs):   # pragma: no cover
    n_models = ptr.shape[0] - 1
    d = X.shape[1]
    W = np.zeros((n_models, d))
    b = np.zeros(n_models)
    n_iter = np.zeros(n_models, dtype=np.int64)
    gap = np.zeros(n_models)
    for m in range(n_models):
        s = ptr[m]
        L = ptr[m + 1] - s
        Xm = np.empty((L, d))
        for a in range(L):
            Xm[a] = X[idx[s + a]]
        K = Xm @ Xm.T
        diag = np.empty(L)
        for a in range(L):
            diag[a] = K[a, a]
        y = labels[s:s + L].astype(np.float64)
        alpha = np.zeros(L)
        g = y.copy()                       # -y_k G_k at alpha = 0
        status = np.full(L, LOWER, dtype=np.int8)
        movable = np.ones(L, dtype=np.bool_)
        it, gp = dense_loop(K, diag, y, alpha, g, status, movable, L, C, tol, tau,
                            max_iter, pairs)
        n_iter[m] = it
        gap[m] = gp
        # bias: mean of -y_k G_k over the free set, else the midpoint of [m, M]
        b[m] = bias(g, alpha, y, movable, L, C)
        for a in range(L):
            c = alpha[a] * y[a]
            if c != 0.0:
                for j in range(d):
                    W[m, j] += c * Xm[a, j]
    return W, b, n_iter, gap


class LinearSVMs:
    r"""The result of :func:`fit_linear_svms`: one hyperplane per problem.

    Attributes
    ----------
    coef_ : ndarray (n_models, n_features)
        :math:`w_m`.
    intercept_ : ndarray (n_models,)
        :math:`b_m`; model :math:`m` fires on :math:`x` when
        :math:`f_m(x) = \langle w_m, x\rangle + b_m > 0`.
    n_iter_ : ndarray (n_models,)
        SMO iterations of each problem.
    gap_ : ndarray (n_models,)
        Final gap :math:`m(\alpha) - M(\alpha)` (below ``tol`` unless the iteration
        limit stopped the solver).
    """

    def __init__(self, coef, intercept, n_iter, gap):
        self.coef_, self.intercept_, self.n_iter_, self.gap_ = coef, intercept, n_iter, gap

    def decision_function(self, X) -> np.ndarray:
        """:math:`f_m(x_j)` for every point (rows) and model (columns)."""
        return np.asarray(X, dtype=float) @ self.coef_.T + self.intercept_


def fit_linear_svms(X, sets, C=1.0, tol=1e-3, max_iter=100_000, tau=1e-12) -> LinearSVMs:
    r"""Train one soft-margin linear SVM per ``(positives, negatives)`` pair.

    Parameters
    ----------
    X : ndarray (n, d)
        All points; the sets index its rows.
    sets : list of (array of int, array of int)
        For each model, the indices of its positive (label +1) and negative (-1)
        training points; both non-empty.
    C : float, default 1
        Box constraint of every problem.
    tol : float, default 1e-3
        SMO stops when the gap :math:`m(\alpha) - M(\alpha)` falls below ``tol``.
    max_iter : int, default 100000
        Iteration limit per problem.
    tau : float, default 1e-12
        Curvature floor of the two-variable step.

    Returns
    -------
    LinearSVMs
    """
    X = np.ascontiguousarray(X, dtype=float)
    if not sets:
        d = X.shape[1]
        return LinearSVMs(np.zeros((0, d)), np.zeros(0), np.zeros(0, int), np.zeros(0))
    sizes = [len(p) + len(q) for p, q in sets]
    if any(len(p) == 0 or len(q) == 0 for p, q in sets):
        raise ValueError("every linear SVM needs at least one positive and one negative point")
    ptr = np.zeros(len(sets) + 1, dtype=np.int64)
    ptr[1:] = np.cumsum(sizes)
    idx = np.concatenate([np.r_[p, q] for p, q in sets]).astype(np.int64)
    labels = np.concatenate([np.r_[np.ones(len(p)), -np.ones(len(q))]
                             for p, q in sets]).astype(np.int8)
    W, b, n_iter, gap = _fit_all(X, ptr, idx, labels, float(C), float(tol), float(tau),
                                 int(max_iter), _NO_PAIRS)
    return LinearSVMs(W, b, n_iter, gap)
