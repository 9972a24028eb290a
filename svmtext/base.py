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

import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from .kernels import get_kernel, resolve_gamma

__all__ = ["BaseSVC", "check_C", "labels_to_pm1"]


def check_C(C):
    """Validate the box constant: a positive number, or ``inf``/``None`` for the hard margin."""
    if C is None:
        return np.inf
    if not isinstance(C, numbers.Real) or isinstance(C, bool) or np.isnan(C) or C <= 0:
        raise ValueError(f"C must be a positive number (or inf for the hard margin); got {C!r}")
    return float(C)


def labels_to_pm1(y):
    """Map two class labels to -1/+1 (``classes_[1]`` -> +1); ValueError unless exactly two."""
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


class BaseSVC(ClassifierMixin, BaseEstimator):
    """Binary kernel SVM; subclasses implement ``_solve(K, y) -> (alpha, b, info)``.

    Parameters
    ----------
    C : float, default=1.0
        Box constant :math:`0 \\le \\alpha_i \\le C`; ``float('inf')`` is the hard margin.
    kernel : {'linear', 'poly', 'rbf'} or callable, default='rbf'
    degree : int, default=3
    gamma : float or {'scale', 'auto'}, default='scale'
    coef0 : float, default=0.0
    """

    _support_tol = 0.0  # alpha_i > this marks a support vector

    def __init__(self, C=1.0, kernel="rbf", degree=3, gamma="scale", coef0=0.0):
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

    def _kernel_function(self):
        return get_kernel(self.kernel, gamma=self._gamma, degree=self.degree, coef0=self.coef0)

    def _prepare(self, X, y):
        """Validate ``X, y``; set ``classes_``, ``_gamma``; return ``X, y in {-1, +1}, C``."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.classes_, y_pm = labels_to_pm1(y)
        C = check_C(self.C)
        self._gamma = resolve_gamma(self.gamma, X) if self.kernel in ("rbf", "poly") else None
        return X, y_pm, C

    def fit(self, X, y):
        """Fit the SVM: solve the dual on ``K = k(X, X)`` and keep the support vectors."""
        X, y, C = self._prepare(X, y)
        K = self._kernel_function()(X, X)
        alpha, b, info = self._solve(K, y, C)
        self._set_solution(X, y, alpha, b, C, info)
        return self

    def _set_solution(self, X, y, alpha, b, C, info=None):
        alpha = np.asarray(alpha, dtype=float)
        support = np.flatnonzero(alpha > self._support_tol)
        self.alpha_ = alpha
        self.support_ = support
        self.support_vectors_ = X[support]
        self.dual_coef_ = (alpha[support] * y[support])[None, :]
        self.intercept_ = np.array([float(b)])
        self.n_support_ = np.array([np.sum(y[support] < 0), np.sum(y[support] > 0)], dtype=np.int32)
        self.C_ = C
        self.fit_info_ = dict(info or {})
        return self

    def decision_function(self, X):
        """:math:`f(x) = \\sum_{i\\in S} \\alpha_i y_i k(x_i, x) + b`; positive means ``classes_[1]``."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        if len(self.support_) == 0:
            return np.full(len(X), self.intercept_[0])
        return self._kernel_function()(X, self.support_vectors_) @ self.dual_coef_[0] + self.intercept_[0]

    def predict(self, X):
        """Class of ``sign f(x)`` (``classes_[1]`` when :math:`f(x) > 0`)."""
        f = self.decision_function(X)
        return self.classes_[(f > 0).astype(int)]
