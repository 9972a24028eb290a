r"""How the source evaluated prototype SVMs: its data, its folds, its test (book: :ref:`sec-psvm-tables`).

* :func:`load_dataset` -- the seven data sets of Shen's (2013) tables, optionally with
  a share of the labels changed to another class;
* :func:`fold_indices` -- one fold of one run of Weka Experimenter's repeated
  stratified cross-validation (10 runs of 10 folds by default);
* :func:`corrected_t_test` -- Nadeau and Bengio's corrected resampled t-test, Weka's
  PairedCorrectedTTester;
* :func:`source_tables` -- the source's printed tables (``source_tables.json``).
"""
from __future__ import annotations

import functools
import json
import math
import warnings
from pathlib import Path

import numpy as np

__all__ = ["DATASETS", "load_dataset", "fold_indices", "corrected_t_test", "source_tables",
           "STRIATED", "ISOLATED", "SPIRALS"]

#: The data sets of the source's tables (twitter's data were not published).
DATASETS = ("isolated", "striated", "spirals", "iris", "glass", "vehicle", "segment")

#: The reconstructed striated set (book: :ref:`sec-psvm-striated`): the member of the
#: family ``make_striated(n_stripes, angle)`` whose comparator accuracies lie
#: closest to the source's comparator columns.
STRIATED = {"n_stripes": 6, "angle": 45.0}

#: The reconstructed isolated set (book: :ref:`sec-psvm-isolated`): the member of the
#: family ``make_isolated(n_blobs, radius)`` whose comparator accuracies, averaged
#: over five draws, lie closest to the source's comparator columns.
ISOLATED = {"n_blobs": 4, "radius": 0.15}

#: The spirals set of the reading closest to the source's columns (book:
#: :ref:`sec-psvm-spirals`): the points of Lang and Witbrock's benchmark, 194 of them.
#: (Its folds there are unshuffled; the tables keep the source's protocol.)
SPIRALS = {"n": 194, "points": "lang_witbrock"}


@functools.cache
def load_dataset(name, noise=0.0, data_seed=0, noise_seed=0, striated=None, isolated=None,
                 spirals=None) -> tuple:
    """The data set ``name`` with ``noise`` of its labels changed to another class
    chosen uniformly (seeded); labels as class indices 0..K-1.

    ``striated`` is a tuple of ``make_striated`` keyword items (default
    :data:`STRIATED`); ``isolated`` and ``spirals`` are tuples of ``make_isolated`` and
    ``make_spirals`` keyword items (default: the generators' defaults, our first
    readings of the source's pictures; the reconstructions are :data:`ISOLATED` and
    :data:`SPIRALS`).
    """
    from sklearn.datasets import load_iris

    from .. import datasets as ds

    if name not in DATASETS:
        raise ValueError(f"unknown data set {name!r}; one of {DATASETS}")
    if name == "striated":
        X, y = ds.make_striated(random_state=data_seed, **dict(striated or STRIATED.items()))
    elif name == "isolated":
        X, y = ds.make_isolated(random_state=data_seed, **dict(isolated or ()))
    elif name == "spirals":
        X, y = ds.make_spirals(random_state=data_seed, **dict(spirals or ()))
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


def fold_indices(y, n_folds, fold, seed) -> tuple:
    """Training and test indices of fold ``fold`` of a stratified ``n_folds``-fold split
    shuffled with ``seed`` (Weka's Experimenter: run ``r`` shuffles with seed ``r``)."""
    from sklearn.model_selection import StratifiedKFold

    if not 0 <= fold < n_folds:
        raise ValueError(f"fold {fold} out of range for {n_folds} folds")
    with warnings.catch_warnings():     # glass: a class of 9 points in 10 folds
        warnings.filterwarnings("ignore", "The least populated class", UserWarning)
        splits = StratifiedKFold(n_folds, shuffle=True, random_state=seed).split(
            np.zeros(len(y)), y)
        for i, (tr, te) in enumerate(splits):
            if i == fold:
                return tr, te
    raise AssertionError("unreachable")


def corrected_t_test(a, b, test_train_ratio, alpha=0.05) -> tuple:
    r"""Nadeau and Bengio's corrected resampled t-test of paired accuracies.

    With differences :math:`d_j = a_j - b_j` over :math:`J` train/test splits, mean
    :math:`\bar d` and sample variance :math:`\hat\sigma^2`,

    .. math::

        t = \frac{\bar d}{\sqrt{\left(\tfrac1J + \tfrac{n_2}{n_1}\right)\hat\sigma^2}},

    :math:`n_2/n_1` the test-to-training size ratio (1/9 for 10-fold CV), compared
    with Student's :math:`t_{J-1}` two-sided at level ``alpha`` (Weka's
    PairedCorrectedTTester; 10 runs of 10 folds give :math:`J = 100`).
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


@functools.lru_cache(maxsize=1)
def _read_source():
    return json.loads((Path(__file__).with_name("source_tables.json")).read_text())


def source_tables() -> tuple:
    """The source's printed tables: ``(accuracy, sizes, win_lose_tie)``.

    ``accuracy[noise][method][dataset]`` is ``(mean, std)`` or ``(mean, std, mark)``
    (``"+"``: the comparator significantly better than PSVM, ``"-"``: worse);
    ``sizes[dataset]`` the ensemble sizes (exemplar SVMs, regular and sampling PSVM
    without noise, the same with 10 % noise); ``win_lose_tie[psvm][noise]`` PSVM's
    counts against the six comparators.
    """
    raw = _read_source()
    acc = {float(n): {m: {d: tuple(v) for d, v in row.items()} for m, row in tab.items()}
           for n, tab in raw["accuracy"].items()}
    sizes = {d: tuple(v) for d, v in raw["sizes"].items()}
    wlt = {r: {float(n): tuple(v) for n, v in d.items()} for r, d in raw["win_lose_tie"].items()}
    return acc, sizes, wlt
