"""The null-space step (svmtext.smo._null): flat faces of the box crossed at once."""
import numpy as np
import pytest

from svmtext.datasets.toy import make_smo_problem
from svmtext.kernels import get_kernel
from svmtext.kkt import FREE, LOWER, UPPER, alpha_status
from svmtext.qp import dual_objective, primal_objective, solve_dual
from svmtext.smo import KernelColumns, SMOSVC, smo_dense, smo_solve
from svmtext.smo._null import null_step


def _problem(seed, **kw):
    X, y, kernel, params, C = make_smo_problem(seed, scaled=False, **kw)
    return X, y, kernel, params, C, get_kernel(kernel, **params)(X, X)


def test_a_step_on_a_flat_face_lands_on_a_bound_and_keeps_the_gradient():
    """Random problem 54 (76 points, 3 features, linear kernel): after 200,000 SMO
    steps, five free multipliers creep along a flat direction. One null-space step
    puts one of them on a bound, keeps y^T alpha, does not lower W, and leaves the
    gradient g = y - K(alpha y) that a fresh computation gives."""
    X, y, _, _, C, K = _problem(54)
    n = len(y)
    alpha, g = np.zeros(n), y.copy()
    smo_dense(K, y, alpha, g, np.ones(n, bool), n, C, 1e-3, max_iter=200_000)
    status = alpha_status(alpha, C, 0.0)
    free = np.flatnonzero(status == FREE)
    W0, balance = dual_objective(alpha, K, y), y @ alpha
    before = alpha.copy()
    moved = null_step(g, alpha, status, y, np.full(n, C), np.arange(n), n,
                      lambda r, c: K[np.ix_(r, c)])
    assert moved is not None
    assert np.count_nonzero(status == FREE) == len(free) - 1
    landed = free[status[free] != FREE]
    assert alpha[landed[0]] in (0.0, C)
    assert np.all((alpha >= 0) & (alpha <= C))
    assert np.all(alpha[status == UPPER] == C) and np.all(alpha[status == LOWER] == 0)
    np.testing.assert_array_equal(alpha[status != FREE], np.where(
        status[status != FREE] == UPPER, C, 0.0))
    assert abs(y @ alpha - balance) <= 1e-12 * C * n
    assert dual_objective(alpha, K, y) >= W0 - 1e-12 * abs(W0)
    assert np.abs(alpha - before).max() > 1.0           # a long step, not an SMO one
    np.testing.assert_allclose(g, y - K @ (alpha * y), rtol=0, atol=1e-9 * C * n)
    assert moved == [(int(k), C * y[k]) for k in landed if status[k] == UPPER]


def test_no_step_where_the_face_is_not_flat():
    """RBF kernel, distinct points: Q_FF is not singular, nothing moves."""
    X, y, _, _, C, K = _problem(1)
    n = len(y)
    alpha, g = np.zeros(n), y.copy()
    smo_dense(K, y, alpha, g, np.ones(n, bool), n, C, 1e-3)
    status = alpha_status(alpha, C, 0.0)
    assert np.count_nonzero(status == FREE) >= 2
    copies = alpha.copy(), g.copy(), status.copy()
    assert null_step(g, alpha, status, y, np.full(n, C), np.arange(n), n,
                     lambda r, c: K[np.ix_(r, c)]) is None
    for a, b in zip((alpha, g, status), copies):
        np.testing.assert_array_equal(a, b)


def test_problem_54_needs_far_fewer_iterations():
    X, y, kernel, params, C, K = _problem(54)
    plain = smo_solve(KernelColumns(X, kernel, **params), y, C)
    fast = smo_solve(KernelColumns(X, kernel, **params), y, C, null_steps=True)
    assert plain.n_null_steps == 0 and fast.n_null_steps > 0
    assert fast.converged and fast.gap < 1e-3
    assert fast.n_iter < plain.n_iter / 5
    assert abs(fast.dual_objective - plain.dual_objective) <= 1e-3 * plain.alpha.sum()


@pytest.mark.parametrize("block", range(2))
def test_agrees_with_cvxopt_on_100_random_problems(block):
    """As the plain solver's test (tests/test_smo_loop.py), with null steps: W within
    SMO's own duality gap of cvxopt's, the multipliers in the box and on y^T alpha = 0,
    and the gradient the solver kept (through null steps, shrinking and the
    reconstruction of the set-aside rows) that of a fresh computation. The first 25 of
    each 50 have C up to 1e4 and features not scaled (problems 54, 66 and 72 of the
    benchmark are of this kind: the null steps are taken)."""
    steps = 0
    for seed in range(50 * block, 50 * block + 50):
        big = seed % 50 < 25
        X, y, kernel, params, C, K = _problem(seed, n_max=120 if big else 60,
                                              log_C_max=4 if big else 3)
        tol = 1e-3 if big else 1e-6
        res = smo_solve(KernelColumns(X, kernel, **params), y, C, tol=tol, null_steps=True,
                        max_iter=2_000_000)
        assert res.converged and res.gap < tol
        steps += res.n_null_steps
        a = res.alpha
        assert np.all((a >= 0) & (a <= C)) and abs(y @ a) <= 1e-10 * C * len(y)
        np.testing.assert_allclose(res.gradient, y - K @ (a * y), rtol=0,
                                   atol=1e-9 * C * len(y) * max(1.0, np.abs(K).max()))
        duality_gap = primal_objective(a, res.b, K, y, C) - res.dual_objective
        assert duality_gap <= len(y) * C * tol
        if not big:
            qp = solve_dual(K, y, C)
            scale = max(1.0, abs(qp.objective))
            assert qp.objective - res.dual_objective <= duality_gap + 1e-7 * scale
            assert res.dual_objective - qp.objective <= 1e-7 * scale
    assert steps > 0


def test_null_steps_need_the_compiled_loop():
    K, y = np.eye(4) + 1.0, np.array([1.0, -1.0, 1.0, -1.0])
    with pytest.raises(ValueError, match="null_steps=True needs selection='wss2'"):
        smo_solve(K, y, 1.0, selection="mvp", null_steps=True)
    with pytest.raises(ValueError, match="history=False"):
        smo_solve(K, y, 1.0, history=True, null_steps=True)
    with pytest.raises(TypeError, match="null_steps must be True or False"):
        smo_solve(K, y, 1.0, null_steps="yes")
    # the estimator makes them with WSS2 only (its default), the other rules without
    X8, y8 = np.arange(8.0)[:, None], np.arange(8) % 3
    for rule in ("platt", "mvp"):
        assert not SMOSVC(selection=rule).fit(X8, y8).fit_info_["n_null_steps"].any()


def test_smosvc_makes_null_steps_by_default():
    X, y, kernel, params, C, _ = _problem(54)
    clf = SMOSVC(C=C, kernel=kernel, **params).fit(X, y)
    assert clf.fit_info_["n_null_steps"] > 0
    ref = SMOSVC(C=C, kernel=kernel, null_steps=False, **params).fit(X, y)
    assert ref.fit_info_["n_null_steps"] == 0 and ref.n_iter_ > 10 * clf.n_iter_
    assert np.mean(clf.predict(X) == ref.predict(X)) >= 0.95
