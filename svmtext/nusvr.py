r"""ν-support vector regression by SMO on pairs of one sign (book: :ref:`sec-practice-nusvr`).

Schölkopf, Smola, Williamson and Bartlett (2000) replace the tube's half-width
:math:`\varepsilon` of :math:`\varepsilon`-SVR (:mod:`svmtext.svr`) by a variable,
penalised by :math:`C\nu\varepsilon`; :math:`\nu \in (0, 1]` is then an upper bound
on the fraction of errors (points outside the tube) and a lower bound on the
fraction of support vectors. In LIBSVM's scaling the dual, in the stacked variables
:math:`\bar\alpha = (\alpha, \alpha^*)` of :mod:`svmtext.svr`, is

.. math::

    \min_{\bar\alpha}\ \tfrac12\bar\alpha^\top\bar Q\bar\alpha - \bar p^\top\bar\alpha
    \quad\text{s.t.}\quad \sum_i\alpha_i = \sum_i\alpha_i^* = \tfrac{C\nu n}{2},
    \quad 0 \le \bar\alpha_k \le C,

with :math:`\bar p = (z, -z)`: two equality constraints, one per sign of
:math:`\bar y`. A pair :math:`(i, j)` with :math:`\bar y_i = \bar y_j` keeps both, so
SMO runs unchanged except that the working pair is chosen *within* one sign (Chang
and Lin 2001, LIBSVM's ``Solver_NU``; here :math:`i` the maximal violator of its sign,
:math:`j` by the second-order rule of Fan, Chen and Lin 2005), and the method stops
when both signs have gap :math:`m_s - M_s` below ``tol``. The Lagrange multipliers of
the two constraints give :math:`r_\pm = G_k` on the free variables of each sign;
then :math:`b = (r_- - r_+)/2` and the tube's half-width is
:math:`\varepsilon = -(r_+ + r_-)/2`.

References
----------
Schölkopf, B., Smola, A. J., Williamson, R. C. and Bartlett, P. L. (2000). New support
vector algorithms. *Neural Computation* 12(5), 1207--1245.

Chang, C.-C. and Lin, C.-J. (2001). Training ν-support vector classifiers: theory and
algorithms. *Neural Computation* 13(9), 2119--2147.
"""
from __future__ import annotations

from typing import Self

import warnings
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval, StrOptions

from ._validation import check_kernel_psd, kernel_needs_check
from .svr import SMOSVR

__all__ = ["NuSMOSVR", "nu_smo_solve", "NuSMOResult"]


@dataclass
class NuSMOResult:
    """Solution of :func:`nu_smo_solve`."""

    alpha: np.ndarray       # (2n,) stacked (alpha, alpha*)
    b: float
    epsilon: float          # the tube half-width found
    gap: float              # max over the two signs of m_s - M_s
    n_iter: int
    converged: bool
    objective: float        # 1/2 a'Qa - p'a (minimised)


def _sign_bias(G, a, C, mask):
    r""":math:`r_s`: mean of :math:`G` on the free variables of one sign, else the
    midpoint of the interval the bounded ones allow (LIBSVM's rule)."""
    free = mask & (a > 0) & (a < C)
    if free.any():
        return float(G[free].mean())
    at_upper, at_lower = mask & (a >= C), mask & (a <= 0)
    lb = G[at_upper].max() if at_upper.any() else -np.inf
    ub = G[at_lower].min() if at_lower.any() else np.inf
    if not np.isfinite(lb):
        return float(ub)
    if not np.isfinite(ub):
        return float(lb)
    return float((lb + ub) / 2)


def nu_smo_solve(K, z, C, nu, *, tol=1e-3, max_iter=None, tau=1e-12) -> NuSMOResult:
    r"""Solve the ν-SVR dual (module docstring) by SMO with same-sign working pairs.

    Parameters
    ----------
    K : (n, n) array
        Gram matrix.
    z : (n,) array
        Targets.
    C : float
    nu : float in (0, 1]
    tol : float
        Stop when :math:`\max_s (m_s - M_s) <` ``tol``.

    The start is LIBSVM's: :math:`\alpha_i = \alpha_i^* = \min(C, \text{what is left of }
    C\nu n/2)`, in order.
    """
    K = np.asarray(K, dtype=float)
    z = np.asarray(z, dtype=float)
    n = len(z)
    y = np.r_[np.ones(n), -np.ones(n)]
    p = np.r_[z, -z]
    a = np.zeros(2 * n)
    left = C * nu * n / 2
    for i in range(n):
        a[i] = a[n + i] = min(C, left)
        left -= a[i]
    beta = a[:n] - a[n:]
    G = np.r_[K @ beta, -(K @ beta)] - p           # Q a - p, with Q a = y * (Kbar (y a))
    Kd = np.diag(K)
    groups = (y > 0, y < 0)
    max_iter = max(10_000_000, 100 * n) if max_iter is None else max_iter
    it, gap = 0, np.inf
    while True:
        minus_yG = -y * G
        up = ((y > 0) & (a < C)) | ((y < 0) & (a > 0))
        low = ((y > 0) & (a > 0)) | ((y < 0) & (a < C))
        best, gap, gain = None, -np.inf, -np.inf
        for g in groups:
            u, lo = np.flatnonzero(up & g), np.flatnonzero(low & g)
            if len(u) == 0 or len(lo) == 0:
                continue
            i = u[np.argmax(minus_yG[u])]
            gap = max(gap, minus_yG[i] - minus_yG[lo].min())
            cand = lo[minus_yG[lo] < minus_yG[i]]
            if len(cand) == 0:
                continue
            # second-order choice of j (Fan, Chen and Lin 2005): largest decrease b^2/a
            bij = minus_yG[i] - minus_yG[cand]
            aij = np.maximum(Kd[i % n] + Kd[cand % n] - 2 * K[i % n, cand % n], tau)
            k = np.argmax(bij**2 / aij)
            if bij[k]**2 / aij[k] > gain:
                gain, best = bij[k]**2 / aij[k], (i, cand[k])
        if gap < tol or it >= max_iter:
            break
        i, j = best
        ib, jb = i % n, j % n
        eta = max(Kd[ib] + Kd[jb] - 2 * K[ib, jb], tau)
        # step along d = (y_i e_i - y_j e_j)
        t = (minus_yG[i] - minus_yG[j]) / eta
        # keep a_i + y_i t and a_j - y_j t in [0, C]
        t = min(t, C - a[i] if y[i] > 0 else a[i], a[j] if y[j] > 0 else C - a[j])
        a[i] += y[i] * t
        a[j] -= y[j] * t
        col = K[:, ib] - K[:, jb]
        G += t * y * np.r_[col, col]          # Q d = y (Kbar_i - Kbar_j)
        it += 1
    if it >= max_iter and gap >= tol:
        warnings.warn(f"nu_smo_solve stopped at max_iter={max_iter} with gap {gap:.2e} "
                      f">= tol={tol}", ConvergenceWarning, stacklevel=2)
    r_plus, r_minus = _sign_bias(G, a, C, y > 0), _sign_bias(G, a, C, y < 0)
    beta = a[:n] - a[n:]
    obj = 0.5 * beta @ K @ beta - p @ a
    return NuSMOResult(alpha=a, b=(r_minus - r_plus) / 2, epsilon=-(r_plus + r_minus) / 2,
                       gap=float(max(gap, 0.0)), n_iter=it, converged=bool(gap < tol),
                       objective=float(obj))


class NuSMOSVR(SMOSVR):
    r"""ν-SVR fitted by SMO on same-sign pairs (:func:`nu_smo_solve`).

    .. math::

        f(x) = \sum_{i \in S} (\alpha_i - \alpha_i^*) k(x_i, x) + b

    Book: :ref:`sec-practice-nusvr`.

    Parameters
    ----------
    nu : float in (0, 1], default=0.5
        Upper bound on the fraction of points outside the tube, lower bound on the
        fraction of support vectors.
    C : float, default=1.0
    kernel : {'linear', 'poly', 'rbf', 'precomputed'} or callable, default='rbf'
    degree : int, default=3
    gamma : float or {'scale', 'auto'}, default='scale'
    coef0 : float, default=0.0
    tol : float, default=1e-3
    max_iter : int or None, default=None

    Attributes
    ----------
    alpha_, alpha_star_, support_, support_vectors_, dual_coef_, intercept_, n_iter_
        As in :class:`~svmtext.svr.SMOSVR`.
    epsilon_ : float
        The tube half-width the solution found.
    fit_info_ : dict
        ``dual_objective`` (minimised form), ``gap``, ``n_iter``, ``converged``.
    """

    _parameter_constraints = {
        "nu": [Interval(Real, 0.0, 1.0, closed="right")],
        "C": [Interval(Real, 0.0, None, closed="neither")],
        "kernel": [StrOptions({"linear", "poly", "rbf", "precomputed"}), callable],
        "degree": SMOSVR._parameter_constraints["degree"],
        "gamma": SMOSVR._parameter_constraints["gamma"],
        "coef0": SMOSVR._parameter_constraints["coef0"],
        "tol": [Interval(Real, 0.0, None, closed="neither")],
        "max_iter": [Interval(Integral, 0, None, closed="left"), None],
    }

    def __init__(self, *, nu=0.5, C=1.0, kernel="rbf", degree=3, gamma="scale", coef0=0.0,
                 tol=1e-3, max_iter=None):
        self.nu = nu
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.max_iter = max_iter

    def fit(self, X, y) -> Self:
        """Solve the ν-SVR dual on the Gram matrix and keep the support vectors."""
        X, z = self._validated(X, y)
        K = self._gram(X)
        if self.kernel != "precomputed" and kernel_needs_check(self.kernel, self.coef0):
            # a callable kernel, as SMOSVR's (a precomputed matrix is the caller's)
            check_kernel_psd(K, needed_by="the nu-SVR dual")
        res = nu_smo_solve(K, z, self.C, self.nu, tol=self.tol, max_iter=self.max_iter)
        self._publish(X, res.alpha, res.b)
        self.epsilon_ = res.epsilon
        self.n_iter_ = res.n_iter
        self.fit_info_ = {"dual_objective": res.objective, "gap": res.gap,
                          "n_iter": res.n_iter, "converged": res.converged}
        return self
