"""KKT residuals and the bias (book: sec-kkt)."""
import numpy as np
import pytest

from svmtext.kernels import gram
from svmtext.kkt import bias_from_gradient, free_and_bounded, intercept_from_alpha, kkt_residuals
from svmtext.qp import solve_dual


def blobs(n=40, sep=1.5, seed=0):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    return rng.normal(size=(n, 2)) + sep / 2 * y[:, None], y


@pytest.mark.parametrize("C", [None, 0.3, 10.0])
def test_zero_at_optimum_positive_when_perturbed(C):
    X, y = blobs(sep=5.0 if C is None else 1.5)
    K = gram(X, kernel="rbf", gamma=0.5)
    sol = solve_dual(K, y, C)
    r = kkt_residuals(sol.alpha, sol.b, K, y, C)
    assert r.max_violation < 1e-6
    assert set(r.as_dict()) == {"stationarity_b", "stationarity_w",
                                "primal_feasibility", "dual_feasibility",
                                "complementary_slackness"}
    # perturb one support vector's alpha (keeping it in the box)
    a = sol.alpha.copy()
    i = sol.support[0]
    a[i] = a[i] * 0.5
    assert kkt_residuals(a, sol.b, K, y, C).max_violation > 1e-3
    # a wrong bias alone is caught too
    assert kkt_residuals(sol.alpha, sol.b + 0.1, K, y, C).max_violation > 1e-3


def test_each_residual_detects_its_condition():
    X, y = blobs()
    K = X @ X.T
    C = 1.0
    sol = solve_dual(K, y, C, X=X)
    a, b = sol.alpha, sol.b
    assert kkt_residuals(a, b, K, y, C, w=sol.w, X=X).stationarity_w < 1e-9
    assert kkt_residuals(a, b, K, y, C, w=sol.w + 1,
                         X=X).stationarity_w > 0.1
    shifted = a.copy()
    shifted[np.flatnonzero(y > 0)[0]] += 0.1      # sum alpha_i y_i != 0
    assert kkt_residuals(shifted, b, K, y, C).stationarity_b > 0.09
    over = a.copy()
    over[0] = C + 0.5
    assert kkt_residuals(over, b, K, y, C).dual_feasibility[0] == 0.5
    zero = np.zeros_like(a)                       # every margin violated
    r = kkt_residuals(zero, 0.0, K, y, None)
    assert np.all(r.primal_feasibility == 1.0)
    r = kkt_residuals(np.full_like(a, 0.5 * C), 0.0, K, y, C)
    assert r.slackness_margin.max() > 0.1          # alpha > 0 off the margin
    with pytest.raises(ValueError, match="shapes"):
        kkt_residuals(a[:-1], b, K, y, C)
    with pytest.raises(ValueError, match="X"):
        kkt_residuals(a, b, K, y, C, w=sol.w)


def test_intercept_from_free_svs_and_midpoint():
    X, y = blobs()
    K = gram(X, kernel="rbf", gamma=0.5)
    sol = solve_dual(K, y, 1.0)
    free, bounded = free_and_bounded(sol.alpha, 1.0)
    assert free.sum() == len(sol.free) and bounded.sum() == len(sol.bounded)
    g = K @ (sol.alpha * y)
    # every free SV sits on its margin: y_i (g_i + b) = 1
    np.testing.assert_allclose(y[free] * (g[free] + sol.b), 1.0, atol=1e-7)
    # no free SV at all: alpha_i = C for every point of a balanced tiny C
    C = 1e-3
    sol = solve_dual(K, y, C)
    assert len(sol.free) == 0 and len(sol.bounded) == len(y)
    g = K @ (sol.alpha * y)
    r = y - g
    lo = max(r[(y > 0) & (sol.alpha == 0)].max(initial=-np.inf),
             r[(y < 0) & (sol.alpha == C)].max(initial=-np.inf))
    hi = min(r[(y < 0) & (sol.alpha == 0)].min(initial=np.inf),
             r[(y > 0) & (sol.alpha == C)].min(initial=np.inf))
    b = intercept_from_alpha(sol.alpha, K, y, C)
    assert lo <= hi and b == pytest.approx((lo + hi) / 2)
    assert kkt_residuals(sol.alpha, b, K, y, C).max_violation < 1e-9


def test_bias_counts_an_alpha_rounding_errors_below_C_as_bounded():
    """Platt's rule on an RBF problem where every alpha ends at C (C = 0.21, n = 46): one
    multiplier stops at C - 5.6e-17. Counted as free (an exact bound test), it alone sets
    b at an end of the interval [m, M] and training predictions flip; counted as bounded
    (the relative test of every bias rule), b is the midpoint, as for WSS2."""
    from svmtext.kernels import rbf_kernel
    from svmtext.kkt import bias_interval, bias_tol
    from svmtext.smo import _core, smo_solve

    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(46, 2)), np.r_[np.ones(23), -np.ones(23)]
    K, C = rbf_kernel(X, gamma=0.5), 0.21
    platt = smo_solve(K, y, C, selection="platt")
    wss2 = smo_solve(K, y, C)
    short = C - platt.alpha
    assert np.all(wss2.alpha == C) and np.all(short <= bias_tol(platt.alpha, C))
    assert np.count_nonzero(short) == 1 and 0 < short.max() < 6e-17     # the case
    g = y - K @ (platt.alpha * y)
    m, M = bias_interval(g, platt.alpha, y, C)
    assert platt.b == pytest.approx(0.5 * (m + M), abs=1e-12)
    assert platt.b == pytest.approx(wss2.b, abs=1e-12)
    compiled = _core.bias(g, platt.alpha, y, np.ones(46, bool), 46, C)
    assert compiled == pytest.approx(platt.b, abs=1e-14)
    # the exact test would have taken the one "free" multiplier's -y G as b
    exact = bias_from_gradient(g, platt.alpha, y, C, tol=0.0)
    k = int(np.argmax(short))
    assert exact == g[k] and abs(exact - platt.b) > 0.1
    f = K @ (platt.alpha * y)
    assert np.any(np.sign(f + exact) != np.sign(f + platt.b))
