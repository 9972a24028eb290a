r"""Table 1 of Hochreiter and Mozer (2001) reproduced (book: :ref:`sec-coulomb-table1`).

``python -m svmtext.experiments.coulomb_table1 [--smoke] [--backend loky|dask|...]
[--n-jobs N]``.

Protocol (the source's, with our grids): for each data set (the Rätsch pattern pools
of :func:`svmtext.datasets.load_raetsch_pool`), realisation :math:`r` is a seeded
random permutation of the pool: its first 200 points train, the rest test; inputs are
standardised with the training set's mean and standard deviation. For each
kernel (RBF, POL, PLU) and machine (C-, :math:`\nu`-, :math:`\kappa`-, p-,
:math:`\kappa`-p-SVM) the hyperparameters minimise the mean error of 5-fold
cross-validation on the first ``n_cv_sets`` training sets (a grid point at which the
machine cannot be trained, e.g. an infeasible :math:`\nu` or a :math:`\kappa P` that is
not positive semi-definite for the hard-margin :math:`\kappa`-SVM, counts as failed);
then the machine is trained on every realisation and tested on its test points.
Every task is seeded by its own arguments, so any backend gives the same numbers.

Kernels: RBF :math:`\exp(-\gamma\lVert a-b\rVert^2)`, :math:`\gamma = s/d`; POL
:math:`(\langle a, b\rangle/d + 1)^{p}`; PLU :math:`(\lVert a-b\rVert^2 + \epsilon^2)^{-n/2}`
with :math:`\epsilon^2 = s d` and the source's self-potential :math:`P_{ii} = g(r_i^2)`.
"""
from __future__ import annotations

import sys
import time

import numpy as np

# the modules themselves (not the package): the cache's code fingerprint then covers
# the solvers used here, not the estimators
from ..coulomb.energy import solve_battery, solve_nu
from ..coulomb.equalize import solve_p
from ..coulomb.kernels import Plummer, scale_self_potential
from ..datasets import load_raetsch_pool
from ..kernels import polynomial_kernel, rbf_kernel
from ._cache import write_cache
from ._cli import run_from_command_line
from ._tasks import clear_partial, run_tasks

NAME = "coulomb_table1"

DATASETS = ["thyroid", "heart", "breast_cancer", "banana", "german"]
KERNELS = ["RBF", "POL", "PLU"]
MACHINES = ["C", "nu", "kappa", "p", "kappa-p"]

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
    # grids (reduced to fit the time budget: two kernel settings, three or four of each
    # machine's own parameter)
    "kernel_grid": {"RBF": [{"s": 0.5}, {"s": 2.0}],
                    "POL": [{"degree": 2}, {"degree": 3}],
                    "PLU": [{"s": 0.5, "n": 2}, {"s": 2.0, "n": 2}]},
    "machine_grid": {"C": [{"C": c} for c in (1.0, 10.0, 100.0)],
                     "nu": [{"nu": v} for v in (0.2, 0.4, 0.6)],
                     "kappa": [{"kappa": k} for k in (1.1, 2.0, 10.0)],
                     "p": [{"C": c} for c in (1.0, 10.0, 100.0)],
                     "kappa-p": [{"kappa": k, "C": c} for k in (0.5, 2.0)
                                 for c in (1.0, 10.0)]},
}

SMOKE_CONFIG = dict(CONFIG, datasets=["heart", "banana"], n_realisations=2, n_cv_sets=1,
                    n_folds=2, chunk=1,
                    kernel_grid={"RBF": [{"s": 1.0}], "POL": [{"degree": 2}],
                                 "PLU": [{"s": 1.0, "n": 2}]},
                    machine_grid={"C": [{"C": 1.0}], "nu": [{"nu": 0.3}],
                                  "kappa": [{"kappa": 1.5}], "p": [{"C": 1.0}],
                                  "kappa-p": [{"kappa": 0.5, "C": 1.0}, {"kappa": 3.0, "C": 1.0}]})

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


def realisation(dataset, r, n_train, seed):
    """Training and test sets of realisation ``r``: a seeded permutation of the pool,
    first ``n_train`` points to train, standardised by the training statistics."""
    X, y = load_raetsch_pool(dataset)
    perm = np.random.default_rng([seed, r]).permutation(len(y))
    tr, te = perm[:n_train], perm[n_train:]
    mean, std = X[tr].mean(0), X[tr].std(0)
    std[std == 0] = 1.0
    Z = (X - mean) / std
    return Z[tr], y[tr].astype(float), Z[te], y[te].astype(float)


def kernel_pair(kernel, params, Xtr, Xte):
    """``P`` of the training conductors and ``G`` (test x train)."""
    d = Xtr.shape[1]
    if kernel == "RBF":
        g = params["s"] / d
        return rbf_kernel(Xtr, gamma=g), rbf_kernel(Xte, Xtr, gamma=g)
    if kernel == "POL":
        kw = {"degree": params["degree"], "gamma": 1.0 / d, "coef0": 1.0}
        return polynomial_kernel(Xtr, **kw), polynomial_kernel(Xte, Xtr, **kw)
    k = Plummer(eps=float(np.sqrt(params["s"] * d)), n=params["n"])
    r2 = k.radii2(Xtr)
    return k.matrix(Xtr, Xtr, r2), k.matrix(Xte, Xtr, r2)


def fit_machine(machine, params, P, y, tol, max_iter, solver="qp"):
    """Charges ``alpha`` and constant potential ``b`` of one machine, or None if it fails."""
    try:
        if machine == "C":
            # SMO, as LIBSVM: it also runs when P is not positive definite
            sol = solve_battery(P, y, params["C"], tol=tol, max_iter=max_iter)
        elif machine == "nu":
            sol = solve_nu(P, y, params["nu"])
        elif machine == "kappa":
            sol = solve_battery(scale_self_potential(P, params["kappa"]), y, np.inf)
        elif machine == "p":
            sol = solve_p(P, y, params["C"], tol=tol, max_iter=max_iter, solver=solver)
        else:
            sol = solve_p(scale_self_potential(P, params["kappa"]), y, params["C"], tol=tol,
                          max_iter=max_iter, solver=solver)
    except ValueError:
        return None
    return sol.alpha, sol.b


def test_error(fit, G, ytr, yte):
    """% misclassified test points (None when the machine could not be trained)."""
    if fit is None:
        return None
    alpha, b = fit
    f = G @ (ytr * alpha) + b
    return float(100.0 * np.mean(np.where(f > 0, 1.0, -1.0) != yte))


def cv_task(dataset, kernel, kparams, machine, mgrid, n_train, n_cv_sets, n_folds, seed,
            tol, max_iter, solver):
    """Mean k-fold CV error (over the first ``n_cv_sets`` training sets) of every
    machine setting in ``mgrid`` at one kernel setting; None for a failed setting."""
    import warnings

    errs = [[] for _ in mgrid]
    for r in range(n_cv_sets):
        X, y, _, _ = realisation(dataset, r, n_train, seed)
        folds = np.random.default_rng([seed, r, 7]).permutation(len(y)) % n_folds
        for f in range(n_folds):
            tr, va = folds != f, folds == f
            P, G = kernel_pair(kernel, kparams, X[tr], X[va])
            for i, mp in enumerate(mgrid):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    fit = fit_machine(machine, mp, P, y[tr], tol, max_iter, solver)
                errs[i].append(test_error(fit, G, y[tr], y[va]))
    return [None if any(e is None for e in es) else float(np.mean(es)) for es in errs]


def test_task(dataset, kernel, kparams, machine, mparams, realisations, n_train, seed, tol,
              max_iter, solver):
    """Test errors of one machine setting on the given realisations."""
    import warnings

    out = []
    for r in realisations:
        X, y, Xte, yte = realisation(dataset, r, n_train, seed)
        P, G = kernel_pair(kernel, kparams, X, Xte)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fit = fit_machine(machine, mparams, P, y, tol, max_iter, solver)
        out.append(test_error(fit, G, y, yte))
    return out


def run(config=CONFIG, root=None, backend=None, n_jobs=None, stop_after=None):
    """CV grid, then the test runs; write ``coulomb_table1.json`` and return the results.

    ``stop_after`` is passed to the cross-validation's
    :func:`~svmtext.experiments._tasks.run_tasks` (testing resumption: the run raises
    ``Interrupted`` after that many new tasks)."""
    t0 = time.perf_counter()
    common = {"n_train": config["n_train"], "seed": config["seed"],
              "tol": config["smo_tol"], "max_iter": config["smo_max_iter"],
              "solver": config["solver"]}
    cv = []
    for ds in config["datasets"]:
        for ker in config["kernels"]:
            for ki, kp in enumerate(config["kernel_grid"][ker]):
                for m in config["machines"]:
                    cv.append({"dataset": ds, "kernel": ker, "kparams": kp, "machine": m,
                               "mgrid": config["machine_grid"][m],
                               "n_cv_sets": config["n_cv_sets"],
                               "n_folds": config["n_folds"], **common})
    cv_out = run_tasks(NAME, config, cv, cv_task, root=root, backend=backend, n_jobs=n_jobs,
                       desc="coulomb table 1: cross-validation", stop_after=stop_after)
    chosen = {}
    for task, errs in zip(cv, cv_out):
        key = (task["dataset"], task["kernel"], task["machine"])
        for mp, e in zip(task["mgrid"], errs):
            if e is not None and (key not in chosen or e < chosen[key]["cv_error"]):
                chosen[key] = {"kparams": task["kparams"], "mparams": mp, "cv_error": e}
    n, chunk = config["n_realisations"], config["chunk"]
    tests = []
    for (ds, ker, m), ch in chosen.items():
        for start in range(0, n, chunk):
            tests.append({"dataset": ds, "kernel": ker, "kparams": ch["kparams"], "machine": m,
                          "mparams": ch["mparams"],
                          "realisations": list(range(start, min(n, start + chunk))),
                          **common})
    test_out = run_tasks(NAME, config, tests, test_task, root=root, backend=backend,
                         n_jobs=n_jobs, desc="coulomb table 1: test runs")
    errors = {}
    for task, errs in zip(tests, test_out):
        key = (task["dataset"], task["kernel"], task["machine"])
        errors.setdefault(key, []).extend(errs)
    table = {}
    for ds in config["datasets"]:
        for ker in config["kernels"]:
            for m in config["machines"]:
                ch = chosen.get((ds, ker, m))
                e = [v for v in errors.get((ds, ker, m), []) if v is not None]
                entry = {"chosen": ch, "n_failed": len(errors.get((ds, ker, m), [])) - len(e)}
                if e:
                    entry.update(mean=float(np.mean(e)), sem=float(np.std(e, ddof=1)
                                 / np.sqrt(len(e))) if len(e) > 1 else float("nan"),
                                 errors=e)
                table.setdefault(ds, {}).setdefault(ker, {})[m] = entry
    results = {"table": table, "source": {ds: SOURCE_TABLE[ds] for ds in config["datasets"]},
               "n_cv_tasks": len(cv), "n_test_tasks": len(tests)}
    write_cache(NAME, config, dict(results, seconds=time.perf_counter() - t0), root=root)
    clear_partial(NAME, config, root)
    return results


def main(argv=None) -> None:
    res = run_from_command_line(sys.modules[__name__], argv)
    for ds, by_kernel in res["table"].items():
        for ker, by_m in by_kernel.items():
            cells = [f"{m}: {e.get('mean', float('nan')):5.1f} "
                     f"({res['source'][ds][ker][MACHINES.index(m)]:4.1f})"
                     for m, e in by_m.items()]
            print(f"{ds:14s} {ker}  " + "  ".join(cells))


if __name__ == "__main__":
    main()
