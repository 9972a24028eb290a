r"""Why SMOSVC's iteration counts differ from LIBSVM's (book: :ref:`sec-smo-iterations`).

``python -m svmtext.experiments.smo_iterations [--smoke] [--backend B] [--n-jobs N]``

:class:`~svmtext.smo.SMOSVC` and scikit-learn's ``SVC`` (LIBSVM) both run Fan, Chen
and Lin's WSS2 with shrinking and the same :math:`\tau`, stopping test and starting
gradient, yet their iteration counts differ, on long runs by factors. This script
measures where the difference comes from with
:func:`~svmtext.smo._emulator.switched_smo`, a small compiled SMO on a precomputed
Gram matrix whose every choice that differs between the two solvers is a switch
(:data:`~svmtext.smo._emulator.SWITCHES`), all off giving our choices and all on
LIBSVM's:

* ``flip`` -- which class is :math:`y = +1`: scikit-learn's LIBSVM sorts the labels
  and calls ``classes_[0]`` :math:`+1`, we call ``classes_[1]`` :math:`+1`. WSS2 takes
  :math:`i` by the first-order rule in :math:`I_{up}` and :math:`j` by the second-order
  rule in :math:`I_{low}`, so it is not symmetric in the labels;
* ``group`` -- LIBSVM orders the points by class (``classes_[0]`` first), each class
  in the given order;
* ``ties`` -- LIBSVM keeps the last index among equal values (``>=``, ``<=``), we the
  first;
* ``late`` -- LIBSVM's first shrinking comes one iteration later (its counter starts at
  :math:`\min(n, 1000) + 1`);
* ``stale`` -- when the gap first falls below ``10 tol``, LIBSVM restores the whole
  problem but shrinks it with :math:`m, M` of the shrunk one; we recompute them;
* ``swap`` -- LIBSVM sets a variable aside by swapping it with the last active one, so
  the active set (and the order in which ties are met) is permuted for good; we keep
  the active variables in index order;
* ``f32`` -- LIBSVM stores :math:`Q` in single precision (``Qfloat``);
* ``arith`` -- LIBSVM's arithmetic: the step clipped on the line of the pair, the
  gradient updated with :math:`Q_{ik}\Delta\alpha_i + Q_{jk}\Delta\alpha_j`, the
  gradient of the set-aside variables rebuilt in LIBSVM's summation order.

With every switch on, the emulator makes LIBSVM's count exactly (the results
record the check on every problem), with every switch off ours without shrinking
exactly, and with shrinking up to the last bits of the kernel values that
:class:`~svmtext.smo.KernelColumns` recomputes for set-aside rows. Problems: the random
problems of ``benchmarks/targets.py`` target (c)
(:func:`svmtext.datasets.toy.make_smo_problem` with ``scaled=False``) and the LIBSVM
guide's svmguide1 and svmguide3 scaled to :math:`[-1, 1]`, RBF kernel, at a sample of
the guide's :math:`(C, \gamma)` grid. Iteration counts are deterministic: nothing is
timed.
"""
from __future__ import annotations

import importlib
import sys

import numpy as np
from sklearn.preprocessing import MinMaxScaler
from sklearn.svm import SVC

from ..datasets import load_svmguide
from ..datasets.toy import make_smo_problem
from ..smo import SMOSVC
from ..smo._emulator import SWITCHES, emulate, gram
from ._cli import run_from_command_line
from ._tasks import finish, run_tasks

NAME = "smo_iterations"


CONFIG = {
    "tol": 1e-3,
    "tau": 1e-12,
    "max_iter": 100_000_000,
    # every switch alone, on these problems
    "table": [{"kind": "random", "seed": 54}, {"kind": "random", "seed": 42},
              {"kind": "random", "seed": 20},
              {"kind": "svmguide", "name": "svmguide1", "log2C": 15, "log2gamma": -3},
              {"kind": "svmguide", "name": "svmguide3", "log2C": 15, "log2gamma": -3}],
    # the same, at a dozen points of the guide's grid per data set
    "grid": {"sets": ["svmguide1", "svmguide3"], "log2C": [3, 7, 11, 15],
             "log2gamma": [-9, -3, 1]},
    # both solvers with either class as +1 on target (c)'s random problems
    "random_seeds": list(range(100)),
    # the points in random orders (the first order is the given one)
    "orders": {"seed": 54, "n_orders": 11},
}

SMOKE_CONFIG = dict(CONFIG, table=[{"kind": "random", "seed": 42}],
                    grid={"sets": ["svmguide3"], "log2C": [3], "log2gamma": [-3]},
                    random_seeds=[1, 3], orders={"seed": 42, "n_orders": 2})

# floats of the smoke results that recertification (python -m svmtext.experiments
# --recertify) accepts as unchanged; integers and strings must be equal
SMOKE_TOLERANCE = {"rtol": 0.0, "atol": 0.0,
                   "why": "iteration counts are integers, compared exactly"}

# -- the problems ----------------------------------------------------------------------


def random_problem(seed) -> tuple:
    """``benchmarks/targets.py`` target (c)'s problem ``seed``:
    :func:`svmtext.datasets.toy.make_smo_problem` without the feature scaled by 1e3
    (``X, y, kernel, params, C``)."""
    return make_smo_problem(seed, scaled=False)


def problem(spec) -> tuple:
    """``X, y (+1 for classes_[1]), kernel, params, C`` of a problem of the configuration."""
    if spec["kind"] == "random":
        return random_problem(spec["seed"])
    X, y = load_svmguide(spec["name"])
    X = MinMaxScaler((-1, 1)).fit_transform(X)
    y = np.where(y == np.unique(y)[1], 1.0, -1.0)
    return X, y, "rbf", {"gamma": 2.0 ** spec["log2gamma"]}, 2.0 ** spec["log2C"]


def libsvm_count(X, y, kernel, params, C, tol) -> int:
    """scikit-learn's ``SVC`` (LIBSVM): its iteration count."""
    return int(SVC(C=C, kernel=kernel, tol=tol, **params).fit(X, y).n_iter_[0])


def smosvc_count(X, y, kernel, params, C, tol, max_iter) -> tuple[int, bool]:
    """:class:`~svmtext.smo.SMOSVC` without null-space steps (LIBSVM's algorithm, whose
    counts this experiment compares): ``(n_iter, converged)``."""
    est = SMOSVC(C=C, kernel=kernel, tol=tol, max_iter=max_iter, null_steps=False,
                 **params).fit(X, y)
    return int(est.n_iter_), bool(est.fit_info_["converged"])


# -- the tasks ---------------------------------------------------------------------------


def switch_task(spec, tol, tau, max_iter, singles) -> dict:
    """Both solvers with either class as +1; the emulation with our choices, with
    each switch alone (``singles``) and with all of them."""
    X, y, kernel, params, C = problem(spec)
    K, d = gram(X, kernel, params)
    em = {"ours": emulate(K, d, y, C, [], tol, tau, max_iter),
          "all": emulate(K, d, y, C, list(SWITCHES), tol, tau, max_iter)}
    if singles:
        em.update({s: emulate(K, d, y, C, [s], tol, tau, max_iter) for s in SWITCHES})
    return {"n": len(y), "n_unique": len(np.unique(X, axis=0)), "kernel": kernel, "C": C,
            "smosvc": smosvc_count(X, y, kernel, params, C, tol, max_iter),
            "smosvc_swapped": smosvc_count(X, -y, kernel, params, C, tol, max_iter),
            "libsvm": libsvm_count(X, y, kernel, params, C, tol),
            "libsvm_swapped": libsvm_count(X, -y, kernel, params, C, tol),
            "emulated": {k: v[0] for k, v in em.items()},
            "emulated_converged": all(v[1] for v in em.values())}


def order_task(seed, n_orders, tol, max_iter) -> dict:
    """Both solvers, either class as +1, on ``n_orders`` orders of the points."""
    X, y, kernel, params, C = random_problem(seed)
    out = {"libsvm": [], "libsvm_swapped": [], "smosvc": [], "smosvc_swapped": []}
    for r in range(n_orders):
        o = np.random.default_rng(r).permutation(len(y)) if r else np.arange(len(y))
        for key, yy in (("", y[o]), ("_swapped", -y[o])):
            out["libsvm" + key].append(libsvm_count(X[o], yy, kernel, params, C, tol))
            out["smosvc" + key].append(smosvc_count(X[o], yy, kernel, params, C, tol,
                                                    max_iter)[0])
    return out


def run(config=CONFIG, root=None, backend=None, n_jobs=None) -> dict:
    """Measure every problem and write ``smo_iterations.json``; return the results."""
    mod = importlib.import_module("svmtext.experiments.smo_iterations")
    common = dict(tol=config["tol"], max_iter=config["max_iter"])
    grid = config["grid"]
    specs = [{"kind": "svmguide", "name": s, "log2C": c, "log2gamma": g}
             for s in grid["sets"] for c in grid["log2C"] for g in grid["log2gamma"]]
    switch = run_tasks(NAME, config,
                       [dict(spec=s, tau=config["tau"], singles=True, **common)
                        for s in config["table"] + specs],
                       mod.switch_task, root=root, backend=backend, n_jobs=n_jobs,
                       desc="switches")
    swaps = run_tasks(NAME, config,
                      [dict(spec={"kind": "random", "seed": s}, tau=config["tau"],
                            singles=False, **common) for s in config["random_seeds"]],
                      mod.switch_task, root=root, backend=backend, n_jobs=n_jobs,
                      desc="random problems")
    orders = mod.order_task(config["orders"]["seed"], config["orders"]["n_orders"], **common)
    nt = len(config["table"])
    results = {"table": [dict(spec, **r) for spec, r in zip(config["table"], switch[:nt])],
               "grid": [dict(spec, **r) for spec, r in zip(specs, switch[nt:])],
               "random": [dict(seed=s, **r) for s, r in zip(config["random_seeds"], swaps)],
               "orders": dict(config["orders"], **orders)}
    return finish(NAME, config, results, root)


def main(argv=None) -> dict:
    return run_from_command_line(sys.modules[__name__], argv)


if __name__ == "__main__":
    main()
