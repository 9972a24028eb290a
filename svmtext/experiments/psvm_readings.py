r"""What the source's prototype-SVM results rest on: the striated data, SHIFT's reading,
the local SVMs' iteration cap (book: :ref:`sec-psvm-striated`, :ref:`sec-psvm-choices`).

``python -m svmtext.experiments.psvm_readings [--smoke] [--backend B] [--n-jobs N]``

``sweep``
    The family ``make_striated(n_stripes, angle)`` (n = 800, the source's 720
    training points per fold) for each stripe count and orientation: the source's six
    comparators (:mod:`svmtext.psvm._baselines`, Weka's defaults) and, for the
    diagonal orientation, the prototype SVM, by stratified 10-fold CV (one run).
    The reconstruction is the member whose comparator means lie closest (root
    mean square over the six comparators) to the source's comparator columns;
    PSVM's own column plays no part in the choice.
``shift``
    On the first fold of every data set of the tables (isolated and spirals: the
    tables' reconstructions): the ensemble sizes of TRAIN,
    iteration by iteration, under both readings of SHIFT
    (:data:`svmtext.psvm._steps.SHIFT_RULES`) and three boxes ``C`` of the local
    SVMs, with ``k = 30, p = 0.5``.
``cap``
    Three folds of segment, PSVM with the table's grid, SMO capped at 2,000
    iterations per local SVM and uncapped (100,000): seconds, capped fits, accuracy.
"""
from __future__ import annotations

import sys
import time

import numpy as np

from ..psvm._baselines import COMPARATORS, fit_comparator
from ..psvm._evaluation import (DATASETS, ISOLATED, SPIRALS, fold_indices, load_dataset,
                                source_tables)
from ._cli import run_from_command_line
from ._tasks import finish, run_tasks
from .psvm_tables import grid_fit, prototype

NAME = "psvm_readings"

CONFIG = {
    "sweep": {"n_stripes": [2, 3, 4, 5, 6, 7, 8], "angle": [45.0, 0.0], "n": 800,
              "n_folds": 10, "cv_seed": 1, "data_seed": 0, "psvm_angles": [45.0]},
    "shift": {"datasets": list(DATASETS), "rules": ["nearest", "nearest_other"],
              "C": [10.0, 100.0, 1000.0], "k": 30, "p": 0.5,
              "isolated": ISOLATED, "spirals": SPIRALS},
    "cap": {"dataset": "segment", "folds": [0, 1, 2], "max_iter": [2000, 100_000]},
    "psvm": {"C": 1000.0, "vote": "count", "exemplar": "mean", "n_iter": 5,
             "validation_fraction": 0.2, "tol": 1e-3, "max_iter": 100_000,
             "shift_rule": "nearest", "grid": {"k": [3, 30], "p": [0.1, 0.5]},
             "n_rounds": 5, "sample_fraction": 0.2, "seed": 0},
    "n_folds": 10, "cv_seed": 1, "data_seed": 0,
}

SMOKE_CONFIG = dict(CONFIG,
                    sweep=dict(CONFIG["sweep"], n_stripes=[2, 6], angle=[45.0], n_folds=3),
                    shift=dict(CONFIG["shift"], datasets=["iris"], C=[1000.0]),
                    cap=dict(CONFIG["cap"], dataset="iris", folds=[0]),
                    psvm=dict(CONFIG["psvm"], n_iter=2, grid={"k": [3], "p": [0.5]}))


def run_task(kind, params, config) -> dict:
    """One task: ``kind`` is ``"sweep"``, ``"shift"`` or ``"cap"`` (see the module)."""
    from threadpoolctl import threadpool_limits

    t0 = time.perf_counter()
    out = {}
    with threadpool_limits(1):
        if kind == "sweep":
            from ..datasets import make_striated

            sw = config["sweep"]
            X, y = make_striated(sw["n"], random_state=sw["data_seed"],
                                 n_stripes=params["n_stripes"], angle=params["angle"])
            tr, te = fold_indices(y, sw["n_folds"], params["fold"], sw["cv_seed"])
            if params["method"] == "psvm":
                pred = grid_fit(X[tr], y[tr], config["psvm"]).predict(X[te])
            else:
                pred = fit_comparator(params["method"], X[tr], y[tr], X[te])[0]
            out["accuracy"] = float(np.mean(pred == y[te]))
        elif kind == "shift":
            sh = config["shift"]
            X, y = load_dataset(params["dataset"], 0.0, config["data_seed"], 0, None,
                                tuple(sh["isolated"].items()), tuple(sh["spirals"].items()))
            tr, _ = fold_indices(y, config["n_folds"], 0, config["cv_seed"])
            clf = prototype(config["psvm"], k=sh["k"], p=sh["p"], C=params["C"],
                            shift_rule=params["rule"]).fit(X[tr], y[tr])
            out["sizes"] = [h["n_models"] for h in clf.history_]
            out["validation"] = [h["validation_accuracy"] for h in clf.history_]
            out["n_models"] = int(clf.n_models_)
            out["best_iteration"] = int(clf.best_iteration_)
        elif kind == "cap":
            X, y = load_dataset(config["cap"]["dataset"], 0.0, config["data_seed"])
            tr, te = fold_indices(y, config["n_folds"], params["fold"], config["cv_seed"])
            t1 = time.process_time()
            clf = grid_fit(X[tr], y[tr], dict(config["psvm"], max_iter=params["max_iter"]))
            out["cpu_seconds"] = time.process_time() - t1
            out["accuracy"] = float(np.mean(clf.predict(X[te]) == y[te]))
            out["n_stopped_at_max_iter"] = int(sum(h["n_stopped_at_max_iter"]
                                                   for h in clf.history_))
        else:
            raise ValueError(f"unknown task kind {kind!r}")
    out["seconds"] = time.perf_counter() - t0
    return out


def make_tasks(config) -> list[dict]:
    sw, sh, cap = config["sweep"], config["shift"], config["cap"]
    tasks = []
    for angle in sw["angle"]:
        methods = list(COMPARATORS) + (["psvm"] if angle in sw["psvm_angles"] else [])
        tasks += [{"kind": "sweep", "params": {"angle": angle, "n_stripes": s, "fold": f,
                                               "method": m}, "config": config}
                  for s in sw["n_stripes"] for m in methods for f in range(sw["n_folds"])]
    tasks += [{"kind": "shift", "params": {"dataset": d, "rule": r, "C": C}, "config": config}
              for d in sh["datasets"] for r in sh["rules"] for C in sh["C"]]
    tasks += [{"kind": "cap", "params": {"fold": f, "max_iter": m}, "config": config}
              for f in cap["folds"] for m in cap["max_iter"]]
    return tasks


def summarise(config, tasks, out) -> dict:
    """The sweep's means and stds per (angle, stripes, method) and the chosen member;
    the sizes per (data set, rule, C); the cap's per-(fold, cap) records."""
    source = source_tables()[0][0.0]
    acc = {}
    for t, r in zip(tasks, out):
        if t["kind"] == "sweep":
            p = t["params"]
            acc.setdefault(f"{p['angle']}/{p['n_stripes']}/{p['method']}", []).append(
                100 * r["accuracy"])
    sweep = {k: {"mean": float(np.mean(v)), "std": float(np.std(v, ddof=1)),
                 "accuracy": v} for k, v in acc.items()}
    rms = {}
    for angle in config["sweep"]["angle"]:
        for s in config["sweep"]["n_stripes"]:
            d = [sweep[f"{angle}/{s}/{m}"]["mean"] - source[m]["striated"][0]
                 for m in COMPARATORS]
            rms[f"{angle}/{s}"] = float(np.sqrt(np.mean(np.square(d))))
    best = min(rms, key=rms.get)
    shift = {f"{t['params']['dataset']}/{t['params']['rule']}/{t['params']['C']}": r
             for t, r in zip(tasks, out) if t["kind"] == "shift"}
    cap = {f"{t['params']['fold']}/{t['params']['max_iter']}": r
           for t, r in zip(tasks, out) if t["kind"] == "cap"}
    angle, stripes = best.split("/")
    return {"sweep": sweep, "rms": rms,
            "chosen": {"angle": float(angle), "n_stripes": int(stripes), "rms": rms[best]},
            "shift": shift, "cap": cap}


def run(config=CONFIG, root=None, backend=None, n_jobs=None, stop_after=None) -> dict:
    """Run every task (resumable) and write ``psvm_readings.json``."""
    tasks = make_tasks(config)
    t0 = time.perf_counter()
    from svmtext.experiments.psvm_readings import run_task as task_fn
    out = run_tasks(NAME, config, tasks, task_fn, root=root, backend=backend,
                    n_jobs=n_jobs, desc="psvm readings", stop_after=stop_after)
    results = summarise(config, tasks, out)
    results["seconds"] = {"wall": time.perf_counter() - t0,
                          "tasks": float(sum(r["seconds"] for r in out))}
    return finish(NAME, config, results, root)


def main(argv=None) -> None:
    res = run_from_command_line(sys.modules[__name__], argv)
    for key, v in sorted(res["rms"].items()):
        print(f"striated {key:10s} rms {v:5.1f}")
    print("chosen", res["chosen"])
    for key, v in res["shift"].items():
        print(f"{key:32s} sizes {v['sizes']} kept {v['n_models']}")
    for key, v in res["cap"].items():
        print(f"cap {key:12s} cpu {v['cpu_seconds']:.1f} s, capped {v['n_stopped_at_max_iter']}, "
              f"accuracy {v['accuracy']:.3f}")
    print(f"task seconds {res['seconds']['tasks']:.0f}, wall {res['seconds']['wall']:.0f}")


if __name__ == "__main__":
    main()
