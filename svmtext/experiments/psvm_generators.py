r"""The isolated and spirals sets of the prototype-SVM chapter, reconstructed from the
source's comparator columns (book: :ref:`sec-psvm-isolated`, :ref:`sec-psvm-spirals`).

``python -m svmtext.experiments.psvm_generators [--smoke] [--backend B] [--n-jobs N]``

``isolated``
    The family ``make_isolated(n_blobs, radius)`` (n = 800, the source's 720
    training points per fold; 37.5 % in the pockets, the source's linear SVM scoring
    the background's 62.5 %). Each member is drawn with the first ``n_seeds`` data
    seeds 0, 1, 2, ... (below ``max_seed``) for which the pockets can be placed; a
    member placed for fewer seeds is left out. For every draw, the source's six
    comparators (:mod:`svmtext.psvm._baselines`, Weka's defaults) by stratified
    10-fold CV (one run, the folds of :func:`svmtext.psvm._evaluation.fold_indices`).
    The reconstruction is the member whose comparator means, averaged over its draws,
    lie closest (root mean square over the six comparators) to the source's
    comparator columns, drawn with its first seed; PSVM's own column plays no part in
    the choice. PSVM (regular and sampling, :func:`psvm_tables._psvm`) is then run on
    the reconstruction, as a check.
``spirals``
    Readings of the source's spirals set (data, labels, order of the rows) and of its
    10-fold split (:data:`FOLDS`): for each, the six comparators and the training
    fold's majority class. The reading whose comparator means lie closest to the
    source's (the same root mean square) is the reconstruction; on it, PSVM (regular
    and sampling) and the comparators with 10 % of the labels changed are run as
    checks against the source's other columns.
"""
from __future__ import annotations

import sys
import time

import numpy as np

from ..psvm._baselines import COMPARATORS, fit_comparator
from ..psvm._evaluation import DATASETS, fold_indices, source_tables
from ._cli import run_from_command_line
from ._tasks import finish, run_tasks

NAME = "psvm_generators"

#: The 10-fold splits a reading can use: ``"stratified"`` (shuffled and stratified,
#: :func:`svmtext.psvm._evaluation.fold_indices`, as the book's tables), ``"weka"``
#: (Weka's ``randomize`` then ``stratify``: rows shuffled, sorted by class, dealt
#: round robin, then contiguous folds; a NumPy shuffle, not Java's), ``"unshuffled"``
#: (contiguous folds in the rows' order, Weka's ``testCV`` without ``randomize`` or
#: ``stratify``), ``"unshuffled_stratified"`` (Weka's ``stratify`` without
#: ``randomize``).
FOLDS = ("stratified", "weka", "unshuffled", "unshuffled_stratified")
#: How a reading labels the Lang-Witbrock points (point ``i`` of an arm):
#: ``"arms"`` the arm (the benchmark), ``"alternating"`` the arm's label times
#: (-1)^i, ``"pairs"`` one class per pair ``i`` (point ``i`` of each arm, the one
#: the other's reflection through the origin; 97 classes), ``"halves"``
#: the arm and whether ``i`` < 97/2 (4 classes).
LABELS = ("arms", "alternating", "pairs", "halves")

CONFIG = {
    "isolated": {"n_blobs": [1, 2, 3, 4, 5, 6, 7, 8],
                 "radius": [0.05, 0.075, 0.1, 0.125, 0.15, 0.175, 0.2],
                 "n": 800, "n_seeds": 5, "max_seed": 10, "n_folds": 10, "cv_seed": 1},
    "spirals": {"readings": {
        "book": {"points": "random", "n": 200, "order": "shuffled", "labels": "arms",
                 "folds": "stratified"},
        "weka": {"points": "lang_witbrock", "n": 194, "order": "interleaved",
                 "labels": "arms", "folds": "weka"},
        "interleaved/unshuffled": {"points": "lang_witbrock", "n": 194,
                                   "order": "interleaved", "labels": "arms",
                                   "folds": "unshuffled"},
        "interleaved/unshuffled_stratified": {"points": "lang_witbrock", "n": 194,
                                              "order": "interleaved", "labels": "arms",
                                              "folds": "unshuffled_stratified"},
        "arms/unshuffled": {"points": "lang_witbrock", "n": 194, "order": "arms",
                            "labels": "arms", "folds": "unshuffled"},
        "arms/unshuffled_stratified": {"points": "lang_witbrock", "n": 194, "order": "arms",
                                       "labels": "arms", "folds": "unshuffled_stratified"},
        "alternating/weka": {"points": "lang_witbrock", "n": 194, "order": "interleaved",
                             "labels": "alternating", "folds": "weka"},
        "pairs/weka": {"points": "lang_witbrock", "n": 194, "order": "interleaved",
                       "labels": "pairs", "folds": "weka"},
        "halves/weka": {"points": "lang_witbrock", "n": 194, "order": "interleaved",
                        "labels": "halves", "folds": "weka"},
    }, "n_folds": 10, "cv_seed": 1, "data_seed": 0, "noise": 0.1, "noise_seed": 0},
    "psvm": {"C": 1000.0, "vote": "count", "exemplar": "mean", "n_iter": 5,
             "validation_fraction": 0.2, "tol": 1e-3, "max_iter": 100_000,
             "shift_rule": "nearest", "grid": {"k": [3, 30], "p": [0.1, 0.5]},
             "n_rounds": 5, "sample_fraction": 0.2, "seed": 0},
}

_SMOKE_READINGS = ("book", "arms/unshuffled", "pairs/weka")
SMOKE_CONFIG = dict(
    CONFIG,
    isolated=dict(CONFIG["isolated"], n_blobs=[1, 8], radius=[0.1, 0.2], n_seeds=1,
                  max_seed=2, n_folds=3),
    spirals=dict(CONFIG["spirals"], readings={k: CONFIG["spirals"]["readings"][k]
                                              for k in _SMOKE_READINGS}, n_folds=3),
    psvm=dict(CONFIG["psvm"], n_iter=2, grid={"k": [3], "p": [0.5]}, n_rounds=2))

# floats of the smoke results that recertification accepts as unchanged
SMOKE_TOLERANCE = {"rtol": 1e-9, "atol": 1e-12,
                   "why": "accuracies are counts over each fold: rounding only under a refactor"}


# -- data and folds -----------------------------------------------------------
def isolated_seeds(n_blobs, radius, cfg) -> list[int]:
    """The first ``cfg["n_seeds"]`` data seeds below ``cfg["max_seed"]`` for which
    ``make_isolated`` can place ``n_blobs`` pockets of radius ``radius`` (fewer if
    the placement fails too often)."""
    from ..datasets import make_isolated

    seeds = []
    for seed in range(cfg["max_seed"]):
        try:
            make_isolated(2, random_state=seed, n_blobs=n_blobs, radius=radius)
        except ValueError:
            continue
        seeds.append(seed)
        if len(seeds) == cfg["n_seeds"]:
            break
    return seeds


def spirals_reading(reading, data_seed=0) -> tuple:
    """The points and labels (class indices 0..K-1) of one reading of the spirals set."""
    from ..datasets import make_spirals

    X, y = make_spirals(reading["n"], random_state=data_seed, points=reading["points"],
                        order=reading["order"])
    labels = reading["labels"]
    if labels not in LABELS:
        raise ValueError(f"unknown labels {labels!r}; one of {LABELS}")
    if labels != "arms":
        if reading["points"] != "lang_witbrock" or reading["order"] == "shuffled":
            raise ValueError(f"labels={labels!r} needs the Lang-Witbrock points in a "
                             "known order")
        # the position i of every row along its arm, from the benchmark's formula
        i = np.rint(104 - 104 * np.hypot(X[:, 0], X[:, 1]) / 6.5).astype(int)
        if labels == "alternating":
            y = y * np.where(i % 2 == 0, 1, -1)
        elif labels == "pairs":
            y = i
        else:
            y = 2 * (y > 0) + (i < reading["n"] / 4)
    return X, np.unique(y, return_inverse=True)[1]


def _weka_stratify(order, y, n_folds) -> np.ndarray:
    """Weka's ``Instances.stratify`` on the rows ``order``: sorted by class with its
    swapping pass, then dealt into ``n_folds`` interleaved batches (``stratStep``)."""
    order = list(order)
    n, index = len(order), 1
    while index < n:
        first = y[order[index - 1]]
        for j in range(index, n):
            if y[order[j]] == first:
                order[index], order[j] = order[j], order[index]
                index += 1
        index += 1
    return np.array([order[j] for start in range(n_folds) for j in range(start, n, n_folds)])


def reading_folds(y, scheme, n_folds, seed) -> list[tuple]:
    """The (training, test) indices of every fold of the split ``scheme`` (:data:`FOLDS`)."""
    if scheme == "stratified":
        return [fold_indices(y, n_folds, f, seed) for f in range(n_folds)]
    n = len(y)
    if scheme == "unshuffled":
        order = np.arange(n)
    elif scheme == "unshuffled_stratified":
        order = _weka_stratify(np.arange(n), y, n_folds)
    elif scheme == "weka":
        order = _weka_stratify(np.random.default_rng(seed).permutation(n), y, n_folds)
    else:
        raise ValueError(f"unknown folds {scheme!r}; one of {FOLDS}")
    # Weka's testCV: the first n % n_folds folds one row longer, each contiguous
    size = np.full(n_folds, n // n_folds) + (np.arange(n_folds) < n % n_folds)
    ends = np.cumsum(size)
    return [(np.r_[order[:end - s], order[end:]], order[end - s:end])
            for s, end in zip(size, ends)]


def noisy_labels(y, noise, noise_seed) -> np.ndarray:
    """``noise`` of the labels changed to another class chosen uniformly, seeded as
    :func:`svmtext.psvm._evaluation.load_dataset` seeds the spirals set."""
    K = int(y.max()) + 1
    rng = np.random.default_rng([noise_seed, DATASETS.index("spirals")])
    flip = rng.choice(len(y), int(round(noise * len(y))), replace=False)
    y = y.copy()
    y[flip] = (y[flip] + rng.integers(1, K, size=len(flip))) % K
    return y


# -- one task -----------------------------------------------------------------
def _comparators(X, y, folds) -> dict:
    """Per comparator (and the training fold's majority class), the test accuracy (%)
    of every fold."""
    acc = {m: [] for m in (*COMPARATORS, "majority")}
    for tr, te in folds:
        for m in COMPARATORS:
            acc[m].append(100 * float(np.mean(fit_comparator(m, X[tr], y[tr], X[te])[0]
                                              == y[te])))
        majority = np.argmax(np.bincount(y[tr]))        # ties: the first class
        acc["majority"].append(100 * float(np.mean(y[te] == majority)))
    return acc


def run_task(kind, params, config) -> dict:
    """One task: ``kind`` is ``"isolated"`` (one draw of one member), ``"spirals"``
    (one reading), ``"spirals_noisy"`` (one reading with label noise) or ``"psvm"``
    (both PSVMs on one fold of a reconstruction)."""
    from threadpoolctl import threadpool_limits

    from ..datasets import make_isolated
    from .psvm_tables import _psvm

    t0 = time.perf_counter()
    iso, sp = config["isolated"], config["spirals"]
    out = {}
    with threadpool_limits(1):
        if kind == "isolated" or (kind == "psvm" and params["set"] == "isolated"):
            X, y = make_isolated(iso["n"], random_state=params["seed"],
                                 n_blobs=params["n_blobs"], radius=params["radius"])
            y = np.unique(y, return_inverse=True)[1]         # class indices, as spirals
            folds = [fold_indices(y, iso["n_folds"], f, iso["cv_seed"])
                     for f in range(iso["n_folds"])]
        else:
            reading = sp["readings"][params["reading"]]
            X, y = spirals_reading(reading, sp["data_seed"])
            folds = reading_folds(y, reading["folds"], sp["n_folds"], sp["cv_seed"])
            if kind == "spirals_noisy":
                y = noisy_labels(y, sp["noise"], sp["noise_seed"])
        if kind == "psvm":
            tr, te = folds[params["fold"]]
            out.update(_psvm(X[tr], y[tr], X[te], y[te], config["psvm"]))
        elif kind in ("isolated", "spirals", "spirals_noisy"):
            out["accuracy"] = _comparators(X, y, folds)
            out["n_train"] = [int(len(tr)) for tr, _ in folds]
            out["n_classes"] = int(y.max()) + 1
        else:
            raise ValueError(f"unknown task kind {kind!r}")
    out["seconds"] = time.perf_counter() - t0
    return out


# -- the grid and its summary ------------------------------------------------
def _task(kind, config, **params) -> dict:
    return {"kind": kind, "params": params, "config": config}


def make_tasks(config, chosen=None) -> list[dict]:
    """The comparator tasks (``chosen`` None), or the checks on the chosen
    reconstructions (``chosen`` from :func:`choose`)."""
    iso, sp = config["isolated"], config["spirals"]
    if chosen is None:
        tasks = [_task("isolated", config, n_blobs=b, radius=r, seed=s)
                 for b in iso["n_blobs"] for r in iso["radius"]
                 for s in _placed(b, r, iso)]
        return tasks + [_task("spirals", config, reading=k) for k in sp["readings"]]
    ci, cs = chosen["isolated"], chosen["spirals"]
    tasks = [_task("psvm", config, set="isolated", n_blobs=ci["n_blobs"],
                   radius=ci["radius"], seed=ci["seed"], fold=f)
             for f in range(iso["n_folds"])]
    tasks += [_task("psvm", config, set="spirals", reading=cs["reading"], fold=f)
              for f in range(sp["n_folds"])]
    return tasks + [_task("spirals_noisy", config, reading=cs["reading"])]


def _placed(n_blobs, radius, iso) -> list[int]:
    seeds = isolated_seeds(n_blobs, radius, iso)
    return seeds if len(seeds) == iso["n_seeds"] else []


def _stats(acc) -> dict:
    return {m: {"mean": float(np.mean(v)), "std": float(np.std(v, ddof=1)), "accuracy": v}
            for m, v in acc.items()}


def _rms(means, source, dataset) -> float:
    return float(np.sqrt(np.mean([(means[m] - source[m][dataset][0]) ** 2
                                  for m in COMPARATORS])))


def choose(config, tasks, out) -> dict:
    """Per isolated member and per spirals reading, the comparator means and their RMS
    distance to the source's; the chosen member (at its first seed) and reading."""
    source = source_tables()[0][0.0]
    draws, readings = {}, {}
    for t, r in zip(tasks, out):
        p = t["params"]
        if t["kind"] == "isolated":
            draws.setdefault(f"{p['n_blobs']}/{p['radius']}", {})[str(p["seed"])] = _stats(
                r["accuracy"])
        elif t["kind"] == "spirals":
            readings[p["reading"]] = dict(_stats(r["accuracy"]), n_train=r["n_train"],
                                          n_classes=r["n_classes"])
    members = {}
    for key, by_seed in draws.items():
        means = {m: float(np.mean([d[m]["mean"] for d in by_seed.values()]))
                 for m in COMPARATORS}
        members[key] = {"means": means, "rms": _rms(means, source, "isolated"),
                        "rms_by_seed": {s: _rms({m: d[m]["mean"] for m in COMPARATORS},
                                                source, "isolated")
                                        for s, d in by_seed.items()},
                        "draws": by_seed}
    for v in readings.values():
        v["rms"] = _rms({m: v[m]["mean"] for m in COMPARATORS}, source, "spirals")
    best = min(members, key=lambda k: members[k]["rms"])
    blobs, radius = best.split("/")
    reading = min(readings, key=lambda k: readings[k]["rms"])
    return {"members": members, "readings": readings,
            "chosen": {"isolated": {"n_blobs": int(blobs), "radius": float(radius),
                                    "seed": min(map(int, members[best]["draws"])),
                                    "rms": members[best]["rms"]},
                       "spirals": {"reading": reading, "rms": readings[reading]["rms"]}}}


def summarise_checks(tasks, out) -> dict:
    """PSVM's folds on each reconstruction, and the noisy comparators on the spirals one."""
    psvm, noisy = {}, None
    for t, r in zip(tasks, out):
        if t["kind"] == "psvm":
            cell = psvm.setdefault(t["params"]["set"], {})
            for m in ("psvm", "psvm_sampling"):
                cell.setdefault(m, []).append(100 * r[m]["accuracy"])
                cell.setdefault(f"{m}/n_models", []).append(r[m]["n_models"])
        else:
            noisy = _stats(r["accuracy"])
    checks = {s: {m: ({"mean": float(np.mean(v)), "std": float(np.std(v, ddof=1)),
                       "accuracy": v} if "/" not in m else v) for m, v in cell.items()}
              for s, cell in psvm.items()}
    return {"psvm": checks, "spirals_noisy": noisy}


def run(config=CONFIG, root=None, backend=None, n_jobs=None, stop_after=None) -> dict:
    """Run every task (resumable) and write ``psvm_generators.json``."""
    from svmtext.experiments.psvm_generators import run_task as task_fn

    t0 = time.perf_counter()
    tasks = make_tasks(config)
    out = run_tasks(NAME, config, tasks, task_fn, root=root, backend=backend, n_jobs=n_jobs,
                    desc="psvm generators", stop_after=stop_after)
    results = choose(config, tasks, out)
    checks = make_tasks(config, results["chosen"])
    out2 = run_tasks(NAME, config, checks, task_fn, root=root, backend=backend,
                     n_jobs=n_jobs, desc="psvm generators, checks", stop_after=stop_after)
    results["checks"] = summarise_checks(checks, out2)
    results["seconds"] = {"wall": time.perf_counter() - t0,
                          "tasks": float(sum(r["seconds"] for r in out + out2))}
    return finish(NAME, config, results, root)


def main(argv=None) -> None:
    res = run_from_command_line(sys.modules[__name__], argv)
    for key, v in sorted(res["members"].items(), key=lambda kv: kv[1]["rms"]):
        print(f"isolated {key:10s} rms {v['rms']:5.1f}  "
              + " ".join(f"{v['means'][m]:5.1f}" for m in COMPARATORS))
    for key, v in res["readings"].items():
        print(f"spirals {key:36s} rms {v['rms']:5.1f}  "
              + " ".join(f"{v[m]['mean']:5.1f}" for m in (*COMPARATORS, "majority")))
    print("chosen", res["chosen"])
    for s, cell in res["checks"]["psvm"].items():
        print(s, {m: round(v["mean"], 1) for m, v in cell.items() if "/" not in m})
    print(f"task seconds {res['seconds']['tasks']:.0f}, wall {res['seconds']['wall']:.0f}")


if __name__ == "__main__":
    main()
