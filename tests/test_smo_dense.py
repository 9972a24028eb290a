"""The compiled dense SMO used for warm-started re-equilibration."""
import numpy as np
import pytest

from svmtext.kernels import rbf_kernel
from svmtext.qp import dual_objective, solve_dual
from svmtext.smo import bias_from_gradient, smo_dense


@pytest.fixture(scope="module")
def problem():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(120, 4))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=120) > 0, 1.0, -1.0)
    return rbf_kernel(X, gamma=0.3), y, 5.0


def test_cold_and_warm_start_reach_the_qp_optimum(problem):
    K, y, C = problem
    ref = solve_dual(K, y, C)
    for warm in (False, True):
        alpha = np.zeros(len(y))
        if warm:  # the optimum of the first half is feasible for the whole
            alpha[:60] = solve_dual(K[:60, :60], y[:60], C).alpha
        g = y - K @ (alpha * y)
        n_iter, gap = smo_dense(K, y, alpha, g, np.ones(len(y), bool), len(y), C, 1e-8)
        assert gap < 1e-8 and n_iter > 0
        np.testing.assert_allclose(g, y - K @ (alpha * y), atol=1e-10)
        assert abs(dual_objective(alpha, K, y) - ref.objective) < 1e-8 * ref.objective
        assert abs(bias_from_gradient(g, alpha, y, C) - ref.b) < 1e-5
        assert abs(alpha @ y) < 1e-10 and alpha.min() >= 0 and alpha.max() <= C


def test_inactive_points_never_move(problem):
    K, y, C = problem
    alpha = np.zeros(len(y))
    active = np.ones(len(y), bool)
    active[::3] = False
    g = y - K @ (alpha * y)
    smo_dense(K, y, alpha, g, active, len(y), C, 1e-6)
    assert np.all(alpha[~active] == 0) and np.any(alpha[active] > 0)
    sub = np.flatnonzero(active)
    ref = solve_dual(K[np.ix_(sub, sub)], y[sub], C)
    assert abs(dual_objective(alpha[sub], K[np.ix_(sub, sub)], y[sub]) - ref.objective) \
        < 1e-6 * ref.objective


def test_only_the_first_m_rows_are_read(problem):
    K, y, C = problem
    m = 80
    big = np.full((100, 100), np.nan)
    big[:m, :m] = K[:m, :m]
    yb = np.concatenate([y[:m], np.full(20, np.nan)])
    alpha = np.zeros(100)
    g = np.concatenate([y[:m], np.full(20, np.nan)])
    smo_dense(big, yb, alpha, g, np.ones(100, bool), m, C, 1e-6)
    ref = solve_dual(K[:m, :m], y[:m], C)
    assert abs(dual_objective(alpha[:m], K[:m, :m], y[:m]) - ref.objective) < 1e-6 * ref.objective
