r"""Shen's (2013) accuracy tables for prototype SVMs, rerun (book: :ref:`sec-psvm-tables`).

``python -m svmtext.experiments.psvm_tables [--smoke] [--backend B] [--n-jobs N]``

Stratified 10-fold cross-validation on the synthetic sets isolated, striated,
spirals and the UCI sets iris, glass, vehicle, segment, without and with 10 % label
noise, of: the prototype SVM (:class:`svmtext.psvm.PrototypeSVC`, regular and
weighted-sampling, ``k`` and ``p`` chosen by validation inside each training fold,
the iteration by TRAIN's own validation) and scikit-learn stand-ins for the Weka
classifiers of the source (:data:`WEKA_MAP` states each mapping and what differs).
One task per (data set, noise, fold, method) through
:func:`svmtext.experiments._tasks.run_tasks` (resumable, any joblib backend). The
summary adds Nadeau and Bengio's corrected resampled t-test against PSVM and the
win-lose-tie counts.
"""
from __future__ import annotations

import functools
import math
import sys
import time

import numpy as np
from numba import njit
from sklearn.svm import SVC

from ._cache import write_cache
from ._cli import run_from_command_line
from ._tasks import clear_partial, run_tasks

NAME = "psvm_tables"

DATASETS = ["isolated", "striated", "spirals", "iris", "glass", "vehicle", "segment"]
BASELINES = ["tree", "boosted_tree", "linear_svm", "boosted_linear_svm", "poly_svm", "mlp"]
METHODS = ["psvm", "psvm_sampling", *BASELINES]

CONFIG = {
    "datasets": DATASETS,
    "methods": METHODS,
    "noise": [0.0, 0.1],
    "n_folds": 10,
    "folds": list(range(10)),
    "cv_seed": 1,
    "data_seed": 0,
    "noise_seed": 0,
    # prototype SVM: fixed choices, and the grid chosen by validation
    "psvm": {"C": 1000.0, "vote": "count", "exemplar": "mean", "n_iter": 5,
             "validation_fraction": 0.2, "tol": 1e-3, "max_iter": 2000,
             "grid": {"k": [3, 30], "p": [0.1, 0.5]},
             "n_rounds": 5, "sample_fraction": 0.2, "seed": 0},
    # Weka defaults, mapped to scikit-learn (WEKA_MAP)
    "svm_C": 1.0,
    "poly_degree": 2,
    "boost_rounds": 10,
    "tree_min_samples_leaf": 2,
    "mlp": {"learning_rate": 0.3, "momentum": 0.2, "epochs": 500},
    "alpha": 0.05,
}

SMOKE_CONFIG = dict(CONFIG, datasets=["isolated", "iris"], noise=[0.0], folds=[0, 1],
                    psvm=dict(CONFIG["psvm"], n_iter=3, grid={"k": [3, 10], "p": [0.5]},
                              n_rounds=2),
                    mlp=dict(CONFIG["mlp"], epochs=20))

#: What each Weka classifier of the source became, and what differs.
WEKA_MAP = {
    "tree": ("J48 (C4.5), confidence 0.25, minNumObj 2",
             "DecisionTreeClassifier(criterion='entropy', min_samples_leaf=2)",
             "information gain, not gain ratio; no C4.5 error-based pruning or subtree "
             "raising (scikit-learn has only cost-complexity pruning, left off)"),
    "boosted_tree": ("AdaBoostM1, 10 iterations, reweighting, on J48",
                     "AdaBoostClassifier(tree above, n_estimators=10) (SAMME)",
                     "SAMME adds ln(K - 1) to each round's weight and continues while the "
                     "error is below 1 - 1/K; AdaBoostM1 stops at error >= 1/2"),
    "linear_svm": ("SMO, C = 1, PolyKernel exponent 1, inputs normalised to [0, 1], "
                   "pairwise multi-class",
                   "SVC(kernel='linear', C=1) on inputs min-max scaled by the training fold",
                   "LIBSVM's SMO instead of Keerthi's (same optimum up to tol = 1e-3); the "
                   "slides name LibSVM, whose Weka wrapper does not normalise by default"),
    "boosted_linear_svm": ("AdaBoostM1, 10 iterations, on SMO",
                           "AdaBoostClassifier(SVC above, n_estimators=10) (SAMME)",
                           "as for the boosted tree; the boosting weights become per-sample "
                           "C w_i with mean w_i = 1, as in Weka (WeightedSVC)"),
    "poly_svm": ("SMO with PolyKernel, exponent not given in the source",
                 "SVC(kernel='poly', degree=2, gamma=1, coef0=0, C=1), scaled inputs",
                 "exponent 2 is our choice (Weka's K = <x, y>^e without lower-order terms)"),
    "mlp": ("MultilayerPerceptron: one hidden layer of (attributes + classes)/2 sigmoid "
            "units, learning rate 0.3, momentum 0.2, 500 epochs, online updates, inputs "
            "normalised to [-1, 1]",
            "WekaMLP (this module): the same network in 30 lines compiled with numba; "
            "scikit-learn's MLPClassifier(activation='logistic', solver='sgd', "
            "batch_size=1, ...) is the nearest estimator but took 20 min per fold on "
            "segment",
            "the training order is shuffled once (seeded); no other difference we know "
            "of (MLPClassifier would differ: softmax and cross-entropy, Glorot weights)"),
}

#: The source's tables (accuracy %, mean and std over the folds; marks against PSVM:
#: "+" the comparator significantly better, "-" significantly worse).
SOURCE = {
    0.0: {
        "psvm": {"isolated": (90.9, 4.07), "striated": (97.3, 1.66), "spirals": (21.8, 18.9),
                 "iris": (96.0, 4.42), "glass": (52.8, 8.72), "vehicle": (79.4, 4.49),
                 "segment": (95.2, 1.18), "twitter": (55.8, 5.12)},
        "tree": {"isolated": (98.1, 1.79, "+"), "striated": (69.4, 13.4, "-"),
                 "spirals": (0.0, 0.0, "-"), "iris": (94.0, 6.29), "glass": (69.1, 6.40, "+"),
                 "vehicle": (73.8, 4.48, "-"), "segment": (97.1, 0.93, "+"),
                 "twitter": (54.5, 2.89)},
        "boosted_tree": {"isolated": (98.5, 1.46, "+"), "striated": (90.1, 7.38, "-"),
                         "spirals": (0.0, 0.0, "-"), "iris": (94.0, 5.54),
                         "glass": (72.9, 7.85, "+"), "vehicle": (75.7, 3.56),
                         "segment": (98.1, 0.85, "+"), "twitter": (60.5, 7.99)},
        "linear_svm": {"isolated": (62.5, 0.0, "-"), "striated": (48.5, 3.94, "-"),
                       "spirals": (0.0, 0.0, "-"), "iris": (98.7, 2.67),
                       "glass": (63.5, 8.08, "+"), "vehicle": (80.4, 4.50),
                       "segment": (96.3, 0.93, "+"), "twitter": (62.2, 3.66, "+")},
        "boosted_linear_svm": {"isolated": (62.5, 0.0, "-"), "striated": (53.4, 16.3, "-"),
                               "spirals": (5.63, 8.97, "-"), "iris": (97.3, 3.27),
                               "glass": (63.1, 7.73, "+"), "vehicle": (80.4, 4.23),
                               "segment": (96.1, 0.89), "twitter": (62.2, 4.15, "+")},
        "poly_svm": {"isolated": (81.9, 4.38, "-"), "striated": (72.8, 4.18, "-"),
                     "spirals": (0.0, 0.0, "-"), "iris": (96.7, 4.47),
                     "glass": (69.7, 6.55, "+"), "vehicle": (80.4, 4.53),
                     "segment": (95.8, 1.38), "twitter": (52.3, 5.54)},
        "mlp": {"isolated": (80.6, 2.81, "-"), "striated": (75.0, 25.0, "-"),
                "spirals": (20.6, 28.9), "iris": (97.3, 4.42), "glass": (70.6, 8.82, "+"),
                "vehicle": (79.7, 4.61), "segment": (96.2, 1.30), "twitter": (52.3, 5.54)},
        "psvm_sampling": {"isolated": (84.0, 7.0), "striated": (96.9, 3.84),
                          "spirals": (60.7, 34.9), "iris": (86.7, 13.0),
                          "glass": (47.6, 12.9), "vehicle": (75.4, 3.83),
                          "segment": (94.4, 1.86), "twitter": (54.0, 8.86)},
    },
    0.1: {
        "psvm": {"isolated": (71.9, 7.71), "striated": (76.8, 7.42), "spirals": (29.0, 15.4),
                 "iris": (88.7, 5.21), "glass": (50.0, 5.50), "vehicle": (68.1, 4.43),
                 "segment": (84.3, 2.18)},
        "tree": {"isolated": (84.8, 4.36, "+"), "striated": (60.3, 7.24, "-"),
                 "spirals": (9.79, 6.28, "-"), "iris": (84.7, 7.33),
                 "glass": (62.2, 7.46, "+"), "vehicle": (63.1, 1.89, "-"),
                 "segment": (85.5, 2.30)},
        "boosted_tree": {"isolated": (83.6, 4.65, "+"), "striated": (64.3, 6.55, "-"),
                         "spirals": (9.79, 6.28, "-"), "iris": (83.3, 7.45),
                         "glass": (66.3, 8.87, "+"), "vehicle": (67.6, 2.54),
                         "segment": (85.4, 2.23)},
        "linear_svm": {"isolated": (59.3, 3.67, "-"), "striated": (52.0, 2.86, "-"),
                       "spirals": (11.9, 10.2, "-"), "iris": (90.0, 6.83),
                       "glass": (53.7, 8.91), "vehicle": (71.5, 3.57),
                       "segment": (84.1, 1.82)},
        "boosted_linear_svm": {"isolated": (57.9, 3.71, "-"), "striated": (56.8, 7.36, "-"),
                               "spirals": (16.9, 17.1), "iris": (90.0, 6.15),
                               "glass": (57.5, 7.90, "+"), "vehicle": (69.1, 4.24),
                               "segment": (84.0, 2.12)},
        "poly_svm": {"isolated": (75.5, 4.91), "striated": (66.8, 3.12, "-"),
                     "spirals": (10.3, 6.95, "-"), "iris": (90.0, 5.37),
                     "glass": (61.6, 8.95, "+"), "vehicle": (57.4, 5.12, "-"),
                     "segment": (67.8, 3.95, "-")},
        "mlp": {"isolated": (73.9, 3.51), "striated": (67.4, 18.5), "spirals": (17.1, 13.4),
                "iris": (91.3, 6.70), "glass": (61.7, 4.14, "+"), "vehicle": (71.0, 2.61),
                "segment": (85.4, 2.51)},
        "psvm_sampling": {"isolated": (68.8, 5.81), "striated": (75.1, 10.1),
                          "spirals": (57.8, 28.6), "iris": (76.7, 10.4),
                          "glass": (43.4, 9.40), "vehicle": (59.1, 5.69),
                          "segment": (80.6, 3.15)},
    },
}
#: Ensemble sizes of the source: exemplar SVMs, then regular/sampling without and
#: with noise (twitter's noisy runs are missing in the source).
SOURCE_SIZES = {"isolated": (720, 323, 124, 122, 70), "striated": (720, 149, 88, 170, 93),
                "spirals": (175, 47, 29, 56, 20), "iris": (135, 54, 13, 24, 11),
                "glass": (193, 35, 15, 37, 20), "vehicle": (761, 110, 61, 113, 64),
                "segment": (2079, 453, 172, 323, 164), "twitter": (540, 42, 32, None, None)}
#: The source's win-lose-tie counts of PSVM against the six comparators (8 data sets
#: noiseless, 7 noisy).
SOURCE_WLT = {"psvm": {0.0: (16, 13, 19), 0.1: (14, 7, 21)},
              "psvm_sampling": {0.0: (14, 23, 11), 0.1: (13, 23, 6)}}


# -- data ---------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def load_dataset(name, noise, data_seed, noise_seed):
    """The data set ``name`` with ``noise`` of its labels changed to another class
    chosen uniformly (seeded); labels as class indices 0..K-1."""
    from sklearn.datasets import load_iris

    from .. import datasets as ds

    makers = {"isolated": ds.make_isolated, "striated": ds.make_striated,
              "spirals": ds.make_spirals}
    if name in makers:
        X, y = makers[name](random_state=data_seed)
    elif name == "iris":
        X, y = load_iris(return_X_y=True)
    else:
        X, y = {"glass": ds.load_glass, "vehicle": ds.load_vehicle,
                "segment": ds.load_segment}[name]()
    classes, y = np.unique(y, return_inverse=True)
    if noise:
        rng = np.random.default_rng([noise_seed, DATASETS.index(name)])
        flip = rng.choice(len(y), int(round(noise * len(y))), replace=False)
        shift = rng.integers(1, len(classes), size=len(flip))
        y = y.copy()
        y[flip] = (y[flip] + shift) % len(classes)
    return np.asarray(X, dtype=float), y


def fold_indices(y, n_folds, fold, seed):
    """Training and test indices of fold ``fold`` of a stratified ``n_folds``-fold split."""
    from sklearn.model_selection import StratifiedKFold

    import warnings

    with warnings.catch_warnings():     # glass: a class of 9 points in 10 folds
        warnings.filterwarnings("ignore", "The least populated class", UserWarning)
        splits = list(StratifiedKFold(n_folds, shuffle=True, random_state=seed).split(
            np.zeros(len(y)), y))
    for i, (tr, te) in enumerate(splits):
        if i == fold:
            return tr, te
    raise ValueError(f"fold {fold} out of range for {n_folds} folds")


# -- methods ------------------------------------------------------------------
def _scaled(Xtr, Xte, lo=0.0, hi=1.0):
    from sklearn.preprocessing import MinMaxScaler

    sc = MinMaxScaler((lo, hi)).fit(Xtr)
    return sc.transform(Xtr), sc.transform(Xte)


class WeightedSVC(SVC):
    """scikit-learn's ``SVC`` with boosting weights rescaled to mean 1.

    Weka's SMO turns an instance weight into a per-instance :math:`C w_i`, and Weka
    keeps the weights summing to the number of instances; scikit-learn's AdaBoost
    passes weights summing to 1, which would shrink every :math:`C` by a factor n.
    """

    def fit(self, X, y, sample_weight=None):
        if sample_weight is not None:
            sample_weight = np.asarray(sample_weight, float)
            sample_weight = sample_weight * len(sample_weight) / sample_weight.sum()
        return super().fit(X, y, sample_weight=sample_weight)


def _baseline(method, config, n_features, n_classes):
    from sklearn.ensemble import AdaBoostClassifier
    from sklearn.tree import DecisionTreeClassifier

    tree = DecisionTreeClassifier(criterion="entropy",
                                  min_samples_leaf=config["tree_min_samples_leaf"],
                                  random_state=0)
    linear = WeightedSVC(kernel="linear", C=config["svm_C"])
    if method == "tree":
        return tree
    if method == "boosted_tree":
        return AdaBoostClassifier(tree, n_estimators=config["boost_rounds"], random_state=0)
    if method == "linear_svm":
        return linear
    if method == "boosted_linear_svm":
        return AdaBoostClassifier(linear, n_estimators=config["boost_rounds"], random_state=0)
    if method == "poly_svm":
        return WeightedSVC(kernel="poly", degree=config["poly_degree"], gamma=1.0, coef0=0.0,
                   C=config["svm_C"])
    if method == "mlp":
        m = config["mlp"]
        return WekaMLP(hidden=max(1, (n_features + n_classes) // 2),
                       learning_rate=m["learning_rate"], momentum=m["momentum"],
                       epochs=m["epochs"], seed=0)
    raise ValueError(f"unknown method {method!r}")


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
    scikit-learn's ``MLPClassifier`` needs ``batch_size=1`` for online updates, which
    took 2.5 s per epoch on segment here (20 min per fold): too slow for the table.
    """

    def __init__(self, hidden, learning_rate=0.3, momentum=0.2, epochs=500, seed=0):
        self.hidden, self.learning_rate, self.momentum = hidden, learning_rate, momentum
        self.epochs, self.seed = epochs, seed

    def fit(self, X, y):
        rng = np.random.default_rng(self.seed)
        self.classes_, yi = np.unique(y, return_inverse=True)
        K, d = len(self.classes_), X.shape[1]
        order = rng.permutation(len(y))
        T = np.eye(K)[yi[order]]
        u = lambda *shape: rng.uniform(-0.05, 0.05, size=shape)
        self.V_, self.bV_, self.Wo_, self.bo_ = _mlp_epochs(
            np.ascontiguousarray(X[order], dtype=float), T, u(d, self.hidden),
            u(self.hidden), u(self.hidden, K), u(K), float(self.learning_rate),
            float(self.momentum), int(self.epochs))
        return self

    def predict(self, X):
        z = 1.0 / (1.0 + np.exp(-(X @ self.V_ + self.bV_)))
        return self.classes_[np.argmax(z @ self.Wo_ + self.bo_, axis=1)]


def _psvm_fit(Xtr, ytr, cfg, k, p, sampling):
    from ..psvm import PrototypeSVC

    return PrototypeSVC(k=k, p=p, n_iter=cfg["n_iter"], C=cfg["C"], vote=cfg["vote"],
                        exemplar=cfg["exemplar"],
                        validation_fraction=cfg["validation_fraction"], sampling=sampling,
                        n_rounds=cfg["n_rounds"], sample_fraction=cfg["sample_fraction"],
                        tol=cfg["tol"], smo_max_iter=cfg["max_iter"],
                        random_state=cfg["seed"]).fit(Xtr, ytr)


def _psvm_summary(clf, Xte, yte):
    stopped = sum(it.get("n_stopped_at_max_iter", 0) for h in clf.history_
                  for it in h.get("iterations", [h]))    # sampling: per round
    return {"accuracy": float(np.mean(clf.predict(Xte) == yte)),
            "n_models": int(clf.n_models_), "n_exemplar_svms": int(clf.n_exemplar_svms_),
            "k": int(clf.k), "p": float(clf.p), "best_iteration": int(clf.best_iteration_),
            "validation_score": float(clf.validation_score_),
            "n_stopped_at_max_iter": int(stopped)}


def _psvm(Xtr, ytr, Xte, yte, cfg):
    """Both PSVMs of one fold. Regular: ``k`` and ``p`` chosen by TRAIN's validation
    accuracy over the grid (the same split for every candidate; ties: the first
    candidate). Sampling: the same ``k`` and ``p`` (its own search would cost the
    grid again)."""
    best = None
    for k in cfg["grid"]["k"]:
        for p in cfg["grid"]["p"]:
            clf = _psvm_fit(Xtr, ytr, cfg, k, p, sampling=False)
            if best is None or clf.validation_score_ > best.validation_score_:
                best = clf
    sampled = _psvm_fit(Xtr, ytr, cfg, best.k, best.p, sampling=True)
    return {"psvm": _psvm_summary(best, Xte, yte),
            "psvm_sampling": _psvm_summary(sampled, Xte, yte)}


def run_task(dataset, noise, fold, method, config):
    """One fold of one method: accuracy on the test fold (and, for PSVM, its ensemble)."""
    from threadpoolctl import threadpool_limits

    t0 = time.perf_counter()
    X, y = load_dataset(dataset, noise, config["data_seed"], config["noise_seed"])
    tr, te = fold_indices(y, config["n_folds"], fold, config["cv_seed"])
    out = {"n_train": int(len(tr)), "n_test": int(len(te))}
    with threadpool_limits(1):
        if method == "psvm":          # both variants (tasks: see make_tasks)
            out.update(_psvm(X[tr], y[tr], X[te], y[te], config["psvm"]))
        else:
            lo = -1.0 if method == "mlp" else 0.0
            Xtr, Xte = _scaled(X[tr], X[te], lo, 1.0)
            n_classes = len(np.unique(y))
            import warnings

            from sklearn.exceptions import ConvergenceWarning
            clf = _baseline(method, config, X.shape[1], n_classes)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                try:
                    clf.fit(Xtr, y[tr])
                except ValueError as exc:
                    if "worse than random" not in str(exc):
                        raise
                    # Weka's AdaBoostM1 keeps its first classifier alone when
                    # that one's weighted error is 1/2 or more
                    clf = clf.estimator.fit(Xtr, y[tr])
                    out["boosting_stopped_at_first_round"] = True
            out["accuracy"] = float(np.mean(clf.predict(Xte) == y[te]))
    out["seconds"] = time.perf_counter() - t0
    return out


# -- statistics ---------------------------------------------------------------
def corrected_t_test(a, b, test_train_ratio, alpha=0.05):
    r"""Nadeau and Bengio's corrected resampled t-test of paired accuracies.

    With differences :math:`d_j = a_j - b_j` over :math:`J` train/test splits, mean
    :math:`\bar d` and sample variance :math:`\hat\sigma^2`,

    .. math::

        t = \frac{\bar d}{\sqrt{\left(\tfrac1J + \tfrac{n_2}{n_1}\right)\hat\sigma^2}},

    :math:`n_2/n_1` the test-to-training size ratio, compared with Student's
    :math:`t_{J-1}` two-sided at level ``alpha`` (Weka's PairedCorrectedTTester).
    Returns ``(t, p, sign)``: ``sign`` +1 if ``a`` is significantly larger, -1 if
    smaller, 0 otherwise. No variance and equal means: no difference; no variance and
    different means: significant.
    """
    from scipy import stats

    d = np.asarray(a, float) - np.asarray(b, float)
    J = len(d)
    mean, var = d.mean(), d.var(ddof=1) if J > 1 else 0.0
    if var == 0:
        if mean == 0:
            return 0.0, 1.0, 0
        return math.copysign(math.inf, mean), 0.0, int(np.sign(mean))
    t = mean / math.sqrt((1.0 / J + test_train_ratio) * var)
    p = 2 * stats.t.sf(abs(t), J - 1)
    return float(t), float(p), (int(np.sign(t)) if p < alpha else 0)


def summarise(config, tasks, out):
    """Per (noise, data set, method): accuracies (%), mean, std; t-tests against PSVM
    and between the two PSVM variants; win-lose-tie counts; ensemble sizes."""
    cells = {}
    for task, res in zip(tasks, out):
        parts = ({m: dict(res[m], seconds=res["seconds"]) for m in ("psvm", "psvm_sampling")}
                 if task["method"] == "psvm" else {task["method"]: res})
        for m, r in parts.items():
            cells.setdefault((task["noise"], task["dataset"], m), {})[task["fold"]] = r
    table = {}
    for noise in config["noise"]:
        for ds in config["datasets"]:
            for m in config["methods"]:
                folds = cells[(noise, ds, m)]
                acc = [100 * folds[f]["accuracy"] for f in config["folds"]]
                row = {"accuracy": acc, "mean": float(np.mean(acc)),
                       "std": float(np.std(acc, ddof=1)) if len(acc) > 1 else 0.0}
                if m.startswith("psvm"):
                    for key in ("n_models", "n_exemplar_svms", "k", "p", "best_iteration",
                                "n_stopped_at_max_iter"):
                        row[key] = [folds[f][key] for f in config["folds"]]
                table[f"{noise}/{ds}/{m}"] = row
    ratio = 1.0 / (config["n_folds"] - 1)       # test / training size of k-fold CV
    tests, wlt = {}, {}
    for noise in config["noise"]:
        for ref in ("psvm", "psvm_sampling"):
            w = l_ = t_ = 0
            for ds in config["datasets"]:
                a = table[f"{noise}/{ds}/{ref}"]["accuracy"]
                for m in BASELINES:
                    if m not in config["methods"]:
                        continue
                    t, p, sign = corrected_t_test(table[f"{noise}/{ds}/{m}"]["accuracy"], a,
                                                  ratio, config["alpha"])
                    tests[f"{noise}/{ds}/{m}/{ref}"] = {"t": t, "p": p, "sign": sign}
                    w += sign < 0
                    l_ += sign > 0
                    t_ += sign == 0
            wlt[f"{noise}/{ref}"] = [int(w), int(l_), int(t_)]
        for ds in config["datasets"]:
            t, p, sign = corrected_t_test(table[f"{noise}/{ds}/psvm"]["accuracy"],
                                          table[f"{noise}/{ds}/psvm_sampling"]["accuracy"],
                                          ratio, config["alpha"])
            tests[f"{noise}/{ds}/psvm/psvm_sampling"] = {"t": t, "p": p, "sign": sign}
    return {"table": table, "tests": tests, "win_lose_tie": wlt}


def make_tasks(config):
    """One task per (data set, noise, fold, method); one task fits both PSVMs.
    The largest data sets come first, so that two workers end together."""
    methods = ["psvm" if m == "psvm_sampling" else m for m in config["methods"]]
    methods = list(dict.fromkeys(methods))
    order = sorted(config["datasets"], key=lambda d: -_SIZE.get(d, 0))
    return [{"dataset": ds, "noise": noise, "fold": f, "method": m, "config": config}
            for ds in order for m in methods for noise in config["noise"]
            for f in config["folds"]]


_SIZE = {"segment": 2310, "vehicle": 846, "isolated": 800, "striated": 800, "glass": 214,
         "spirals": 200, "iris": 150}


def run(config=CONFIG, root=None, backend=None, n_jobs=None, stop_after=None):
    """Run every fold of every method (resumable) and write ``psvm_tables.json``."""
    tasks = make_tasks(config)
    t0 = time.perf_counter()
    # the task function by its importable name, also under `python -m` (where this
    # module is __main__, which worker processes cannot import)
    from svmtext.experiments.psvm_tables import run_task as task_fn
    out = run_tasks(NAME, config, tasks, task_fn, root=root, backend=backend,
                    n_jobs=n_jobs, desc="psvm tables", stop_after=stop_after)
    results = summarise(config, tasks, out)
    results["seconds"] = {"wall": time.perf_counter() - t0,
                          "tasks": float(sum(r["seconds"] for r in out))}
    results["task_seconds"] = {f"{t['noise']}/{t['dataset']}/{t['method']}/{t['fold']}":
                               r["seconds"] for t, r in zip(tasks, out)}
    write_cache(NAME, config, results, root=root)
    clear_partial(NAME, config, root)
    return results


def main(argv=None):
    res = run_from_command_line(sys.modules[__name__], argv)
    tab = res["table"]
    for key in sorted(tab):
        print(f"{key:40s} {tab[key]['mean']:6.1f} +- {tab[key]['std']:5.2f}")
    print("win-lose-tie", res["win_lose_tie"])
    print(f"task seconds {res['seconds']['tasks']:.0f}, wall {res['seconds']['wall']:.0f}")


if __name__ == "__main__":
    main()
