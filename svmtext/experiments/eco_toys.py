r"""EcoSVM on the source's toy problems: A(t) and N(t) over several seeds
(book: :ref:`sec-eco-toys`).

``python -m svmtext.experiments.eco_toys`` (``--smoke`` for the reduced run)

For each problem and seed: draw ``n`` training and ``n_test`` test points, fit
the batch SVM (scikit-learn's ``SVC``, the same dual) and stream the training
points through :class:`~svmtext.eco.EcoSVC` (pure, and with the re-test
buffer), recording the test accuracy :math:`A(t)` and the number of support
vectors :math:`N(t)` (all and free) after every ``every`` points, and the
historical-contingency counts at the end.
"""
from __future__ import annotations

import sys
import time

import numpy as np
from joblib import Parallel, delayed
from sklearn.svm import SVC
from tqdm import tqdm

from ..datasets import make_hypercube_linear, make_hypercube_sinusoidal
from ..eco import EcoSVC
from ._cache import write_cache
from ._cli import run_from_command_line

NAME = "eco_toys"

_MAKERS = {"linear": make_hypercube_linear,
           "sinusoidal": make_hypercube_sinusoidal}

CONFIG = {
    "problems": {
        "linear_2d": {"data": "linear", "d": 2, "n": 200, "kernel": "linear",
                      "C": 100.0, "gamma": None},
        "sinusoidal_2d": {"data": "sinusoidal", "d": 2, "n": 800,
                          "kernel": "rbf", "C": 10.0, "gamma": 10.0},
        # the initial batch must exceed the dimension d (our reading of the
        # source's condition against "flat directions"; book: sec-eco-toys)
        "linear_80d": {"data": "linear", "d": 80, "n": 1000,
                       "kernel": "linear", "C": 100.0, "gamma": None,
                       "n_start": 100},
    },
    "n_test": 1000,
    "seeds": [0, 1, 2, 3, 4],
    "n_start": 10,
    "smo_tol": 1e-3,
    "buffer_size": 50,
    "every": 20,
    "n_jobs": 2,
}

SMOKE_CONFIG = dict(CONFIG, problems={
    "linear_2d": dict(CONFIG["problems"]["linear_2d"], n=60),
    "sinusoidal_2d": dict(CONFIG["problems"]["sinusoidal_2d"], n=60),
}, n_test=100, seeds=[0], n_jobs=1, buffer_size=10, every=20)


def _one(problem, p, seed, cfg):
    X, y = _MAKERS[p["data"]](p["n"] + cfg["n_test"], p["d"], random_state=seed)
    Xtr, ytr, Xte, yte = X[:p["n"]], y[:p["n"]], X[p["n"]:], y[p["n"]:]
    kw = {"kernel": p["kernel"], "C": p["C"]}
    if p["gamma"] is not None:
        kw["gamma"] = p["gamma"]
    svc = SVC(**kw).fit(Xtr, ytr)
    C = p["C"]
    out = {"problem": problem, "seed": seed,
           "batch": {"accuracy": float(svc.score(Xte, yte)),
                     "n_sv": int(len(svc.support_)),
                     "n_free": int(np.sum(np.abs(svc.dual_coef_) < C * (1 - 1e-8)))}}
    for key, buf in (("eco", 0), ("eco_buffer", cfg["buffer_size"])):
        clf = EcoSVC(n_start=p.get("n_start", cfg["n_start"]), tol=cfg["smo_tol"],
                     buffer_size=buf, track_discards=True, **kw)
        t, A, N, F = [], [], [], []
        t0 = time.perf_counter()
        for lo in range(0, p["n"], cfg["every"]):
            hi = min(lo + cfg["every"], p["n"])
            clf.partial_fit(Xtr[lo:hi], ytr[lo:hi], classes=[-1, 1])
            t.append(hi)
            A.append(float(clf.score(Xte, yte)))
            N.append(int(len(clf.support_)))
            F.append(int(clf.n_free_))
        seconds = time.perf_counter() - t0
        d = np.asarray(clf.discarded_, dtype=int)
        f = clf.decision_function(Xtr[d]) if len(d) else np.zeros(0)
        out[key] = {"t": t, "accuracy": A, "n_sv": N, "n_free": F,
                    "seconds": seconds, "n_invasions": clf.n_invasions_,
                    "n_rescued": clf.n_rescued_, "n_discarded": int(len(d)),
                    "n_would_invade_final": int(np.sum(1 - ytr[d] * f > 0))}
    return out


def run(config=CONFIG, root=None):
    """Every (problem, seed) pair, in parallel; write the cache under ``root``."""
    jobs = [(name, p, s) for name, p in config["problems"].items()
            for s in config["seeds"]]
    runs = Parallel(n_jobs=config["n_jobs"])(
        delayed(_one)(name, p, s, config) for name, p, s in tqdm(jobs))
    results = {name: [r for r in runs if r["problem"] == name]
               for name in config["problems"]}
    write_cache(NAME, config, results, root=root)
    return results


def main(argv=None):
    return run_from_command_line(sys.modules[__name__], argv)


if __name__ == "__main__":
    main()
