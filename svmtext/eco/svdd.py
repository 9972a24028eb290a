r"""Support vector data description (SVDD) and its ecological online version
EcoSVDD (book: :ref:`sec-eco-svdd`).

Primal (Tax & Duin): the smallest sphere of centre :math:`a` and radius
:math:`R` in feature space holding the data, with slacks,

.. math::

    \min_{R, a, \xi} R^2 + C \sum_i \xi_i \quad\text{s.t.}\quad
    \lVert \phi(x_i) - a \rVert^2 \le R^2 + \xi_i,\ \xi_i \ge 0 .

Dual (source eq. 23), with :math:`a = \sum_i \alpha_i \phi(x_i)` (eq. 22):

.. math::

    \max_\alpha\; L_D = \sum_i \alpha_i K_{ii} - \sum_{i,j} \alpha_i\alpha_j K_{ij}
    \quad\text{s.t.}\quad \sum_i \alpha_i = 1,\ 0 \le \alpha_i \le C .

Radius (eq. 25) from any free support vector :math:`s`:
:math:`R^2 = K_{ss} - 2\sum_j \alpha_j K_{sj} + \sum_{i,j}\alpha_i\alpha_j K_{ij}`.

Lotka--Volterra form (eq. 27), :math:`\lambda` the multiplier of
:math:`\sum_i\alpha_i = 1`:
:math:`\dot\alpha_i = \alpha_i(1 - \alpha_i/C)\,(K_{ii} - 2(K\alpha)_i - \lambda)`,
and at the steady state :math:`\lambda = R^2 - \alpha^\top K\alpha`.
Invasion (eqs. 28--30): a new point grows iff

.. math::

    K(x, x) - 2\sum_j \alpha_j K(x_j, x) - K_{ss} + 2 \sum_j \alpha_j K_{sj} > 0
    \iff \lVert \phi(x) - a \rVert^2 > R^2 ,

with the factor 2 on *both* cross terms; dropping it is harmless only when
:math:`K(x, x)` is constant (e.g. RBF).
"""
from __future__ import annotations

import numbers

import cvxopt
import numpy as np
from scipy.integrate import solve_ivp
from scipy.special import expit, logit
from sklearn.base import BaseEstimator, OutlierMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..kernels import get_kernel, kernel_diag, resolve_gamma
from .community import Community

__all__ = ["svdd_objective", "solve_svdd_qp", "svdd_smo", "svdd_radius2",
           "svdd_growth", "fisvdd_new_weight", "integrate_svdd_lv",
           "center_similarity", "SVDD", "EcoSVDD"]


def _check_C(C, n):
    if not isinstance(C, numbers.Real) or isinstance(C, bool) or not C > 0:
        raise ValueError(f"C must be a positive number; got {C!r}")
    if C * n < 1 - 1e-12:
        raise ValueError(f"SVDD is infeasible: C * n = {C * n:g} < 1 "
                         "(sum alpha = 1 with alpha <= C); raise C")
    return float(C)


def svdd_objective(alpha, K):
    r""":math:`L_D(\alpha) = \sum_i \alpha_i K_{ii} - \alpha^\top K \alpha` (eq. 23)."""
    return float(alpha @ np.diag(K) - alpha @ K @ alpha)


def solve_svdd_qp(K, C=1.0):
    """Batch SVDD dual with cvxopt (the reference solver). Returns ``alpha``."""
    K = np.asarray(K, dtype=float)
    n = len(K)
    C = _check_C(C, n)
    m = cvxopt.matrix
    G = np.vstack([-np.eye(n), np.eye(n)])
    h = np.concatenate([np.zeros(n), np.full(n, C)])
    res = cvxopt.solvers.qp(m(2 * K), m(-np.diag(K).copy()), m(G), m(h),
                            m(np.ones((1, n))), m(1.0),
                            options={"show_progress": False, "abstol": 1e-12,
                                     "reltol": 1e-12, "feastol": 1e-12})
    alpha = np.clip(np.array(res["x"]).ravel(), 0.0, C)
    alpha[alpha < 1e-8 * min(C, 1.0)] = 0.0
    return alpha / alpha.sum()


def svdd_smo(K, C=1.0, alpha0=None, tol=1e-6, max_iter=100_000):
    r"""SVDD dual by pairwise (SMO) steps, warm-started at a feasible ``alpha0``.

    Minimises :math:`F = \alpha^\top K\alpha - \sum_i\alpha_i K_{ii}` with gradient
    :math:`G = 2K\alpha - \operatorname{diag}K`; each step moves mass from the
    most violating :math:`j = \arg\max_{\alpha_j>0} G_j` to
    :math:`i = \arg\min_{\alpha_i<C} G_i` by the exact line minimum, until
    :math:`G_j - G_i <` ``tol``.
    """
    K = np.asarray(K, dtype=float)
    n = len(K)
    C = _check_C(C, n)
    alpha = np.full(n, 1.0 / n) if alpha0 is None else np.array(alpha0, float)
    d = np.diag(K)
    G = 2 * K @ alpha - d
    for _ in range(max_iter):
        up = alpha < C
        down = alpha > 0
        if not (up.any() and down.any()):
            break
        i = np.flatnonzero(up)[np.argmin(G[up])]
        j = np.flatnonzero(down)[np.argmax(G[down])]
        gap = G[j] - G[i]
        if gap < tol or i == j:
            break
        eta = max(K[i, i] + K[j, j] - 2 * K[i, j], 1e-12)
        t = min(gap / (2 * eta), C - alpha[i], alpha[j])
        alpha[i] += t
        alpha[j] -= t
        if alpha[j] < 1e-15:
            alpha[j] = 0.0
        G += 2 * t * (K[:, i] - K[:, j])
    return alpha


def svdd_radius2(alpha, K, C=1.0):
    r"""Squared radius, eq. 25, averaged over the free support vectors.

    Without a free SV, the midpoint of the interval allowed by the KKT
    conditions (:math:`d_i^2 \le R^2` for :math:`\alpha_i = 0`,
    :math:`\ge R^2` for :math:`\alpha_i = C`).
    """
    alpha = np.asarray(alpha, dtype=float)
    Ka = K @ alpha
    d2 = np.diag(K) - 2 * Ka + alpha @ Ka
    tol = 1e-8 * min(C, 1.0)
    free = (alpha > tol) & (alpha < C - tol)
    if free.any():
        return float(d2[free].mean())
    lo = d2[alpha <= tol].max(initial=0.0)
    hi = d2[alpha >= C - tol].min(initial=np.inf)
    return float((lo + hi) / 2 if np.isfinite(hi) else lo)


def svdd_growth(k, kxx, alpha, K, s):
    r"""Eq. 30: growth of a new point with :math:`\lambda` eliminated via free SV ``s``.

    :math:`g = K(x,x) - 2 k^\top\alpha - K_{ss} + 2 (K\alpha)_s`
    :math:`= \lVert\phi(x)-a\rVert^2 - R^2`.
    """
    k = np.asarray(k, dtype=float)
    return kxx - 2 * k @ alpha - K[s, s] + 2 * K[s] @ alpha


def fisvdd_new_weight(K, k, kxx):
    r"""FISVDD's test: the new point's weight in :math:`A'\beta = e` (positive = invades).

    With :math:`A'` the Gram matrix of the support set extended by :math:`x`,
    the Schur complement gives
    :math:`\beta_x = (1 - k^\top A^{-1}e) / (K(x,x) - k^\top A^{-1}k)`.
    """
    Ainv_e = np.linalg.solve(K, np.ones(len(K)))
    Ainv_k = np.linalg.solve(K, k)
    return (1.0 - k @ Ainv_e) / (kxx - k @ Ainv_k)


def integrate_svdd_lv(K, C=1.0, t_end=1e4, n_samples=100, rtol=1e-9,
                      atol=1e-11):
    r"""Integrate eq. 27 from :math:`\alpha_i = 1/n` with the quasi-steady :math:`\lambda`.

    :math:`\lambda = \sum_i w_i (K_{ii} - 2(K\alpha)_i)/\sum_i w_i`,
    :math:`w_i = \alpha_i(1-\alpha_i/C)`, keeps :math:`\sum_i\alpha_i = 1`.
    Returns ``(t, alphas)``.
    """
    K = np.asarray(K, dtype=float)
    n = len(K)
    C = _check_C(C, n)
    if C * n <= 1:
        raise ValueError("the dynamics need C * n > 1 for a positive start")
    d = np.diag(K)

    def rhs(t, u):
        a = C * expit(u)
        r = d - 2 * K @ a
        w = a * (1 - a / C)
        return r - (w @ r) / w.sum()

    t_eval = np.concatenate([[0.0], np.geomspace(1e-2, t_end, n_samples)])
    sol = solve_ivp(rhs, (0, t_end), logit(np.full(n, 1.0 / n) / C),
                    method="LSODA", t_eval=t_eval, rtol=rtol, atol=atol)
    return sol.t, C * expit(sol.y.T)


def center_similarity(alpha1, alpha2, K12, K11, K22):
    r"""Eq. 31: cosine :math:`S = \langle a_1, a_2\rangle/(\lVert a_1\rVert\lVert a_2\rVert)`
    of two centres :math:`a_k = \sum_i \alpha^{(k)}_i\phi(x^{(k)}_i)`."""
    num = alpha1 @ K12 @ alpha2
    return float(num / np.sqrt((alpha1 @ K11 @ alpha1) * (alpha2 @ K22 @ alpha2)))


class _SVDDBase(OutlierMixin, BaseEstimator):
    def _kernel(self, X):
        self._gamma = (resolve_gamma(self.gamma, X)
                       if self.kernel in ("rbf", "poly") else None)
        return get_kernel(self.kernel, gamma=self._gamma, degree=self.degree,
                          coef0=self.coef0)

    def _diag(self, X):
        return kernel_diag(X, self.kernel, gamma=self._gamma,
                           degree=self.degree, coef0=self.coef0)

    def _finish(self, Xs, alpha, Kss, idx):
        keep = alpha > 0
        self.support_ = np.asarray(idx)[keep]
        self.support_vectors_ = Xs[keep]
        self.alpha_ = alpha[keep]
        self._Kss = Kss[np.ix_(keep, keep)]
        self.radius2_ = svdd_radius2(self.alpha_, self._Kss, self.C_)
        self.radius_ = float(np.sqrt(max(self.radius2_, 0.0)))
        self._aKa = float(self.alpha_ @ self._Kss @ self.alpha_)
        return self

    def squared_distance(self, X):
        r""":math:`\lVert\phi(x) - a\rVert^2 = K(x,x) - 2\sum_j\alpha_j K(x_j,x) + \alpha^\top K\alpha`."""
        check_is_fitted(self, "alpha_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        k = self._kfun(X, self.support_vectors_)
        return self._diag(X) - 2 * k @ self.alpha_ + self._aKa

    def decision_function(self, X):
        """:math:`R^2 - \\lVert\\phi(x) - a\\rVert^2` (positive inside the sphere)."""
        return self.radius2_ - self.squared_distance(X)

    def predict(self, X):
        """+1 inside the sphere (inlier), -1 outside."""
        return np.where(self.decision_function(X) >= 0, 1, -1)


class SVDD(_SVDDBase):
    """Batch SVDD solved by the reference QP (:func:`solve_svdd_qp`).

    Parameters
    ----------
    C : float, default=1.0
        Box constant; :math:`C \\ge 1` allows no outliers.
    kernel, gamma, degree, coef0
        As for the SVMs.
    """

    def __init__(self, C=1.0, kernel="rbf", gamma="scale", degree=3, coef0=0.0):
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0

    def fit(self, X, y=None):
        X = validate_data(self, X, dtype=np.float64)
        self.C_ = _check_C(self.C, len(X))
        self._kfun = self._kernel(X)
        K = self._kfun(X, X)
        alpha = solve_svdd_qp(K, self.C_)
        return self._finish(X, alpha, K, np.arange(len(X)))


class EcoSVDD(_SVDDBase):
    r"""Online SVDD by invasion (EcoSVDD; the same test as FISVDD).

    A new point invades iff :math:`\lVert\phi(x)-a\rVert^2 - R^2 >`
    ``invasion_threshold`` (eq. 30); the community is then re-equilibrated by
    :func:`svdd_smo` warm-started at :math:`(\alpha_S, 0)` and extinct species
    are dropped.

    Attributes
    ----------
    history_ : dict
        ``radius`` (:math:`R_t`) after each point and ``n_sv``.
    """

    def __init__(self, C=1.0, kernel="rbf", gamma="scale", degree=3, coef0=0.0,
                 n_start=10, tol=1e-8, invasion_threshold=0.0):
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.n_start = n_start
        self.tol = tol
        self.invasion_threshold = invasion_threshold

    def fit(self, X, y=None, callback=None):
        """Stream the rows of ``X``; ``callback(self, t)`` after each point."""
        X = validate_data(self, X, dtype=np.float64)
        n0 = self.n_start
        if not isinstance(n0, numbers.Integral) or n0 < 1:
            raise ValueError(f"n_start must be a positive integer; got {n0!r}")
        self.C_ = _check_C(self.C, len(X))
        # the initial batch must be able to hold sum alpha = 1 with alpha <= C
        n0 = min(max(n0, int(np.ceil(1.0 / self.C_ - 1e-12))), len(X))
        self._kfun = self._kernel(X[:n0])
        com = Community(self._kfun, self._diag, X.shape[1])
        com.append(X[:n0], 0.0, np.arange(n0), rows=np.empty((n0, 0)))
        com.set_alpha(svdd_smo(com.K, self.C_, tol=self.tol))
        com.keep(com.alpha > 0)
        self._sync(com)
        self.history_ = {"radius": [], "n_sv": []}
        self.n_invasions_ = 0
        for t in range(n0, len(X)):
            x = X[t:t + 1]
            row = com.kernel_rows(x)
            g = self._diag(x)[0] - 2 * row[0] @ com.alpha + self._aKa \
                - self.radius2_
            if g > self.invasion_threshold:
                self.n_invasions_ += 1
                com.append(x, 0.0, t, rows=row)
                com.set_alpha(svdd_smo(com.K, self.C_, alpha0=com.alpha,
                                       tol=self.tol))
                com.keep(com.alpha > 0)
                self._sync(com)
            self.history_["radius"].append(self.radius_)
            self.history_["n_sv"].append(com.m)
            if callback is not None:
                callback(self, t)
        return self

    def _sync(self, com):
        self._finish(com.X.copy(), com.alpha.copy(), com.K.copy(), com.idx.copy())
