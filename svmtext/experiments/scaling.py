r"""How the solvers' cost grows with n: LIBSVM, oneDAL, SMO and the EcoSVM pass on MNIST
(book: :ref:`sec-smo-scaling`, :ref:`sec-eco-scaling`).

``python -m svmtext.experiments.scaling`` (``--smoke`` for the reduced run)

1. Task: MNIST even (0, 2, 4, 6, 8; label +1) against odd digits (-1), pixels / 255.
   :math:`(C, \gamma)` of the RBF kernel are chosen once, by cross-validation of
   scikit-learn's ``SVC`` on a seeded subset of the training images.
2. Sizes ``n``: seeded *nested* subsets of the 60,000 training images (the first ``n``
   of one random permutation, so every smaller set is part of every larger one).
3. Per ``n`` six fits: ``SVC`` (its bundled LIBSVM), Intel's oneDAL ``SVC``
   (``sklearnex.svm.SVC``, the benchmark extras of ``requirements-bench.txt``, installed
   by ``make bench``; on ``blas_threads`` threads through ``daal4py.daalinit``),
   :class:`~svmtext.smo.SMOSVC` with float32 and with float64 kernel columns, and two
   :class:`~svmtext.eco.EcoSVC` passes re-equilibrating after every invasion (the
   stream is the subset's order): the pure pass (``eco``: every re-equilibration to
   ``tol``) and ``eco_pass`` (``pass_tol = eco_pass_tol``: the stream's
   re-equilibrations stop at that gap, the last one at ``tol``). Same ``C``,
   ``gamma`` and ``tol``, and the same cache size for the first four (the EcoSVM keeps
   its community's whole Gram matrix).
   Every fit runs in a fresh process (forked from the parent, which has loaded the
   data and paid the one-time costs by an untimed warm-up fit of each learner on a few
   points), on one BLAS thread (the limit is set once, in the parent), one fit at a
   time, with the clock started once the process is quiet (BLAS worker threads started
   in it spin for about a tenth of a second before they sleep); it reports
   its wall time and CPU time (one thread: the CPU time is what the fit itself
   used, with no wait for a core; other work still lengthens it somewhat, through
   shared caches and memory), the peak resident memory above the resident size before the fit
   (``/proc/self/status``: the high-water mark is reset first) and the process's
   whole peak (``ru_maxrss``), and the load average of the machine before and after
   (the results keep the one-minute load before each fit).
   While a fit takes less than ``repeat_below_seconds``, the learners are run
   ``repeats`` times, alternating their order; the medians are reported. Above it,
   one run each. ``learners`` lists the learners run (the smoke configuration leaves
   oneDAL out, so that recertification does not need the benchmark extras; a run that
   lists it raises ImportError without them).
4. For each fit: iterations (oneDAL's are the outer iterations of its working-set
   method, not pair steps), kernel evaluations (LIBSVM and oneDAL do not report them),
   support vectors (free and at ``C``), the dual objective :math:`W(\alpha)` computed
   the same way for all (float64, from the support vectors), test accuracy on the
   10,000 test images (from the first run).
5. The two EcoSVM passes against the batch fit on MNIST 4 vs 9 with all 11,791 training
   images and the chapter's :math:`(C, \gamma)` (:mod:`~svmtext.experiments.mnist_eco`),
   alternating, ``repeats`` times.

Every measurement (the cross-validation, each fit) is a task of
:func:`~svmtext.experiments._tasks.run_tasks`, run one at a time (``'sequential'``)
and written at once to its own file under ``<root>/.partial/`` (keyed by the
configuration without ``sizes``, and by the code); a rerun reuses them (an interrupted
run resumes), and they are deleted when the cache is written.
Writes ``results/scaling.json``.
"""
from __future__ import annotations

import functools
import os
import resource
import sys
import time
from multiprocessing import get_context
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

from . import _tasks
from ._cli import run_from_command_line
from ._memory import Meter
from ._onedal import onedal_svc

NAME = "scaling"

LEARNERS = ("libsvm", "onedal", "smo_float32", "smo_float64", "eco", "eco_pass")
ECO = ("eco", "eco_pass")
SMO = ("smo_float32", "smo_float64")

CONFIG = {
    "task": "MNIST even (+1) vs odd (-1) digits, pixels / 255",
    "learners": list(LEARNERS),
    "sizes": [1000, 2000, 4000, 8000, 16000, 32000],  # with 60000 the fits take ~3x as long
    "n_test": None,                 # None: all 10,000 test images
    "seed": 0,                      # the permutation that makes the nested subsets
    "cv": {"n": 2000, "folds": 3, "seed": 0,
           "grid": {"gamma": [0.01, 0.02, 0.04], "C": [1.0, 10.0, 100.0]}},
    "tol": 1e-3,
    "cache_size": 200.0,
    "eco_n_start": 10,
    "eco_pass_tol": 1e-2,           # eco_pass: the stream's re-equilibrations to 10 tol
    "repeats": 3,
    "repeat_below_seconds": 60.0,
    "warm_up": 300,
    "blas_threads": 1,
    "isolate": True,                # every fit in a fresh process
    # the ecology chapter's own comparison: MNIST 4 vs 9, all training images
    "mnist_4v9": {"n_train": None, "gamma": 0.04, "C": 10.0, "repeats": 3},
}

SMOKE_CONFIG = dict(CONFIG, sizes=[300, 600], n_test=500,
                    cv={"n": 300, "folds": 2, "seed": 0,
                        "grid": {"gamma": [0.02], "C": [1.0, 10.0]}},
                    learners=[k for k in LEARNERS if k != "onedal"],
                    repeats=2, warm_up=50,
                    mnist_4v9={"n_train": 400, "gamma": 0.04, "C": 10.0, "repeats": 1})

# floats of the smoke results that recertification (python -m svmtext.experiments
# --recertify) accepts as unchanged; integers and strings must be equal
SMOKE_TOLERANCE = {"rtol": 1e-9, "atol": 1e-12,
                   "why": ("W, the gap and the accuracy differences come from SMO and the EcoSVM at tol = "
                           "1e-3 (rounding only under a refactor); times, CPU load and memory are "
                           "measurements and are not compared")}



# -- data (loaded once in the parent; forked fits share it) ----------------------------
_DATA = {}


def _even_odd(split, n_test=None):
    key = ("even_odd", split, n_test)
    if key not in _DATA:
        from ..datasets import load_mnist
        X, digits = load_mnist(split)
        if n_test is not None:
            X, digits = X[:n_test], digits[:n_test]
        _DATA[key] = X / 255.0, np.where(digits % 2 == 0, 1, -1)
    return _DATA[key]


def _four_nine(split):
    key = ("4v9", split)
    if key not in _DATA:
        from ..datasets import load_mnist_4v9
        _DATA[key] = load_mnist_4v9(split)
    return _DATA[key]


def _subset(config, n):
    X, y = _even_odd("train")
    idx = np.random.default_rng(config["seed"]).permutation(len(y))[:n]
    return X[idx], y[idx]


# -- measuring ----------------------------------------------------------------------
def _learners(config) -> tuple:
    """The learners of a run, in their order (``config['learners']``); raises
    ImportError when oneDAL is among them and the benchmark extras are not installed."""
    learners = tuple(config["learners"])
    unknown = sorted(set(learners) - set(LEARNERS))
    if unknown or learners[:1] != ("libsvm",):
        raise ValueError(f"config['learners'] must start with 'libsvm' (the reference of "
                         f"every ratio) and name only {LEARNERS}; got {learners}")
    if "onedal" in learners:
        onedal_svc(config["blas_threads"], "the scaling run with 'onedal' among its learners",
                   "leave 'onedal' out of config['learners']")
    return learners


def _make(learner, C, gamma, config):
    from sklearn.svm import SVC

    from ..eco import EcoSVC
    from ..smo import SMOSVC
    tol, cache = config["tol"], config["cache_size"]
    if learner == "libsvm":
        return SVC(C=C, gamma=gamma, tol=tol, cache_size=cache)
    if learner == "onedal":                          # oneDAL's threads, as BLAS's
        DalSVC = onedal_svc(config["blas_threads"], "the scaling run",
                            "leave 'onedal' out of config['learners']")
        return DalSVC(C=C, gamma=gamma, tol=tol, cache_size=cache)
    if learner.startswith("smo_"):
        return SMOSVC(C=C, gamma=gamma, tol=tol, cache_size=cache, dtype=learner[4:])
    if learner in ECO:
        pass_tol = config["eco_pass_tol"] if learner == "eco_pass" else None
        return EcoSVC(C=C, gamma=gamma, tol=tol, pass_tol=pass_tol,
                      n_start=config["eco_n_start"])
    raise ValueError(f"unknown learner {learner!r}")


def _summary(learner, clf, X, y, C, gamma, Xte, yte):
    """Iterations, kernel evaluations, SVs, W(alpha) (float64, the same way for all),
    test accuracy."""
    from ..kernels import rbf_kernel
    from ..kkt import dual_objective_from_coef, free_and_bounded
    sv = np.asarray(clf.support_)
    v = np.asarray(clf.dual_coef_[0], dtype=float)
    out = {"n_support": int(len(sv)),
           "n_bounded": int(np.sum(free_and_bounded(np.abs(v), C, 1e-8 * C)[1])),
           "dual_objective": float(dual_objective_from_coef(v, rbf_kernel(X[sv], gamma=gamma))),
           "test_accuracy": float(np.mean(clf.predict(Xte) == yte))}
    if learner in ("libsvm", "onedal"):
        out.update(n_iter=int(np.ravel(clf.n_iter_)[0]), n_kernel_evals=None)
    elif learner.startswith("smo_"):
        info = clf.fit_info_
        out.update(n_iter=int(info["n_iter"]), n_kernel_evals=int(info["n_kernel_evals"]),
                   cache_hits=int(info["cache_hits"]), cache_misses=int(info["cache_misses"]),
                   gap=float(info["gap"]))
    else:
        out.update(n_iter=int(clf.n_reequilibration_steps_),
                   n_kernel_evals=int(clf.n_kernel_evals_),
                   n_invasions=int(clf.n_invasions_),
                   # every point the learner keeps (alpha_ is the community's;
                   # support_ those of its points with alpha > 0)
                   points_held=int(len(clf.alpha_)))
    return out


def _warm_up(config, C, gamma):
    """Untimed fits of every learner on a few points, and of our SMO learners on 3,000
    (enough to shrink and rebuild the gradient: shrinking is tried every 1,000
    selections): compiled code is compiled or loaded once, in the parent, before the
    fits are forked."""
    X, y = _subset(config, config["warm_up"])
    for learner in _learners(config):
        _make(learner, C, gamma, config).fit(X, y)
    X, y = _subset(config, max(config["warm_up"], 3000))
    for learner in _learners(config):
        if learner in SMO:
            _make(learner, C, gamma, config).fit(X, y)


def _quiet_blas(config, interval=0.02, timeout=2.0):
    """Start the BLAS thread pools and wait until their workers sleep.

    In a forked process the first change of a BLAS thread limit (as
    :func:`~svmtext.smo.smo_solve` makes) starts OpenBLAS's worker threads, which
    spin for about a tenth of a second before they sleep: inside a timed fit they
    would take the machine's other core and count as the fit's CPU time. Returns
    once the process uses under a tenth of a core over ``interval`` seconds."""
    with threadpool_limits(config["blas_threads"]):
        pass
    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        t, c = time.perf_counter(), time.process_time()
        time.sleep(interval)
        if time.process_time() - c < 0.1 * (time.perf_counter() - t):
            return


def fit_one(config, task) -> dict:
    """One timed fit (run in a fresh forked process when ``config['isolate']``).

    The BLAS thread limit is :func:`run`'s, set once in the parent and inherited; the
    clock starts once the process is quiet (:func:`_quiet_blas`)."""
    learner, n, C, gamma = task["learner"], task["n"], task["C"], task["gamma"]
    if task.get("dataset") == "4v9":
        X, y = _four_nine("train")
        if n < len(y):
            X, y = X[:n], y[:n]
    else:
        X, y = _subset(config, n)
    X = np.ascontiguousarray(X)
    clf = _make(learner, C, gamma, config)
    _quiet_blas(config)
    load0 = os.getloadavg()
    with Meter() as meter:
        clf.fit(X, y)
    load1 = os.getloadavg()
    out = {"seconds": meter.seconds, "cpu_seconds": meter.cpu_seconds,
           "peak_mb": meter.peak_mb,
           "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
           "load_before": list(load0), "load_after": list(load1)}
    if task["summary"]:
        if task.get("dataset") == "4v9":
            Xte, yte = _four_nine("test")
        else:
            Xte, yte = _even_odd("test", config["n_test"])
        out.update(_summary(learner, clf, X, y, C, gamma, Xte, yte))
    return out


def _cross_validate(config):
    from sklearn.model_selection import GridSearchCV, StratifiedKFold
    from sklearn.svm import SVC
    cv = config["cv"]
    X, y = _subset(config, cv["n"])
    folds = StratifiedKFold(cv["folds"], shuffle=True, random_state=cv["seed"])
    search = GridSearchCV(SVC(kernel="rbf", tol=config["tol"]), cv["grid"], cv=folds, n_jobs=1)
    search.fit(X, y)
    table = [{"gamma": p["gamma"], "C": p["C"], "cv_accuracy": float(m)}
             for p, m in zip(search.cv_results_["params"], search.cv_results_["mean_test_score"])]
    return {"gamma": float(search.best_params_["gamma"]), "C": float(search.best_params_["C"]),
            "table": table}


# -- resumable bookkeeping: the measurements are tasks of _tasks.run_tasks ------------
def _resume_config(config) -> dict:
    """The configuration that keys the finished measurements: all of it but ``sizes``
    (a fit does not depend on the list of sizes, so a run with more or fewer sizes
    reuses the fits already measured)."""
    return {k: v for k, v in config.items() if k != "sizes"}


def partial_dir(config, root=None) -> Path:
    """Where finished measurements are kept until the cache is written
    (:func:`svmtext.experiments._tasks.partial_dir` of :func:`_resume_config`)."""
    return _tasks.partial_dir(NAME, _resume_config(config), root)


def measure(config, kind, **task) -> dict:
    """One measurement, a task of :func:`~svmtext.experiments._tasks.run_tasks`: the
    cross-validation (``kind='cv'``) or one timed fit (``kind='fit'``,
    :func:`fit_one`), in a fresh forked process when ``config['isolate']``."""
    if kind == "cv":
        return _cross_validate(config)
    if config["isolate"]:
        return _forked(fit_one, config, task)
    return fit_one(config, task)


class _Measurements:
    """Runs batches of measurements through :func:`~svmtext.experiments._tasks.run_tasks`,
    one at a time, and counts the new ones against ``stop_after`` (over all batches)."""

    def __init__(self, config, root, stop_after=None):
        self.config, self.root, self.stop_after = config, root, stop_after
        self.resume = _resume_config(config)
        self.new = 0

    def run(self, tasks, desc):
        left = None if self.stop_after is None else self.stop_after - self.new
        folder = _tasks.partial_dir(NAME, self.resume, self.root)
        before = len(list(folder.glob("*.json")))
        try:
            return _tasks.run_tasks(NAME, self.resume, tasks,
                                    functools.partial(measure, self.config), root=self.root,
                                    backend="sequential", n_jobs=1, desc=desc, stop_after=left)
        finally:
            self.new += len(list(folder.glob("*.json"))) - before


def _child(conn, fn, args):
    try:
        conn.send(("ok", fn(*args)))
    except BaseException as exc:       # reported to the parent, which raises
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


def _forked(fn, *args):
    """``fn(*args)`` in a fresh forked process (its peak memory is its own)."""
    ctx = get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(send, fn, args))
    proc.start()
    send.close()
    try:
        status, value = recv.recv()
    except EOFError:
        status, value = "error", f"the fit's process died (exit code {proc.join() or proc.exitcode})"
    proc.join()
    if status != "ok":
        raise RuntimeError(value)
    return value


def _median(xs):
    return float(np.median(xs))


def _slope(ns, ts):
    """Least-squares slope of log t against log n."""
    return float(np.polyfit(np.log(ns), np.log(ts), 1)[0])


def _measure_size(measurements, n, hp, config):
    """The learners at size n: alternating repeats while a fit takes under a minute."""
    learners = _learners(config)
    runs = {k: [] for k in learners}
    for r in range(config["repeats"]):
        order = learners if r % 2 == 0 else learners[::-1]
        tasks = [{"kind": "fit", "learner": learner, "n": n, "C": hp["C"],
                  "gamma": hp["gamma"], "summary": r == 0, "repeat": r} for learner in order]
        for learner, out in zip(order, measurements.run(tasks, f"scaling n={n} run {r + 1}")):
            runs[learner].append(out)
        if max(o["seconds"] for o in (runs[k][-1] for k in learners)) \
                >= config["repeat_below_seconds"]:
            break
    row = {"n": n, **{learner: _aggregate(runs[learner]) for learner in learners}}
    for learner in learners[1:]:
        _compare(row[learner], row["libsvm"])
    if "onedal" in row:
        for learner in SMO:
            _compare(row[learner], row["onedal"], "_onedal")
    return row


def _aggregate(rs):
    """One learner's runs: the first run's summary, every run's times, their medians."""
    times, cpus = [o["seconds"] for o in rs], [o["cpu_seconds"] for o in rs]
    return {**{k: v for k, v in rs[0].items()
               if k not in ("seconds", "cpu_seconds", "load_before", "load_after")},
            "times": times, "median_time": _median(times),
            "cpu_times": cpus, "median_cpu": _median(cpus),
            "peak_mb_runs": [o["peak_mb"] for o in rs],
            "load": [o["load_before"][0] for o in rs]}


def _compare(s, ref, suffix=""):
    """Add ``s``'s time and CPU ratios, objective and accuracy gaps to ``ref``, in place
    (keys ``time_ratio`` ... with ``suffix`` appended: ``''`` for LIBSVM, ``'_onedal'``)."""
    s["time_ratio" + suffix] = s["median_time"] / ref["median_time"]
    s["cpu_ratio" + suffix] = s["median_cpu"] / ref["median_cpu"]
    s["objective_rel_diff" + suffix] = (abs(s["dual_objective"] - ref["dual_objective"])
                                        / abs(ref["dual_objective"]))
    s["accuracy_gap_pp" + suffix] = 100 * (ref["test_accuracy"] - s["test_accuracy"])


def _measure_4v9(measurements, config):
    cfg = config["mnist_4v9"]
    n = cfg["n_train"] or len(_four_nine("train")[1])
    learners = ("libsvm",) + ECO
    runs = {k: [] for k in learners}
    for r in range(cfg["repeats"]):
        order = learners if r % 2 == 0 else learners[::-1]
        tasks = [{"kind": "fit", "learner": learner, "n": n, "C": cfg["C"],
                  "gamma": cfg["gamma"], "summary": r == 0, "dataset": "4v9", "repeat": r}
                 for learner in order]
        for learner, out in zip(order, measurements.run(tasks, f"scaling 4 vs 9 run {r + 1}")):
            runs[learner].append(out)
    out = {"n": n, "C": cfg["C"], "gamma": cfg["gamma"],
           "batch": _aggregate(runs["libsvm"]), **{k: _aggregate(runs[k]) for k in ECO}}
    for key in ECO:
        _compare(out[key], out["batch"])
    return out


def _targets(rows, m49):
    big = [r for r in rows if r["n"] >= 4000]

    def worst(key, field):
        return max(r[key][field] for r in big) if big else None
    out = {
        "smo_float64_ratio_max_n_ge_4000": worst("smo_float64", "time_ratio"),
        "smo_float32_ratio_max_n_ge_4000": worst("smo_float32", "time_ratio"),
        "smo_float64_cpu_ratio_max_n_ge_4000": worst("smo_float64", "cpu_ratio"),
        "smo_float32_cpu_ratio_max_n_ge_4000": worst("smo_float32", "cpu_ratio"),
        "smo_objective_rel_diff_max_n_ge_4000": max(
            [r[k]["objective_rel_diff"] for r in big for k in ("smo_float32", "smo_float64")],
            default=None),
    }
    if big and "onedal" in big[0]:
        for key in SMO:
            out[f"{key}_onedal_ratio_max_n_ge_4000"] = worst(key, "time_ratio_onedal")
            out[f"{key}_onedal_cpu_ratio_max_n_ge_4000"] = worst(key, "cpu_ratio_onedal")
        out["onedal_objective_rel_diff_max_n_ge_4000"] = worst("onedal", "objective_rel_diff")
    for key in ECO:
        out.update({
            f"{key}_ratio_max": max(r[key]["time_ratio"] for r in rows),
            f"{key}_cpu_ratio_max": max(r[key]["cpu_ratio"] for r in rows),
            f"{key}_accuracy_gap_pp_max": max(r[key]["accuracy_gap_pp"] for r in rows),
            f"{key}_objective_rel_diff_max": max(r[key]["objective_rel_diff"] for r in rows),
            f"{key}_holds_only_svs": all(r[key]["points_held"] == r[key]["n_support"]
                                         for r in rows),
            f"{key}_4v9_ratio": m49[key]["time_ratio"],
            f"{key}_4v9_cpu_ratio": m49[key]["cpu_ratio"],
            f"{key}_4v9_accuracy_gap_pp": m49[key]["accuracy_gap_pp"],
        })
    return out


def run(config=CONFIG, root=None, backend=None, n_jobs=None, stop_after=None) -> dict:
    """Run the scaling benchmark (resuming from finished fits); write ``scaling.json``.

    ``backend`` and ``n_jobs`` are accepted for the common command line and ignored:
    timed fits run one at a time. ``stop_after=k`` raises
    :class:`~svmtext.experiments._tasks.Interrupted` after ``k`` new measurements (their
    results are kept for the rerun).
    """
    learners = _learners(config)          # ImportError now if oneDAL is needed and absent
    measurements = _Measurements(config, root, stop_after)
    rows = []
    # one limit for the whole run, inherited by every forked fit (fit_one)
    with threadpool_limits(config["blas_threads"]):
        hp, = measurements.run([{"kind": "cv"}], "scaling: cross-validation")
        _warm_up(config, hp["C"], hp["gamma"])
        _even_odd("test", config["n_test"])       # loaded once, shared by the forked fits
        _four_nine("train"), _four_nine("test")
        m49 = _measure_4v9(measurements, config)
        for n in config["sizes"]:
            rows.append(_measure_size(measurements, n, hp, config))
    ns = [r["n"] for r in rows]
    slopes = {k: _slope(ns, [r[k]["median_time"] for r in rows]) for k in learners}
    slopes_cpu = {k: _slope(ns, [r[k]["median_cpu"] for r in rows]) for k in learners}
    fits = [r[k] for r in rows for k in learners] + [m49[k] for k in ("batch", *ECO)]
    results = {"C": hp["C"], "gamma": hp["gamma"], "cv": hp["table"], "rows": rows,
               # the timed fits' own time, summed (cross-validation, warm-up and the
               # fits' summaries not counted)
               "total_fit_seconds": sum(sum(f["times"]) for f in fits),
               "total_fit_cpu_seconds": sum(sum(f["cpu_times"]) for f in fits),
               "slopes_all_n": slopes, "slopes_cpu_all_n": slopes_cpu, "mnist_4v9": m49,
               "targets": _targets(rows, m49),
               "cpus": os.cpu_count()}
    return _tasks.finish(NAME, config, results, root, partial_config=_resume_config(config))


def main(argv=None) -> None:
    res = run_from_command_line(sys.modules[__name__], argv)
    print(f"C = {res['C']}, gamma = {res['gamma']}")
    for row in res["rows"]:
        lib = row["libsvm"]
        print(f"n={row['n']:6d} libsvm {lib['median_time']:8.2f} s "
              f"{lib['peak_mb'] or float('nan'):7.1f} MB  SVs {lib['n_support']}  "
              f"acc {lib['test_accuracy']:.4f}")
        for k in [k for k in LEARNERS[1:] if k in row]:
            s = row[k]
            print(f"          {k:12s} {s['median_time']:8.2f} s ({s['time_ratio']:.2f} x, "
                  f"CPU {s['cpu_ratio']:.2f} x) "
                  f"{s['peak_mb'] or float('nan'):7.1f} MB  SVs {s['n_support']}  "
                  f"dW/W {s['objective_rel_diff']:.1e}  acc {s['test_accuracy']:.4f}"
                  + (f"  / oneDAL {s['time_ratio_onedal']:.2f} x (CPU "
                     f"{s['cpu_ratio_onedal']:.2f} x)" if "time_ratio_onedal" in s else ""))
    print("slopes", res["slopes_all_n"])
    m49 = res["mnist_4v9"]
    for k in ECO:
        print(f"4 vs 9 (n = {m49['n']}) {k}:", {f: m49[k][f] for f in
                                               ("time_ratio", "cpu_ratio", "accuracy_gap_pp")})
    print("targets", res["targets"])
    print(f"timed fits: {res['total_fit_seconds']:.0f} s wall, "
          f"{res['total_fit_cpu_seconds']:.0f} s CPU")


if __name__ == "__main__":
    main()
