r"""Cover's count against simulation (book: :ref:`sec-practice-kernels`).

``python -m svmtext.experiments.cover_sim [--smoke] [--backend B] [--n-jobs N]``

For each case, ``trials`` draws of Gaussian points (in general position with
probability one) with fair random labels; the fraction that is linearly separable
(a linear feasibility programme, :func:`svmtext.cover.is_linearly_separable`) is
compared in the book with Cover's :math:`p(n, d)`. Cases: points of
:math:`\mathbb R^2` with a bias, :math:`n = 3, 4, 6, 8, 10`; 20 points of
:math:`\mathbb R^3` mapped by the ten features of :math:`(1 + x^\top x')^2`
(:func:`svmtext.feature_map.poly2_feature_map`), without a bias (the constant
feature plays it). Every case is one task.
"""
from __future__ import annotations

import importlib
import sys
import time

from ..cover import simulate_separable_fraction
from ..feature_map import poly2_feature_map
from ._cli import run_from_command_line
from ._tasks import finish, run_tasks

NAME = "cover_sim"

CONFIG = {
    "cases": [{"n": n, "d": 2, "feature_map": None} for n in (3, 4, 6, 8, 10)]
    + [{"n": 20, "d": 3, "feature_map": "poly2"}],
    "trials": 2000,
    "seed": 0,
}

SMOKE_CONFIG = dict(CONFIG, cases=CONFIG["cases"][:2], trials=20)

# floats of the smoke results that recertification (python -m svmtext.experiments
# --recertify) accepts as unchanged; integers and strings must be equal
SMOKE_TOLERANCE = {"rtol": 1e-9, "atol": 1e-12,
                   "why": ("the fractions are counts of separable draws over the trials: exact")}



def fraction(n, d, feature_map, trials, seed) -> dict:
    """Separable fraction of one case."""
    t0 = time.perf_counter()
    fm = {None: None, "poly2": poly2_feature_map}[feature_map]
    f = simulate_separable_fraction(n, d, trials, seed, bias=fm is None, feature_map=fm)
    return {"fraction": f, "seconds": time.perf_counter() - t0}


def run(config=CONFIG, root=None, backend=None, n_jobs=None) -> dict:
    """Simulate every case and write ``cover_sim.json``; return the results."""
    fn = importlib.import_module("svmtext.experiments.cover_sim").fraction
    tasks = [dict(c, trials=config["trials"], seed=config["seed"]) for c in config["cases"]]
    out = run_tasks(NAME, config, tasks, fn, root=root, backend=backend, n_jobs=n_jobs,
                    desc="Cover simulation")
    results = {"cases": [dict(c, **o) for c, o in zip(config["cases"], out)],
               "trials": config["trials"]}
    return finish(NAME, config, results, root)


def main(argv=None) -> dict:
    return run_from_command_line(sys.modules[__name__], argv)


if __name__ == "__main__":
    main()
