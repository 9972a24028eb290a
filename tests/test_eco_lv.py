"""Lotka--Volterra dynamics: the steady state is the dual QP optimum."""
import numpy as np
import pytest

from svmtext.eco import (integrate_lv, interaction_matrix, lv_rhs,
                         positive_start, quasi_steady_bias)
from svmtext.kernels import gram
from svmtext.qp import dual_objective, solve_dual


def _data(seed, n=30, hard=False):
    rng = np.random.default_rng(seed)
    X = rng.uniform(size=(n, 2))
    y = np.where(X[:, 0] <= 0.5, 1.0, -1.0)
    if hard:  # open a margin so the hard-margin problem is well posed
        X[:, 0] -= 0.1 * y
    else:  # flip a few labels: non-separable
        y[rng.choice(n, 3, replace=False)] *= -1
    return X, y


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
@pytest.mark.parametrize("C", [None, 1.0, 10.0])
def test_steady_state_is_qp_optimum(kernel, C):
    for seed in range(2):
        X, y = _data(seed, hard=C is None)
        K = gram(X, kernel=kernel, **({"gamma": 5.0} if kernel == "rbf" else {}))
        lv = integrate_lv(K, y, C, t_end=1e5)
        qp = solve_dual(K, y, C)
        assert lv.success
        assert np.abs(lv.alpha - qp.alpha).max() < 1e-4
        assert abs(lv.objective - qp.objective) < 1e-4
        assert abs(lv.b - qp.b) < 1e-4
        # the constraint is conserved by the flow and the rates vanish
        assert abs(lv.alpha @ y) < 1e-6
        assert np.abs(lv_rhs(lv.alpha, K, y, C)).max() < 1e-6


def test_objective_increases_along_the_flow():
    X, y = _data(3)
    K = gram(X, kernel="rbf", gamma=5.0)
    lv = integrate_lv(K, y, 1.0, t_end=1e3)
    W = [dual_objective(a, K, y) for a in lv.alphas]
    assert np.all(np.diff(W) > -1e-9)


def test_interaction_signs():
    X, y = _data(0)
    K = gram(X, kernel="rbf", gamma=1.0)
    A = interaction_matrix(K, y)
    same = y[:, None] == y[None, :]
    assert np.all(A[same] < 0) and np.all(A[~same] > 0)


def test_quasi_steady_bias_keeps_constraint():
    X, y = _data(1)
    K = gram(X, kernel="rbf", gamma=2.0)
    a = positive_start(y, 1.0) * np.random.default_rng(0).uniform(0.5, 1, len(y))
    a[y > 0] *= (a[y < 0].sum() / a[y > 0].sum())
    assert abs(np.sum(y * lv_rhs(a, K, y, 1.0))) < 1e-12
    assert np.isfinite(quasi_steady_bias(a, K, y, 1.0))


def test_bad_input():
    X, y = _data(0)
    K = gram(X, kernel="linear")
    with pytest.raises(ValueError, match="one class"):
        integrate_lv(K, np.ones(len(y)))
    with pytest.raises(ValueError, match="NaN"):
        integrate_lv(np.full_like(K, np.nan), y)
    with pytest.raises(ValueError, match="sum_i alpha_i y_i"):
        integrate_lv(K, y, 1.0, alpha0=np.full(len(y), 0.1))
    with pytest.raises(ValueError, match="n x n"):
        integrate_lv(K[:, :3], y)
