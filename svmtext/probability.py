r"""Probability outputs of an SVM: Platt's sigmoid and pairwise coupling
(book: :ref:`sec-practice-probability`).

**Platt scaling** (Platt 1999) maps a decision value :math:`f` to

.. math::

    P(y = +1 \mid f) = \frac{1}{1 + \exp(Af + B)},

with :math:`(A, B)` minimising the cross-entropy
:math:`-\sum_i t_i\log p_i + (1 - t_i)\log(1 - p_i)` on decision values that the
classifier did *not* see in training (LIBSVM ``-b 1``: an internal 5-fold
cross-validation), against the regularised targets
:math:`t_+ = (n_+ + 1)/(n_+ + 2)`, :math:`t_- = 1/(n_- + 2)`. The fit is the Newton
method with backtracking line search of Lin, Lin and Weng (2007), which evaluates
:math:`\log(1 + e^{\pm u})` on the side that cannot overflow.

**Pairwise coupling** (Wu, Lin and Weng 2004, their second method, the one LIBSVM
uses) turns the pairwise estimates :math:`r_{ij} \approx P(y = i \mid y \in \{i, j\}, x)`
of a one-vs-one model into class probabilities :math:`p` by

.. math::

    \min_p\ \tfrac12\sum_i\sum_{j \ne i}(r_{ji}p_i - r_{ij}p_j)^2
    \quad\text{s.t.}\quad \sum_i p_i = 1,

whose minimiser is non-negative (their Theorem 2). Written as :math:`\tfrac12
p^\top Q p` with :math:`Q_{ii} = \sum_{j\ne i} r_{ji}^2`, :math:`Q_{ij} = -r_{ji}r_{ij}`,
it is the linear system :math:`Qp + \lambda\mathbf 1 = 0`, :math:`\mathbf 1^\top p = 1`,
solved here directly (LIBSVM iterates to the same point).

References
----------
Platt, J. C. (1999). Probabilistic outputs for support vector machines and
comparisons to regularized likelihood methods. In *Advances in Large Margin
Classifiers*, MIT Press, 61--74.

Lin, H.-T., Lin, C.-J. and Weng, R. C. (2007). A note on Platt's probabilistic
outputs for support vector machines. *Machine Learning* 68(3), 267--276.

Wu, T.-F., Lin, C.-J. and Weng, R. C. (2004). Probability estimates for multi-class
classification by pairwise coupling. *Journal of Machine Learning Research* 5,
975--1005.
"""
from __future__ import annotations

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import KFold
from sklearn.utils import check_random_state

__all__ = ["platt_fit", "platt_predict", "cv_decision_values", "pairwise_coupling",
           "ovo_predict_proba", "MIN_PROB"]

MIN_PROB = 1e-7
"""Pairwise estimates are clipped to ``[MIN_PROB, 1 - MIN_PROB]`` before coupling
(LIBSVM's value)."""


def _log1pexp_terms(u, t):
    r""":math:`-t\log p - (1 - t)\log(1 - p)` with :math:`p = 1/(1 + e^{u})`, without overflow."""
    pos = u >= 0
    out = np.empty_like(u)
    out[pos] = t[pos] * u[pos] + np.log1p(np.exp(-u[pos]))
    out[~pos] = (t[~pos] - 1) * u[~pos] + np.log1p(np.exp(u[~pos]))
    return out


def platt_predict(f, A, B) -> np.ndarray:
    r""":math:`P(y = +1 \mid f) = 1/(1 + \exp(Af + B))`, evaluated without overflow."""
    u = A * np.asarray(f, dtype=float) + B
    e = np.exp(-np.abs(u))
    return np.where(u >= 0, e / (1 + e), 1 / (1 + e))


def platt_fit(f, y, *, max_iter=100, min_step=1e-10, ridge=1e-12, eps=1e-5) -> tuple:
    r"""Fit Platt's sigmoid :math:`(A, B)` to decision values ``f`` and labels ``y``.

    Newton's method on the cross-entropy with Armijo backtracking (Lin, Lin and Weng
    2007, their Algorithm 1): start at :math:`A = 0`,
    :math:`B = \log((n_- + 1)/(n_+ + 1))`; stop when both gradient entries are below
    ``eps``. ``ridge`` is added to the Hessian's diagonal.

    Parameters
    ----------
    f : (n,) array
        Decision values (out of sample).
    y : (n,) array of -1/+1 (or bool: True is +1)

    Returns
    -------
    A, B : float
        :math:`P(y = +1 \mid f) = 1/(1 + e^{Af + B})`; ``A < 0`` when larger ``f`` means +1.
    """
    f = np.asarray(f, dtype=float)
    pos = np.asarray(y) > 0
    n_pos, n_neg = int(pos.sum()), int((~pos).sum())
    t = np.where(pos, (n_pos + 1.0) / (n_pos + 2.0), 1.0 / (n_neg + 2.0))
    A, B = 0.0, float(np.log((n_neg + 1.0) / (n_pos + 1.0)))
    fval = _log1pexp_terms(A * f + B, t).sum()
    for _ in range(max_iter):
        p = platt_predict(f, A, B)
        d2 = p * (1 - p)
        h11, h22, h21 = ridge + f**2 @ d2, ridge + d2.sum(), f @ d2
        d1 = t - p
        g1, g2 = f @ d1, d1.sum()
        if abs(g1) < eps and abs(g2) < eps:
            break
        det = h11 * h22 - h21**2
        dA, dB = -(h22 * g1 - h21 * g2) / det, -(-h21 * g1 + h11 * g2) / det
        gd = g1 * dA + g2 * dB
        step = 1.0
        while step >= min_step:
            nA, nB = A + step * dA, B + step * dB
            nf = _log1pexp_terms(nA * f + nB, t).sum()
            if nf < fval + 1e-4 * step * gd:      # sufficient decrease
                A, B, fval = nA, nB, nf
                break
            step /= 2
        if step < min_step:                        # line search failed: keep (A, B)
            break
    return float(A), float(B)


def cv_decision_values(estimator, X, y, n_folds=5, random_state=None) -> np.ndarray:
    r"""Out-of-sample decision values of a binary ``estimator`` by ``n_folds``-fold
    cross-validation on a random split (LIBSVM's ``svm_binary_svc_probability``).

    A fold whose training part holds one class only gets the constant decision value
    of that class (:math:`\pm 1`), as in LIBSVM. ``y`` holds -1/+1.
    """
    y = np.asarray(y)
    n = len(y)
    f = np.empty(n)
    folds = KFold(min(n_folds, n), shuffle=True,
                  random_state=check_random_state(random_state).randint(2**31 - 1))
    for train, test in folds.split(X):
        labels = np.unique(y[train])
        if len(labels) == 1:
            f[test] = 1.0 if labels[0] > 0 else -1.0
            continue
        f[test] = clone(estimator).fit(X[train][:, train] if _is_precomputed(estimator)
                                       else X[train], y[train]).decision_function(
            X[test][:, train] if _is_precomputed(estimator) else X[test])
    return f


def _is_precomputed(estimator):
    return getattr(estimator, "kernel", None) == "precomputed"


def pairwise_coupling(R, min_prob=MIN_PROB) -> np.ndarray:
    r"""Class probabilities from pairwise ones (Wu, Lin and Weng 2004, method 2).

    Parameters
    ----------
    R : (n, k, k) array
        ``R[s, i, j]`` :math:`= r_{ij}`, the estimate of :math:`P(y = i \mid y \in \{i, j\})`
        at sample ``s`` (:math:`r_{ij} + r_{ji} = 1`; the diagonal is ignored).

    Returns
    -------
    P : (n, k) array
        The minimiser of :math:`\tfrac12 p^\top Qp` on :math:`\mathbf 1^\top p = 1`.
    """
    R = np.clip(np.asarray(R, dtype=float), min_prob, 1 - min_prob)
    n, k, _ = R.shape
    off = ~np.eye(k, dtype=bool)
    RT = np.swapaxes(R, 1, 2)                     # RT[s, i, j] = r_ji
    Q = np.where(off, -RT * R, 0.0)               # Q_ij = -r_ji r_ij
    Q[:, np.arange(k), np.arange(k)] = np.where(off, RT**2, 0.0).sum(axis=2)
    M = np.zeros((n, k + 1, k + 1))
    M[:, :k, :k] = Q
    M[:, :k, k] = M[:, k, :k] = 1.0
    rhs = np.zeros((n, k + 1))
    rhs[:, k] = 1.0
    P = np.linalg.solve(M, rhs[..., None])[..., 0][:, :k]
    P = np.clip(P, 0.0, None)                     # rounding only: the minimiser is >= 0
    return P / P.sum(axis=1, keepdims=True)


def ovo_predict_proba(ovo, X) -> np.ndarray:
    r"""Coupled class probabilities of a fitted scikit-learn ``OneVsOneClassifier``
    whose binary estimators have ``predict_proba`` (e.g. ``SMOSVC(probability=True)``).

    The estimator of the pair :math:`(i, j)`, :math:`i < j`, was fitted with class
    :math:`j` as its ``classes_[1]``, so its ``predict_proba(X)[:, 1]`` is :math:`r_{ji}`.
    Returns ``(n, k)`` probabilities in the order of ``ovo.classes_``.
    """
    k = len(ovo.classes_)
    R = np.full((len(X), k, k), 0.5)
    pair = 0
    for i in range(k):
        for j in range(i + 1, k):
            r_ji = ovo.estimators_[pair].predict_proba(X)[:, 1]
            R[:, j, i], R[:, i, j] = r_ji, 1 - r_ji
            pair += 1
    return pairwise_coupling(R)
