r"""The LIBSVM guide's procedure on its three data sets (book: :ref:`sec-practice-guide`).

``python -m svmtext.experiments.svmguide [--smoke] [--backend B] [--n-jobs N]``

Hsu, Chang and Lin's *A Practical Guide to Support Vector Classification* reports,
for svmguide1 (Astroparticle), svmguide2 (Bioinformatics) and svmguide3 (Vehicle),
the accuracy of an RBF SVM with LIBSVM's defaults (:math:`C = 1`,
:math:`\gamma = 1/\text{number of features}`) on the original data, after scaling
every feature to :math:`[-1, 1]` with the training ranges, and after a grid search of
:math:`(C, \gamma)` by 5-fold cross-validation. This script repeats the three steps
with :class:`~svmtext.smo.SMOSVC` (one-vs-one through scikit-learn's
:class:`~sklearn.multiclass.OneVsOneClassifier` for the three classes of svmguide2)
and, at the same points, with scikit-learn's ``SVC`` (LIBSVM).

The grid is the guide's (its ``grid.py`` defaults): :math:`\log_2 C = -5, -3, \dots,
15`, :math:`\log_2\gamma = 3, 1, \dots, -15`; each point is one task (all five folds)
run through :func:`svmtext.experiments._tasks.run_tasks`. The best point is the
highest mean CV accuracy, ties going to the smaller :math:`C`, then the smaller
:math:`\gamma`. Scaling is done inside the cross-validation
(``Pipeline(MinMaxScaler((-1, 1)), ...)``), so each fold is scaled with its own
training ranges. A fine grid (step 1/2, :math:`\pm 2` around the coarse optimum)
shows the coarse-to-fine step.
"""
from __future__ import annotations

import importlib
import sys
import time
from functools import cache

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.feature_selection import VarianceThreshold
from sklearn.model_selection import StratifiedKFold
from sklearn.multiclass import OneVsOneClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

from ..datasets import load_svmguide
from ..smo import SMOSVC
from ._cli import run_from_command_line
from ._tasks import finish, run_tasks

NAME = "svmguide"

CONFIG = {
    # data set -> how the guide evaluates it ("test": the .t file; "cv": 5-fold CV)
    "sets": {"svmguide1": "test", "svmguide2": "cv", "svmguide3": "test"},
    "log2C": list(range(-5, 16, 2)),
    "log2gamma": list(range(3, -16, -2)),
    "fine_step": 0.5,
    "fine_halfwidth": 2.0,
    "n_folds": 5,
    "seed": 0,
    "tol": 1e-3,
    "max_iter": 10_000_000,
}

SMOKE_CONFIG = dict(CONFIG, sets={"svmguide2": "cv", "svmguide3": "test"},
                    log2C=[-1, 1], log2gamma=[-1, -3], fine_step=1.0,
                    fine_halfwidth=1.0, n_folds=3)

# floats of the smoke results that recertification (python -m svmtext.experiments
# --recertify) accepts as unchanged; integers and strings must be equal
SMOKE_TOLERANCE = {"rtol": 1e-9, "atol": 1e-12,
                   "why": ("cross-validated and test accuracies are counts over n (exact up to the "
                           "division); iteration counts are compared exactly")}


#: The guide's reported accuracies (%) and chosen (C, gamma), from svmguide/SOURCE.md;
#: the slides' "Application accuracy" table gives the last column rounded.
GUIDE = {
    "svmguide1": {"application": "Astroparticle", "measure": "test accuracy",
                  "default": 66.925, "scaled": 96.15, "grid": 96.875, "C": 2.0,
                  "gamma": 2.0, "grid_cv": 96.8922, "slides": 96.9, "users": 75.2},
    "svmguide2": {"application": "Bioinformatics", "measure": "5-fold CV accuracy",
                  "default": 56.5217, "scaled": 78.5166, "grid": 85.1662, "C": 2.0,
                  "gamma": 0.5, "grid_cv": 85.1662, "slides": 85.2, "users": 36.0},
    "svmguide3": {"application": "Vehicle", "measure": "test accuracy",
                  "default": 2.4390, "scaled": 12.1951, "grid": 87.8049, "C": 128.0,
                  "gamma": 0.125, "grid_cv": None, "slides": 87.8, "users": 4.88},
}


@cache
def _data(name, split):
    return load_svmguide(name, split)


def make_model(name, *, C=1.0, gamma="auto", scaled=True, solver="smo", tol=1e-3,
               max_iter=None) -> BaseEstimator:
    r"""The guide's classifier for ``name``: [scaling to [-1, 1]] + RBF SVM.

    ``gamma='auto'`` is LIBSVM's default :math:`1/\text{number of features}`; after
    scaling, constant features are dropped first (``VarianceThreshold``), as
    ``svm-scale`` writes no constant feature (svmguide3: 21 of 22 columns).
    ``solver='smo'``: :class:`~svmtext.smo.SMOSVC` (one-vs-one for svmguide2);
    ``'libsvm'``: scikit-learn's ``SVC``.
    """
    if solver == "smo":
        svm = SMOSVC(C=C, gamma=gamma, tol=tol, max_iter=max_iter)
        if name == "svmguide2":
            svm = OneVsOneClassifier(svm)
    elif solver == "libsvm":
        svm = SVC(C=C, gamma=gamma, tol=tol)
    else:
        raise ValueError(f"solver must be 'smo' or 'libsvm'; got {solver!r}")
    if not scaled:
        return svm
    return make_pipeline(MinMaxScaler((-1, 1)), VarianceThreshold(), svm)


def _folds(y, n_folds, seed):
    return list(StratifiedKFold(n_folds, shuffle=True, random_state=seed).split(y, y))


def _n_iter(model):
    est = model[-1] if hasattr(model, "steps") else model
    if isinstance(est, OneVsOneClassifier):
        return int(sum(e.n_iter_ for e in est.estimators_))
    return int(np.sum(est.n_iter_))


def cv_point(name, log2C, log2gamma, n_folds, seed, tol, max_iter) -> dict:
    """5-fold CV accuracy of the scaled SMO model at :math:`(2^{\\log_2 C}, 2^{\\log_2\\gamma})`."""
    X, y = _data(name, "train")
    accs, iters = [], 0
    t0 = time.perf_counter()
    with threadpool_limits(1):
        for train, test in _folds(y, n_folds, seed):
            model = make_model(name, C=2.0 ** log2C, gamma=2.0 ** log2gamma, tol=tol,
                               max_iter=max_iter).fit(X[train], y[train])
            accs.append(float(np.mean(model.predict(X[test]) == y[test])))
            iters += _n_iter(model)
    return {"fold_accuracy": accs, "accuracy": float(np.mean(accs)), "n_iter": iters,
            "seconds": time.perf_counter() - t0}


def evaluate(name, mode, *, C=1.0, gamma="auto", scaled=True, solver="smo", n_folds=5,
             seed=0, tol=1e-3, max_iter=None) -> float:
    """Accuracy (fraction) as the guide measures it: on the test set, or LIBSVM's
    cross-validation rate (``svm-train -v``: correct predictions over all folds / n)."""
    X, y = _data(name, "train")
    kw = dict(C=C, gamma=gamma, scaled=scaled, solver=solver, tol=tol, max_iter=max_iter)
    with threadpool_limits(1):
        if mode == "test":
            Xt, yt = _data(name, "test")
            return float(np.mean(make_model(name, **kw).fit(X, y).predict(Xt) == yt))
        correct = sum(int(np.sum(make_model(name, **kw).fit(X[a], y[a]).predict(X[b])
                                 == y[b])) for a, b in _folds(y, n_folds, seed))
    return correct / len(y)


def best_point(log2C, log2gamma, acc) -> tuple[int, int]:
    """Index ``(i, j)`` of the best CV accuracy ``acc[i][j]`` (rows C, columns gamma);
    ties: smaller C, then smaller gamma."""
    acc = np.asarray(acc)
    top = acc.max()
    cands = [(log2C[i], log2gamma[j], i, j) for i, j in zip(*np.nonzero(acc == top))]
    _, _, i, j = min(cands)
    return int(i), int(j)


def _grid_tasks(name, cs, gs, config):
    return [dict(name=name, log2C=float(c), log2gamma=float(g), n_folds=config["n_folds"],
                 seed=config["seed"], tol=config["tol"], max_iter=config["max_iter"])
            for c in cs for g in gs]


def run(config=CONFIG, root=None, backend=None, n_jobs=None) -> dict:
    """Run the three steps on every set and write ``svmguide.json``; return the results."""
    cs, gs = config["log2C"], config["log2gamma"]
    sets = config["sets"]
    # the task function by its importable name (under ``python -m`` this module is
    # ``__main__``, which worker processes cannot import)
    cv_point = importlib.import_module("svmtext.experiments.svmguide").cv_point
    coarse_tasks = [t for name in sets for t in _grid_tasks(name, cs, gs, config)]
    out = run_tasks(NAME, config, coarse_tasks, cv_point, root=root, backend=backend,
                    n_jobs=n_jobs, desc="svmguide coarse grid")
    per_set = len(cs) * len(gs)
    results = {"sets": {}}
    fine_tasks, fine_axes = [], {}
    for k, name in enumerate(sets):
        block = out[k * per_set:(k + 1) * per_set]
        acc = [[block[i * len(gs) + j]["accuracy"] for j in range(len(gs))]
               for i in range(len(cs))]
        i, j = best_point(cs, gs, acc)
        h, s = config["fine_halfwidth"], config["fine_step"]
        fc = list(np.arange(cs[i] - h, cs[i] + h + s / 2, s))
        fg = list(np.arange(gs[j] + h, gs[j] - h - s / 2, -s))
        fine_axes[name] = (fc, fg)
        fine_tasks += _grid_tasks(name, fc, fg, config)
        results["sets"][name] = {
            "mode": sets[name],
            "coarse": {"log2C": cs, "log2gamma": gs, "cv_accuracy": acc,
                       "n_iter": [[block[i2 * len(gs) + j2]["n_iter"] for j2 in range(len(gs))]
                                  for i2 in range(len(cs))],
                       "seconds_per_point": [[block[i2 * len(gs) + j2]["seconds"]
                                              for j2 in range(len(gs))]
                                             for i2 in range(len(cs))],
                       "seconds": float(sum(b["seconds"] for b in block)),
                       "best": {"log2C": cs[i], "log2gamma": gs[j], "cv_accuracy": acc[i][j]}},
        }
    fine_out = run_tasks(NAME, config, fine_tasks, cv_point, root=root, backend=backend,
                         n_jobs=n_jobs, desc="svmguide fine grid")
    pos = 0
    for name in sets:
        fc, fg = fine_axes[name]
        block = fine_out[pos:pos + len(fc) * len(fg)]
        pos += len(fc) * len(fg)
        acc = [[block[i * len(fg) + j]["accuracy"] for j in range(len(fg))]
               for i in range(len(fc))]
        i, j = best_point(fc, fg, acc)
        results["sets"][name]["fine"] = {
            "log2C": [float(c) for c in fc], "log2gamma": [float(g) for g in fg],
            "cv_accuracy": acc, "seconds": float(sum(b["seconds"] for b in block)),
            "best": {"log2C": float(fc[i]), "log2gamma": float(fg[j]),
                     "cv_accuracy": acc[i][j]}}
    # the guide's three steps, with our SMO and with LIBSVM, at our and at the guide's point
    kw = dict(n_folds=config["n_folds"], seed=config["seed"], tol=config["tol"],
              max_iter=config["max_iter"])
    for name, mode in sets.items():
        r = results["sets"][name]
        best = r["coarse"]["best"]
        C, gamma = 2.0 ** best["log2C"], 2.0 ** best["log2gamma"]
        fine = r["fine"]["best"]
        steps = {"default": dict(scaled=False), "scaled": dict(scaled=True),
                 "grid": dict(scaled=True, C=C, gamma=gamma),
                 "fine": dict(scaled=True, C=2.0 ** fine["log2C"],
                              gamma=2.0 ** fine["log2gamma"]),
                 "guide_point": dict(scaled=True, C=GUIDE[name]["C"],
                                     gamma=GUIDE[name]["gamma"])}
        r["accuracy"] = {solver: {step: evaluate(name, mode, solver=solver, **opts, **kw)
                                  for step, opts in steps.items()}
                         for solver in ("smo", "libsvm")}
        r["chosen"] = {"C": C, "gamma": gamma}
    results["n_tasks"] = len(coarse_tasks) + len(fine_tasks)
    results["grid_seconds"] = float(sum(o["seconds"] for o in out + fine_out))
    return finish(NAME, config, results, root)


def main(argv=None) -> dict:
    return run_from_command_line(sys.modules[__name__], argv)


if __name__ == "__main__":
    main()
