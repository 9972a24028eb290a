r"""Epsilon-support vector regression on the SMO solver (book: :ref:`sec-practice-svr`).

The epsilon-insensitive loss :math:`|z - f(x)|_\varepsilon = \max(0, |z - f(x)| - \varepsilon)`
gives the primal

.. math::

    \min_{w, b, \xi, \xi^*}\ \tfrac12\lVert w\rVert^2 + C\sum_i (\xi_i + \xi_i^*)
    \quad\text{s.t.}\quad z_i - f(x_i) \le \varepsilon + \xi_i,\;
    f(x_i) - z_i \le \varepsilon + \xi_i^*,\; \xi_i, \xi_i^* \ge 0,

with :math:`f(x) = \langle w, \phi(x)\rangle + b`, and the dual (maximised)

.. math::

    W(\alpha, \alpha^*) = -\tfrac12 (\alpha - \alpha^*)^\top K (\alpha - \alpha^*)
    - \varepsilon \mathbf 1^\top(\alpha + \alpha^*) + z^\top(\alpha - \alpha^*)
    \quad\text{s.t.}\quad \mathbf 1^\top(\alpha - \alpha^*) = 0,\;
    0 \le \alpha_i, \alpha_i^* \le C,

and :math:`f(x) = \sum_i (\alpha_i - \alpha_i^*) k(x_i, x) + b`. LIBSVM solves it with the
classification SMO by stacking :math:`\bar\alpha = (\alpha, \alpha^*)` (:math:`2n`
variables), :math:`\bar y = (\mathbf 1, -\mathbf 1)`, the kernel
:math:`\bar K_{kl} = K_{k \bmod n,\, l \bmod n}` and the linear term
:math:`p = (z - \varepsilon\mathbf 1, -z - \varepsilon\mathbf 1)`:
:math:`-W = \tfrac12\bar\alpha^\top \bar Q\bar\alpha - p^\top\bar\alpha` with
:math:`\bar y^\top\bar\alpha = 0` is exactly the problem of
:func:`svmtext.smo.smo_solve` (its argument ``p``). No second solver.

References
----------
Vapnik, V. (1995). *The Nature of Statistical Learning Theory*. Springer.

Smola, A. J. and Schölkopf, B. (2004). A tutorial on support vector regression.
*Statistics and Computing* 14(3), 199--222.

Chang, C.-C. and Lin, C.-J. (2011). LIBSVM: a library for support vector machines.
*ACM Transactions on Intelligent Systems and Technology* 2(3), 27:1--27:27.
"""
from __future__ import annotations

from numbers import Real
from typing import Self

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted, validate_data

from ._validation import check_kernel_psd, kernel_needs_check
from .base import KERNEL_CONSTRAINTS, KernelParamsMixin
from .smo import GramColumns, KernelColumns, smo_solve
from .smo._estimator import SMO_CONSTRAINTS, column_threads

__all__ = ["SMOSVR", "StackedColumns", "svr_problem"]


class StackedColumns:
    r"""Column provider of the stacked kernel :math:`\bar K_{kl} = K_{k \bmod n,\, l \bmod n}`
    (:math:`2n \times 2n`) on a provider of :math:`K` (:math:`n \times n`).

    A column of :math:`\bar K` costs one column of :math:`K`: the rows ``k`` and
    ``k + n`` share their kernel values (LIBSVM's ``SVR_Q`` does the same).
    """

    def __init__(self, base):
        self.base = base
        self.n_base = base.n
        self.n = 2 * base.n
        self.dtype = base.dtype
        self.n_threads = getattr(base, "n_threads", 1)    # for smo_solve's threads
        self.numpy_columns = getattr(base, "numpy_columns", False)
        self.set_active(None)

    @property
    def n_kernel_evals(self) -> int:
        """Kernel values computed by the base provider."""
        return self.base.n_kernel_evals

    @n_kernel_evals.setter
    def n_kernel_evals(self, value) -> None:
        # a solver that computes kernel values itself adds them to the count
        self.base.n_kernel_evals = value

    def diag(self) -> np.ndarray:
        """:math:`\\bar K_{kk}`, the base diagonal twice."""
        d = self.base.diag()
        return np.concatenate([d, d])

    def set_active(self, rows) -> None:
        """Active rows of :math:`\\bar K`: the base provider keeps each base row once."""
        base_rows = (np.arange(self.n) if rows is None else np.asarray(rows)) % self.n_base
        unique, self._inverse = np.unique(base_rows, return_inverse=True)
        self.base.set_active(None if len(unique) == self.n_base else unique)

    def active_columns(self, cols) -> np.ndarray:
        """:math:`\\bar K` [active, cols] from one block of the base kernel."""
        cols = np.atleast_1d(cols) % self.n_base
        return self.base.active_columns(cols)[self._inverse]

    def block(self, rows, cols) -> np.ndarray:
        """:math:`\\bar K` [rows, cols]."""
        rows, cols = np.atleast_1d(rows) % self.n_base, np.atleast_1d(cols) % self.n_base
        unique, inverse = np.unique(rows, return_inverse=True)
        return self.base.block(unique, cols)[inverse]


def svr_problem(z, epsilon) -> tuple:
    r"""Labels :math:`\bar y = (\mathbf 1, -\mathbf 1)` and linear term
    :math:`p = (z - \varepsilon, -z - \varepsilon)` of the :math:`2n`-variable form."""
    z = np.asarray(z, dtype=float)
    n = len(z)
    y2 = np.concatenate([np.ones(n), -np.ones(n)])
    p = np.concatenate([z - epsilon, -z - epsilon])
    return y2, p


class SMOSVR(KernelParamsMixin, RegressorMixin, BaseEstimator):
    r"""Epsilon-SVR fitted by the book's SMO in LIBSVM's :math:`2n`-variable form.

    .. math::

        f(x) = \sum_{i \in S} (\alpha_i - \alpha_i^*) k(x_i, x) + b

    Book: :ref:`sec-practice-svr`.

    Parameters
    ----------
    C : float, default=1.0
        Box constant (finite).
    epsilon : float, default=0.1
        Half-width of the insensitive tube (:math:`\varepsilon \ge 0`).
    kernel : {'linear', 'poly', 'rbf', 'precomputed'} or callable, default='rbf'
        With ``'precomputed'``, ``X`` is the Gram matrix: ``(n, n)`` in ``fit``,
        ``(n_test, n)`` in ``predict``.
    degree : int, default=3
    gamma : float or {'scale', 'auto'}, default='scale'
    coef0 : float, default=0.0
    tol : float, default=1e-3
        Stopping tolerance on the gap :math:`m(\bar\alpha) - M(\bar\alpha)`.
    selection : {'wss2', 'mvp', 'platt'}, default='wss2'
    shrinking : bool, default=True
    cache_size : float, default=200
        Kernel-column cache in MB.
    max_iter : int or None, default=None
    n_jobs : int or None, default=None
        Threads for the kernel columns, as :class:`~svmtext.smo.SMOSVC`'s ``n_jobs``
        (``None`` or 1 one thread, -1 every core): the same fit bit for bit.

    Attributes
    ----------
    alpha_ : (n,) array
        :math:`\alpha_i`; ``alpha_star_`` : :math:`\alpha_i^*`.
    support_ : (n_SV,) int array
        Indices with :math:`\alpha_i - \alpha_i^* \ne 0`.
    support_vectors_ : (n_SV, d) array
    dual_coef_ : (1, n_SV) array
        :math:`\alpha_i - \alpha_i^*` (scikit-learn's ``SVR.dual_coef_``).
    intercept_ : (1,) array
        :math:`b = -\rho`.
    n_iter_ : int
    fit_info_ : dict
        ``dual_objective`` :math:`W(\alpha, \alpha^*)` (maximised), ``gap``, ``n_iter``,
        ``n_kernel_evals``, ``converged``.

    References
    ----------
    Smola, A. J. and Schölkopf, B. (2004). A tutorial on support vector regression.
    *Statistics and Computing* 14(3), 199--222.
    """

    _parameter_constraints = {
        **KERNEL_CONSTRAINTS,
        **SMO_CONSTRAINTS,
        "epsilon": [Interval(Real, 0.0, None, closed="left")],
    }

    def __init__(self, *, C=1.0, epsilon=0.1, kernel="rbf", degree=3, gamma="scale",
                 coef0=0.0, tol=1e-3, selection="wss2", shrinking=True, cache_size=200.0,
                 max_iter=None, n_jobs=None):
        self.C = C
        self.epsilon = epsilon
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.selection = selection
        self.shrinking = shrinking
        self.cache_size = cache_size
        self.max_iter = max_iter
        self.n_jobs = n_jobs

    def _gram(self, X):
        """The Gram matrix of the training points (``X`` itself when precomputed)."""
        if self.kernel == "precomputed":
            return X
        self._resolve_kernel(X)
        return self._kernel_function()(X, X)

    def _publish(self, X, alpha2, b):
        """Fitted attributes from the stacked :math:`(\\alpha, \\alpha^*)` and :math:`b`."""
        n = len(X)
        self.alpha_, self.alpha_star_ = alpha2[:n].copy(), alpha2[n:].copy()
        beta = self.alpha_ - self.alpha_star_
        self.support_ = np.flatnonzero(beta != 0)
        self.support_vectors_ = X[self.support_]
        self.dual_coef_ = beta[self.support_][None, :]
        self.intercept_ = np.array([b])

    def _validate_target(self, y):
        if np.asarray(y).dtype.kind in "OUS":      # objects, strings, bytes
            try:
                np.asarray(y, dtype=float)
            except (TypeError, ValueError):
                sample = np.asarray(y).ravel()[:3].tolist()
                raise ValueError(
                    f"{type(self).__name__} is a regressor: the target y must be numeric; "
                    "got values such "
                    f"as {sample} (for class labels use SMOSVC)") from None

    def _validated(self, X, y):
        """Parameters, target and data checked; ``(X, z)`` as float arrays."""
        self._validate_params()
        self._validate_target(y)
        X, z = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        if len(z) < 2:
            raise ValueError(f"{type(self).__name__} needs at least 2 samples to fit; got "
                             f"n_samples = {len(z)}")
        self._check_gram(X)
        return X, z

    def fit(self, X, y) -> Self:
        """Solve the :math:`2n`-variable dual by SMO and keep the support vectors."""
        X, z = self._validated(X, y)
        if self.kernel == "precomputed":
            base = GramColumns(X)
        else:
            self._resolve_kernel(X)
            if kernel_needs_check(self.kernel, self.coef0):
                check_kernel_psd(self._kernel_function(), X, needed_by="the SVR dual")
            base = KernelColumns(X, self.kernel, gamma=self._gamma, degree=self.degree,
                                 coef0=self.coef0, n_threads=column_threads(self.n_jobs))
        y2, p = svr_problem(z, self.epsilon)
        res = smo_solve(StackedColumns(base), y2, self.C, p=p, tol=self.tol,
                        max_iter=self.max_iter, selection=self.selection,
                        cache_size=self.cache_size, shrinking=self.shrinking)
        self._publish(X, res.alpha, res.b)
        self.n_iter_ = res.n_iter
        self.fit_info_ = {"dual_objective": res.dual_objective, "gap": res.gap,
                          "n_iter": res.n_iter, "n_kernel_evals": res.n_kernel_evals,
                          "converged": res.converged}
        return self

    def predict(self, X) -> np.ndarray:
        r""":math:`f(x) = \sum_{i\in S} (\alpha_i - \alpha_i^*) k(x_i, x) + b`."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        if len(self.support_) == 0:
            return np.full(len(X), self.intercept_[0])
        if self.kernel == "precomputed":
            return X[:, self.support_] @ self.dual_coef_[0] + self.intercept_[0]
        K = self._kernel_function()(X, self.support_vectors_)
        return K @ self.dual_coef_[0] + self.intercept_[0]
