r"""The source's comparators: Weka's classifiers with their defaults (book: :ref:`sec-psvm-tables`).

Shen (2013) compares prototype SVMs with classifiers run in Weka's Experimenter:
J48 (C4.5), AdaBoostM1 on J48, LibSVM with a linear and a polynomial kernel,
AdaBoostM1 on the linear LibSVM, and the MultilayerPerceptron, each with Weka's
defaults. :func:`weka_comparator` builds the nearest scikit-learn estimator for
each (:data:`WEKA_DEFAULTS` states the defaults and what differs);
:class:`WekaMLP` is Weka's network itself, and :class:`WeightedSVC` passes
boosting weights to LIBSVM as Weka does.
"""
from __future__ import annotations

from typing import Self

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.svm import SVC

from .._numba import njit

__all__ = ["WekaMLP", "WeightedSVC", "weka_comparator", "WEKA_DEFAULTS", "COMPARATORS",
           "EXTRAS", "input_scaling"]

#: The source's six comparators (the columns of its tables).
COMPARATORS = ("tree", "boosted_tree", "linear_svm", "boosted_linear_svm", "poly_svm", "mlp")
#: The book's own variants, reported as labelled extras only.
EXTRAS = ("linear_svm_scaled", "poly2_svm_scaled")

#: Per comparator: (Weka's classifier and defaults, our estimator, what differs).
WEKA_DEFAULTS = {
    "tree": ("J48 (C4.5): pruned, confidence factor 0.25, minNumObj 2, subtree raising",
             "DecisionTreeClassifier(criterion='entropy', min_samples_leaf=2)",
             "information gain, not gain ratio; no C4.5 error-based pruning or subtree "
             "raising (scikit-learn has only cost-complexity pruning, left off)"),
    "boosted_tree": ("AdaBoostM1: 10 iterations, weight threshold 100, reweighting, "
                     "base classifier J48 as above",
                     "AdaBoostClassifier(tree above, n_estimators=10) (SAMME)",
                     "SAMME adds ln(K - 1) to each round's weight and continues while the "
                     "error is below 1 - 1/K; AdaBoostM1 stops at error >= 1/2"),
    "linear_svm": ("LibSVM: C-SVC, C = 1, linear kernel, tolerance 0.001, shrinking, "
                   "inputs not normalised, one-against-one for several classes",
                   "SVC(kernel='linear', C=1) on the raw inputs",
                   "none in the model: scikit-learn's SVC is LIBSVM"),
    "boosted_linear_svm": ("AdaBoostM1 as above on the linear LibSVM",
                           "AdaBoostClassifier(linear SVC above, n_estimators=10) (SAMME)",
                           "as for the boosted tree; the boosting weights become per-sample "
                           "C w_i with mean w_i = 1 (WeightedSVC)"),
    "poly_svm": ("LibSVM with the polynomial kernel (gamma <x, y> + coef0)^degree at "
                 "LIBSVM's defaults: degree 3, gamma = 1/d, coef0 = 0, C = 1, raw inputs",
                 "SVC(kernel='poly', degree=3, gamma=1/d, coef0=0, C=1) on the raw inputs",
                 "none in the model: scikit-learn's SVC is LIBSVM"),
    "mlp": ("MultilayerPerceptron: one hidden layer of (attributes + classes)/2 sigmoid "
            "units, learning rate 0.3, momentum 0.2, 500 epochs, online updates, inputs "
            "normalised to [-1, 1]",
            "WekaMLP: the same network, compiled with numba",
            "the training order is shuffled once (seeded); scikit-learn's MLPClassifier "
            "would differ (softmax and cross-entropy, Glorot weights) and, with online "
            "updates, took 20 min per fold on segment"),
    "linear_svm_scaled": ("(the book's variant, not the source's)",
                          "SVC(kernel='linear', C=1) on inputs min-max scaled to [0, 1] "
                          "by the training fold", "scaling changes what C = 1 means"),
    "poly2_svm_scaled": ("(the book's variant, not the source's)",
                         "SVC(kernel='poly', degree=2, gamma=1, coef0=0, C=1), inputs "
                         "scaled to [0, 1]", "degree 2 instead of LIBSVM's 3; scaled inputs"),
}


def input_scaling(method) -> tuple | None:
    """How ``method``'s inputs are scaled: ``None`` (raw, as Weka's LibSVM and trees see
    them), or the interval the training fold's range is mapped to."""
    if method == "mlp":
        return (-1.0, 1.0)
    if method in EXTRAS:
        return (0.0, 1.0)
    return None


class WeightedSVC(SVC):
    """scikit-learn's ``SVC`` with boosting weights rescaled to mean 1.

    Weka turns an instance weight into a per-instance :math:`C w_i`, and keeps the
    weights summing to the number of instances; scikit-learn's AdaBoost passes
    weights summing to 1, which would shrink every :math:`C` by a factor n.
    """

    def fit(self, X, y, sample_weight=None) -> Self:
        if sample_weight is not None:
            sample_weight = np.asarray(sample_weight, float)
            sample_weight = sample_weight * len(sample_weight) / sample_weight.sum()
        return super().fit(X, y, sample_weight=sample_weight)


def weka_comparator(method, n_features, n_classes, *, boost_rounds=10, tree_min_samples_leaf=2,
                    mlp_epochs=500, seed=0) -> BaseEstimator:
    """The estimator standing in for the Weka classifier ``method`` (:data:`WEKA_DEFAULTS`)."""
    from sklearn.ensemble import AdaBoostClassifier
    from sklearn.tree import DecisionTreeClassifier

    tree = DecisionTreeClassifier(criterion="entropy", min_samples_leaf=tree_min_samples_leaf,
                                  random_state=seed)
    linear = WeightedSVC(kernel="linear", C=1.0)
    if method == "tree":
        return tree
    if method == "boosted_tree":
        return AdaBoostClassifier(tree, n_estimators=boost_rounds, random_state=seed)
    if method in ("linear_svm", "linear_svm_scaled"):
        return linear
    if method == "boosted_linear_svm":
        return AdaBoostClassifier(linear, n_estimators=boost_rounds, random_state=seed)
    if method == "poly_svm":
        return WeightedSVC(kernel="poly", degree=3, gamma=1.0 / n_features, coef0=0.0, C=1.0)
    if method == "poly2_svm_scaled":
        return WeightedSVC(kernel="poly", degree=2, gamma=1.0, coef0=0.0, C=1.0)
    if method == "mlp":
        return WekaMLP(hidden=max(1, (n_features + n_classes) // 2), epochs=mlp_epochs,
                       seed=seed)
    raise ValueError(f"unknown comparator {method!r}; one of {COMPARATORS + EXTRAS}")


def fit_comparator(method, Xtr, ytr, Xte, **options) -> tuple:
    """Fit ``method`` on a training fold as Weka would and predict the test fold.

    Returns ``(predictions, stopped)``: ``stopped`` is True when boosting kept its
    first classifier alone (AdaBoostM1 stops when a round's weighted error reaches 1/2).
    """
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.preprocessing import MinMaxScaler

    scale = input_scaling(method)
    if scale is not None:
        sc = MinMaxScaler(scale).fit(Xtr)
        Xtr, Xte = sc.transform(Xtr), sc.transform(Xte)
    clf = weka_comparator(method, Xtr.shape[1], len(np.unique(ytr)), **options)
    stopped = False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        try:
            clf.fit(Xtr, ytr)
        except ValueError as exc:
            if "worse than random" not in str(exc):
                raise
            clf = clf.estimator.fit(Xtr, ytr)
            stopped = True
    return clf.predict(Xte), stopped


@njit(cache=True)
def _mlp_epochs(X, T, V, bV, Wo, bo, lr, mom, epochs):    # pragma: no cover
    """Online backpropagation: sigmoid hidden and output units, squared error."""
    n, d = X.shape
    h, K = V.shape[1], Wo.shape[1]
    dV, dbV = np.zeros_like(V), np.zeros_like(bV)
    dWo, dbo = np.zeros_like(Wo), np.zeros_like(bo)
    z, o = np.empty(h), np.empty(K)
    delta_o, delta_h = np.empty(K), np.empty(h)
    for _ in range(epochs):
        for i in range(n):
            for j in range(h):
                s = bV[j]
                for a in range(d):
                    s += X[i, a] * V[a, j]
                z[j] = 1.0 / (1.0 + np.exp(-s))
            for c in range(K):
                s = bo[c]
                for j in range(h):
                    s += z[j] * Wo[j, c]
                o[c] = 1.0 / (1.0 + np.exp(-s))
                delta_o[c] = (T[i, c] - o[c]) * o[c] * (1.0 - o[c])
            for j in range(h):
                s = 0.0
                for c in range(K):
                    s += Wo[j, c] * delta_o[c]
                delta_h[j] = s * z[j] * (1.0 - z[j])
            for c in range(K):
                dbo[c] = lr * delta_o[c] + mom * dbo[c]
                bo[c] += dbo[c]
                for j in range(h):
                    dWo[j, c] = lr * z[j] * delta_o[c] + mom * dWo[j, c]
                    Wo[j, c] += dWo[j, c]
            for j in range(h):
                dbV[j] = lr * delta_h[j] + mom * dbV[j]
                bV[j] += dbV[j]
                for a in range(d):
                    dV[a, j] = lr * X[i, a] * delta_h[j] + mom * dV[a, j]
                    V[a, j] += dV[a, j]
    return V, bV, Wo, bo


class WekaMLP:
    r"""Weka's MultilayerPerceptron with its defaults, for the comparison only.

    One hidden layer of ``hidden`` sigmoid units, one sigmoid output per class with
    target 1 for the true class and 0 otherwise, squared error, weights updated after
    every instance (online backpropagation) with learning rate 0.3 and momentum 0.2
    for 500 epochs, initial weights uniform in [-0.05, 0.05], the training order
    shuffled once (seeded). Inputs are expected in [-1, 1] (Weka normalises them so).
    """

    def __init__(self, hidden, learning_rate=0.3, momentum=0.2, epochs=500, seed=0):
        self.hidden, self.learning_rate, self.momentum = hidden, learning_rate, momentum
        self.epochs, self.seed = epochs, seed

    def fit(self, X, y) -> Self:
        rng = np.random.default_rng(self.seed)
        self.classes_, yi = np.unique(y, return_inverse=True)
        K, d = len(self.classes_), X.shape[1]
        order = rng.permutation(len(y))
        T = np.eye(K)[yi[order]]

        def u(*shape):
            return rng.uniform(-0.05, 0.05, size=shape)

        self.V_, self.bV_, self.Wo_, self.bo_ = _mlp_epochs(
            np.ascontiguousarray(X[order], dtype=float), T, u(d, self.hidden),
            u(self.hidden), u(self.hidden, K), u(K), float(self.learning_rate),
            float(self.momentum), int(self.epochs))
        return self

    def predict(self, X) -> np.ndarray:
        z = 1.0 / (1.0 + np.exp(-(X @ self.V_ + self.bV_)))
        return self.classes_[np.argmax(z @ self.Wo_ + self.bo_, axis=1)]
