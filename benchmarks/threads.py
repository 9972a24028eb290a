r"""SMOSVC's threads (``n_jobs``) against oneDAL's on the same thread count, and LIBSVM.

Usage: ``python benchmarks/threads.py [--quick] [--reps R] [--sizes 4000,8000]``
(``make bench`` installs ``requirements-bench.txt``; without oneDAL its columns read
"n/a").

MNIST even/odd digits, C = 10, gamma = 0.02, tol 1e-3, float64, n = 4,000 and 8,000.
Five learners fit alternately in this one process, their order rotated from one
repetition to the next, and the median wall time of each is printed with the ratios:

* SMOSVC ``n_jobs=1`` and ``n_jobs=2`` (threads for the kernel columns only: numba's
  for MNIST's compiled sparse columns; the fit is the same bit for bit, which is
  checked here too);
* oneDAL (``sklearnex.svm.SVC``) on one and on two threads (``daal4py.daalinit``,
  read back with ``daal4py.num_threads``);
* LIBSVM (scikit-learn's ``SVC``), one thread.

The clock is the wall time (two threads). The machine's load average is printed
before and after each size: on a machine whose cores run other work the two-thread
times measure how much of the second core the fit got, not what two free cores give.
"""
from __future__ import annotations

import argparse
import os

import numpy as np
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

from svmtext.datasets import load_mnist
from svmtext.smo import SMOSVC
from targets import alternate  # benchmarks/targets.py: alternating fits, rotated order

try:
    import daal4py
    from sklearnex.svm import SVC as DalSVC
except ImportError:                      # the benchmark extras are not installed
    daal4py = DalSVC = None

KW = dict(C=10.0, gamma=0.02, tol=1e-3)


def mnist_even_odd(n, seed=0):
    """``n`` MNIST training digits (scaled to [0, 1]), labels +1 even, -1 odd."""
    X, digits = load_mnist("train")
    idx = np.random.default_rng(seed).permutation(len(digits))[:n]
    return X[idx] / 255.0, np.where(digits[idx] % 2 == 0, 1, -1)


class OnThreads:
    """A learner whose fit runs on ``threads`` threads of oneDAL.

    ``daalinit`` caps TBB for the whole process, numba's TBB threads included (measured:
    after ``daalinit(1)`` a ``prange`` loop ran on one thread), so the fit restores the
    count found at the start for the learners that follow."""

    def __init__(self, threads):
        self.threads = threads

    def fit(self, X, y):
        daal4py.daalinit(self.threads)
        assert daal4py.num_threads() == self.threads, daal4py.num_threads()
        try:
            self.model_ = DalSVC(**KW).fit(X, y)
        finally:
            daal4py.daalinit(DAAL_THREADS)
        return self


DAAL_THREADS = daal4py.num_threads() if daal4py is not None else None


def learners():
    out = {"smo n_jobs=1": lambda: SMOSVC(**KW, n_jobs=1),
           "smo n_jobs=2": lambda: SMOSVC(**KW, n_jobs=2)}
    if DalSVC is not None:
        out["oneDAL 1 thread"] = lambda: OnThreads(1)
        out["oneDAL 2 threads"] = lambda: OnThreads(2)
    out["LIBSVM 1 thread"] = lambda: SVC(**KW)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="n = 4,000 only, 2 repetitions")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--sizes", default="4000,8000")
    args = ap.parse_args(argv)
    sizes = [4000] if args.quick else [int(s) for s in args.sizes.split(",")]
    reps = 2 if args.quick else args.reps
    print(f"cores {os.cpu_count()}, oneDAL {'yes' if DalSVC else 'n/a'}; "
          f"load average before {os.getloadavg()}", flush=True)
    X, y = mnist_even_odd(500)
    # BLAS on one thread, and only BLAS: a limit on every thread pool would cap the
    # OpenMP threads oneDAL's solver runs on as well (measured, MNIST n = 6,000: two
    # oneDAL threads took 1.11 s under threadpool_limits(1), 0.60 s without)
    with threadpool_limits(1, user_api="blas"):
        SMOSVC(**KW, n_jobs=2).fit(X, y)    # compile and start the threads outside the clock
        SMOSVC(**KW).fit(X, y)
        for n in sizes:
            X, y = mnist_even_odd(n)
            print(f"n = {n}: load average before {os.getloadavg()}", flush=True)
            res = alternate(learners(), X, y, reps, every_time=True)
            med = {k: float(np.median(v[0])) for k, v in res.items()}
            for k, (ts, _) in res.items():
                print(f"  {k:17s} median {med[k]:6.2f} s  ({', '.join(f'{t:.2f}' for t in ts)})")
            a, b = res["smo n_jobs=1"][1], res["smo n_jobs=2"][1]
            same = (np.array_equal(a.alpha_, b.alpha_) and a.intercept_[0] == b.intercept_[0]
                    and a.n_iter_ == b.n_iter_)
            print(f"  SMOSVC n_jobs=2 / n_jobs=1 {med['smo n_jobs=2'] / med['smo n_jobs=1']:.2f}"
                  f" (same alpha, b, n_iter: {same}; {a.n_iter_} iterations)")
            if DalSVC is not None:
                for t in (1, 2):
                    s = "s" if t > 1 else ""
                    print(f"  SMOSVC / oneDAL on {t} thread{s}: "
                          f"{med[f'smo n_jobs={t}'] / med[f'oneDAL {t} thread{s}']:.2f}")
                print(f"  oneDAL 2 threads / 1 thread "
                      f"{med['oneDAL 2 threads'] / med['oneDAL 1 thread']:.2f}")
            for t in (1, 2):
                print(f"  SMOSVC n_jobs={t} / LIBSVM {med[f'smo n_jobs={t}'] / med['LIBSVM 1 thread']:.2f}")
            print(f"  load average after {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
