r"""``SMOSVC``: the kernel SVM trained by SMO, scikit-learn compatible (book: :ref:`sec-smo`);
more than two classes one-vs-one, as LIBSVM (book: :ref:`sec-practice-multiclass`).

The Gram matrix is never formed: kernel columns are computed on demand
(:class:`~svmtext.smo.KernelColumns`) and kept in an LRU cache of ``cache_size`` MB.
The fitted attributes are those of :class:`svmtext.base.BaseSVC` (``support_``,
``dual_coef_``, ``intercept_`` ...), plus ``n_iter_`` and ``fit_info_``.
"""
from __future__ import annotations

from contextlib import ExitStack
from numbers import Integral, Real
from typing import Self

import numpy as np
from sklearn.base import clone
from sklearn.utils._available_if import available_if
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.class_weight import compute_class_weight
from sklearn.utils.multiclass import _ovr_decision_function
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import check_kernel_psd, check_tol, kernel_needs_check
from ..base import BaseSVC, labels_to_codes
from ..kkt import dual_objective_from_coef
from ..multiclass import libsvm_vote, ovo_decisions, ovo_layout, ovo_pairs
from ..probability import cv_decision_values, platt_fit, platt_predict
from ._columns import GramColumns, KernelColumns
from ._solver import _check_box, _column_threads, column_threads_of, smo_solve, solve_checked
from ._wss import RULES, make_rule

#: The parameters of an estimator fitted by :func:`~svmtext.smo.smo_solve` (SMOSVC, SMOSVR).
SMO_CONSTRAINTS = {
    "C": [Interval(Real, 0.0, None, closed="neither")],   # SMO needs a finite box
    "kernel": [StrOptions({"linear", "poly", "rbf", "precomputed"}), callable],
    "tol": [Interval(Real, 0.0, None, closed="neither")],
    "selection": [StrOptions(set(RULES))],
    "shrinking": ["boolean"],
    "cache_size": [Interval(Real, 0.0, None, closed="neither")],
    "max_iter": [Interval(Integral, 0, None, closed="left"), None],
    # scikit-learn's n_jobs: k >= 1 threads, -1 all cores, -2 all but one ...; 0 has no meaning
    "n_jobs": [Interval(Integral, 1, None, closed="left"),
               Interval(Integral, None, -1, closed="right"), None],
}

__all__ = ["SMOSVC"]

#: What ``fit_info_`` reports of each SMO run (:class:`~svmtext.smo.SMOResult` fields).
FIT_INFO = ("gap", "n_iter", "n_kernel_evals", "converged", "cache_hits", "cache_misses",
            "n_shrink", "n_unshrink", "n_null_steps")


def column_threads(n_jobs) -> int:
    """The threads for the kernel columns of ``n_jobs`` (scikit-learn's meaning: ``None``
    and 1 one thread, -1 every core, :math:`-k` all but :math:`k - 1`; at least 1)."""
    if n_jobs is None:
        return 1
    from joblib import effective_n_jobs
    return max(1, int(effective_n_jobs(int(n_jobs))))


class SMOSVC(BaseSVC):
    """Kernel SVM fitted by sequential minimal optimisation.

    Two classes give one SVM. With :math:`k > 2` classes the fit solves the
    :math:`k(k-1)/2` one-vs-one problems of LIBSVM (:mod:`svmtext.multiclass`): the
    pair :math:`(i, j)`, :math:`i < j`, on the points of classes :math:`i` and :math:`j`
    with class :math:`i` as :math:`y = +1`; ``gamma='scale'`` is resolved once on all
    of ``X``, as ``SVC`` does; ``predict`` is LIBSVM's vote.

    Parameters
    ----------
    C : float, default=1.0
        Box constant (finite).
    kernel : {'linear', 'poly', 'rbf', 'precomputed'} or callable, default='rbf'
        With ``'precomputed'``, ``X`` is the Gram matrix: ``(n, n)`` in ``fit``,
        ``(n_test, n)`` (kernel values against the training points) afterwards.
    degree : int, default=3
    gamma : float or {'scale', 'auto'}, default='scale'
    coef0 : float, default=0.0
    tol : float, default=1e-3
        Stopping tolerance on the gap :math:`m(\\alpha) - M(\\alpha)` (LIBSVM's ``eps``; the
        book's :math:`\\varepsilon` is the tube of regression only).
    selection : {'wss2', 'mvp', 'platt'}, default='wss2'
        Working-set rule.
    shrinking : bool, default=True
    cache_size : float, default=200
        Kernel-column cache in MB (scikit-learn's name and default).
    max_iter : int or None, default=None
        Maximal number of selections (``None``: :math:`\\max(10^7, 100n)`).
    dtype : {'float64', 'float32'}, default='float64'
        Precision of the kernel columns (LIBSVM uses float32 for :math:`Q`).
    null_steps : bool, default=True
        Null-space steps on flat faces of the box (:mod:`svmtext.smo._null`, book:
        :ref:`sec-smo-null-steps`; not LIBSVM's): where the free multipliers stay the
        same and their :math:`Q_{FF}` is singular, the solver moves along the flat
        direction to the next bound in one step. With ``selection='wss2'`` only (the
        other rules are fitted with it off). ``False``: LIBSVM's algorithm.
    class_weight : dict, 'balanced' or None, default=None
        Per-class box constants :math:`0 \\le \\alpha_i \\le C w_{y_i}` (LIBSVM ``-wi``);
        ``'balanced'``: :math:`w_c = n / (k n_c)` for :math:`k` classes (book:
        :ref:`sec-practice-imbalance`).
    probability : bool, default=False
        Fit Platt's sigmoid on 5-fold cross-validated decision values
        (:func:`svmtext.probability.platt_fit`; LIBSVM ``-b 1``) and enable
        ``predict_proba`` (book: :ref:`sec-practice-probability`); two classes only
        (for more, LIBSVM's pairwise coupling on
        ``OneVsOneClassifier(SMOSVC(probability=True))``,
        :func:`svmtext.probability.ovo_predict_proba`, or scikit-learn's
        ``CalibratedClassifierCV(SMOSVC())``).
    random_state : int, RandomState or None, default=None
        Seed of the internal cross-validation split (``probability=True`` only).
    n_jobs : int or None, default=None
        Threads for the kernel columns, the only part of SMO that runs in parallel
        (scikit-learn's meaning: ``None`` or 1 one thread, -1 every core, :math:`k`
        threads). A column :math:`K_{\\cdot c}` is shared out by rows, each row's kernel
        value made by one thread in the same order, so the fit (:math:`\\alpha`, :math:`b`,
        ``n_iter_``) is the same bit for bit for every ``n_jobs``; only the time changes.
        The compiled columns of data with many zeros (MNIST) use numba's threads, dense
        data BLAS's (book: :ref:`sec-smo-benchmark`). Pays off when columns are long and
        costly (:math:`n` in the thousands); a small problem is faster on one thread.
    decision_function_shape : {'ovr', 'ovo'}, default='ovr'
        More than two classes only, as ``SVC``: ``'ovo'`` gives the pairs' decision
        values :math:`f_{ij}` ``(n, k(k-1)/2)`` in LIBSVM's sign; ``'ovr'`` turns them into
        ``(n, k)`` per-class scores (votes plus squashed confidences, scikit-learn's
        ``_ovr_decision_function``) whose largest is the prediction except on tied votes.

    Attributes
    ----------
    classes_, alpha_, support_, support_vectors_, dual_coef_, intercept_, n_support_, C_
        As in :class:`~svmtext.base.BaseSVC` for two classes. For :math:`k > 2`, as
        ``SVC``: ``dual_coef_`` :math:`(k-1, n_{SV})` and ``support_`` in LIBSVM's layout
        (:func:`~svmtext.multiclass.ovo_layout`), ``intercept_`` the :math:`k(k-1)/2`
        biases :math:`b_{ij}`, ``alpha_`` :math:`(k(k-1)/2, n)`, each pair's
        :math:`\\alpha` on its points and 0 elsewhere. The classes are in ``classes_``
        (sorted) order, as in ``SVC`` (LIBSVM's command line takes them in the order
        of first appearance). With ``kernel='precomputed'``, ``support_vectors_`` holds
        the support vectors' rows of the training Gram matrix.
    n_iter_ : int, or (k(k-1)/2,) int array
        Pair updates made (per one-vs-one problem).
    fit_info_ : dict
        ``dual_objective`` :math:`W(\\alpha)`, ``gap``, ``n_iter``, ``n_kernel_evals``,
        ``converged``, ``cache_hits``, ``cache_misses``, ``n_shrink`` (times variables
        were set aside) and ``n_unshrink`` (times the full problem was restored and the
        gradient of the set-aside variables rebuilt); for :math:`k > 2` classes each an
        array over the pairs of :func:`~svmtext.multiclass.ovo_pairs`.
    class_weight_ : (k,) array
        :math:`w_c` of ``classes_``.
    probA_, probB_ : (1,) arrays
        Platt's :math:`A, B` with ``probability=True``:
        :math:`P(\\text{classes\\_[1]} \\mid x) = 1/(1 + \\exp(A f(x) + B))`.

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
        **SMO_CONSTRAINTS,
        "dtype": [StrOptions({"float64", "float32"})],
        "null_steps": ["boolean"],
        "class_weight": [dict, StrOptions({"balanced"}), None],
        "probability": ["boolean"],
        "random_state": ["random_state"],
        "decision_function_shape": [StrOptions({"ovr", "ovo"})],
    }

    def __init__(self, *, C=1.0, kernel="rbf", degree=3, gamma="scale", coef0=0.0, tol=1e-3,
                 selection="wss2", shrinking=True, cache_size=200.0, max_iter=None,
                 dtype="float64", null_steps=True, class_weight=None, probability=False,
                 random_state=None, n_jobs=None, decision_function_shape="ovr"):
        super().__init__(C=C, kernel=kernel, degree=degree, gamma=gamma, coef0=coef0)
        self.tol = tol
        self.selection = selection
        self.shrinking = shrinking
        self.cache_size = cache_size
        self.max_iter = max_iter
        self.dtype = dtype
        self.null_steps = null_steps
        self.class_weight = class_weight
        self.probability = probability
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.decision_function_shape = decision_function_shape

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = not self.probability    # Platt: two classes
        return tags

    def _encode_labels(self, y):
        return labels_to_codes(y)

    def _box(self, codes, C):
        r"""Per-sample box :math:`C w_{y_i}` of the points of class index ``codes`` (a
        scalar when every weight is 1); sets ``class_weight_``."""
        k = len(self.classes_)
        self.class_weight_ = np.ones(k)
        if self.class_weight == "balanced":          # w_c = n / (k n_c)
            self.class_weight_ = compute_class_weight("balanced", classes=np.arange(k),
                                                      y=codes)
        elif isinstance(self.class_weight, dict):      # keyed by the user's labels
            # (scikit-learn's check: a key that is no class is an error, as in SVC)
            self.class_weight_ = compute_class_weight(self.class_weight,
                                                      classes=self.classes_, y=self.classes_)
            if not np.all(self.class_weight_ > 0):
                raise ValueError("class_weight must be positive for every class; got "
                                 f"{dict(zip(self.classes_.tolist(), self.class_weight_))}")
        if np.all(self.class_weight_ == 1.0):
            return C
        return C * self.class_weight_[codes]

    def _columns(self, X, rows=None):
        """The kernel columns of the training points ``X[rows]`` (all without ``rows``)."""
        if self.kernel == "precomputed":                 # no kernel to compute
            return GramColumns(X if rows is None else X[np.ix_(rows, rows)],
                               dtype=np.dtype(self.dtype))
        return KernelColumns(X if rows is None else X[rows], self.kernel, gamma=self._gamma,
                             degree=self.degree, coef0=self.coef0,
                             dtype=np.dtype(self.dtype), n_threads=column_threads(self.n_jobs),
                             check_input=False)              # (X checked by fit)

    def _null_steps(self) -> bool:
        """``null_steps``, for the WSS2 rule (the only one they are made with)."""
        return bool(self.null_steps) and self.selection == "wss2"

    def _smo(self, provider, y, box):
        return smo_solve(provider, y, box, tol=self.tol, max_iter=self.max_iter,
                         selection=self.selection, cache_size=self.cache_size,
                         shrinking=self.shrinking, null_steps=self._null_steps())

    def fit(self, X, y) -> Self:
        """Fit by SMO on kernel columns computed on demand (or on the Gram matrix ``X``
        with ``kernel='precomputed'``), one SVM per pair of classes for more than two;
        with ``probability=True``, then fit Platt's sigmoid on 5-fold cross-validated
        decision values."""
        X, y, C = self._prepare(X, y)
        if self.kernel == "precomputed":
            self._check_gram(X)
        elif kernel_needs_check(self.kernel, self.coef0):
            check_kernel_psd(self._kernel_function(), X, needed_by="SMO's dual")
        if len(self.classes_) > 2:
            return self._fit_one_vs_one(X, y, C)
        res = self._smo(self._columns(X), y, self._box((y > 0).astype(int), C))
        info = {key: getattr(res, key) for key in FIT_INFO}
        # K(alpha y) at every training point is y - g: W without a kernel evaluation
        self._set_solution(X, y, res.alpha, res.b, C, info, Kv=y - res.gradient)
        self.n_iter_ = res.n_iter
        if self.probability:
            # the folds' SVMs get this fit's per-class box (LIBSVM's
            # svm_binary_svc_probability), keyed by the -1/+1 labels they are fitted on
            weights = None if self.class_weight is None else dict(
                zip((-1.0, 1.0), self.class_weight_.tolist()))
            inner = clone(self).set_params(probability=False, class_weight=weights)
            f_cv = cv_decision_values(inner, X, y, random_state=self.random_state)
            A, B = platt_fit(f_cv, y)
            self.probA_, self.probB_ = np.array([A]), np.array([B])
        return self

    def _fit_one_vs_one(self, X, codes, C) -> Self:
        r"""The :math:`k(k-1)/2` pairs of LIBSVM's one-vs-one, stored in its layout."""
        if self.probability:
            raise ValueError(
                "Only binary classification is supported with probability=True (Platt's "
                f"sigmoid); the type of the target is multiclass, {len(self.classes_)} "
                "classes. For class probabilities use "
                "svmtext.probability.ovo_predict_proba on "
                "OneVsOneClassifier(SMOSVC(probability=True)), or scikit-learn's "
                "CalibratedClassifierCV(SMOSVC()).")
        box = _check_box(self._box(codes, C), len(codes))
        tol = check_tol(self.tol)                       # (checked once for all pairs)
        solutions, b, infos, W = [], [], [], []
        with ExitStack() as threads:
            for i, j in ovo_pairs(len(self.classes_)):
                rows = np.flatnonzero((codes == i) | (codes == j))
                y = np.where(codes[rows] == i, 1.0, -1.0)          # LIBSVM: class i is +1
                provider = self._columns(X, rows)
                if not infos:           # the thread limits once for all the pairs
                    threads.enter_context(_column_threads(*column_threads_of(provider)))
                res = solve_checked(provider, y, box if np.isscalar(box) else box[rows],
                                    np.zeros(len(rows)), tol, self.max_iter,
                                    make_rule(self.selection, 0),
                                    self.cache_size, self.shrinking,
                                    null_steps=self._null_steps(), stacklevel=4)
                solutions.append((rows, res.alpha))
                b.append(res.b)
                sv = res.alpha > 0                      # K(alpha y) on the pair's points: y - g
                W.append(dual_objective_from_coef((res.alpha * y)[sv][None, :],
                                                  Kv=(y - res.gradient)[sv]))
                infos.append(res)
        self.support_, self.n_support_, self.dual_coef_ = ovo_layout(
            codes, len(self.classes_), solutions)
        self.support_vectors_ = X[self.support_]
        self.intercept_ = np.array(b, dtype=float)
        self.alpha_ = np.zeros((len(solutions), len(codes)))
        for p, (rows, alpha) in enumerate(solutions):
            self.alpha_[p, rows] = alpha
        self.C_ = C
        self.n_iter_ = np.array([r.n_iter for r in infos])
        self.fit_info_ = {"dual_objective": np.array(W), **{
            key: np.array([getattr(r, key) for r in infos]) for key in FIT_INFO}}
        return self

    def _pair_decisions(self, X):
        """The pairs' :math:`f_{ij}` at the (validated) rows of ``X``: with
        ``kernel='precomputed'`` ``X`` holds :math:`k(x, x_i)` for the training points."""
        K = X[:, self.support_] if self.kernel == "precomputed" else \
            self._kernel_function()(X, self.support_vectors_)
        return ovo_decisions(K, self.n_support_, self.dual_coef_, self.intercept_)

    def decision_function(self, X) -> np.ndarray:
        """:math:`f(x) = \\sum_{i\\in S} \\alpha_i y_i k(x_i, x) + b`; positive means
        ``classes_[1]``. With ``kernel='precomputed'`` ``X`` holds :math:`k(x, x_i)` for the
        training points :math:`x_i` (one column each). For more than two classes, the
        pairs' :math:`f_{ij}` (:func:`~svmtext.multiclass.ovo_decisions`), shaped by
        ``decision_function_shape``."""
        if self.kernel != "precomputed" and len(getattr(self, "classes_", ())) == 2:
            return super().decision_function(X)
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        if len(self.classes_) == 2:
            return X[:, self.support_] @ self.dual_coef_[0] + self.intercept_[0]
        F = self._pair_decisions(X)
        if self.decision_function_shape == "ovo":
            return F
        return _ovr_decision_function(F < 0, -F, len(self.classes_))

    def predict(self, X) -> np.ndarray:
        """Class of ``sign f(x)`` for two classes; LIBSVM's one-vs-one vote
        (:func:`~svmtext.multiclass.libsvm_vote`, ties to the first class) for more."""
        check_is_fitted(self)
        if len(self.classes_) == 2:
            return super().predict(X)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        F = self._pair_decisions(X)
        return self.classes_[libsvm_vote(F, len(self.classes_))[0]]

    def _check_proba(self):
        if not self.probability:
            raise AttributeError("predict_proba is available with probability=True; "
                                 "refit with SMOSVC(probability=True)")
        return True

    @available_if(_check_proba)
    def predict_proba(self, X) -> np.ndarray:
        r"""Platt's :math:`P(y \mid x)`, columns in the order of ``classes_``."""
        check_is_fitted(self, "probA_")
        p = platt_predict(self.decision_function(X), self.probA_[0], self.probB_[0])
        return np.column_stack([1 - p, p])

    @available_if(_check_proba)
    def predict_log_proba(self, X) -> np.ndarray:
        """Logarithm of :meth:`predict_proba`."""
        return np.log(self.predict_proba(X))
