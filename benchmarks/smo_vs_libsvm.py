"""SMOSVC (WSS2, cache, shrinking) against scikit-learn's SVC (LIBSVM) on MNIST 4 vs 9.

Usage: ``python benchmarks/smo_vs_libsvm.py [--smoke]``. Writes
``svmtext/experiments/results/smo_benchmark.json``, which the SMO chapter shows;
see :mod:`svmtext.experiments.smo_benchmark` for what is measured.
Target: wall-time ratio SMOSVC / SVC <= 2 at n = 4,000 and n = 11,791.
"""
from svmtext.experiments.smo_benchmark import main

if __name__ == "__main__":
    main()
