r"""SVDD and EcoSVDD as scikit-learn outlier detectors (book: :ref:`sec-eco-svdd`).

Like scikit-learn's ``OneClassSVM``: ``score_samples`` is larger for more normal
points (:math:`-\lVert\phi(x) - a\rVert^2`), ``decision_function`` is
``score_samples - offset_`` :math:`= R^2 - \lVert\phi(x) - a\rVert^2` (positive inside
the sphere), and ``predict`` is +1 inside (inlier), -1 outside.
"""
from __future__ import annotations

from numbers import Integral, Real
from typing import Self

import numpy as np
from sklearn.base import BaseEstimator, OutlierMixin
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted, validate_data

from ..base import KERNEL_CONSTRAINTS, KernelParamsMixin
from .community import Community
from .svdd_dual import check_svdd_C, solve_svdd_qp, svdd_objective, svdd_smo
from .svdd_sphere import svdd_radius2

__all__ = ["SVDD", "EcoSVDD"]

_ATTRIBUTES = r"""
    Attributes
    ----------
    support_ : (n_SV,) int array
        Training indices of the support vectors (:math:`\alpha_i > 0`).
    support_vectors_ : (n_SV, d) array
    alpha_ : (n_SV,) array
        Their weights (:math:`\sum_i \alpha_i = 1`); the centre is
        :math:`a = \sum_i \alpha_i \phi(x_i)`.
    support_gram_ : (n_SV, n_SV) array
        Gram matrix of the support vectors.
    radius2_, radius_ : float
        :math:`R^2` and :math:`R`.
    offset_ : float
        :math:`-R^2`: ``decision_function = score_samples - offset_``.
    C_ : float
    fit_info_ : dict
        ``dual_objective``: :math:`L_D(\alpha)` (maximised).
"""

_REFERENCES = r"""
    References
    ----------
    Tax, D. M. J. and Duin, R. P. W. (2004). Support vector data description.
    *Machine Learning* 54, 45--66.

    Howell, A. L., Teschl, S., Marsland, R. and Mehta, P. (2020). Machine learning as
    ecology. *Journal of Physics A* 53, 334001.
"""


class _SVDDBase(KernelParamsMixin, OutlierMixin, BaseEstimator):
    _parameter_constraints = {"C": [Interval(Real, 0.0, None, closed="neither")],
                              **KERNEL_CONSTRAINTS}

    def _publish(self, Xs, alpha, Kss, idx):
        keep = alpha > 0
        self.support_ = np.asarray(idx)[keep]
        self.support_vectors_ = Xs[keep]
        self.alpha_ = alpha[keep]
        self.support_gram_ = Kss[np.ix_(keep, keep)]
        self.radius2_ = svdd_radius2(self.alpha_, self.support_gram_, self.C_)
        self.radius_ = float(np.sqrt(max(self.radius2_, 0.0)))
        self.offset_ = -self.radius2_
        self._aKa = float(self.alpha_ @ self.support_gram_ @ self.alpha_)
        self.fit_info_ = {"dual_objective": svdd_objective(self.alpha_, self.support_gram_)}
        return self

    def squared_distance(self, X):
        r""":math:`\lVert\phi(x) - a\rVert^2 = K(x,x) - 2\sum_j\alpha_j K(x_j,x) + \alpha^\top K\alpha`."""
        check_is_fitted(self, "alpha_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        k = self._kernel_function()(X, self.support_vectors_)
        return self._kernel_diag(X) - 2 * k @ self.alpha_ + self._aKa

    def score_samples(self, X):
        r""":math:`-\lVert\phi(x) - a\rVert^2` (larger: more normal)."""
        return -self.squared_distance(X)

    def decision_function(self, X):
        """:math:`R^2 - \\lVert\\phi(x) - a\\rVert^2` (positive inside the sphere)."""
        return self.score_samples(X) - self.offset_

    def predict(self, X):
        """+1 inside the sphere (inlier), -1 outside."""
        return np.where(self.decision_function(X) >= 0, 1, -1)


class SVDD(_SVDDBase):
    __doc__ = r"""Batch SVDD solved by the reference QP (:func:`~svmtext.eco.solve_svdd_qp`).

    Parameters
    ----------
    C : float, default=1.0
        Box constant; :math:`C \ge 1` allows no outliers, :math:`Cn \ge 1` is required.
    kernel, gamma, degree, coef0
        As for the SVMs (:class:`~svmtext.base.BaseSVC`).
""" + _ATTRIBUTES + _REFERENCES

    def __init__(self, *, C=1.0, kernel="rbf", gamma="scale", degree=3, coef0=0.0):
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0

    def fit(self, X, y=None) -> Self:
        """Solve the SVDD dual on ``K = k(X, X)``; ``y`` is ignored."""
        self._validate_params()
        X = validate_data(self, X, dtype=np.float64)
        self.C_ = check_svdd_C(self.C, len(X))
        self._resolve_kernel(X)
        K = self._kernel_function()(X, X)
        return self._publish(X, solve_svdd_qp(K, self.C_), K, np.arange(len(X)))


class EcoSVDD(SVDD):
    __doc__ = r"""Online SVDD by invasion (EcoSVDD; the same test as FISVDD).

    A new point invades iff :math:`\lVert\phi(x)-a\rVert^2 - R^2 >`
    ``invasion_threshold`` (Howell et al. 2020, eq. 30); the community is then
    re-equilibrated by :func:`~svmtext.eco.svdd_smo` warm-started at
    :math:`(\alpha_S, 0)` and extinct species are dropped.

    Parameters
    ----------
    C, kernel, gamma, degree, coef0
        As for :class:`SVDD`.
    n_start : int, default=10
        Size of the initial batch (raised to :math:`\lceil 1/C\rceil` if needed).
    tol : float, default=1e-8
        Stopping tolerance of the SMO re-equilibration.
    invasion_threshold : float, default=0.0
""" + _ATTRIBUTES + r"""    history_ : dict
        ``radius`` (:math:`R_t`) after each point and ``n_sv``.
    n_invasions_ : int
""" + _REFERENCES + r"""
    Jiang, H., Wang, H., Hu, W., Kakde, D. and Chaudhuri, A. (2019). Fast incremental
    SVDD learning algorithm with the Gaussian kernel. *AAAI* 33, 3991--3998.
"""

    _parameter_constraints = {
        **SVDD._parameter_constraints,
        "n_start": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0.0, None, closed="neither")],
        "invasion_threshold": [Interval(Real, None, None, closed="neither")],
    }

    def __init__(self, *, C=1.0, kernel="rbf", gamma="scale", degree=3, coef0=0.0,
                 n_start=10, tol=1e-8, invasion_threshold=0.0):
        super().__init__(C=C, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0)
        self.n_start = n_start
        self.tol = tol
        self.invasion_threshold = invasion_threshold

    def fit(self, X, y=None, callback=None) -> Self:
        """Stream the rows of ``X``; ``callback(self, t)`` after each point; ``y`` is ignored."""
        self._validate_params()
        X = validate_data(self, X, dtype=np.float64)
        self.C_ = check_svdd_C(self.C, len(X))
        # the initial batch must be able to hold sum alpha = 1 with alpha <= C
        n0 = min(max(self.n_start, int(np.ceil(1.0 / self.C_ - 1e-12))), len(X))
        self._resolve_kernel(X[:n0])
        com = Community(self._kernel_function(), self._kernel_diag, X.shape[1])
        com.append(X[:n0], 0.0, np.arange(n0), rows=np.empty((n0, 0)))
        com.set_alpha(svdd_smo(com.K, self.C_, tol=self.tol))
        com.keep(com.alpha > 0)
        self._sync(com)
        self.history_ = {"radius": [], "n_sv": []}
        self.n_invasions_ = 0
        for t in range(n0, len(X)):
            x = X[t:t + 1]
            row = com.kernel_rows(x)
            g = self._kernel_diag(x)[0] - 2 * row[0] @ com.alpha + self._aKa - self.radius2_
            if g > self.invasion_threshold:
                self.n_invasions_ += 1
                com.append(x, 0.0, t, rows=row)
                com.set_alpha(svdd_smo(com.K, self.C_, alpha0=com.alpha, tol=self.tol))
                com.keep(com.alpha > 0)
                self._sync(com)
            self.history_["radius"].append(self.radius_)
            self.history_["n_sv"].append(com.m)
            if callback is not None:
                callback(self, t)
        return self

    def _sync(self, com):
        self._publish(com.X.copy(), com.alpha.copy(), com.K.copy(), com.idx.copy())
