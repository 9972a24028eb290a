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
