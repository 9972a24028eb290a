"""How the cost of LIBSVM, oneDAL, SMOSVC (float32, float64) and two EcoSVC passes (pure,
and with a looser stopping rule during the stream) grows with n, on MNIST even vs odd
digits, n = 1,000 ... 32,000 (and the EcoSVM passes against the batch fit on MNIST 4
vs 9).

Usage: ``python benchmarks/scaling.py [--smoke]``. Writes
``svmtext/experiments/results/scaling.json``, which the SMO and ecology chapters show;
see :mod:`svmtext.experiments.scaling` for what is measured. An interrupted run
resumes from the fits already measured.
Targets: SMOSVC float64 <= 0.5 x and float32 <= 0.35 x LIBSVM's time at every
n >= 4,000 (objective within 1e-5 relative), and <= 0.5 x and <= 0.25 x oneDAL's
(oneDAL from ``make bench``); the EcoSVM pass <= 1 x the batch fit
at every n, <= 0.5 x on MNIST 4 vs 9 (n = 11,791), within 0.5 percentage points.
"""
from svmtext.experiments.scaling import main

if __name__ == "__main__":
    main()
