r"""``SMOSVC``: the binary kernel SVM trained by SMO, scikit-learn compatible (book: :ref:`sec-smo`).

The Gram matrix is never formed: kernel columns are computed on demand
(:class:`~svmtext.smo.KernelColumns`) and kept in an LRU cache of ``cache_size`` MB.
The fitted attributes are those of :class:`svmtext.base.BaseSVC` (``support_``,
``dual_coef_``, ``intercept_`` ...), plus ``n_iter_`` and ``fit_info_``.
"""
from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from ..base import BaseSVC
from ._columns import KernelColumns
from ._solver import smo_solve
from ._wss import RULES

__all__ = ["SMOSVC"]


class SMOSVC(BaseSVC):
    """Binary kernel SVM fitted by sequential minimal optimisation.

    Parameters
    ----------
    C : float, default=1.0
        Box constant (finite).
    kernel : {'linear', 'poly', 'rbf'} or callable, default='rbf'
    degree : int, default=3
    gamma : float or {'scale', 'auto'}, default='scale'
    coef0 : float, default=0.0
    tol : float, default=1e-3
        Stopping tolerance :math:`\\epsilon` on the gap :math:`m(\\alpha) - M(\\alpha)`.
    selection : {'wss2', 'mvp', 'platt'}, default='wss2'
        Working-set rule.
    shrinking : bool, default=True
    cache_size : float, default=200
        Kernel-column cache in MB (scikit-learn's name and default).
    max_iter : int or None, default=None
        Maximal number of selections (``None``: :math:`\\max(10^7, 100n)`).
    dtype : {'float64', 'float32'}, default='float64'
        Precision of the kernel columns (LIBSVM uses float32 for :math:`Q`).

    Attributes
    ----------
    classes_, alpha_, support_, support_vectors_, dual_coef_, intercept_, n_support_, C_
        As in :class:`~svmtext.base.BaseSVC`.
    n_iter_ : int
        Pair updates made.
    fit_info_ : dict
        ``dual_objective`` :math:`W(\\alpha)`, ``gap``, ``n_iter``, ``n_kernel_evals``,
        ``converged``, ``cache_hits``, ``cache_misses``.

    References
    ----------
    Platt, J. C. (1998). Sequential minimal optimization: a fast algorithm for training
    support vector machines. Microsoft Research Technical Report MSR-TR-98-14.

    Keerthi, S. S., Shevade, S. K., Bhattacharyya, C. and Murthy, K. R. K. (2001).
    Improvements to Platt's SMO algorithm for SVM classifier design. *Neural
    Computation* 13(3), 637--649.

    Fan, R.-E., Chen, P.-H. and Lin, C.-J. (2005). Working set selection using second
    order information for training support vector machines. *Journal of Machine
    Learning Research* 6, 1889--1918.
    """

    _parameter_constraints = {
        **BaseSVC._parameter_constraints,
        "tol": [Interval(Real, 0.0, None, closed="neither")],
        "selection": [StrOptions(set(RULES))],
        "shrinking": ["boolean"],
        "cache_size": [Interval(Real, 0.0, None, closed="neither")],
        "max_iter": [Interval(Integral, 0, None, closed="left"), None],
        "dtype": [StrOptions({"float64", "float32"})],
    }

    def __init__(self, *, C=1.0, kernel="rbf", degree=3, gamma="scale", coef0=0.0, tol=1e-3,
                 selection="wss2", shrinking=True, cache_size=200.0, max_iter=None,
                 dtype="float64"):
        super().__init__(C=C, kernel=kernel, degree=degree, gamma=gamma, coef0=coef0)
        self.tol = tol
        self.selection = selection
        self.shrinking = shrinking
        self.cache_size = cache_size
        self.max_iter = max_iter
        self.dtype = dtype

    def fit(self, X, y):
        """Fit by SMO on kernel columns computed on demand."""
        X, y, C = self._prepare(X, y)
        provider = KernelColumns(X, self.kernel, gamma=self._gamma, degree=self.degree,
                                 coef0=self.coef0, dtype=np.dtype(self.dtype))
        res = smo_solve(provider, y, C, tol=self.tol, max_iter=self.max_iter,
                        selection=self.selection, cache_size=self.cache_size,
                        shrinking=self.shrinking)
        info = {"gap": res.gap, "n_iter": res.n_iter, "n_kernel_evals": res.n_kernel_evals,
                "converged": res.converged, "cache_hits": res.cache_hits,
                "cache_misses": res.cache_misses}
        # K(alpha y) at every training point is y - g: W without a kernel evaluation
        self._set_solution(X, y, res.alpha, res.b, C, info, Kv=y - res.gradient)
        self.n_iter_ = res.n_iter
        return self
