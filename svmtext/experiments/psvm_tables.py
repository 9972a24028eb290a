r"""Shen's (2013) accuracy tables for prototype SVMs, rerun (book: :ref:`sec-psvm-tables`).

``python -m svmtext.experiments.psvm_tables [--smoke] [--backend B] [--n-jobs N]``

The source's protocol, Weka Experimenter's: stratified 10-fold cross-validation
repeated 10 times (run ``r`` shuffles with seed ``r + 1``), the corrected resampled
t-test over the :math:`J = 100` paired accuracies. Data: the synthetic sets
isolated, striated and spirals (the reconstructions
:data:`~svmtext.psvm._evaluation.ISOLATED`, :data:`~svmtext.psvm._evaluation.STRIATED`
and :data:`~svmtext.psvm._evaluation.SPIRALS`: for spirals the benchmark's points, under
the source's shuffled folds) and the UCI sets iris, glass, vehicle, segment, without
and with 10 % label noise (the noisy table with one run of 10 folds, :math:`J = 10`,
for compute).
Methods: the prototype SVM (:class:`svmtext.psvm.PrototypeSVC`, regular and
weighted-sampling, ``k`` and ``p`` chosen by validation inside each training fold),
the source's six comparators at Weka's defaults and the book's two variants
(:mod:`svmtext.psvm._baselines`). One task per (noise, data set, run, fold, method)
through :func:`svmtext.experiments._tasks.run_tasks` (resumable, any joblib backend);
noiseless tasks first, cheap methods first, the largest data set last.

``--from-partial DIR`` writes the cache from the tasks finished so far in ``DIR``
(a ``.partial`` folder of this experiment) and lists the cells still missing.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..psvm._baselines import COMPARATORS, EXTRAS, WEKA_DEFAULTS, fit_comparator
from ..psvm._evaluation import (DATASETS, ISOLATED, SPIRALS, STRIATED, corrected_t_test,
                                fold_indices, load_dataset, source_tables)
from ._cache import write_cache
from ._cli import run_from_command_line
from ._tasks import clear_partial, run_tasks

if TYPE_CHECKING:
    from ..psvm import PrototypeSVC

NAME = "psvm_tables"

BASELINES = list(COMPARATORS)
#: The comparators that are LIBSVM (each fold records its subproblems stopped at the cap).
LIBSVMS = ("linear_svm", "boosted_linear_svm", "poly_svm", *EXTRAS)
METHODS = ["psvm", "psvm_sampling", *COMPARATORS, *EXTRAS]

CONFIG = {
    "datasets": list(DATASETS),
    "methods": METHODS,
    "noise": [0.0, 0.1],
    "runs": [10, 1],            # per noise level: runs of n_folds-fold CV
    "n_folds": 10,
    "data_seed": 0,
    "noise_seed": 0,
    "striated": STRIATED,
    "isolated": ISOLATED,
    "spirals": SPIRALS,
    # prototype SVM: fixed choices, and the grid chosen by validation
    "psvm": {"C": 1000.0, "vote": "count", "exemplar": "mean", "n_iter": 5,
             "validation_fraction": 0.2, "tol": 1e-3, "max_iter": 100_000,
             "shift_rule": "nearest",
             "grid": {"k": [3, 30], "p": [0.1, 0.5]},
             "n_rounds": 5, "sample_fraction": 0.2, "seed": 0},
    "boost_rounds": 10,
    "tree_min_samples_leaf": 2,
    "mlp_epochs": 500,
    "alpha": 0.05,
}

SMOKE_CONFIG = dict(CONFIG, datasets=["isolated", "iris"], noise=[0.0], runs=[1],
                    psvm=dict(CONFIG["psvm"], n_iter=3, grid={"k": [3, 10], "p": [0.5]},
                              n_rounds=2),
                    mlp_epochs=20)

# floats of the smoke results that recertification (python -m svmtext.experiments
# --recertify) accepts as unchanged; integers and strings must be equal
SMOKE_TOLERANCE = {"rtol": 1e-9, "atol": 1e-12,
                   "why": ("accuracies are counts over each fold and the corrected t statistics functions "
                           "of them: rounding only under a refactor")}


#: What each Weka classifier of the source became, and what differs.
WEKA_MAP = WEKA_DEFAULTS
#: The source's tables (:func:`svmtext.psvm._evaluation.source_tables`).
SOURCE, SOURCE_SIZES, SOURCE_WLT = source_tables()


# -- one task -----------------------------------------------------------------
def prototype(cfg, **changes) -> PrototypeSVC:
    """The ``PrototypeSVC`` of the configuration ``cfg`` (``CONFIG["psvm"]``), with ``changes``."""
    from ..psvm import PrototypeSVC

    opts = dict(n_iter=cfg["n_iter"], C=cfg["C"], vote=cfg["vote"], exemplar=cfg["exemplar"],
                validation_fraction=cfg["validation_fraction"], n_rounds=cfg["n_rounds"],
                sample_fraction=cfg["sample_fraction"], tol=cfg["tol"],
                smo_max_iter=cfg["max_iter"], shift_rule=cfg["shift_rule"],
                random_state=cfg["seed"])
    opts.update(changes)
    return PrototypeSVC(**opts)


def grid_fit(Xtr, ytr, cfg, **changes) -> PrototypeSVC:
    """The regular PSVM with ``k`` and ``p`` chosen by TRAIN's validation accuracy over
    ``cfg["grid"]`` (the same split for every candidate; ties: the first candidate)."""
    best = None
    for k in cfg["grid"]["k"]:
        for p in cfg["grid"]["p"]:
            clf = prototype(cfg, k=k, p=p, **changes).fit(Xtr, ytr)
            if best is None or clf.validation_score_ > best.validation_score_:
                best = clf
    return best


def _psvm_summary(clf, Xte, yte):
    stopped = sum(it.get("n_stopped_at_max_iter", 0) for h in clf.history_
                  for it in h.get("iterations", [h]))    # sampling: per round
    return {"accuracy": float(np.mean(clf.predict(Xte) == yte)),
            "n_models": int(clf.n_models_), "n_exemplar_svms": int(clf.n_exemplar_svms_),
            "k": int(clf.k), "p": float(clf.p), "best_iteration": int(clf.best_iteration_),
            "validation_score": float(clf.validation_score_),
            "n_stopped_at_max_iter": int(stopped)}


def _psvm(Xtr, ytr, Xte, yte, cfg):
    """Both PSVMs of one fold: the regular one by :func:`grid_fit`; the sampling one
    with the same ``k`` and ``p`` (its own search would cost the grid again)."""
    best = grid_fit(Xtr, ytr, cfg)
    sampled = prototype(cfg, k=best.k, p=best.p, sampling=True).fit(Xtr, ytr)
    return {"psvm": _psvm_summary(best, Xte, yte),
            "psvm_sampling": _psvm_summary(sampled, Xte, yte)}


def dataset_of(name, noise, config) -> tuple:
    """The data set ``name`` as the tables use it: the configuration's seeds and its
    readings of the synthetic sets (``striated``, ``isolated``, ``spirals``)."""
    return load_dataset(name, noise, config["data_seed"], config["noise_seed"],
                        *(tuple(config[s].items()) for s in ("striated", "isolated", "spirals")))


def run_task(dataset, noise, run, fold, method, config) -> dict:
    """One fold of one run of one method: accuracy on the test fold (PSVM: and its ensemble)."""
    from threadpoolctl import threadpool_limits

    t0 = time.perf_counter()
    X, y = dataset_of(dataset, noise, config)
    tr, te = fold_indices(y, config["n_folds"], fold, run + 1)
    out = {"n_train": int(len(tr)), "n_test": int(len(te))}
    with threadpool_limits(1):
        if method == "psvm":          # both variants (tasks: see make_tasks)
            out.update(_psvm(X[tr], y[tr], X[te], y[te], config["psvm"]))
        else:
            pred, notes = fit_comparator(
                method, X[tr], y[tr], X[te], boost_rounds=config["boost_rounds"],
                tree_min_samples_leaf=config["tree_min_samples_leaf"],
                mlp_epochs=config["mlp_epochs"])
            out["accuracy"] = float(np.mean(pred == y[te]))
            out.update(notes)
    out["seconds"] = time.perf_counter() - t0
    return out


# -- statistics ---------------------------------------------------------------
def _cells(tasks, out):
    cells = {}
    for task, res in zip(tasks, out):
        parts = ({m: dict(res[m], seconds=res["seconds"]) for m in ("psvm", "psvm_sampling")}
                 if task["method"] == "psvm" else {task["method"]: res})
        for m, r in parts.items():
            key = (task["noise"], task["dataset"], m)
            cells.setdefault(key, {})[(task["run"], task["fold"])] = r
    return cells


def _paired(row_a, row_b, n_folds):
    """The accuracies of two cells over the runs both have complete."""
    n = n_folds * min(row_a["runs"], row_b["runs"])
    return row_a["accuracy"][:n], row_b["accuracy"][:n]


def summarise(config, tasks, out) -> dict:
    """Per (noise, data set, method): accuracies (%) over the runs complete from run 0
    (``runs``), mean, std; the corrected t-tests against each PSVM and between the two,
    for every pair of cells with a run, over the runs both have; win-lose-tie counts
    over the data sets whose cells all have a run; ensemble sizes; the cells without
    a complete run."""
    cells = _cells(tasks, out)
    table, missing = {}, []
    for noise, runs in zip(config["noise"], config["runs"]):
        for ds in config["datasets"]:
            for m in config["methods"]:
                folds = cells.get((noise, ds, m), {})
                done = 0            # runs complete, counted from run 0
                while done < runs and all((done, f) in folds
                                          for f in range(config["n_folds"])):
                    done += 1
                if done == 0:
                    missing.append(f"{noise}/{ds}/{m}")
                    continue
                splits = [(r, f) for r in range(done) for f in range(config["n_folds"])]
                acc = [100 * folds[s]["accuracy"] for s in splits]
                row = {"accuracy": acc, "mean": float(np.mean(acc)),
                       "std": float(np.std(acc, ddof=1)), "runs": done}
                if m.startswith("psvm"):
                    for key in ("n_models", "n_exemplar_svms", "k", "p", "best_iteration",
                                "n_stopped_at_max_iter"):
                        row[key] = [folds[s][key] for s in splits]
                elif m in LIBSVMS:
                    for key in ("libsvm_capped", "libsvm_capped_no_free"):
                        row[key] = [folds[s].get(key, 0) for s in splits]
                table[f"{noise}/{ds}/{m}"] = row
    ratio = 1.0 / (config["n_folds"] - 1)       # test / training size of k-fold CV
    tests, wlt = {}, {}
    for noise in config["noise"]:
        for ref in ("psvm", "psvm_sampling"):
            w = l_ = t_ = 0
            complete = []
            for ds in config["datasets"]:
                keys = [f"{noise}/{ds}/{m}" for m in (ref, *BASELINES)]
                if keys[0] not in table:
                    continue
                counted = all(k in table for k in keys)
                if counted:
                    complete.append(ds)
                for m in (*BASELINES, *EXTRAS):
                    if f"{noise}/{ds}/{m}" not in table:
                        continue
                    b, a = _paired(table[f"{noise}/{ds}/{m}"], table[keys[0]], config["n_folds"])
                    t, p, sign = corrected_t_test(b, a, ratio, config["alpha"])
                    tests[f"{noise}/{ds}/{m}/{ref}"] = {"t": t, "p": p, "sign": sign}
                    if counted and m in BASELINES:
                        w += sign < 0
                        l_ += sign > 0
                        t_ += sign == 0
            wlt[f"{noise}/{ref}"] = {"counts": [int(w), int(l_), int(t_)],
                                     "datasets": complete}
        for ds in config["datasets"]:
            keys = [f"{noise}/{ds}/psvm", f"{noise}/{ds}/psvm_sampling"]
            if all(k in table for k in keys):
                t, p, sign = corrected_t_test(*_paired(table[keys[0]], table[keys[1]],
                                                       config["n_folds"]),
                                              ratio, config["alpha"])
                tests[f"{noise}/{ds}/psvm/psvm_sampling"] = {"t": t, "p": p, "sign": sign}
    return {"table": table, "tests": tests, "win_lose_tie": wlt, "missing": missing}


# -- the grid -----------------------------------------------------------------
_SIZE = {"segment": 2310, "vehicle": 846, "isolated": 800, "striated": 800, "glass": 214,
         "spirals": 194, "iris": 150}
#: The costliest cells (LIBSVM on raw inputs of many large values converges slowly;
#: boosting repeats it ten times), run last in this order.
COSTLIEST = [("segment", "psvm"), ("vehicle", "linear_svm"), ("vehicle", "poly_svm"),
             ("segment", "linear_svm"), ("segment", "poly_svm"),
             ("vehicle", "boosted_linear_svm"), ("segment", "boosted_linear_svm")]


def make_tasks(config) -> list[dict]:
    """One task per (noise, data set, run, fold, method); one task fits both PSVMs.

    Order, so that a run cut short has the most cells complete: first every run of
    every cell except the costliest (``COSTLIEST``; run 0 of all of them, then runs 1 to
    9), noiseless first, comparators before PSVM, smaller data sets first; then the
    costliest cells but boosting, in the same way; the boosted cells of ``COSTLIEST``
    at the very end."""
    methods = ["psvm" if m == "psvm_sampling" else m for m in config["methods"]]
    methods = list(dict.fromkeys(methods))
    by_size = sorted(config["datasets"], key=lambda d: _SIZE.get(d, 0))
    cells = [(ds, m) for m in methods if m != "psvm" for ds in by_size]
    cells += [(ds, "psvm") for ds in by_size if "psvm" in methods]
    last = [c for c in COSTLIEST if c in cells]
    boosted = [c for c in last if c[1].startswith("boosted")]
    groups = [[c for c in cells if c not in last], [c for c in last if c not in boosted]]
    levels = list(zip(config["noise"], config["runs"]))

    def tasks_of(group, runs_of):
        return [{"dataset": ds, "noise": noise, "run": r, "fold": f, "method": m,
                 "config": config}
                for noise, runs in levels for ds, m in group for r in runs_of(runs)
                for f in range(config["n_folds"])]

    tasks = []
    for group in groups:
        tasks += tasks_of(group, lambda runs: range(min(runs, 1)))
        tasks += tasks_of(group, lambda runs: range(1, runs))
    tasks += tasks_of(boosted, range)
    return tasks


def _finish(config, tasks, out, root, t0):
    results = summarise(config, tasks, out)
    results["seconds"] = {"wall": time.perf_counter() - t0,
                          "tasks": float(sum(r["seconds"] for r in out))}
    results["task_seconds"] = {
        f"{t['noise']}/{t['dataset']}/{t['method']}/{t['run']}/{t['fold']}": r["seconds"]
        for t, r in zip(tasks, out)}
    write_cache(NAME, config, results, root=root)
    return results


def run(config=CONFIG, root=None, backend=None, n_jobs=None, stop_after=None) -> dict:
    """Run every fold of every method (resumable) and write ``psvm_tables.json``."""
    tasks = make_tasks(config)
    t0 = time.perf_counter()
    # the task function by its importable name, also under `python -m` (where this
    # module is __main__, which worker processes cannot import)
    from svmtext.experiments.psvm_tables import run_task as task_fn
    out = run_tasks(NAME, config, tasks, task_fn, root=root, backend=backend,
                    n_jobs=n_jobs, desc="psvm tables", stop_after=stop_after)
    results = _finish(config, tasks, out, root, t0)
    clear_partial(NAME, config, root)
    return results


def run_from_partial(folder, config=CONFIG, root=None) -> dict:
    """Write the cache from the tasks finished so far in ``folder`` (a run cut short):
    complete cells are summarised, the others listed under ``"missing"``."""
    done = {}
    for path in Path(folder).glob("*.json"):
        rec = json.loads(path.read_text())
        done[path.stem] = rec
    tasks = [rec["task"] for rec in done.values() if rec["task"]["config"] == config]
    out = [rec["result"] for rec in done.values() if rec["task"]["config"] == config]
    return _finish(config, tasks, out, root, time.perf_counter())


def main(argv=None) -> None:
    argv = sys.argv[1:] if argv is None else list(argv)
    if "--from-partial" in argv:
        res = run_from_partial(argv[argv.index("--from-partial") + 1])
    else:
        res = run_from_command_line(sys.modules[__name__], argv)
    tab = res["table"]
    for key in sorted(tab):
        print(f"{key:40s} {tab[key]['mean']:6.1f} +- {tab[key]['std']:5.2f}")
    print("win-lose-tie", res["win_lose_tie"])
    print("missing", res["missing"])
    print(f"task seconds {res['seconds']['tasks']:.0f}, wall {res['seconds']['wall']:.0f}")


if __name__ == "__main__":
    main()
