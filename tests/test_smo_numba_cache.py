"""Compiled code is cached in the user's cache folder (svmtext._numba), never in the
source tree: a fit through every compiled path, in a fresh process, writes no .nbi/.nbc
file under svmtext/, and every compiled function of the package caches in CACHE_DIR."""
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import svmtext

PACKAGE = Path(svmtext.__file__).resolve().parent

SCRIPT = textwrap.dedent("""
    import importlib, pkgutil, numpy as np
    import svmtext
    from svmtext._numba import CACHE_DIR
    from svmtext.smo import SMOSVC, smo_solve, smo_dense
    from svmtext.eco import EcoSVC
    from svmtext.eco.svdd_dual import svdd_smo
    from svmtext.psvm._linear import fit_linear_svms
    from svmtext.enumsv._subproblem import Subproblems

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3)); y = np.where(X[:, 0] > 0, 1.0, -1.0)
    Xs = np.where(rng.random((60, 8)) < 0.8, 0.0, 1.0); Xs[:, 0] = 1.0
    SMOSVC().fit(X, y)                                   # compiled loop, dense columns
    SMOSVC(dtype="float32").fit(Xs, y)                   # sparse columns, float32
    smo_solve(X @ X.T, y, 1.0)                           # Gram matrix in the loop
    smo_dense(X @ X.T, y, np.zeros(60), y.copy(), np.ones(60, bool), 60, 1.0)
    EcoSVC(n_start=10).fit(X, y)                         # re-equilibration, join, bias
    svdd_smo(X @ X.T + np.eye(60), C=0.5)
    fit_linear_svms(X, [(np.flatnonzero(y > 0), np.flatnonzero(y < 0))])
    sub = Subproblems(X @ X.T, y, 1.0, 1e-3)
    alpha, g = np.zeros(60), y.copy()
    sub._run_smo(alpha, g, np.ones(60, bool), 1e-3)

    # every compiled function of the package (those not fitted above too) caches in
    # CACHE_DIR
    bad, found = [], 0
    for info in pkgutil.walk_packages(svmtext.__path__, "svmtext."):
        if ".experiments" in info.name and "psvm_tables" not in info.name:
            continue
        mod = importlib.import_module(info.name)
        for name, obj in vars(mod).items():
            cache = getattr(obj, "_cache", None)
            path = getattr(cache, "_cache_path", None)
            if path is not None:
                found += 1
                if not str(path).startswith(CACHE_DIR):
                    bad.append(f"{info.name}.{name}: {path}")
    print("BAD", bad, "FOUND", found)
""")


def _compiled_files():
    return {p: p.stat().st_mtime for pattern in ("*.nbi", "*.nbc")
            for p in PACKAGE.rglob(pattern)}


def test_no_compiled_file_under_the_package(tmp_path):
    before = _compiled_files()
    start = time.time()
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    run = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True,
                         text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "BAD []" in run.stdout, run.stdout
    assert int(run.stdout.split("FOUND")[1]) >= 20        # the compiled functions were seen
    after = _compiled_files()
    new = [p for p, t in after.items() if p not in before or t >= start]
    assert new == []
