r"""Table 1 of Hochreiter and Mozer (2001) reproduced on fair grids (book: :ref:`sec-coulomb-table1`).

``python -m svmtext.experiments.coulomb_table1 [--smoke] [--backend loky|dask|...]
[--n-jobs N]``.

Protocol (the source's): for each data set (the Rätsch pattern pools of
:func:`svmtext.datasets.load_raetsch_pool`), realisation :math:`r` is a seeded random
permutation of the pool: its first 200 points train, the rest test; inputs are
standardised with the training set's mean and standard deviation. For each kernel
and machine the hyperparameters minimise the mean error of 5-fold cross-validation
on the first ``n_cv_sets`` training sets; then the machine is trained on every
realisation and tested on its test points.

Fair grids. Every hyperparameter lives on an ordered lattice (``axes``). The search
starts from a small product grid (``start``) and, round after round, evaluates the
missing lattice neighbours (one step along each axis) of the current best setting,
until the best setting has every neighbour evaluated -- it is then a local minimum of
the CV error on the lattice, never on an edge of what was searched -- or the lattice
ends (a natural bound: degree 1, :math:`\nu \le \nu_{\max}`) or ``max_rounds`` is
reached. Such a setting is reported as an *edge* with the CV error by which it beats
its inner neighbour. Ties go to the smallest lattice indices. A setting at which a
machine cannot be trained (an infeasible :math:`\nu`; a matrix that is not positive
semi-definite where an interior-point solve needs it) counts as failed.

Convexity. Every fit records the smallest eigenvalue, on neutral charges, of the
matrix whose energy the machine minimises (:math:`P` or :math:`\kappa P`), relative to
the largest: a negative value means the C-SVM's SMO returns a stationary point, not
necessarily the minimum (the p- and :math:`\kappa`-p-SVM minimise
:math:`\lVert Pq+\phi\rVert^2`, convex for any :math:`P`).

Variant (labelled): ``ida_sizes`` retrains the selected settings of the source's
kernels (RBF, POL, PLU) on the first :math:`n` points of each of the first
``ida_realisations`` training sets, :math:`n` the IDA split's own training size where
it is below 200 (heart 170, thyroid 140), and tests on the same test points.

Kernels: RBF :math:`\exp(-\gamma\lVert a-b\rVert^2)`, :math:`\gamma = s/d`; POL
:math:`(\langle a, b\rangle/d + 1)^{p}`; PLU :math:`(\lVert a-b\rVert^2 + \ell^2)^{-n/2}`
with the softening length :math:`\ell^2 = s d`, :math:`n = 2` and the source's self-potential
:math:`P_{ii} = g(r_i^2)`; COU (the book's own column) the Coulomb potential of the
data's dimension with touching shells, :math:`P_{ii} = g(r_i^2/4)`, divided by the
mean of its diagonal (a unit of charge).

Every task is seeded by its own arguments, so any backend gives the same numbers;
each task records its own wall and CPU seconds, so the total is the same whether the
run was resumed or not.
"""
from __future__ import annotations

import itertools
import json
import sys
import time
import warnings

import numpy as np

# the modules themselves (not the package): the cache's code fingerprint then covers
# the solvers used here, not the estimators
from ..coulomb.energy import solve_battery, solve_nu
from ..coulomb.equalize import solve_p
from ..coulomb.kernels import Coulomb, Plummer, neutral_eigenvalues, scale_self_potential
from ..datasets import load_raetsch_pool
from ..kernels import polynomial_kernel, rbf_kernel
from ._cache import write_cache
from ._cli import run_from_command_line
from ._tasks import clear_partial, partial_dir, run_tasks

NAME = "coulomb_table1"

DATASETS = ["thyroid", "heart", "breast_cancer", "banana", "german"]
KERNELS = ["RBF", "POL", "PLU", "COU"]
MACHINES = ["C", "nu", "kappa", "p", "kappa-p"]
#: Training-set sizes of the IDA splits (Rätsch et al.), where they are below 200.
IDA_TRAIN_SIZES = {"thyroid": 140, "heart": 170}

_C = [round(10 ** (k / 2), 6) for k in range(-4, 13)]                 # 0.01 ... 1e6
_S = [2.0 ** k for k in range(-8, 9)]                                  # 1/256 ... 256

CONFIG = {
    "datasets": DATASETS,
    "kernels": KERNELS,
    "machines": MACHINES,
    "n_train": 200,
    "n_realisations": 100,
    "n_cv_sets": 5,
    "n_folds": 5,
    "seed": 2001,
    "chunk": 10,                 # realisations per test task
    "smo_tol": 1e-3,
    "smo_max_iter": 200_000,
    "solver": "qp",              # p-, kappa-p-SVM by interior point (C-SVM: SMO; kappa: C = inf)
    "max_rounds": 14,
    "ida_sizes": IDA_TRAIN_SIZES,
    "ida_realisations": 20,      # the variant on the first 20 realisations, source kernels
    # ordered lattices of every hyperparameter, and the product grid the search starts from
    "axes": {"RBF": {"s": _S}, "POL": {"degree": list(range(1, 11))},
             "PLU": {"s": _S, "n": [2]}, "COU": {},
             "C": {"C": _C},
             "nu": {"nu": [0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8,
                           0.9, 1.0]},
             "kappa": {"kappa": [1.0, 1.05, 1.1, 1.25, 1.5, 2.0, 3.0, 5.0, 10.0, 20.0, 50.0,
                                 100.0, 1000.0, 1e4]},
             "p": {"C": _C},
             "kappa-p": {"kappa": [0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0,
                                   100.0], "C": _C}},
    "start": {"RBF": {"s": [0.5, 2.0]}, "POL": {"degree": [2, 3]},
              "PLU": {"s": [0.5, 2.0], "n": [2]}, "COU": {},
              "C": {"C": [1.0, 10.0, 100.0]}, "nu": {"nu": [0.2, 0.4, 0.6]},
              "kappa": {"kappa": [1.1, 2.0, 10.0]}, "p": {"C": [1.0, 10.0, 100.0]},
              "kappa-p": {"kappa": [0.5, 2.0], "C": [1.0, 10.0]}},
}

SMOKE_CONFIG = dict(CONFIG, datasets=["heart", "banana"], n_realisations=2, n_cv_sets=1,
                    n_folds=2, chunk=1, max_rounds=2, ida_sizes={"heart": 170},
                    ida_realisations=2,
                    start={"RBF": {"s": [1.0]}, "POL": {"degree": [2]},
                           "PLU": {"s": [1.0], "n": [2]}, "COU": {},
                           "C": {"C": [1.0]}, "nu": {"nu": [0.3]}, "kappa": {"kappa": [1.5]},
                           "p": {"C": [1.0]}, "kappa-p": {"kappa": [0.5], "C": [1.0]}})

# floats of the smoke results that recertification (python -m svmtext.experiments
# --recertify) accepts as unchanged; integers and strings must be equal
SMOKE_TOLERANCE = {"rtol": 1e-9, "atol": 1e-12,
                   "why": ("test errors are counts and the cross-validated choice compares them exactly; "
                           "the solvers' objectives move by rounding only under a refactor")}


#: Table 1 of the source: mean % test error (kernel -> machine -> value).
SOURCE_TABLE = {
    "thyroid": {"RBF": [6.4, 9.4, 7.7, 5.4, 8.6], "POL": [22.8, 12.6, 7.0, 13.3, 6.9],
                "PLU": [6.1, 6.2, 6.1, 5.7, 6.1]},
    "heart": {"RBF": [21.4, 19.1, 17.9, 22.4, 17.8], "POL": [20.4, 20.4, 19.3, 23.0, 19.3],
              "PLU": [16.3, 16.3, 16.3, 17.4, 16.3]},
    "breast_cancer": {"RBF": [33.6, 31.6, 33.8, 32.4, 33.7],
                      "POL": [36.0, 25.7, 29.6, 27.1, 29.1],
                      "PLU": [33.4, 33.1, 33.4, 30.6, 33.4]},
    "banana": {"RBF": [13.2, 36.7, 13.2, 11.6, 13.4], "POL": [35.3, 35.0, 11.5, 22.4, 11.5],
               "PLU": [15.7, 15.7, 15.7, 21.9, 15.7]},
    "german": {"RBF": [28.7, 29.3, 29.0, 27.8, 28.8], "POL": [33.7, 29.6, 26.2, 31.8, 26.2],
               "PLU": [28.8, 28.5, 33.3, 27.1, 33.3]},
}


def realisation(dataset, r, n_train, seed, n_fit=None) -> tuple[np.ndarray, ...]:
    """Training and test sets of realisation ``r``: a seeded permutation of the pool,
    first ``n_train`` points to train (of which the first ``n_fit`` are used, default
    all), the rest test; standardised by the statistics of the points trained on."""
    X, y = load_raetsch_pool(dataset)
    perm = np.random.default_rng([seed, r]).permutation(len(y))
    tr, te = perm[:n_train if n_fit is None else n_fit], perm[n_train:]
    mean, std = X[tr].mean(0), X[tr].std(0)
    std[std == 0] = 1.0
    Z = (X - mean) / std
    return Z[tr], y[tr].astype(float), Z[te], y[te].astype(float)


def kernel_pair(kernel, params, Xtr, Xte) -> tuple[np.ndarray, np.ndarray]:
    """``P`` of the training conductors and ``G`` (test x train)."""
    d = Xtr.shape[1]
    if kernel == "RBF":
        g = params["s"] / d
        return rbf_kernel(Xtr, gamma=g), rbf_kernel(Xte, Xtr, gamma=g)
    if kernel == "POL":
        kw = {"degree": params["degree"], "gamma": 1.0 / d, "coef0": 1.0}
        return polynomial_kernel(Xtr, **kw), polynomial_kernel(Xte, Xtr, **kw)
    if kernel == "PLU":
        k = Plummer(softening=float(np.sqrt(params["s"] * d)), n=params["n"])
    else:
        k = Coulomb(dim=d, self_potential="shell")
    r2 = k.radii2(Xtr)
    P, G = k.matrix(Xtr, Xtr, r2), k.matrix(Xte, Xtr, r2)
    if kernel == "COU":
        unit = float(np.mean(np.diag(P)))
        P, G = P / unit, G / unit
    return P, G


def energy_matrix(machine, params, P) -> np.ndarray:
    """The matrix whose energy the machine's charges see: :math:`\\kappa P` or :math:`P`."""
    return scale_self_potential(P, params["kappa"]) if "kappa" in params else P


def fit_machine(machine, params, P, y, tol, max_iter, solver="qp") -> tuple[np.ndarray, float] | None:
    """``(alpha, b)`` of one machine, or None if it cannot be trained."""
    M = energy_matrix(machine, params, P)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if machine == "C":
                # SMO, as LIBSVM: it also runs when P is indefinite (a stationary point)
                sol = solve_battery(M, y, params["C"], tol=tol, max_iter=max_iter)
            elif machine == "nu":
                sol = solve_nu(M, y, params["nu"])
            elif machine == "kappa":
                sol = solve_battery(M, y, np.inf)
            else:
                sol = solve_p(M, y, params["C"], tol=tol, max_iter=max_iter, solver=solver)
        except ValueError:
            return None
    return sol.alpha, sol.b


def relative_neutral_min(M) -> float:
    """Smallest eigenvalue of ``M`` on neutral charges over its largest there."""
    ev = neutral_eigenvalues(M)
    return float(ev[0] / max(abs(ev[-1]), 1e-300))


def test_error(fit, G, ytr, yte) -> float | None:
    """% misclassified test points (None when the machine could not be trained)."""
    if fit is None:
        return None
    alpha, b = fit
    f = G @ (ytr * alpha) + b
    return float(100.0 * np.mean(np.where(f > 0, 1.0, -1.0) != yte))


def _clock():
    return time.perf_counter(), time.process_time()


def _since(t):
    return {"wall": time.perf_counter() - t[0], "cpu": time.process_time() - t[1]}


def cv_task(dataset, kernel, kparams, machine, mparams, n_train, n_cv_sets, n_folds, seed,
            tol, max_iter, solver) -> dict:
    """Mean k-fold CV error over the first ``n_cv_sets`` training sets of one setting
    (None if any fit fails), the smallest relative neutral eigenvalue met, and the
    task's own wall and CPU seconds."""
    t = _clock()
    errs, lam = [], []
    for r in range(n_cv_sets):
        X, y, _, _ = realisation(dataset, r, n_train, seed)
        folds = np.random.default_rng([seed, r, 7]).permutation(len(y)) % n_folds
        for f in range(n_folds):
            tr, va = folds != f, folds == f
            P, G = kernel_pair(kernel, kparams, X[tr], X[va])
            if kernel in ("PLU", "COU") or "kappa" in mparams:
                lam.append(relative_neutral_min(energy_matrix(machine, mparams, P)))
            fit = fit_machine(machine, mparams, P, y[tr], tol, max_iter, solver)
            errs.append(test_error(fit, G, y[tr], y[va]))
    return {"cv_error": None if any(e is None for e in errs) else float(np.mean(errs)),
            "n_failed": sum(e is None for e in errs),
            "neutral_min": min(lam) if lam else None, **_since(t)}


def test_task(dataset, kernel, kparams, machine, mparams, realisations, n_train, seed, tol,
              max_iter, solver, n_fit=None) -> dict:
    """Test errors of one setting on the given realisations (trained on the first
    ``n_fit`` training points), with the relative neutral eigenvalue of each fit."""
    t = _clock()
    out, lam = [], []
    for r in realisations:
        X, y, Xte, yte = realisation(dataset, r, n_train, seed, n_fit)
        P, G = kernel_pair(kernel, kparams, X, Xte)
        lam.append(relative_neutral_min(energy_matrix(machine, mparams, P)))
        out.append(test_error(fit_machine(machine, mparams, P, y, tol, max_iter, solver),
                              G, y, yte))
    return {"errors": out, "neutral_min": lam, **_since(t)}


# ----------------------------------------------------------------------------- search
def _lattice(config, kernel, machine):
    """Axis names and value lists of the joint (kernel, machine) lattice."""
    axes = [("k", a, v) for a, v in config["axes"][kernel].items()]
    axes += [("m", a, v) for a, v in config["axes"][machine].items()]
    return axes


def _setting(axes, idx):
    kp = {a: v[i] for (w, a, v), i in zip(axes, idx) if w == "k"}
    mp = {a: v[i] for (w, a, v), i in zip(axes, idx) if w == "m"}
    return kp, mp


def _start(config, kernel, machine, axes):
    lists = []
    for w, a, v in axes:
        s = config["start"][kernel if w == "k" else machine][a]
        lists.append([v.index(x) for x in s])
    return set(itertools.product(*lists))


def _neighbours(axes, idx):
    """Lattice neighbours one step along each axis, and the axes where the lattice ends."""
    out, ends = [], []
    for j, (_, a, v) in enumerate(axes):
        for step in (-1, 1):
            k = idx[j] + step
            if 0 <= k < len(v):
                out.append(idx[:j] + (k,) + idx[j + 1:])
            elif len(v) > 1:
                ends.append((a, "low" if step < 0 else "high"))
    return out, ends


def _best(results):
    ok = [(r["cv_error"], idx) for idx, r in results.items() if r["cv_error"] is not None]
    return min(ok)[1] if ok else None


def select(config, cells, root=None, backend=None, n_jobs=None, stop_after=None) -> tuple[dict, list, dict]:
    """Adaptive lattice search of every cell; returns ``{cell: summary}`` and the rounds."""
    common = {"n_train": config["n_train"], "seed": config["seed"], "tol": config["smo_tol"],
              "max_iter": config["smo_max_iter"], "solver": config["solver"],
              "n_cv_sets": config["n_cv_sets"], "n_folds": config["n_folds"]}
    axes = {c: _lattice(config, c[1], c[2]) for c in cells}
    evaluated = {c: {} for c in cells}
    todo = {c: _start(config, c[1], c[2], axes[c]) for c in cells}
    rounds = []
    for rnd in range(config["max_rounds"] + 1):
        tasks, owners = [], []
        for c in cells:
            for idx in sorted(todo[c]):
                kp, mp = _setting(axes[c], idx)
                tasks.append({"dataset": c[0], "kernel": c[1], "kparams": kp, "machine": c[2],
                              "mparams": mp, **common})
                owners.append((c, idx))
        if not tasks:
            break
        out = run_tasks(NAME, config, tasks, cv_task, root=root, backend=backend,
                        n_jobs=n_jobs, desc=f"coulomb table 1: CV round {rnd}",
                        stop_after=stop_after)
        rounds.append(len(tasks))
        for (c, idx), r in zip(owners, out):
            evaluated[c][idx] = r
        todo = {c: set() for c in cells}
        if rnd == config["max_rounds"]:
            break
        for c in cells:
            b = _best(evaluated[c])
            if b is not None:
                todo[c] = {n for n in _neighbours(axes[c], b)[0] if n not in evaluated[c]}
    chosen = {}
    for c in cells:
        b = _best(evaluated[c])
        if b is None:
            chosen[c] = None
            continue
        nb, ends = _neighbours(axes[c], b)
        missing = [n for n in nb if n not in evaluated[c]]
        edges = [{"axis": a, "side": side, "reason": "lattice ends"} for a, side in ends]
        for n in missing:
            j = next(i for i in range(len(b)) if n[i] != b[i])
            edges.append({"axis": axes[c][j][1], "side": "low" if n[j] < b[j] else "high",
                          "reason": "round limit"})
        best = evaluated[c][b]
        for e in edges:        # by how much: the inner neighbour's CV error minus the best's
            j = next(i for i, ax in enumerate(axes[c]) if ax[1] == e["axis"])
            inner = b[:j] + (b[j] + (1 if e["side"] == "low" else -1),) + b[j + 1:]
            r = evaluated[c].get(inner)
            e["margin"] = (None if r is None or r["cv_error"] is None
                           else r["cv_error"] - best["cv_error"])
        kp, mp = _setting(axes[c], b)
        failed_nb = [_setting(axes[c], n) for n in nb
                     if n in evaluated[c] and evaluated[c][n]["cv_error"] is None]
        chosen[c] = {"kparams": kp, "mparams": mp, "cv_error": best["cv_error"],
                     "cv_neutral_min": best["neutral_min"], "edges": edges,
                     "failed_neighbours": failed_nb, "n_evaluated": len(evaluated[c])}
    seconds = {"wall": sum(r["wall"] for ev in evaluated.values() for r in ev.values()),
               "cpu": sum(r["cpu"] for ev in evaluated.values() for r in ev.values())}
    return chosen, rounds, seconds


def _test_cells(config, chosen, n_fit_of, root, backend, n_jobs, desc, n=None,
                kernels=None):
    n = config["n_realisations"] if n is None else n
    chunk = config["chunk"]
    common = {"n_train": config["n_train"], "seed": config["seed"], "tol": config["smo_tol"],
              "max_iter": config["smo_max_iter"], "solver": config["solver"]}
    tasks, owners = [], []
    for c, ch in chosen.items():
        if ch is None or n_fit_of(c[0]) is False or (kernels and c[1] not in kernels):
            continue
        for start in range(0, n, chunk):
            t = {"dataset": c[0], "kernel": c[1], "kparams": ch["kparams"], "machine": c[2],
                 "mparams": ch["mparams"],
                 "realisations": list(range(start, min(n, start + chunk))), **common}
            if n_fit_of(c[0]) is not None:
                t["n_fit"] = n_fit_of(c[0])
            tasks.append(t)
            owners.append(c)
    out = run_tasks(NAME, config, tasks, test_task, root=root, backend=backend,
                    n_jobs=n_jobs, desc=desc)
    errors, lam, secs = {}, {}, {"wall": 0.0, "cpu": 0.0}
    for c, r in zip(owners, out):
        errors.setdefault(c, []).extend(r["errors"])
        lam.setdefault(c, []).extend(r["neutral_min"])
        secs["wall"] += r["wall"]
        secs["cpu"] += r["cpu"]
    return errors, lam, secs, len(tasks)


def _summary(errs, lam):
    e = [v for v in errs if v is not None]
    out = {"n_failed": len(errs) - len(e), "neutral_min": min(lam),
           "n_indefinite": int(sum(v < -1e-8 for v in lam))}
    if e:
        out.update(mean=float(np.mean(e)), errors=e,
                   sem=float(np.std(e, ddof=1) / np.sqrt(len(e))) if len(e) > 1 else None)
    return out


def run(config=CONFIG, root=None, backend=None, n_jobs=None, stop_after=None) -> dict:
    """Lattice search, test runs and the IDA-size variant; write ``coulomb_table1.json``.

    ``stop_after`` is passed to the first round's :func:`~svmtext.experiments._tasks.run_tasks`
    (testing resumption: the run raises ``Interrupted`` after that many new tasks)."""
    t0 = time.perf_counter()
    cells = [(ds, ker, m) for ds in config["datasets"] for ker in config["kernels"]
             for m in config["machines"]]
    chosen, rounds, cv_secs = select(config, cells, root, backend, n_jobs, stop_after)
    errors, lam, test_secs, n_test = _test_cells(config, chosen, lambda ds: None, root, backend,
                                                 n_jobs, "coulomb table 1: test runs")
    sizes = config["ida_sizes"]
    ida_err, ida_lam, ida_secs, n_ida = _test_cells(
        config, chosen, lambda ds: sizes.get(ds, False), root, backend, n_jobs,
        "coulomb table 1: IDA-size variant", n=config["ida_realisations"],
        kernels=("RBF", "POL", "PLU"))
    table, ida = {}, {}
    for c in cells:
        ds, ker, m = c
        entry = {"chosen": chosen[c]}
        if c in errors:
            entry.update(_summary(errors[c], lam[c]))
        table.setdefault(ds, {}).setdefault(ker, {})[m] = entry
        if c in ida_err:
            ida.setdefault(ds, {}).setdefault(ker, {})[m] = dict(
                _summary(ida_err[c], ida_lam[c]), n_train=sizes[ds])
    secs = {k: cv_secs[k] + test_secs[k] + ida_secs[k] for k in ("wall", "cpu")}
    # wall time of the whole run, resumed calls and pauses included: from the first
    # finished task (minus its own duration) to now
    done = list(partial_dir(NAME, config, root).glob("*.json"))
    first = min(done, key=lambda f: f.stat().st_mtime)
    start = first.stat().st_mtime - json.loads(first.read_text())["result"]["wall"]
    results = {"table": table, "ida_sizes": ida,
               "source": {ds: SOURCE_TABLE[ds] for ds in config["datasets"]},
               "cv_rounds": rounds, "n_cv_tasks": sum(rounds), "n_test_tasks": n_test,
               "n_ida_tasks": n_ida,
               "task_seconds": {"cv": cv_secs, "test": test_secs, "ida": ida_secs,
                                "total": secs},
               "run_wall_seconds": time.time() - start}
    write_cache(NAME, config, dict(results, call_wall_seconds=time.perf_counter() - t0),
                root=root)
    clear_partial(NAME, config, root)
    return results


def main(argv=None) -> None:
    res = run_from_command_line(sys.modules[__name__], argv)
    for ds, by_kernel in res["table"].items():
        for ker, by_m in by_kernel.items():
            cells = []
            for m, e in by_m.items():
                src = (res["source"][ds][ker][MACHINES.index(m)]
                       if ker in res["source"][ds] else float("nan"))
                cells.append(f"{m}: {e.get('mean', float('nan')):5.1f} ({src:4.1f})")
            print(f"{ds:14s} {ker}  " + "  ".join(cells))
    print("task seconds:", res["task_seconds"]["total"])


if __name__ == "__main__":
    main()
