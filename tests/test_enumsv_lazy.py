"""Lazy EnumSV (the default): children solved only when their weak-duality bound reaches
the top of the heap give exactly the eager enumeration's models, in the same order."""
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from svmtext.enumsv import Subproblems, enumerate_models, prepare_problem
from svmtext.enumsv._enumerate import child_bounds

settings.register_profile("enumsv_lazy", max_examples=12, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])


def problem(seed, n, d=2):
    """Gaussian points, labels from a noisy linear rule, both classes present (as
    tests/test_enumsv.py)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(X[:, 0] + 0.7 * rng.normal(size=n) > 0, 1, -1)
    y[:2] = (1, -1)
    return X, y


def assert_identical(eager, lazy):
    """The same models, bit for bit, in the same order."""
    assert len(eager) == len(lazy)
    for a, b in zip(eager, lazy):
        assert a.rank == b.rank
        assert np.array_equal(a.support, b.support)
        assert np.array_equal(a.alpha, b.alpha)
        assert a.objective == b.objective and a.b == b.b
        assert a.subset_size == b.subset_size and a.n_candidates == b.n_candidates


def both(X, y, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)    # a violated bound
        eager = list(enumerate_models(X, y, lazy=False, **kw))
        lazy = list(enumerate_models(X, y, **kw))
    return eager, lazy


@settings(settings.get_profile("enumsv_lazy"))
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(3, 10),
       C=st.sampled_from([0.1, 1.0, 10.0]), gamma=st.sampled_from([0.3, 1.0, 3.0]))
def test_lazy_equals_eager_rbf_brute_force_suite(seed, n, C, gamma):
    X, y = problem(seed, n)
    assert_identical(*both(X, y, C=C, kernel="rbf", gamma=gamma, tol=1e-10))


@settings(settings.get_profile("enumsv_lazy"))
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(3, 10),
       C=st.sampled_from([0.1, 1.0, 10.0]))
def test_lazy_equals_eager_linear_brute_force_suite(seed, n, C):
    """Non-unique solutions and exact ties included (Q of rank 2)."""
    X, y = problem(seed, n)
    assert_identical(*both(X, y, C=C, kernel="linear", tol=1e-10))


def test_lazy_equals_eager_with_a_copied_point():
    """Exactly tied children (a free support vector and its copy): the insertion order
    breaks the tie in both, so the order is the same."""
    X, y = problem(5, 12)
    X, y = np.vstack([X, X[3], X[3]]), np.append(y, [y[3], y[3]])
    assert_identical(*both(X, y, C=10.0, kernel="rbf", gamma=1.0, tol=1e-10))


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_lazy_top_k_solves_fewer(kernel):
    X, y = problem(1, 120, d=3)
    eager, lazy = both(X, y, C=1.0, kernel=kernel, gamma=0.5, k=10, tol=1e-9)
    assert_identical(eager, lazy)
    assert all(b.n_solves <= a.n_solves for a, b in zip(eager, lazy))
    assert lazy[-1].n_solves < eager[-1].n_solves / 2


@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_child_bounds_hold(C):
    """OPT(I minus i) <= P_I(w, b) - C xi_i for every support vector i of the SVM, and
    the bound equals W_parent - C xi_i up to the parent's duality gap."""
    X, y = problem(2, 40, d=3)
    K, y_pm, _ = prepare_problem(X, y, "rbf", gamma=0.5)
    sub = Subproblems(K, y_pm, C, 1e-10)
    active = np.ones(len(y), dtype=bool)
    alpha, g, gap = sub.solve_cold(active)
    W = sub.objective(alpha, g)
    S = np.flatnonzero(alpha > 0)
    bounds = child_bounds(sub, alpha, g, active, S)
    b = sub.bias(alpha, g, active)
    xi = np.maximum(0.0, y_pm * (g - b))
    assert np.allclose(bounds, W - C * xi[S], rtol=0, atol=1e-8 * max(1.0, W))
    for i, U in zip(S, bounds):
        child = active.copy()
        child[i] = False
        a_c, g_c, _ = sub.solve_cold(child)
        assert sub.objective(a_c, g_c) <= U
    assert (xi[S] > 1e-6).any()      # some bound is below W: the test has teeth
