r"""EnumSVC: a scikit-learn classifier holding the top-:math:`k` SVM models (book: :ref:`sec-enumsv-api`)."""
from __future__ import annotations

from numbers import Integral, Real
from typing import Self

from sklearn.utils._param_validation import Interval

from ..base import BaseSVC
from .._validation import check_kernel_psd, kernel_needs_check
from ._enumerate import _NEEDED_BY, enumerate_gram

__all__ = ["EnumSVC"]


class EnumSVC(BaseSVC):
    r"""Binary SVM that enumerates its top-``k`` models and predicts with the ``rank``-th.

    ``fit`` runs :func:`~svmtext.enumsv.enumerate_models` (EnumSV, Kanamori et al.
    2019; book: :ref:`sec-enumsv`) for ``k`` models of distinct supports in
    non-increasing dual objective

    .. math::

        W(\alpha) = \sum_i \alpha_i - \tfrac12\sum_{i,j}\alpha_i\alpha_jy_iy_jK_{ij},

    keeps them in ``models_`` and publishes model ``rank`` (1: the ordinary SVM) as
    the fitted attributes; :meth:`select` switches to another without refitting.

    Parameters
    ----------
    C : float, default=1.0
        Box constant (finite).
    kernel : {'linear', 'poly', 'rbf'} or callable, default='linear'
        A callable (or a polynomial with ``coef0 < 0``) must give positive semi-definite
        Gram matrices (EnumSV's assumption); ``fit`` raises ``ValueError`` otherwise.
    degree, gamma, coef0 : kernel parameters
    k : int, default=10
        Number of models enumerated.
    rank : int, default=1
        The model used for prediction (``1 <= rank <= k``).
    tol : float, default=1e-6
        SMO's tolerance for every subproblem.
    warm_start : bool, default=True
        Start each child subproblem from its parent's solution.

    Attributes
    ----------
    models_ : list of EnumeratedModel
        The enumerated models, best first (fewer than ``k`` if the data have fewer).
    rank_ : int
        The model in use.
    classes_, alpha_, support_, support_vectors_, dual_coef_, intercept_, n_support_,
    C_, fit_info_ :
        As :class:`svmtext.base.BaseSVC`, for model ``rank_``; ``fit_info_`` also holds
        ``rank``, ``objective_error`` and the enumeration's ``elapsed`` seconds.
    """

    _parameter_constraints = {
        **BaseSVC._parameter_constraints,
        "C": [Interval(Real, 0.0, None, closed="neither")],
        "k": [Interval(Integral, 1, None, closed="left")],
        "rank": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0.0, None, closed="neither")],
        "warm_start": ["boolean"],
    }

    def __init__(self, *, C=1.0, kernel="linear", degree=3, gamma="scale", coef0=0.0, k=10,
                 rank=1, tol=1e-6, warm_start=True):
        super().__init__(C=C, kernel=kernel, degree=degree, gamma=gamma, coef0=coef0)
        self.k = k
        self.rank = rank
        self.tol = tol
        self.warm_start = warm_start

    def fit(self, X, y) -> Self:
        """Enumerate the top-``k`` models and use model ``rank``."""
        X, y_pm, C = self._prepare(X, y)
        if self.rank > self.k:
            raise ValueError(f"rank = {self.rank} exceeds k = {self.k}: only the top-k "
                             "models are enumerated")
        K = self._kernel_function()(X, X)
        if kernel_needs_check(self.kernel, self.coef0):
            check_kernel_psd(K, needed_by=_NEEDED_BY)
        self.models_ = list(enumerate_gram(K, y_pm, C, self.k, tol=self.tol,
                                           warm_start=self.warm_start))
        self._X_fit, self._y_fit = X, y_pm
        return self.select(min(self.rank, len(self.models_)))

    def select(self, rank) -> Self:
        """Use the ``rank``-th enumerated model (1-based) for prediction."""
        if not 1 <= rank <= len(self.models_):
            raise ValueError(f"rank must lie in 1..{len(self.models_)} (the models "
                             f"enumerated); got {rank!r}")
        m = self.models_[rank - 1]
        self.rank_ = rank
        return self._set_solution(
            self._X_fit, self._y_fit, m.alpha, m.b, self.C_ if hasattr(self, "C_") else
            float(self.C), {"rank": rank, "objective_error": m.objective_error,
                            "elapsed": m.elapsed, "gap": m.gap})
