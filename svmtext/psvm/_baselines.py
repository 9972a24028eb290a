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

from numbers import Integral
from typing import Self

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.svm import SVC
from sklearn.utils._param_validation import HasMethods, Interval
from sklearn.utils.validation import validate_data

from .._numba import njit

__all__ = ["WekaMLP", "WeightedSVC", "weka_comparator", "WEKA_DEFAULTS", "COMPARATORS",
           "EXTRAS", "input_scaling", "libsvm_max_iter", "capped_pairs",
           "AdaBoostM1"]

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
                   "inputs not normalised, one-against-one for several classes; LIBSVM "
                   "(since 3.11, 2011) stops a subproblem after max(10^7, 100 l) iterations",
                   "SVC(kernel='linear', C=1, max_iter=max(10^7, 100 l)) on the raw inputs",
                   "scikit-learn's SVC is LIBSVM; at the cap LIBSVM computes b from every "
                   "point, scikit-learn's copy from the unshrunk ones (the same b whenever "
                   "the subproblem has a free support vector; counted per fold)"),
    "boosted_linear_svm": ("AdaBoostM1 as above on the linear LibSVM",
                           "AdaBoostClassifier(linear SVC above, n_estimators=10) (SAMME)",
                           "as for the boosted tree; the boosting weights become per-sample "
                           "C w_i with mean w_i = 1 (WeightedSVC). AdaBoostM1 reweights only "
                           "a base classifier that handles instance weights; Weka's LibSVM "
                           "wrapper as we found it does not declare that it does, and then "
                           "AdaBoostM1 resamples the training set by the weights instead "
                           "(AdaBoostM1(resample=True); which of the two the source's Weka "
                           "did is not known: compared on iris, glass and spirals)"),
    "poly_svm": ("LibSVM with the polynomial kernel (gamma <x, y> + coef0)^degree at "
                 "LIBSVM's defaults: degree 3, gamma = 1/d, coef0 = 0, C = 1, raw inputs",
                 "SVC(kernel='poly', degree=3, gamma=1/d, coef0=0, C=1, "
                 "max_iter=max(10^7, 100 l)) on the raw inputs",
                 "as for the linear LibSVM"),
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


def libsvm_max_iter(n_samples) -> int:
    """LIBSVM's own iteration cap, :math:`\\max(10^7, 100\\,l)` for a subproblem of
    :math:`l` points (``svm.cpp``'s ``Solver::Solve`` since version 3.11, 2011; its Java
    port, which Weka loads, has the same). ``n_samples`` bounds every subproblem's
    :math:`l` from above; below 100,000 points the cap is :math:`10^7` whatever l is."""
    return max(10_000_000, 100 * int(n_samples))


class WeightedSVC(SVC):
    """scikit-learn's ``SVC`` with boosting weights rescaled to mean 1.

    Weka turns an instance weight into a per-instance :math:`C w_i`, and keeps the
    weights summing to the number of instances; scikit-learn's AdaBoost passes
    weights summing to 1, which would shrink every :math:`C` by a factor n.
    ``weights_`` keeps the rescaled weights (``None`` without weights), so that
    :func:`capped_pairs` knows each point's bound :math:`C w_i`.
    """

    def fit(self, X, y, sample_weight=None) -> Self:
        if sample_weight is not None:
            sample_weight = np.asarray(sample_weight, float)
            sample_weight = sample_weight * len(sample_weight) / sample_weight.sum()
        super().fit(X, y, sample_weight=sample_weight)
        self.weights_ = sample_weight
        return self


def capped_pairs(clf) -> tuple[int, int]:
    """How many one-against-one subproblems of a fitted :class:`WeightedSVC` stopped at
    ``max_iter``, and how many of those have no free support vector.

    At the cap LIBSVM rebuilds the full gradient and computes :math:`b` over all points;
    scikit-learn's copy computes it over the unshrunk ones. :math:`b` is the mean of
    :math:`y_i G_i` over free points when there is one, and shrinking removes only
    points at a bound, so the two agree unless a capped subproblem has no free point:
    the second count is the number of subproblems whose :math:`b` may differ from
    LIBSVM's. Pair :math:`(a, c)`, :math:`a < c`, keeps class :math:`a`'s coefficients
    in row :math:`c - 1` of ``dual_coef_`` and class :math:`c`'s in row :math:`a`.
    """
    n_iter = np.atleast_1d(clf.n_iter_)
    capped = np.flatnonzero(n_iter >= clf.max_iter) if clf.max_iter > 0 else []
    if len(capped) == 0:
        return 0, 0
    k = len(clf.classes_)
    pairs = [(a, c) for a in range(k) for c in range(a + 1, k)]
    start = np.concatenate([[0], np.cumsum(clf.n_support_)])
    w = np.ones(start[-1]) if clf.weights_ is None else clf.weights_[clf.support_]
    bound = clf.C * w
    no_free = 0
    for p in capped:
        a, c = pairs[p]
        coef = np.concatenate([clf.dual_coef_[c - 1, start[a]:start[a + 1]],
                               clf.dual_coef_[a, start[c]:start[c + 1]]])
        ub = np.concatenate([bound[start[a]:start[a + 1]], bound[start[c]:start[c + 1]]])
        free = (np.abs(coef) > 0) & (np.abs(coef) < ub)
        no_free += int(not free.any())
    return len(capped), no_free


def weka_comparator(method, n_features, n_classes, *, boost_rounds=10, tree_min_samples_leaf=2,
                    mlp_epochs=500, seed=0, n_samples=0) -> BaseEstimator:
    """The estimator standing in for the Weka classifier ``method`` (:data:`WEKA_DEFAULTS`);
    its LibSVMs stop where LIBSVM would for ``n_samples`` training points
    (:func:`libsvm_max_iter`)."""
    from sklearn.ensemble import AdaBoostClassifier
    from sklearn.tree import DecisionTreeClassifier

    tree = DecisionTreeClassifier(criterion="entropy", min_samples_leaf=tree_min_samples_leaf,
                                  random_state=seed)
    cap = libsvm_max_iter(n_samples)
    linear = WeightedSVC(kernel="linear", C=1.0, max_iter=cap)
    if method == "tree":
        return tree
    if method == "boosted_tree":
        return AdaBoostClassifier(tree, n_estimators=boost_rounds, random_state=seed)
    if method in ("linear_svm", "linear_svm_scaled"):
        return linear
    if method == "boosted_linear_svm":
        return AdaBoostClassifier(linear, n_estimators=boost_rounds, random_state=seed)
    if method == "poly_svm":
        return WeightedSVC(kernel="poly", degree=3, gamma=1.0 / n_features, coef0=0.0, C=1.0,
                           max_iter=cap)
    if method == "poly2_svm_scaled":
        return WeightedSVC(kernel="poly", degree=2, gamma=1.0, coef0=0.0, C=1.0, max_iter=cap)
    if method == "mlp":
        return WekaMLP(hidden=max(1, (n_features + n_classes) // 2), epochs=mlp_epochs,
                       seed=seed)
    raise ValueError(f"unknown comparator {method!r}; one of {COMPARATORS + EXTRAS}")


def fit_comparator(method, Xtr, ytr, Xte, **options) -> tuple:
    """Fit ``method`` on a training fold as Weka would and predict the test fold.

    Returns ``(predictions, notes)``. ``notes`` holds what departs from a plain fit, only
    when it happened: ``boosting_stopped_at_first_round`` (AdaBoostM1 stops when a round's
    weighted error reaches 1/2, keeping its first classifier alone), and for the LibSVMs
    ``libsvm_capped`` and ``libsvm_capped_no_free`` (:func:`capped_pairs`, summed over
    boosting rounds).
    """
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.preprocessing import MinMaxScaler

    scale = input_scaling(method)
    if scale is not None:
        sc = MinMaxScaler(scale).fit(Xtr)
        Xtr, Xte = sc.transform(Xtr), sc.transform(Xte)
    clf = weka_comparator(method, Xtr.shape[1], len(np.unique(ytr)), n_samples=len(Xtr),
                          **options)
    notes = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        try:
            clf.fit(Xtr, ytr)
        except ValueError as exc:
            if "worse than random" not in str(exc):
                raise
            clf = clf.estimator.fit(Xtr, ytr)
            notes["boosting_stopped_at_first_round"] = True
    svms = [e for e in getattr(clf, "estimators_", [clf]) if isinstance(e, WeightedSVC)]
    capped = np.sum([capped_pairs(e) for e in svms], axis=0, dtype=int).reshape(-1)
    if svms and capped[0]:
        notes["libsvm_capped"], notes["libsvm_capped_no_free"] = map(int, capped)
    return clf.predict(Xte), notes


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


class AdaBoostM1(ClassifierMixin, BaseEstimator):
    """Weka's AdaBoostM1 (book: :ref:`sec-psvm-tables`): by reweighting, or, as Weka does
    for a base classifier that takes no instance weights, by resampling.

    The weights :math:`w_i` start equal and sum to 1. Round :math:`t` fits ``estimator``
    with the weights (``resample=False``: ``sample_weight`` :math:`n w_i`) or on
    :math:`n` points drawn with replacement, point :math:`i` with probability
    :math:`w_i` (``resample=True``; a draw whose fit makes no error is redrawn, up to
    10 times), and takes its weighted error :math:`\\epsilon_t = \\sum_{i\\,
    \\text{wrong}} w_i` on the whole training set. Boosting stops at
    :math:`\\epsilon_t \\ge 1/2` or :math:`\\epsilon_t = 0` (a first round is then kept
    alone); otherwise the round votes with :math:`\\beta_t = \\ln((1 -
    \\epsilon_t)/\\epsilon_t)`, and the weights of the points it got wrong are multiplied
    by :math:`(1 - \\epsilon_t)/\\epsilon_t`, then rescaled to their old sum. The
    prediction is the class with the largest sum of :math:`\\beta_t`. Unlike
    scikit-learn's SAMME, no :math:`\\ln(K - 1)` is added to :math:`\\beta_t` and
    boosting stops at :math:`\\epsilon_t \\ge 1/2` whatever the number of classes
    :math:`K`.

    Parameters
    ----------
    estimator : estimator
        The base classifier (cloned every round; with ``resample=False`` its ``fit``
        must take ``sample_weight``).
    n_estimators : int, default 10
        Rounds (Weka's ``-I``).
    resample : bool, default False
        Draw a sample by the weights instead of passing them (Weka's ``-Q``).
    random_state : int, default 1
        Seed of the draws (Weka's ``-S``; Weka's own random numbers differ).
    """

    _parameter_constraints = {"estimator": [HasMethods(["fit", "predict"])],
                              "n_estimators": [Interval(Integral, 1, None, closed="left")],
                              "resample": ["boolean"],
                              "random_state": ["random_state"]}

    def __init__(self, estimator, n_estimators=10, resample=False, random_state=1):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.resample = resample
        self.random_state = random_state

    def _round(self, X, y_idx, w, rng):
        from sklearn.base import clone

        n = len(y_idx)
        for _ in range(10 if self.resample else 1):
            if self.resample:
                idx = rng.choice(n, size=n, replace=True, p=w / w.sum())
                est = clone(self.estimator).fit(X[idx], y_idx[idx])
            else:
                est = clone(self.estimator).fit(X, y_idx, sample_weight=n * w / w.sum())
            wrong = est.predict(X) != y_idx
            eps = float(w[wrong].sum() / w.sum())
            if eps != 0.0:
                break
        return est, wrong, eps

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y) -> Self:
        from sklearn.utils import check_random_state
        from sklearn.utils.multiclass import check_classification_targets

        X, y = validate_data(self, X, y)
        check_classification_targets(y)
        self.classes_, y_idx = np.unique(y, return_inverse=True)
        rng = check_random_state(self.random_state)
        w = np.full(len(y), 1.0 / len(y))
        self.estimators_, self.betas_ = [], []
        for _ in range(self.n_estimators):
            est, wrong, eps = self._round(X, y_idx, w, rng)
            if eps >= 0.5 or eps == 0.0:
                if not self.estimators_:
                    self.estimators_.append(est)
                    self.betas_.append(1.0)
                break
            self.estimators_.append(est)
            self.betas_.append(np.log((1 - eps) / eps))
            total = w.sum()
            w[wrong] *= (1 - eps) / eps
            w *= total / w.sum()
        return self

    def predict(self, X) -> np.ndarray:
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        votes = np.zeros((len(X), len(self.classes_)))
        for est, beta in zip(self.estimators_, self.betas_):
            votes[np.arange(len(X)), est.predict(X).astype(int)] += beta
        return self.classes_[np.argmax(votes, axis=1)]
