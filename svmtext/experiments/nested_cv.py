r"""Nested cross-validation of the guide's grid search on svmguide2
(book: :ref:`sec-practice-nested`).

``python -m svmtext.experiments.nested_cv [--smoke] [--backend B] [--n-jobs N]``

svmguide2 has no test file: the guide reports the 5-fold cross-validation rate at the
point that the same cross-validation chose, an optimistic number. Nested CV removes
the optimism: each of the 5 outer folds is held out in turn, the whole grid search
(the guide's coarse grid, scaling inside every fold as in
:mod:`svmtext.experiments.svmguide`) runs on the other four with its own 5 inner
folds, the chosen :math:`(C, \gamma)` is refitted on the four and tested on the held
out fold. The outer folds are those of :mod:`svmtext.experiments.svmguide` (seed 0),
the inner ones StratifiedKFold with seed ``seed + 1 + outer fold``. Every (outer fold,
grid point) is one task.
"""
from __future__ import annotations

import importlib
import sys
import time

import numpy as np
from sklearn.model_selection import StratifiedKFold
from threadpoolctl import threadpool_limits

from ._cli import run_from_command_line
from ._tasks import finish, run_tasks
from .svmguide import _data, _folds, best_point, make_model

NAME = "nested_cv"

CONFIG = {
    "set": "svmguide2",
    "log2C": list(range(-5, 16, 2)),
    "log2gamma": list(range(3, -16, -2)),
    "n_folds": 5,
    "seed": 0,
    "tol": 1e-3,
    "max_iter": 10_000_000,
}

SMOKE_CONFIG = dict(CONFIG, log2C=[-1, 1], log2gamma=[-1, -3], n_folds=3)

# floats of the smoke results that recertification (python -m svmtext.experiments
# --recertify) accepts as unchanged; integers and strings must be equal
SMOKE_TOLERANCE = {"rtol": 1e-9, "atol": 1e-12,
                   "why": ("accuracies are counts over the folds and iteration counts are compared "
                           "exactly: rounding only under a refactor")}



def inner_point(name, outer, log2C, log2gamma, n_folds, seed, tol, max_iter) -> dict:
    """Inner CV accuracy (fraction of the outer training part) at one grid point."""
    X, y = _data(name, "train")
    train, _ = _folds(y, n_folds, seed)[outer]
    Xa, ya = X[train], y[train]
    correct = 0
    t0 = time.perf_counter()
    inner = StratifiedKFold(n_folds, shuffle=True, random_state=seed + 1 + outer)
    with threadpool_limits(1):
        for a, b in inner.split(ya, ya):
            model = make_model(name, C=2.0 ** log2C, gamma=2.0 ** log2gamma, tol=tol,
                               max_iter=max_iter).fit(Xa[a], ya[a])
            correct += int(np.sum(model.predict(Xa[b]) == ya[b]))
    return {"accuracy": correct / len(ya), "seconds": time.perf_counter() - t0}


def run(config=CONFIG, root=None, backend=None, n_jobs=None) -> dict:
    """Run the nested CV and write ``nested_cv.json``; return the results."""
    name, cs, gs, k = config["set"], config["log2C"], config["log2gamma"], config["n_folds"]
    fn = importlib.import_module("svmtext.experiments.nested_cv").inner_point
    tasks = [dict(name=name, outer=o, log2C=float(c), log2gamma=float(g), n_folds=k,
                  seed=config["seed"], tol=config["tol"], max_iter=config["max_iter"])
             for o in range(k) for c in cs for g in gs]
    out = run_tasks(NAME, config, tasks, fn, root=root, backend=backend, n_jobs=n_jobs,
                    desc="nested CV")
    X, y = _data(name, "train")
    per = len(cs) * len(gs)
    folds, correct = [], 0
    for o, (train, test) in enumerate(_folds(y, k, config["seed"])):
        block = out[o * per:(o + 1) * per]
        acc = [[block[i * len(gs) + j]["accuracy"] for j in range(len(gs))]
               for i in range(len(cs))]
        i, j = best_point(cs, gs, acc)
        with threadpool_limits(1):
            model = make_model(name, C=2.0 ** cs[i], gamma=2.0 ** gs[j], tol=config["tol"],
                               max_iter=config["max_iter"]).fit(X[train], y[train])
            hits = int(np.sum(model.predict(X[test]) == y[test]))
        correct += hits
        folds.append({"log2C": cs[i], "log2gamma": gs[j], "inner_cv_accuracy": acc[i][j],
                      "test_correct": hits, "test_size": int(len(test))})
    results = {"folds": folds, "nested_accuracy": correct / len(y), "n": int(len(y)),
               "n_tasks": len(tasks), "seconds": float(sum(o["seconds"] for o in out))}
    return finish(NAME, config, results, root)


def main(argv=None) -> dict:
    return run_from_command_line(sys.modules[__name__], argv)


if __name__ == "__main__":
    main()
