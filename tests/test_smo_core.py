"""The shared SMO core: the column and dense solvers take the same steps; the column
cache and shrinking never change the answer (any cache size); the recorded history."""
import numpy as np
import pytest

from svmtext import datasets
from svmtext.kernels import rbf_kernel
from svmtext.qp import dual_objective, primal_objective
from svmtext.smo import GramColumns, smo_dense, smo_solve

TOL = 1e-6


def _banana():
    X, y, _, _ = datasets.load_raetsch("banana", 1)
    return X, y.astype(float)


def _mnist_2000():
    X, y = datasets.load_mnist_4v9("train")
    idx = np.random.default_rng(0).choice(len(y), 2000, replace=False)
    return X[idx], np.where(y[idx] > 0, 1.0, -1.0)


@pytest.mark.parametrize("C,gamma", [(100.0, 0.5), (1.0, 2.0)])
def test_column_and_dense_solvers_pick_the_same_pairs(C, gamma):
    X, y = _banana()
    K = rbf_kernel(X, gamma=gamma)
    K = (K + K.T) / 2          # exactly symmetric: the dense solver reads rows, SMO columns
    col = smo_solve(K, y, C, tol=1e-3, shrinking=False, history=True)
    alpha, g = np.zeros(len(y)), y.copy()
    pairs = np.full((col.n_iter + 1, 2), -1, dtype=np.int64)
    n_iter, gap = smo_dense(K, y, alpha, g, np.ones(len(y), bool), len(y), C, 1e-3,
                            pairs=pairs)
    assert n_iter == col.n_iter
    np.testing.assert_array_equal(pairs[:n_iter, 0], col.history["i"])
    np.testing.assert_array_equal(pairs[:n_iter, 1], col.history["j"])
    np.testing.assert_array_equal(alpha, col.alpha)       # the same arithmetic, step by step


def _check_cache_sizes(X, y, C, gamma, n_cols):
    K = rbf_kernel(X, gamma=gamma)
    n = len(y)
    ref = smo_solve(GramColumns(K), y, C, tol=TOL, shrinking=False,
                    cache_size=n * n * 8 / 2**20 + 1)           # every column cached
    assert ref.converged and ref.cache_misses <= n
    # the duality gap bounds the distance to the optimum: W* - W <= P - W
    assert primal_objective(ref.alpha, ref.b, K, y, C) - ref.dual_objective >= -1e-9
    for cols in n_cols:
        for shrinking in (False, True):
            res = smo_solve(GramColumns(K), y, C, tol=TOL, shrinking=shrinking,
                            cache_size=cols * n * 8 / 2**20)
            assert res.converged and res.gap < TOL
            assert res.dual_objective == pytest.approx(ref.dual_objective, rel=1e-6)
            assert res.dual_objective == pytest.approx(dual_objective(res.alpha, K, y),
                                                       rel=1e-10)


@pytest.mark.parametrize("C,gamma", [(100.0, 0.5), (10.0, 2.0), (1.0, 0.5)])
def test_any_cache_size_gives_the_uncached_answer_banana(C, gamma):
    X, y = _banana()
    _check_cache_sizes(X, y, C, gamma, [2, 10, len(y) // 4, len(y)])


def test_any_cache_size_gives_the_uncached_answer_mnist():
    X, y = _mnist_2000()
    _check_cache_sizes(X, y, 10.0, 0.02, [2, 200, len(y)])


def test_small_cache_with_shrinking_regression():
    # completing partial columns during unshrinking used to evict partial columns
    # still to be read (KeyError)
    from svmtext.smo import SMOSVC
    X, y = _banana()
    clf = SMOSVC(C=100.0, gamma=0.5, cache_size=0.03).fit(X, y)
    assert clf.fit_info_["converged"]


def test_history_objective_is_exact_with_shrinking():
    X, y = _banana()
    K = rbf_kernel(X, gamma=0.5)
    res = smo_solve(K, y, 100.0, tol=TOL, shrinking=True, history=True, cache_size=0.05)
    assert res.n_shrink > 0
    obj = np.array(res.history["objective"])
    assert len(obj) == res.n_iter
    assert np.all(np.diff(obj) <= 0)     # every step decreases -W (below rounding: equal)
    assert obj[-1] == pytest.approx(res.objective, rel=1e-9)


@pytest.mark.parametrize("m", [0, 1, 3, 15, 16, 17, 63, 64, 127, 128, 129, 340])
def test_the_loops_passes_are_numpys_reductions(m):
    """The selection's passes (svmtext.smo._core) on both sides of the lengths where they
    switch to vector loops: the maximum, the first index holding a value, and the WSS2
    scores with M(alpha) and the best score in one pass, against NumPy, with the
    offsets' infinities among the values and ties."""
    from svmtext.smo._core import _first, _max, _scores_min
    rng = np.random.default_rng(m)
    n = m + 5                                  # values past m must not be read
    g = np.round(rng.normal(size=n), 1)        # ties
    up = np.where(rng.random(n) < 0.3, -np.inf, 0.0)
    low = np.where(rng.random(n) < 0.3, np.inf, 0.0)
    g_up = g + up
    g_up[m:] = 99.0
    assert _max(g_up, m) == (g_up[:m].max() if m else -np.inf)
    for k in range(m):
        assert _first(g_up, g_up[k], m) == np.flatnonzero(g_up[:m] == g_up[k])[0]
    assert _first(g_up, 99.0, m) == -1
    d, K_i = rng.random(n) + 1.0, rng.random(n)
    d_i, g_max, tau = 1.5, 0.7, 1e-12
    score = np.full(n, 7.0)
    g_min, best = _scores_min(g, low, d, K_i, d_i, g_max, tau, score, m)
    x = (g + low)[:m]
    a = d_i + d[:m] - 2.0 * K_i[:m]
    want = -np.maximum(g_max - x, 0.0) ** 2 / np.where(a > 0, a, tau)
    np.testing.assert_array_equal(score[:m], want)
    assert (score[m:] == 7.0).all()
    assert g_min == (x.min() if m else np.inf) and best == (want.min() if m else np.inf)
