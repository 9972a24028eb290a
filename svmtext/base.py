r"""The binary kernel SVM classifier shared by every solver in the book.

Every solver (interior point, SMO, Lotka--Volterra, ...) returns the dual
variables :math:`\alpha` and the bias :math:`b`; this base class turns them
into a scikit-learn estimator with the decision function (book: :ref:`sec-dual-decision`)

.. math::

    f(x) = \sum_{i \in \mathcal S} \alpha_i y_i k(x_i, x) + b ,

``dual_coef_`` :math:`= (\alpha_i y_i)_{i \in \mathcal S}`, ``intercept_`` :math:`= b`, and
the labels :math:`y_i = +1` for ``classes_[1]`` and :math:`-1` for ``classes_[0]``,
exactly as scikit-learn's ``SVC`` stores them.
"""
from __future__ import annotations

from numbers import Integral, Real
from typing import Self

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import (Interval, StrOptions, make_constraint,
                                            validate_parameter_constraints)
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from ._validation import check_C
from .kernels import get_kernel, kernel_diag, resolve_gamma
from .kkt import dual_objective_from_coef

__all__ = ["BaseSVC", "KernelParamsMixin", "labels_to_pm1", "labels_to_codes",
           "KERNEL_CONSTRAINTS"]

KERNEL_CONSTRAINTS = {
    "kernel": [StrOptions({"linear", "poly", "rbf"}), callable],
    "degree": [Interval(Integral, 0, None, closed="left")],
    "gamma": [StrOptions({"scale", "auto"}), Interval(Real, 0.0, None, closed="neither")],
    "coef0": [Interval(Real, None, None, closed="neither")],
}
"""scikit-learn parameter constraints of the kernel parameters (every estimator)."""


def labels_to_pm1(y) -> tuple[np.ndarray, np.ndarray]:
    """Map two class labels to -1/+1 (``classes_[1]`` -> +1); ValueError unless exactly two."""
    if type(y) is np.ndarray and y.ndim == 1 and y.dtype.kind in "iuf":
        # the common case in one pass: two finite integral values are what scikit-learn's
        # type_of_target calls 'binary' (anything else takes the checks below)
        classes = np.unique(y)
        if len(classes) == 2 and (y.dtype.kind != "f" or (
                np.all(np.isfinite(classes))
                and np.all(classes == classes.astype(np.int64).astype(classes.dtype)))):
            return classes, np.where(y == classes[1], 1.0, -1.0)
    check_classification_targets(y)
    y_type = type_of_target(y, input_name="y")
    if y_type not in ("binary", "unknown") and len(np.unique(y)) > 2:
        raise ValueError("Only binary classification is supported; the type of the target "
                         f"is {y_type} with {len(np.unique(y))} classes.")
    classes = np.unique(y)
    if len(classes) != 2:
        raise ValueError(
            f"a binary SVM needs exactly two classes in y; got {len(classes)} class"
            f"{'es' if len(classes) != 1 else ''}: {classes.tolist()[:10]}")
    return classes, np.where(y == classes[1], 1.0, -1.0)


def labels_to_codes(y) -> tuple[np.ndarray, np.ndarray]:
    """Classes and the class index of every label, for two classes or more; two
    classes give :func:`labels_to_pm1`'s ``-1/+1`` instead. ValueError for one class."""
    if type(y) is np.ndarray and y.ndim == 1 and y.dtype.kind in "iuf":
        classes, codes = np.unique(y, return_inverse=True)
        if len(classes) <= 2:
            return labels_to_pm1(y)
        # finite integral numbers are what scikit-learn's type_of_target calls
        # 'multiclass'; anything else takes check_classification_targets below
        if y.dtype.kind != "f" or (np.all(np.isfinite(classes)) and np.all(
                classes == classes.astype(np.int64).astype(classes.dtype))):
            return classes, codes
    check_classification_targets(y)
    classes, codes = np.unique(y, return_inverse=True)
    if len(classes) == 2:
        return labels_to_pm1(y)
    if len(classes) < 2:
        raise ValueError(f"an SVM needs at least two classes in y; got 1 class: "
                         f"{classes.tolist()}")
    return classes, codes.ravel()


_PARAM_NAMES: dict = {}


def validate_params(estimator) -> None:
    """scikit-learn's ``_validate_params`` (the same checks and messages), with the
    parameter names and constraint objects built once per class instead of at every
    fit (they cost more than the checks on a small problem). A parameter that satisfies
    none of its constraints is passed to scikit-learn's check, which raises its error."""
    cls = type(estimator)
    if cls not in _PARAM_NAMES:
        constraints = estimator._parameter_constraints
        _PARAM_NAMES[cls] = [
            (k, [make_constraint(c) for c in constraints[k]]) for k in cls._get_param_names()
            if k in constraints and constraints[k] != "no_validation"]
    for k, constraints in _PARAM_NAMES[cls]:      # get_params(deep=False), checked
        value = getattr(estimator, k)
        if not any(c.is_satisfied_by(value) for c in constraints):
            validate_parameter_constraints(estimator._parameter_constraints, {k: value},
                                           caller_name=cls.__name__)


def _plain_fit_data(estimator, X, y):
    """``validate_data(estimator, X, y, dtype=np.float64)`` for the plain case, without
    its generic machinery: ``X`` a finite float64 ndarray with a sample and a feature,
    ``y`` a 1-D numeric ndarray of the same length (finite if float). Sets
    ``n_features_in_`` (and drops ``feature_names_in_``) as validate_data does and
    returns ``(X, y)`` unchanged; returns None for anything else (validate_data then
    checks it and raises its own errors)."""
    if not (type(X) is np.ndarray and type(y) is np.ndarray and X.dtype == np.float64
            and X.ndim == 2 and y.ndim == 1 and y.dtype.kind in "iuf"
            and X.shape[0] >= 1 and X.shape[1] >= 1 and len(y) == X.shape[0]
            and np.isfinite(X).all() and (y.dtype.kind != "f" or np.isfinite(y).all())):
        return None
    if hasattr(estimator, "feature_names_in_"):
        delattr(estimator, "feature_names_in_")
    estimator.n_features_in_ = X.shape[1]
    return X, y


class KernelParamsMixin:
    """The kernel of an estimator with ``kernel, gamma, degree, coef0``: one place that
    resolves ``gamma`` (:func:`~svmtext.kernels.resolve_gamma`) and builds ``k`` and its diagonal."""

    def _resolve_kernel(self, X):
        """Set ``_gamma`` from the training data ``X``."""
        self._gamma = resolve_gamma(self.gamma, X) if self.kernel in ("rbf", "poly") else None

    def _kernel_function(self):
        return get_kernel(self.kernel, gamma=self._gamma, degree=self.degree, coef0=self.coef0)

    def _kernel_diag(self, X):
        return kernel_diag(X, self.kernel, gamma=self._gamma, degree=self.degree,
                           coef0=self.coef0)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.kernel == "precomputed"    # X is the Gram matrix
        return tags

    def _check_gram(self, X):
        """With ``kernel='precomputed'`` the training ``X`` must be a square Gram matrix."""
        if self.kernel == "precomputed" and X.shape[0] != X.shape[1]:
            raise ValueError("with kernel='precomputed' X must be the square n x n Gram "
                             f"matrix of the training points; got shape {X.shape}")


class BaseSVC(KernelParamsMixin, ClassifierMixin, BaseEstimator):
    """Binary kernel SVM; subclasses implement ``_solve(K, y) -> (alpha, b, info)``.

    Parameters
    ----------
    C : float, default=1.0
        Box constant :math:`0 \\le \\alpha_i \\le C`; ``float('inf')`` is the hard margin.
    kernel : {'linear', 'poly', 'rbf'} or callable, default='rbf'
    degree : int, default=3
    gamma : float or {'scale', 'auto'}, default='scale'
    coef0 : float, default=0.0

    Attributes
    ----------
    classes_ : (2,) array
        The labels; ``classes_[1]`` is :math:`y = +1`.
    alpha_ : (n,) array
        Dual variables of the training points (of the rows kept, in the order of
        ``support_``, for an estimator that keeps a subset such as a community).
    support_ : (n_SV,) int array
        Indices of the support vectors (:math:`\\alpha_i > 0`), grouped by class as
        scikit-learn's ``SVC`` orders them: those of ``classes_[0]`` (:math:`y = -1`)
        first, then those of ``classes_[1]``, each group in increasing index.
    support_vectors_ : (n_SV, d) array
        The support vectors, in the order of ``support_``.
    dual_coef_ : (1, n_SV) array
        :math:`\\alpha_i y_i` of the support vectors, in the order of ``support_``.
    intercept_ : (1,) array
        The bias :math:`b`.
    n_support_ : (2,) int array
        Support vectors per class.
    C_ : float
        The box constant used.
    fit_info_ : dict
        ``dual_objective`` (:math:`W(\\alpha)`, maximised; the same value and sign for
        every solver, from :func:`svmtext.kkt.dual_objective_from_coef`) and what the
        solver reports.
    """

    _parameter_constraints = {"C": [Interval(Real, 0.0, np.inf, closed="right")],   # inf: hard margin
                              **KERNEL_CONSTRAINTS}

    def __init__(self, *, C=1.0, kernel="rbf", degree=3, gamma="scale", coef0=0.0):
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0

    # -- subclasses -------------------------------------------------------
    def _solve(self, K, y, C):  # pragma: no cover - abstract
        raise NotImplementedError

    # -- scikit-learn API -------------------------------------------------
    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _encode_labels(self, y):
        """``classes_`` and the labels the solver reads (:func:`labels_to_pm1`)."""
        return labels_to_pm1(y)

    def _prepare(self, X, y):
        """Validate ``X, y``; set ``classes_``, ``_gamma``; return ``X, y in {-1, +1}, C``."""
        validate_params(self)
        Xy = _plain_fit_data(self, X, y)
        X, y = Xy if Xy is not None else validate_data(self, X, y, dtype=np.float64)
        self.classes_, y_pm = self._encode_labels(y)
        C = check_C(self.C)
        self._resolve_kernel(X)
        return X, y_pm, C

    def fit(self, X, y) -> Self:
        """Fit the SVM: solve the dual on ``K = k(X, X)`` and keep the support vectors."""
        X, y, C = self._prepare(X, y)
        K = self._kernel_function()(X, X)
        alpha, b, info = self._solve(K, y, C)
        return self._set_solution(X, y, alpha, b, C, info, K=K)

    def _set_solution(self, X, y, alpha, b, C, info=None, *, K=None, Kv=None, index=None):
        """Publish ``(alpha, b)`` as scikit-learn's fitted attributes.

        ``fit_info_["dual_objective"]`` is :math:`W` from ``dual_coef_`` with the Gram
        matrix ``K`` of ``X``, or ``Kv`` :math:`= K(\\alpha\\odot y)` on ``X`` (or the
        support vectors' own kernel). ``index`` maps rows of ``X`` to training indices.
        """
        alpha = np.asarray(alpha, dtype=float)
        if index is not None:
            # rows of a subset (a community): put them, and alpha_, in support_'s order
            rows = np.lexsort((np.asarray(index), y > 0))
            X, y, alpha, index = X[rows], y[rows], alpha[rows], np.asarray(index)[rows]
            K = None if K is None else np.asarray(K)[np.ix_(rows, rows)]
            Kv = None if Kv is None else np.asarray(Kv)[rows]
        support = np.flatnonzero(alpha > 0)
        # grouped by class (y = -1 first), by index within a class: scikit-learn's order
        support = support[np.lexsort((support, y[support] > 0))]
        self.alpha_ = alpha
        self.support_ = support if index is None else index[support]
        self.support_vectors_ = X[support]
        self.dual_coef_ = (alpha[support] * y[support])[None, :]
        self.intercept_ = np.array([float(b)])
        self.n_support_ = np.array([np.sum(y[support] < 0), np.sum(y[support] > 0)], dtype=np.int32)
        self.C_ = C
        if Kv is not None:
            W = dual_objective_from_coef(self.dual_coef_, Kv=np.asarray(Kv)[support])
        else:
            K_SS = (self._kernel_function()(self.support_vectors_, self.support_vectors_)
                    if K is None else K[np.ix_(support, support)])
            W = dual_objective_from_coef(self.dual_coef_, K_SS)
        self.fit_info_ = {"dual_objective": W, **(info or {})}
        return self

    def decision_function(self, X) -> np.ndarray:
        """:math:`f(x) = \\sum_{i\\in S} \\alpha_i y_i k(x_i, x) + b`; positive means ``classes_[1]``."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        if len(self.support_) == 0:
            return np.full(len(X), self.intercept_[0])
        return self._kernel_function()(X, self.support_vectors_) @ self.dual_coef_[0] + self.intercept_[0]

    def predict(self, X) -> np.ndarray:
        """Class of ``sign f(x)`` (``classes_[1]`` when :math:`f(x) > 0`)."""
        f = self.decision_function(X)
        return self.classes_[(f > 0).astype(int)]
