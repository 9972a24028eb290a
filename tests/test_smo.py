"""Tests of svmtext.smo: SMO against the reference QP and scikit-learn's SVC."""
import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC

from svmtext import datasets
from svmtext.kernels import rbf_kernel
from svmtext.kkt import dual_objective_from_coef, free_and_bounded
from svmtext.qp import dual_objective, primal_objective, solve_dual
from svmtext.smo import (SMOSVC, ColumnCache, GramColumns, KernelColumns, smo_solve)

RULES = ["wss2", "mvp", "platt"]
TOL = 1e-5          # SMO and LIBSVM tolerance for the 1e-5 objective comparisons


def _problem(name):
    if name == "toy":
        X, y = datasets.make_hypercube_sinusoidal(200, random_state=0)
        return X, y.astype(float), 10.0, 20.0
    if name == "mnist":
        X, y = datasets.load_mnist_4v9("train")
        return X[:500], y[:500].astype(float), 10.0, 0.02
    Xtr, ytr, _, _ = datasets.load_raetsch(name, 0)
    return Xtr, ytr.astype(float), 10.0, 1.0 / Xtr.shape[1]


PROBLEMS = ["toy", "banana", "heart", "waveform", "mnist"]   # no duplicated rows
_ref_cache = {}


def _reference(name):
    if name not in _ref_cache:
        X, y, C, gamma = _problem(name)
        K = rbf_kernel(X, gamma=gamma)
        qp = solve_dual(K, y, C)
        sk = SVC(C=C, gamma=gamma, tol=TOL).fit(X, y)
        v = sk.dual_coef_[0]
        sk_W = dual_objective_from_coef(v, K[np.ix_(sk.support_, sk.support_)])
        sk_bounded = int(np.sum(free_and_bounded(np.abs(v), C, 1e-12 * C)[1]))
        _ref_cache[name] = (X, y, C, gamma, K, qp, sk, sk_W, sk_bounded)
    return _ref_cache[name]


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("name", PROBLEMS)
def test_objective_matches_qp_and_libsvm(name, rule):
    X, y, C, gamma, K, qp, sk, sk_W, sk_bounded = _reference(name)
    res = smo_solve(K, y, C, tol=TOL, selection=rule)
    assert res.converged and res.gap < TOL
    assert res.dual_objective == pytest.approx(qp.objective, rel=1e-5)
    assert res.dual_objective == pytest.approx(sk_W, rel=1e-5)
    assert res.dual_objective == pytest.approx(dual_objective(res.alpha, K, y), rel=1e-10)
    assert res.objective == -res.dual_objective
    assert len(res.support) == len(qp.support) == len(sk.support_)
    assert len(res.bounded) == len(qp.bounded) == sk_bounded
    assert abs(res.alpha @ y) < 1e-9 * C
    assert res.b == pytest.approx(sk.intercept_[0], abs=1e-3)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("name", PROBLEMS)
def test_objective_at_default_tol(name, rule):
    # at LIBSVM's default tol = 1e-3 the objective already agrees to 1e-5; a point
    # with a tiny alpha may still be missing, so support sets are compared at 1e-5
    X, y, C, gamma, K, qp, sk, sk_W, sk_bounded = _reference(name)
    res = smo_solve(K, y, C, tol=1e-3, selection=rule)
    assert res.converged and res.gap < 1e-3
    assert res.dual_objective == pytest.approx(qp.objective, rel=1e-5)
    assert res.dual_objective == pytest.approx(sk_W, rel=1e-5)


@pytest.mark.parametrize("rule", RULES)
def test_kernel_columns_equal_gram(rule):
    X, y, C, gamma = _problem("toy")
    K = rbf_kernel(X, gamma=gamma)
    a = smo_solve(K, y, C, selection=rule, tol=1e-6)
    b = smo_solve(KernelColumns(X, gamma=gamma), y, C, selection=rule, tol=1e-6)
    # the two kernels differ in rounding only, so the paths may differ; alpha is not
    # unique at tol, but the duality gap bounds what is: W* - W <= P - W =: delta, and
    # ||w_a - w_b|| <= sqrt(2 delta_a) + sqrt(2 delta_b) (W is strongly concave in w)
    assert a.converged and b.converged and a.gap < 1e-6 and b.gap < 1e-6
    da, db = (primal_objective(r.alpha, r.b, K, y, C) - r.dual_objective for r in (a, b))
    assert da >= -1e-12 and db >= -1e-12
    assert abs(a.dual_objective - b.dual_objective) <= max(da, db) + 1e-12
    dw = np.sqrt(2 * max(da, 0)) + np.sqrt(2 * max(db, 0))
    fa, fb = K @ (a.alpha * y), K @ (b.alpha * y)     # f - b; K(x, x) = 1 for the RBF
    assert np.max(np.abs(fa - fb)) <= dw + 1e-9


def test_shrinking_and_cache_do_not_change_the_answer():
    X, y, C, gamma = _problem("banana")
    prov = KernelColumns(X, gamma=gamma)
    full = smo_solve(prov, y, C, shrinking=False, tol=1e-6)
    small = smo_solve(KernelColumns(X, gamma=gamma), y, C, shrinking=True,
                      cache_size=0.05, tol=1e-6)
    assert small.n_shrink > 0
    assert small.cache_misses > full.cache_misses
    assert small.dual_objective == pytest.approx(full.dual_objective, rel=1e-7)
    assert small.gap < 1e-6
    # with a cache large enough, shrinking computes (almost) no extra kernel values:
    # cached columns keep their rows and are completed, not recomputed
    big = smo_solve(KernelColumns(X, gamma=gamma), y, C, shrinking=True, tol=1e-6)
    assert big.n_shrink > 0 and big.n_unshrink > 0
    assert big.n_kernel_evals <= 1.1 * full.n_kernel_evals
    assert big.dual_objective == pytest.approx(full.dual_objective, rel=1e-7)


def test_cache_is_lru_and_bounded():
    K = rbf_kernel(np.random.default_rng(0).normal(size=(100, 3)))
    cache = ColumnCache(GramColumns(K), cache_size=3 * 800 / 2 ** 20)   # three columns
    for i in [0, 1, 2, 0, 3]:                    # 3 evicts 1, the least recently used
        np.testing.assert_array_equal(cache.column(i), K[:, i])
    assert list(cache.columns) == [2, 0, 3]
    assert cache.nbytes <= cache.capacity
    assert (cache.hits, cache.misses) == (1, 4)


def test_cache_lets_go_of_the_columns_it_drops():
    """An evicted column, or a partial one dropped when the full problem is restored,
    is freed: the cache holds no view of it (which would keep its memory beyond the
    budget)."""
    import gc
    import weakref

    from svmtext.smo._cache import drop_partial
    n = 60
    K = rbf_kernel(np.random.default_rng(0).normal(size=(n, 3)))
    cache = ColumnCache(GramColumns(K), cache_size=3 * 8 * n / 2 ** 20)   # three columns
    alive = []
    for c in range(20):
        col = np.ascontiguousarray(K[:, c])
        alive.append(weakref.ref(col))
        cache._store(c, col)
        del col
    gc.collect()
    assert sorted(cache.columns) == [17, 18, 19]
    assert [c for c, ref in enumerate(alive) if ref() is not None] == [17, 18, 19]
    # partial columns (on 40 of the 60 rows) dropped by the unshrinking
    part = np.ascontiguousarray(K[:40, 5])
    ref = weakref.ref(part)
    cache._store(5, part)
    del part
    drop_partial(cache.store, cache.held, cache.lru, cache.info, n)
    gc.collect()
    assert ref() is None and 5 not in cache.columns


def test_full_columns_read_at_the_active_rows_are_copied_once_within_the_room():
    """After a shrink, the first read of a full column at the active rows copies it into
    the cache's slab, as many columns as the budget has room for; later reads return
    the copy, past the room a read gathers into the caller's buffer. The values are the
    column's at the active rows either way; the slab is not counted in the bytes held
    and goes when the full problem is restored."""
    import ctypes

    from svmtext.smo._cache import ACTIVE, COPIES, SLOTS, drop_partial, restrict_columns
    from svmtext.smo._loop import _column_at
    n, n_keep = 60, 30
    K = rbf_kernel(np.random.default_rng(1).normal(size=(n, 3)))
    # five full columns and room for two copies of 30 values (and 8 bytes spare)
    cache = ColumnCache(GramColumns(K), cache_size=(5 * n + 2 * n_keep + 1) * 8 / 2 ** 20)
    for c in range(5):
        cache._store(c, np.ascontiguousarray(K[:, c]))
    keep = np.arange(0, n, 2)
    restrict_columns(cache.store, cache.held, cache.lru, cache.info, keep, n_keep, n)
    assert (cache.info[SLOTS], cache.info[COPIES], cache.nbytes) == (2, 0, 5 * n * 8)
    buf = np.empty(n)
    at = {}
    for c in (3, 1, 4, 3, 1):
        address = int(_column_at(c, cache.lru, cache.info, keep, n_keep, n, buf))
        values = np.ctypeslib.as_array((ctypes.c_double * n_keep).from_address(address))
        np.testing.assert_array_equal(values, K[keep, c])
        at.setdefault(c, set()).add(address)
    assert at[3] != at[1] and len(at[3]) == len(at[1]) == 1       # one copy each
    assert at[4] == {buf.ctypes.data}                              # no room left
    assert cache.info[COPIES] == 2 and cache.lru[ACTIVE, 4] == 0
    assert len(cache.store[n]) == 2 * n_keep
    drop_partial(cache.store, cache.held, cache.lru, cache.info, n)
    assert cache.info[SLOTS] == 0 and not cache.lru[ACTIVE].any()
    assert len(cache.store[n]) == 0


def test_warm_start_from_a_feasible_point():
    X, y, C, gamma = _problem("toy")
    K = rbf_kernel(X, gamma=gamma)
    cold = smo_solve(K, y, C, tol=1e-6)
    warm = smo_solve(K, y, C, tol=1e-6, alpha0=cold.alpha)
    assert warm.n_iter <= 2
    assert warm.dual_objective == pytest.approx(cold.dual_objective, rel=1e-9)
    # a feasible point that is not optimal: half of the solution
    half = smo_solve(K, y, C, tol=1e-6, alpha0=cold.alpha / 2)
    assert half.dual_objective == pytest.approx(cold.dual_objective, rel=1e-7)
    # only the points of a subset: solve the subset, then add the rest
    sub = np.arange(100)
    part = smo_solve(K[np.ix_(sub, sub)], y[sub], C, tol=1e-6)
    alpha0 = np.zeros(len(y))
    alpha0[sub] = part.alpha
    grown = smo_solve(K, y, C, tol=1e-6, alpha0=alpha0)
    assert grown.dual_objective == pytest.approx(cold.dual_objective, rel=1e-7)


def test_infeasible_warm_start_and_bad_input():
    X, y, C, gamma = _problem("toy")
    K = rbf_kernel(X, gamma=gamma)
    with pytest.raises(ValueError, match="y\\^T alpha0"):
        smo_solve(K, y, C, alpha0=np.where(y > 0, 1.0, 0.0))
    with pytest.raises(ValueError, match="\\[0, C\\]"):
        smo_solve(K, y, C, alpha0=np.full(len(y), 2 * C))
    with pytest.raises(ValueError, match="one class"):
        smo_solve(K, np.ones(len(y)), C)
    with pytest.raises(ValueError, match="finite positive C"):
        smo_solve(K, y, np.inf)
    with pytest.raises(ValueError, match="selection"):
        smo_solve(K, y, C, selection="random")
    Kn = K.copy()
    Kn[0, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        smo_solve(Kn, y, C)
    with pytest.raises(ValueError, match="labels"):
        smo_solve(K, y[:-1], C)


def test_max_iter_warns():
    X, y, C, gamma = _problem("toy")
    K = rbf_kernel(X, gamma=gamma)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        res = smo_solve(K, y, C, max_iter=5)
    assert res.n_iter == 5 and not res.converged and res.gap > 1e-3


def test_history_is_monotone():
    X, y, C, gamma = _problem("toy")
    K = rbf_kernel(X, gamma=gamma)
    for rule in RULES:
        res = smo_solve(K, y, C, selection=rule, history=True, shrinking=False)
        obj = np.array(res.history["objective"])
        assert len(obj) == res.n_iter
        assert np.all(np.diff(obj) <= 1e-12)          # every step decreases f
        assert res.history["gap"][0] == pytest.approx(2.0)  # alpha = 0: g = y


def test_smosvc_matches_svc_predictions():
    X, y, C, gamma, K, qp, sk, sk_W, _ = _reference("mnist")
    clf = SMOSVC(C=C, gamma=gamma, tol=TOL).fit(X, np.where(y > 0, 9, 4))
    assert list(clf.classes_) == [4, 9]
    Xt, _ = datasets.load_mnist_4v9("test")
    np.testing.assert_allclose(clf.decision_function(Xt[:300]),
                               sk.decision_function(Xt[:300]), atol=1e-3)
    assert clf.fit_info_["dual_objective"] == pytest.approx(sk_W, rel=1e-5)
    clf32 = SMOSVC(C=C, gamma=gamma, tol=TOL, dtype="float32").fit(X, y)
    assert clf32.fit_info_["dual_objective"] == pytest.approx(sk_W, rel=1e-5)


@pytest.mark.parametrize("selection", RULES)
def test_scalar_C_equals_the_array_of_it_bit_for_bit(selection):
    X, y, C, gamma = _problem("banana")
    K = rbf_kernel(X, gamma=gamma)
    kw = dict(tol=1e-4, selection=selection, cache_size=0.2)
    one = smo_solve(K, y, C, **kw)
    per = smo_solve(K, y, np.full(len(y), C), **kw)
    np.testing.assert_array_equal(one.alpha, per.alpha)
    assert (one.b, one.n_iter, one.cache_misses) == (per.b, per.n_iter, per.cache_misses)


def test_per_sample_C_matches_libsvm_class_weights():
    X, y, C, gamma = _problem("heart")
    w = {-1.0: 0.3, 1.0: 2.5}
    C_k = C * np.where(y > 0, w[1.0], w[-1.0])
    K = rbf_kernel(X, gamma=gamma)
    res = smo_solve(K, y, C_k, tol=TOL)
    assert res.converged and np.all(res.alpha <= C_k) and np.all(res.alpha >= 0)
    assert np.any(res.alpha == C_k)          # some land exactly on their bound C_k
    sk = SVC(C=C, gamma=gamma, tol=TOL, class_weight=w).fit(X, y)
    v = sk.dual_coef_[0]
    W_sk = dual_objective_from_coef(v, K[np.ix_(sk.support_, sk.support_)])
    # both stop at a gap below TOL: the objectives agree to a few TOL relative
    assert res.dual_objective == pytest.approx(W_sk, rel=10 * TOL)
    assert res.b == pytest.approx(sk.intercept_[0], abs=10 * TOL)


def test_per_sample_C_is_checked():
    X, y, C, gamma = _problem("toy")
    K = rbf_kernel(X, gamma=gamma)
    for bad in (np.full(len(y) - 1, 1.0), np.r_[0.0, np.ones(len(y) - 1)],
                np.r_[np.inf, np.ones(len(y) - 1)]):
        with pytest.raises(ValueError, match="one per sample"):
            smo_solve(K, y, bad)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("kernel", ["rbf", "linear", "poly"])
def test_numpy_column_is_active_column_bit_for_bit(kernel, dtype):
    """The column the compiled loop is served on dense data (numpy_column) is the one
    active_column computes, to the last bit, on all rows and on a shrunk active set."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 5))
    prov = KernelColumns(X, kernel, gamma=np.float64(0.3), degree=2, coef0=1.0, dtype=dtype)
    for rows in (None, np.arange(3, 40, 3)):
        prov.set_active(rows)
        for c in (0, 7, 39):
            before = prov.n_kernel_evals
            fast = prov.numpy_column(c)
            assert prov.n_kernel_evals - before == len(fast)
            ref = prov.active_column(c)
            assert fast.dtype == ref.dtype == dtype
            np.testing.assert_array_equal(fast, ref)
    prov.set_active([5])                       # one active row: served by active_column
    assert prov.numpy_column(5) is None
    assert KernelColumns(X, kernel, compiled_columns=True).numpy_column(0) is None


@pytest.mark.parametrize("y, match", [([1.0, -1.0, 0.0], "only the labels"),
                                      ([1.0, -1.0, np.nan], "only the labels"),
                                      ([1.0, 1.0, 1.0], "only one class"),
                                      ([-1.0, -1.0, -1.0], "only one class")])
def test_smo_solve_refuses_labels_other_than_both_signs(y, match):
    with pytest.raises(ValueError, match=match):
        smo_solve(np.eye(3), y, 1.0)
