"""The compiled SMO loop (svmtext.smo._loop) against the Python loop it replaces, and
against cvxopt on random problems."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from svmtext.datasets.toy import make_smo_problem
from svmtext.kernels import get_kernel
from svmtext.qp import primal_objective, solve_dual
from svmtext.smo import GramColumns, KernelColumns, smo_solve
from svmtext.smo._columns import loop_products_are_numpys


random_problem = make_smo_problem


@pytest.mark.parametrize("seed", range(50))
def test_compiled_loop_takes_the_python_loops_steps(seed):
    """Same selections, same arithmetic: the multipliers agree bit for bit, and so do
    the iteration, cache and shrinking counts (the Python loop runs with history=True);
    dense columns, and sparse ones (about four entries in five zero, as MNIST's) in
    double and single precision."""
    X, y, kernel, params, C = random_problem(seed)
    K = get_kernel(kernel, **params)(X, X)
    cache = float(np.random.default_rng(seed).choice([0.002, 0.02, 200.0]))
    Xs = np.where(np.random.default_rng(seed).random(X.shape) < 0.8, 0.0, X)
    for make in (lambda: GramColumns(K), lambda: KernelColumns(X, kernel, **params),
                 lambda: KernelColumns(X, kernel, compiled_columns=True, **params),
                 lambda: KernelColumns(Xs, kernel, sparse_columns=True, **params),
                 lambda: KernelColumns(Xs, kernel, sparse_columns=True, dtype=np.float32,
                                       **params)):
        kw = dict(tol=1e-3 if seed % 2 else 1e-5, cache_size=cache, max_iter=20_000)
        ref = smo_solve(make(), y, C, history=True, **kw)
        new = smo_solve(make(), y, C, **kw)
        np.testing.assert_array_equal(new.alpha, ref.alpha)
        assert (new.b, new.n_iter, new.n_select, new.converged) == \
            (ref.b, ref.n_iter, ref.n_select, ref.converged)
        assert (new.cache_hits, new.cache_misses, new.n_kernel_evals) == \
            (ref.cache_hits, ref.cache_misses, ref.n_kernel_evals)
        assert (new.n_shrink, new.n_unshrink) == (ref.n_shrink, ref.n_unshrink)
        np.testing.assert_array_equal(new.gradient, ref.gradient)


def test_compiled_loop_with_per_sample_C_and_max_iter():
    X, y, kernel, params, C = random_problem(7)
    K = get_kernel(kernel, **params)(X, X)
    C_k = C * np.where(y > 0, 2.0, 0.5)
    ref = smo_solve(K, y, C_k, history=True, cache_size=0.002)
    new = smo_solve(K, y, C_k, cache_size=0.002)
    np.testing.assert_array_equal(new.alpha, ref.alpha)
    with pytest.warns(Warning, match="max_iter"):
        short = smo_solve(KernelColumns(X, kernel, **params), y, C, max_iter=5, cache_size=0.002)
    assert short.n_select == 5 and not short.converged


@pytest.mark.parametrize("block", range(4))
def test_agrees_with_cvxopt_on_400_random_problems(block):
    """W of SMO against cvxopt's, on 4 x 100 random problems (n <= 60, C <= 1e3: the
    larger C of the other tests make some problems need millions of iterations, in
    LIBSVM too).

    SMO stops at tol = 1e-6 (no feature scaled by 1e3 here: the gradient would be known
    only to about 1e-16 C n max K_ii, more than tol). SMO's W is feasible, so
    W* - W_smo <= P(alpha, b) - W_smo (weak duality): the duality gap of SMO's own
    solution bounds its distance to the optimum, and the stopping rule bounds that gap
    by n C tol. cvxopt solves to about 1e-7 relative (polished). The same with the
    null-space steps of SMOSVC's default (svmtext.smo._null), which some of these
    problems take.
    """
    worst, null_steps = 0.0, 0
    for seed in range(1000 + 100 * block, 1100 + 100 * block):
        X, y, kernel, params, C = random_problem(seed, n_max=60, log_C_max=3)
        K = get_kernel(kernel, **params)(X, X)
        tol = 1e-6
        qp = solve_dual(K, y, C)
        scale = max(1.0, abs(qp.objective))
        for null in (False, True):
            res = smo_solve(K, y, C, tol=tol, null_steps=null)
            assert res.converged
            null_steps += res.n_null_steps
            duality_gap = primal_objective(res.alpha, res.b, K, y, C) - res.dual_objective
            assert -1e-9 * max(1.0, abs(res.dual_objective)) <= duality_gap \
                <= len(y) * C * tol
            assert qp.objective - res.dual_objective <= duality_gap + 1e-7 * scale
            assert res.dual_objective - qp.objective <= 1e-7 * scale
            worst = max(worst, abs(qp.objective - res.dual_objective) / scale)
    assert worst < 1e-6 and null_steps > 0


@pytest.mark.parametrize("kernel, kind", [("linear", 4), ("rbf", 5), ("poly", 6)])
def test_columns_made_in_the_loop_are_numpys(kernel, kind):
    """Dense float64 data: the loop makes the linear kernel's columns itself (kind 4,
    NumPy's BLAS product called from compiled code) and the RBF and polynomial
    kernels' up to the exponential or the power (kinds 5 and 6, NumPy's operations;
    NumPy applies its own exp or power), with NumPy's bits -- the same solution as with
    every column served by Python; float32 columns stay Python's."""
    X, y, _, _, _ = random_problem(12, scaled=False)
    params = {"rbf": {"gamma": 0.5}, "poly": {"gamma": 0.3, "coef0": 1.0, "degree": 3},
              "linear": {}}[kernel]
    if not loop_products_are_numpys():       # this BLAS pair differs: NumPy's columns
        kind = 0
    assert KernelColumns(X, kernel, **params).compiled_source()[0] == kind
    assert KernelColumns(X, kernel, dtype=np.float32, **params).compiled_source()[0] == 0

    class PythonColumns(KernelColumns):
        def compiled_source(self):
            kind, code, src = super().compiled_source()
            return (0, -1, src) if kind >= 4 else (kind, code, src)

    for cache in (0.002, 200.0):
        kw = dict(tol=1e-3, cache_size=cache, max_iter=50_000)
        loop = smo_solve(KernelColumns(X, kernel, **params), y, 100.0, **kw)
        python = smo_solve(PythonColumns(X, kernel, **params), y, 100.0, **kw)
        np.testing.assert_array_equal(loop.alpha, python.alpha)
        assert (loop.b, loop.n_iter, loop.n_kernel_evals, loop.cache_hits,
                loop.cache_misses) == (python.b, python.n_iter, python.n_kernel_evals,
                                       python.cache_hits, python.cache_misses)
        assert loop.n_shrink > 0


@pytest.mark.parametrize("kernel, params", [("rbf", {"gamma": 0.5}),
                                            ("poly", {"gamma": 0.3, "coef0": 1.0, "degree": 3})])
def test_columns_finished_by_numpy_where_its_loop_is_not_found(monkeypatch, kernel, params):
    """Without NumPy's exp or power loop (:func:`svmtext.smo._columns.finishing_loop`
    gives ``(0, 0)``) the loop returns its RBF and polynomial columns to NumPy for their
    last operation (``NEED_FINISH``): the same solution, bit for bit, as where it calls
    the loop itself."""
    import svmtext.smo._columns as columns
    X, y, _, _, _ = random_problem(7, scaled=False)
    kw = dict(tol=1e-3, cache_size=0.002, max_iter=50_000)
    called = smo_solve(KernelColumns(X, kernel, **params), y, 100.0, **kw)
    monkeypatch.setattr(columns, "finishing_loop", lambda kernel, degree: (0, 0))
    finished = smo_solve(KernelColumns(X, kernel, **params), y, 100.0, **kw)
    np.testing.assert_array_equal(called.alpha, finished.alpha)
    assert (called.b, called.n_iter, called.n_kernel_evals, called.cache_misses) == \
        (finished.b, finished.n_iter, finished.n_kernel_evals, finished.cache_misses)
    assert called.cache_misses > 50


def test_numpys_inner_loop_gives_numpys_bits():
    """:func:`svmtext._ufunc.inner_loop` finds the loop NumPy runs (its calls give
    ``np.exp``'s, ``np.sqrt``'s and ``np.power``'s bits) or says it cannot; a type the
    ufunc has no loop for, ufuncs of two outputs, and objects that are not ufuncs, have
    none."""
    from svmtext._ufunc import inner_loop
    from svmtext.smo._loop import apply_inner_loop
    a = -np.abs(np.random.default_rng(1).standard_normal(1000)) * 30.0
    for ufunc, x, operand in ((np.exp, a, ()), (np.sqrt, -a, ()), (np.power, -a, (2.7,))):
        function, data = inner_loop(ufunc, np.float64)
        if function:
            out = x.copy()
            apply_inner_loop(function, data, out, np.array(operand, dtype=float))
            np.testing.assert_array_equal(out.view(np.int64),
                                          ufunc(x, *operand).view(np.int64))
    assert inner_loop(np.exp, np.int8) == (0, 0)
    from svmtext.smo._columns import finishing_loop
    assert finishing_loop("poly", np.array(3)) == (0, 0)       # not a key: NumPy's way
    assert finishing_loop("linear", 3) == (0, 0)
    assert inner_loop(np.divmod, np.float64) == (0, 0)
    assert inner_loop(len, np.float64) == (0, 0)


def test_columns_stay_numpys_where_the_blas_libraries_differ(monkeypatch):
    """Where the loop's BLAS (NumPy's own, svmtext._blas; else SciPy's, through numba)
    would not give NumPy's bits, the dense columns are left to NumPy (kind 0)."""
    import svmtext.smo._columns as columns
    assert isinstance(columns.loop_products_are_numpys(), bool)
    monkeypatch.setattr(columns, "loop_products_are_numpys", lambda: False)
    X = np.random.default_rng(0).standard_normal((20, 3))
    for kernel in ("linear", "rbf", "poly"):
        assert KernelColumns(X, kernel).compiled_source()[0] == 0


@pytest.mark.parametrize("sparse, n, C", [(False, 200, 5.0), (True, 150, 20.0)])
def test_loop_computes_the_set_aside_rows_of_g_bar_itself(sparse, n, C, monkeypatch):
    """While shrunk, a multiplier reaching or leaving C updates G-bar on the set-aside
    rows: the compiled loop computes those columns itself, with Python's bits, once it
    has the rows (dense data: the loop keeps them itself; sparse data: handed over at
    the first request after a shrink). (Problems with a few such events, found by
    trying.)"""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(n, 6))
    if sparse:
        X[rng.random(X.shape) < 0.8] = 0.0
    y = np.where(X[:, 0] + rng.normal(size=n) > 0, 1.0, -1.0)
    single = []                       # Python's one-column blocks: one per G-bar request
    block = KernelColumns.block
    monkeypatch.setattr(KernelColumns, "block", lambda self, rows, cols: (
        single.append(len(np.atleast_1d(cols)) == 1), block(self, rows, cols))[1])
    make = lambda: KernelColumns(X, "rbf", gamma=0.5, sparse_columns=sparse)  # noqa: E731
    ref = smo_solve(make(), y, C, history=True)
    asked_by_python_loop, single[:] = sum(single), []
    new = smo_solve(make(), y, C)
    np.testing.assert_array_equal(new.alpha, ref.alpha)
    np.testing.assert_array_equal(new.gradient, ref.gradient)
    assert (new.n_iter, new.n_kernel_evals, new.n_shrink) == \
        (ref.n_iter, ref.n_kernel_evals, ref.n_shrink)
    assert asked_by_python_loop > new.n_shrink >= 2
    assert sum(single) == 0 if not sparse else 0 < sum(single) <= new.n_shrink


@pytest.mark.parametrize("kernel, params", [("rbf", {"gamma": 0.5}), ("linear", {}),
                                            ("poly", {"gamma": 0.3, "coef0": 1.0})])
def test_loop_reconstructs_the_gradient_itself_with_pythons_bits(kernel, params,
                                                                 monkeypatch):
    """Dense data with NumPy's columns: the loop restores the full problem itself
    (svmtext.smo._loop.reconstruct), with the bits of Python's reconstruction, which it
    leaves to Python where the BLAS libraries would not give NumPy's bits."""
    import svmtext.smo._columns as columns
    import svmtext.smo._solver as solver
    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 5))
    y = np.where(X[:, 0] + X[:, 1] ** 2 + rng.normal(size=300) > 1, 1.0, -1.0)
    make = lambda: KernelColumns(X, kernel, **params)  # noqa: E731
    calls = []
    python_reconstruct = solver._SMO._reconstruct
    monkeypatch.setattr(solver._SMO, "_reconstruct", lambda self, *a: (
        calls.append(1), python_reconstruct(self, *a))[1])
    ref = smo_solve(make(), y, 10.0, history=True, cache_size=0.05)
    by_python, calls[:] = len(calls), []
    new = smo_solve(make(), y, 10.0, cache_size=0.05)
    np.testing.assert_array_equal(new.alpha, ref.alpha)
    np.testing.assert_array_equal(new.gradient, ref.gradient)
    assert (new.n_iter, new.n_kernel_evals, new.cache_misses, new.n_unshrink) == \
        (ref.n_iter, ref.n_kernel_evals, ref.cache_misses, ref.n_unshrink)
    assert by_python == ref.n_unshrink >= 2
    expected = 0 if columns.loop_blocks_are_numpys() else ref.n_unshrink
    assert len(calls) == expected
    # where the libraries differ, Python reconstructs, with the same result
    monkeypatch.setattr(solver, "loop_blocks_are_numpys", lambda: False)
    calls[:] = []
    again = smo_solve(make(), y, 10.0, cache_size=0.05)
    np.testing.assert_array_equal(again.alpha, ref.alpha)
    assert len(calls) == ref.n_unshrink


def test_view_and_the_vectorisable_min_max_in_code_without_reference_counts():
    """svmtext._numba.view: the values at an address as an array, in a function compiled
    with _nrt=False (where numba's carray is refused), reading and writing the owner's
    memory, for float64, int8 and bool values; max_of/min_of: max and min of two
    values."""
    from svmtext._numba import max_of, min_of, njit, view

    @njit(_nrt=False)
    def touch(a, b, c):
        va, vb, vc = view(a.ctypes.data, 3, a.dtype), view(b.ctypes.data, 2, b.dtype), \
            view(c.ctypes.data, 2, c.dtype)
        va[2] = va[0] + va[1]
        vb[1] = -vb[0]
        vc[0] = not vc[0]
        return len(va), max_of(va[0], va[1]), min_of(va[0], va[1])

    a, b, c = np.array([1.5, 2.0, 0.0, 7.0]), np.array([3, 0], np.int8), np.array([True, True])
    assert touch(a, b, c) == (3, 2.0, 1.5)
    assert a.tolist() == [1.5, 2.0, 3.5, 7.0] and b.tolist() == [3, -3]
    assert c.tolist() == [False, True]


def test_the_solver_runs_as_python_with_numba_switched_off():
    """With ``NUMBA_DISABLE_JIT=1`` (how the mutation tests run the compiled code:
    tests/MUTATION.md) the package imports, and the loop, with the Python twins of the
    intrinsics (addresses read through ctypes, NumPy's BLAS and ``exp`` loop called
    through ctypes), solves dense problems (linear: NumPy's BLAS product; RBF: NumPy's
    ``exp`` loop) and a sparse one, with shrinking, to the objective of the compiled
    solver within the tolerance's bound (Python's arithmetic may round otherwise than
    the compiled code, so the two may take other pairs)."""
    script = """
import json, numpy as np
from numba.core import config
from svmtext.datasets.toy import make_smo_problem
from svmtext.smo import KernelColumns, smo_solve
assert config.DISABLE_JIT
X, y, _, _, C = make_smo_problem(7)
Xs = np.where(np.random.default_rng(7).random(X.shape) < 0.8, 0.0, X)
out = {}
for name, make in (("linear", lambda: KernelColumns(X, "linear")),
                   ("rbf", lambda: KernelColumns(X, "rbf", gamma=0.5)),
                   ("sparse", lambda: KernelColumns(Xs, "rbf", gamma=0.5, sparse_columns=True))):
    r = smo_solve(make(), y, C, tol=1e-4, max_iter=20_000)
    out[name] = (r.dual_objective, r.gap, int(r.n_shrink), float(r.alpha.sum()))
from svmtext.smo._columns import finishing_loop
out["exp loop"] = bool(finishing_loop("rbf")[0])
print(json.dumps(out))
"""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    python = json.loads(done.stdout.strip().splitlines()[-1])
    X, y, _, _, C = random_problem(7)
    Xs = np.where(np.random.default_rng(7).random(X.shape) < 0.8, 0.0, X)
    compiled = {"linear": KernelColumns(X, "linear"), "rbf": KernelColumns(X, "rbf", gamma=0.5),
                "sparse": KernelColumns(Xs, "rbf", gamma=0.5, sparse_columns=True)}
    for name, provider in compiled.items():
        r = smo_solve(provider, y, C, tol=1e-4, max_iter=20_000)
        W, gap, n_shrink, alpha_sum = python[name]
        assert gap < 1e-4 and r.gap < 1e-4
        # each objective within tol * sum(alpha) of W(alpha*) (prop-smo-gap-bound)
        assert abs(W - r.dual_objective) <= 1e-4 * max(alpha_sum, r.alpha.sum())
    assert any(python[name][2] > 0 for name in compiled)    # shrinking ran
    # NumPy's exp loop, called through ctypes, passed the check of its bits as compiled
    from svmtext.smo._columns import finishing_loop
    assert python["exp loop"] == bool(finishing_loop("rbf")[0])
