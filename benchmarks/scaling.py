"""How the cost of LIBSVM, SMOSVC (float32, float64) and one EcoSVC pass grows with n,
on MNIST even vs odd digits, n = 1,000 ... 60,000 (and the EcoSVM pass against the
batch fit on MNIST 4 vs 9).

Usage: ``python benchmarks/scaling.py [--smoke]``. Writes
``svmtext/experiments/results/scaling.json``, which the SMO and ecology chapters show;
see :mod:`svmtext.experiments.scaling` for what is measured. An interrupted run
resumes from the fits already measured.
Targets: SMOSVC float64 <= 0.5 x and float32 <= 0.35 x LIBSVM's time at every
n >= 4,000 (objective within 1e-5 relative); the EcoSVM pass <= 1 x the batch fit
at every n, <= 0.5 x on MNIST 4 vs 9 (n = 11,791), within 0.5 percentage points.
"""
from svmtext.experiments.scaling import main

if __name__ == "__main__":
    main()
