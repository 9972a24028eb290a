"""Behaviours that earlier tests left open (each was a surviving mutant; tests/MUTATION.md).

* the residual of :math:`\\sum_i \\alpha_i y_i = 0` is an absolute value, whichever the sign;
* duplicated points with opposite labels (curvature :math:`a_{ij} = 0`) are solved;
* a step that lands on a bound by rounding leaves the multiplier *at* the bound;
* the bound tolerance is the documented :math:`10^{-8}\\max(1, C)`;
* the working-set selections and the step's statuses follow their definitions, and the
  dense loop's gap is :math:`-\\infty` exactly when :math:`I_{up}` is empty.
"""
import numpy as np
import pytest

from svmtext import SMOSVC
from svmtext.kernels import gram
from svmtext.kkt import (FREE, LOWER, UPPER, alpha_status, bias_from_gradient, bias_interval,
                         bias_tol, bound_tol, free_and_bounded, kkt_residuals)
from svmtext.qp import solve_dual
from svmtext.smo import smo_dense, smo_solve
from svmtext.smo._core import two_variable_step


def _blobs(n=30, seed=0):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    return rng.normal(size=(n, 2)) + 0.75 * y[:, None], y


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_stationarity_b_is_the_absolute_value(sign):
    X, y = _blobs()
    K = gram(X, kernel="rbf", gamma=0.5)
    sol = solve_dual(K, y, 1.0)
    a = sol.alpha.copy()
    k = np.flatnonzero((y == sign) & (a < 0.5))[0]
    a[k] += 0.1                                        # y^T alpha = sign * 0.1
    r = kkt_residuals(a, sol.b, K, y, 1.0)
    assert r.stationarity_b == pytest.approx(0.1, abs=1e-6)
    assert r.as_dict()["stationarity_b"] == pytest.approx(0.1, abs=1e-6)
    assert r.max_violation >= 0.1 - 1e-6


def _with_opposite_duplicates(seed=0):
    X, y = _blobs(seed=seed)
    return np.vstack([X, X[:3]]), np.r_[y, -y[:3]]


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
@pytest.mark.parametrize("selection", ["wss2", "mvp", "platt"])
def test_smo_solves_duplicated_points_with_opposite_labels(kernel, selection):
    """Pairs with K_ii + K_jj - 2 K_ij = 0 (curvature floor tau); W as the QP's."""
    X, y = _with_opposite_duplicates()
    K = gram(X, kernel=kernel, gamma=0.5)
    tol = 1e-6
    res = smo_solve(K, y, 1.0, tol=tol, selection=selection)
    ref = solve_dual(K, y, 1.0)
    assert res.converged
    # W(opt) - W(alpha) <= gap * sum(alpha) / 2 at a point with gap < tol (LIBSVM's bound)
    assert ref.objective - res.dual_objective <= tol * 1.0 * len(y) + 1e-9
    assert res.dual_objective <= ref.objective + 1e-9


def test_two_points_identical_with_opposite_labels():
    X, y = np.zeros((2, 3)), np.array([1.0, -1.0])
    for kernel in ("linear", "rbf"):
        res = smo_solve(gram(X, kernel=kernel, gamma=1.0), y, 0.5, tol=1e-8)
        assert res.converged and np.all(res.alpha == 0.5)   # both at C: W = 1 = 2 C
        assert res.dual_objective == pytest.approx(1.0)
    est = SMOSVC(kernel="linear", C=0.5).fit(X, [0, 1])
    assert est.fit_info_["dual_objective"] == pytest.approx(1.0)


def test_dense_smo_with_duplicates_matches_the_qp():
    X, y = _with_opposite_duplicates(seed=1)
    K = gram(X, kernel="rbf", gamma=0.5)
    n = len(y)
    alpha, g = np.zeros(n), y.copy()
    n_iter, gap = smo_dense(K, y, alpha, g, np.ones(n, bool), n, 1.0, 1e-8)
    assert gap < 1e-8 and n_iter > 0
    W = alpha.sum() - 0.5 * (alpha * y) @ K @ (alpha * y)
    assert pytest.approx(solve_dual(K, y, 1.0).objective, abs=1e-7 * n) == W


def test_a_step_rounding_onto_C_leaves_the_multiplier_at_C():
    """alpha_i = C - u (one unit in the last place), the step is 0.6 u < room = u:
    alpha_i + 0.6 u rounds to C, and its status must say UPPER (else the pair is
    selected again with no room to move)."""
    C = 0.21
    u = C - np.nextafter(C, 0.0)
    y = np.array([1.0, -1.0])
    alpha = np.array([C - u, 0.5 * C])
    status = np.array([FREE, FREE], dtype=np.int8)
    g = np.array([0.6 * u, 0.0])                       # eta = (g_i - g_j) / a = 0.6 u
    eta = two_variable_step(0, 1, g, y, alpha, status, 1.0, C, C)
    assert 0 < eta < u
    assert alpha[0] == C and status[0] == UPPER
    assert status[1] == FREE and alpha[1] == 0.5 * C + eta
    # and towards 0: alpha_j = u0 (the smallest step above 0 of that size) rounds to 0
    alpha = np.array([0.5 * C, 1e-300])
    status = np.array([FREE, FREE], dtype=np.int8)
    y = np.array([1.0, 1.0])
    g = np.array([0.6e-300, 0.0])
    two_variable_step(0, 1, g, y, alpha, status, 1.0, C, C)
    assert alpha[1] in (0.0, 1e-300 - 0.6e-300)
    assert (status[1] == LOWER) == (alpha[1] == 0.0)


def test_the_bound_tolerance_is_relative_to_C():
    for C in (0.21, 1.0, 1e4):
        t = bound_tol(np.zeros(3), C)
        assert t == pytest.approx(1e-8 * max(1.0, C), rel=1e-12)
        a = np.array([0.5 * t, 0.5 * C, C - 0.5 * t, C - 5 * t, 5 * t])
        assert alpha_status(a, C).tolist() == [LOWER, FREE, UPPER, FREE, FREE]
        free, bounded = free_and_bounded(a, C)
        assert free.tolist() == [False, True, False, True, True]
        assert bounded.tolist() == [False, False, True, False, False]
    assert bound_tol(np.array([0.0, 3e3]), None) == pytest.approx(3e-5)


def test_per_sample_bound_tolerances():
    C = np.array([0.21, 1.0, 1e4])
    np.testing.assert_allclose(bound_tol(np.zeros(3), C), 1e-8 * np.maximum(1.0, C), rtol=1e-12)
    np.testing.assert_allclose(bias_tol(np.zeros(3), C), 1e-12 * C, rtol=1e-12)
    for c in (0.21, 1e4):
        assert bias_tol(np.zeros(2), c) == pytest.approx(1e-12 * c, rel=1e-12)
    assert bias_tol(np.array([0.0, 3e3]), None) == pytest.approx(3e-9)


def test_lower_wins_when_both_bounds_are_within_tol():
    """A box narrower than twice the tolerance: alpha at the tolerance counts as 0, for one C
    and for per-sample C alike."""
    tol = 1e-8
    a = np.array([tol, 1.2e-8])
    assert alpha_status(a, 1.5e-8, tol).tolist() == [LOWER, UPPER]
    assert alpha_status(a, np.array([1.5e-8, 1.5e-8]), tol).tolist() == [LOWER, UPPER]


def test_bias_without_free_vectors_and_with_one_end_open():
    """No free multiplier and I_low empty: b = m (the finite end); I_up empty: b = M;
    nothing at all: 0."""
    y = np.array([1.0, -1.0])
    g = np.array([0.3, -0.7])
    C = 1.0
    # y=+1 at 0 (in I_up only), y=-1 at C (in I_up only): I_low is empty
    assert bias_interval(g, np.array([0.0, C]), y, C)[1] == np.inf
    assert bias_from_gradient(g, np.array([0.0, C]), y, C) == pytest.approx(max(g))
    # y=+1 at C, y=-1 at 0: I_up is empty
    assert bias_interval(g, np.array([C, 0.0]), y, C)[0] == -np.inf
    assert bias_from_gradient(g, np.array([C, 0.0]), y, C) == pytest.approx(min(g))
    assert bias_from_gradient(np.array([]), np.array([]), np.array([]), C) == 0.0


def test_kkt_residuals_name_a_shape_mismatch_and_report_zero_without_w():
    X, y = _blobs(n=10)
    K = gram(X, kernel="rbf", gamma=0.5)
    sol = solve_dual(K, y, 1.0)
    r = kkt_residuals(sol.alpha, sol.b, K, y, 1.0)
    assert r.stationarity_w == 0.0 and r.as_dict()["stationarity_w"] == 0.0
    for a, KK in [(sol.alpha[:-1], K), (sol.alpha, K[:-1, :-1]), (sol.alpha, K[:, :-1])]:
        with pytest.raises(ValueError, match="shapes do not match"):
            kkt_residuals(a, sol.b, KK, y, 1.0)


def test_primal_feasibility_residual_is_never_negative():
    X, y = _blobs(n=12)
    K = gram(X, kernel="rbf", gamma=0.5)
    sol = solve_dual(K, y, 1.0)
    for C in (1.0, None):
        r = kkt_residuals(sol.alpha, sol.b + 5.0, K, y, C)    # some margins far above 1
        assert np.all(r.primal_feasibility >= 0.0)
        assert np.all(r.primal_feasibility[r.margins >= 1.0] == 0.0)


def test_hard_margin_tolerances_follow_the_multipliers():
    """C = inf: the scale is max(1, max alpha) for bound_tol and max alpha for bias_tol."""
    small = np.array([0.0, 0.5])
    assert bound_tol(small, None) == pytest.approx(1e-8)
    assert bias_tol(small, None) == pytest.approx(0.5e-12)
    assert bias_tol(np.array([]), None) == 0.0
    np.testing.assert_allclose(bound_tol(small, np.array([np.inf, 1e4])), [1e-8, 1e-4])
    np.testing.assert_allclose(bias_tol(small, np.array([np.inf, 1e4])), [0.5e-12, 1e-8])


def test_a_multiplier_exactly_one_tolerance_below_C_is_at_C():
    C, tol = 1.0, 0.25
    a = np.array([C - tol, C - 2 * tol, tol])
    assert alpha_status(a, C, tol).tolist() == [UPPER, FREE, LOWER]
    assert alpha_status(a, np.full(3, C), tol).tolist() == [UPPER, FREE, LOWER]


def _dense_problem(n=16, seed=3, C=1.0):
    X, y = _blobs(n=n, seed=seed)
    K = gram(X, kernel="rbf", gamma=0.5)
    return K, y, np.zeros(n), y.copy()                   # alpha = 0: -yG = y


def test_dense_smo_makes_exactly_max_iter_steps_when_stopped_early():
    K, y, alpha, g = _dense_problem()
    n_iter, gap = smo_dense(K, y, alpha, g, np.ones(len(y), bool), len(y), 1.0, 1e-12,
                            max_iter=3)
    assert n_iter == 3 and gap >= 1e-12


def test_dense_smo_stops_only_when_the_gap_is_below_tol():
    """Stopping rule m - M < tol, strictly: with tol equal to the starting gap (2 at
    alpha = 0) a step is still made."""
    K, y, alpha, g = _dense_problem()
    n_iter, _ = smo_dense(K, y, alpha, g, np.ones(len(y), bool), len(y), 1.0, 2.0)
    assert n_iter >= 1
    K, y, alpha, g = _dense_problem()
    n_iter, _ = smo_dense(K, y, alpha, g, np.ones(len(y), bool), len(y), 1.0, np.nextafter(2.0, 3))
    assert n_iter == 0


def test_dense_smo_picks_the_second_order_pair():
    """The first pair: i = argmax over I_up of -y G, j = argmin over I_low (b > 0) of
    -b^2 / a (Fan, Chen and Lin's WSS2), computed here from the definition."""
    K, y, alpha, g = _dense_problem()
    n = len(y)
    i = int(np.argmax(np.where(y > 0, g, -np.inf)))     # at alpha = 0: I_up = {y = +1}
    b = g[i] - g
    a = np.maximum(K[i, i] + np.diag(K) - 2 * K[i], 1e-12)
    j = int(np.argmin(np.where((y < 0) & (b > 0), -b * b / a, np.inf)))  # I_low = {y = -1}
    pairs = np.zeros((1, 2), dtype=np.int64)
    smo_dense(K, y, alpha, g, np.ones(n, bool), n, 1.0, 1e-3, pairs=pairs)
    assert pairs[0].tolist() == [i, j]


@pytest.mark.parametrize("alpha", [np.array([0.3, 0.3, 0.0, 1.0]),       # free ones
                                   np.array([0.0, 1.0, 1.0, 0.0])])      # none free
def test_compiled_bias_is_the_bias_rule(alpha):
    from svmtext.kkt import bias_from_gradient
    from svmtext.smo._core import bias

    y = np.array([1.0, -1.0, 1.0, -1.0])
    g = np.array([0.4, -0.2, 1.3, 0.9])
    expected = bias_from_gradient(g, alpha, y, 1.0)
    assert bias(g, alpha, y, np.ones(4, bool), 4, 1.0) == pytest.approx(expected, abs=1e-15)


def test_max_up_and_wss2_scan_by_their_definitions():
    from svmtext.smo._core import max_up, wss2_scan

    y = np.array([1.0, 1.0, -1.0, -1.0])
    movable = np.ones(4, bool)
    at_C = np.array([UPPER, UPPER, LOWER, LOWER], dtype=np.int8)   # I_up empty
    assert max_up(np.zeros(4), y, at_C, movable, 4)[0] == -1
    status = np.array([FREE, FREE, FREE, FREE], dtype=np.int8)     # every k in both sets
    g = np.array([0.5, 0.2, 0.3, 2.0])           # i = 3; b = g_i - g_k: 1.5, 1.8, 1.7, 0
    i, g_max = max_up(g, y, status, movable, 4)
    assert (i, g_max) == (3, 2.0)
    d = np.ones(4)
    K_i = np.array([0.9, 0.2, 0.99, 1.0])        # a_ik = 2 - 2 K_ik: 0.2, 1.6, 0.02
    j, g_min = wss2_scan(i, g_max, g, y, status, movable, d, K_i, 1e-12, 4)
    b, a = g_max - g[:3], 2 - 2 * K_i[:3]
    assert j == int(np.argmin(-b * b / a)) == 2 and g_min == 0.2
    g_small = g * 0.1                            # every b in (0, 1)
    j, _ = wss2_scan(3, 0.2, g_small, y, status, movable, d, K_i, 1e-12, 4)
    assert j == 2
    g_neg = np.array([0.5, 2.9, 0.3, 2.0])       # b = 1.5, -0.9, 1.7: k = 1 is no candidate
    K_neg = np.array([0.2, 0.99, 0.2, 1.0])      # although its -b^2/a = -40.5 is the smallest
    j, _ = wss2_scan(3, 2.0, g_neg, y, status, movable, d, K_neg, 1e-12, 4)
    assert j == 2


def _in_sets(y, status, movable):
    """I_up and I_low from their definitions (book: sec-smo-optimality)."""
    up = movable & (((y > 0) & (status != UPPER)) | ((y < 0) & (status != LOWER)))
    low = movable & (((y > 0) & (status != LOWER)) | ((y < 0) & (status != UPPER)))
    return up, low


def test_max_up_and_wss2_scan_on_random_problems():
    """The selections against their definitions on 300 random problems (index sets,
    frozen points, gaps from 1e-2 to 1e2, curvatures on both sides of 1 and below 0):
    ``i`` maximises -y G over I_up, ``j`` minimises -b^2/a over I_low with b > 0, first
    index on ties; a scan whose screening lets a better later candidate through, or
    that admits points outside the sets, picks another pair."""
    from svmtext.smo._core import max_up, wss2_scan

    rng = np.random.default_rng(0)
    tau = 1e-12
    for _ in range(300):
        n = int(rng.integers(2, 10))
        y = rng.choice([-1.0, 1.0], n)
        status = rng.choice([LOWER, FREE, UPPER], n).astype(np.int8)
        movable = rng.random(n) < 0.85
        g = rng.normal(scale=rng.choice([1e-2, 1.0, 1e2]), size=n)
        up, low = _in_sets(y, status, movable)
        i, g_max = max_up(g, y, status, movable, n)
        if up.any():
            assert g_max == g[up].max() and i == int(np.flatnonzero(up & (g == g_max))[0])
        else:
            assert (i, g_max) == (-1, -np.inf)
            continue
        d = rng.uniform(0.05, 3.0, n)
        K_i = rng.uniform(-1.0, 1.5, n)
        j, g_min = wss2_scan(i, g_max, g, y, status, movable, d, K_i, tau, n)
        assert g_min == g[low].min(initial=np.inf)
        b = g_max - g
        a = d[i] + d - 2 * K_i
        a = np.where(a > 0, a, tau)
        score = np.where(low & (b > 0), -b * b / a, np.inf)
        assert j == (int(np.argmin(score)) if np.isfinite(score).any() else -1)


@pytest.mark.parametrize("y_i, y_j", [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)])
def test_a_step_stopped_by_the_box_sets_the_status_of_the_bound(y_i, y_j):
    """Whichever multiplier the box stops lands on its bound with that bound's status:
    i (in I_up) moves by y_i eta, so at C for y_i = +1 and at 0 for y_i = -1; j moves by
    -y_j eta, so at 0 for y_j = +1 and at C for y_j = -1."""
    C = 1.0
    for stop in ("i", "j"):
        y = np.array([y_i, y_j])
        # room of the stopped one 0.25, of the other 0.5; an unconstrained step of 10
        room = {"i": 0.25, "j": 0.5} if stop == "i" else {"i": 0.5, "j": 0.25}
        alpha = np.array([C - room["i"] if y_i > 0 else room["i"],
                          room["j"] if y_j > 0 else C - room["j"]])
        status = np.full(2, FREE, dtype=np.int8)
        g = np.array([10.0, 0.0])
        eta = two_variable_step(0, 1, g, y, alpha, status, 1.0, C, C)
        assert eta == 0.25
        k = 0 if stop == "i" else 1
        at = (C if y[k] > 0 else 0.0) if k == 0 else (0.0 if y[k] > 0 else C)
        assert alpha[k] == at and status[k] == (UPPER if at == C else LOWER)
        assert status[1 - k] == FREE


def test_dense_smo_gap_is_minus_inf_exactly_when_I_up_is_empty():
    """``gap = -inf`` when no multiplier can move up (one class at 0), ``+inf`` when
    SMO is given no step although I_up is not empty (its first index 0 included)."""
    K = np.eye(3)
    y = -np.ones(3)                                 # one class, alpha = 0: I_up empty
    n_iter, gap = smo_dense(K, y, np.zeros(3), y.copy(), np.ones(3, bool), 3, 1.0, 1e-3)
    assert (n_iter, gap) == (0, -np.inf)
    n_iter, gap = smo_dense(K, y, np.zeros(3), y.copy(), np.ones(3, bool), 3, 1.0, 1e-3,
                            max_iter=0)
    assert (n_iter, gap) == (0, -np.inf)
    y = np.array([1.0, -1.0, -1.0])                 # I_up = {0} at alpha = 0
    n_iter, gap = smo_dense(K, y, np.zeros(3), y.copy(), np.ones(3, bool), 3, 1.0, 1e-3,
                            max_iter=0)
    assert (n_iter, gap) == (0, np.inf)


def test_status_of_reads_the_bounds_inclusively():
    """``_status_of`` (the EcoSVM reads its statuses from alpha with it): exactly 0 is
    LOWER and exactly C is UPPER; a rounding residue beyond a bound is put on it."""
    from svmtext.smo._core import _status_of

    C = 0.7
    alpha = np.array([0.0, 0.35, C, -1e-17, C + 1e-16])
    status = [int(_status_of(alpha, k, C)) for k in range(len(alpha))]
    assert status == [LOWER, FREE, UPPER, LOWER, UPPER]
    assert alpha.tolist() == [0.0, 0.35, C, 0.0, C]


@pytest.mark.parametrize("g", [np.array([0.0, 0.0]), np.array([0.0, 1.0])])
def test_a_pair_that_does_not_violate_makes_no_step(g):
    """b = -y_i G_i + y_j G_j <= 0: no step, eta = 0 returned, nothing changed."""
    y = np.array([1.0, -1.0])
    alpha = np.array([0.3, 0.3])
    status = np.full(2, FREE, dtype=np.int8)
    eta = two_variable_step(0, 1, g, y, alpha, status, 1.0, 1.0, 1.0)
    assert eta == 0.0 and alpha.tolist() == [0.3, 0.3] and status.tolist() == [FREE, FREE]


def test_vectorised_passes_by_their_definitions():
    """``_max`` and ``_scores_min`` (the loops' passes: four scalar accumulators or a
    vector loop, by length) against NumPy on every length 0..11 and on 126..130 (each
    position modulo 4 holding the extreme), with entries beyond ``m`` that must not be
    read, and curvatures below 0, in (0, 1) and above 1."""
    from svmtext.smo._core import _max, _scores_min

    rng = np.random.default_rng(1)
    tau = 1e-12
    for m in [*range(12), *range(126, 131)]:
        for _ in range(10):
            a = rng.normal(size=m + 4)
            a[m:] = 1e3                               # beyond m: larger, never read
            assert _max(a, m) == a[:m].max(initial=-np.inf)
            g = rng.normal(size=m + 4)
            low = np.where(rng.random(m + 4) < 0.7, 0.0, np.inf)
            g[m:], low[m:] = -1e3, 0.0                # beyond m: smaller, never read
            d = rng.uniform(0.05, 2.0, m + 4)
            K_i = rng.uniform(-1.0, 1.5, m + 4)
            g_max, d_i = 1.0 + abs(rng.normal()), float(rng.uniform(0.05, 2.0))
            score = np.empty(m)
            g_min, best = _scores_min(g, low, d, K_i, d_i, g_max, tau, score, m)
            x = (g + low)[:m]
            bb = np.maximum(g_max - x, 0.0)
            curv = d_i + d[:m] - 2.0 * K_i[:m]
            want = -(bb * bb) / np.where(curv > 0, curv, tau)
            np.testing.assert_array_equal(score, want)
            assert (g_min, best) == (x.min(initial=np.inf), want.min(initial=np.inf))


@pytest.mark.parametrize("C", [1e-3, 1e3])
def test_compiled_bias_tolerance_is_relative_to_C(C):
    """The compiled bias counts a multiplier within 1e-12 C of a bound as at it, as
    :func:`svmtext.kkt.bias_from_gradient` does, for C far from 1."""
    from svmtext.smo._core import bias

    y = np.array([1.0, -1.0, 1.0, -1.0])
    g = np.array([0.4, -0.2, 1.3, 0.9])
    for off in (1e-14 * C, 1e-10 * C):              # within and beyond 1e-12 C
        alpha = np.array([C - off, off, 0.5 * C, 0.0])
        expected = bias_from_gradient(g, alpha, y, C)
        assert bias(g, alpha, y, np.ones(4, bool), 4, C) == pytest.approx(expected, abs=1e-15)


def test_compiled_bias_without_any_live_multiplier_is_zero():
    """No free multiplier and both ends of [m, M] open (no live point): b = 0, the bias
    rule's value for no multipliers at all."""
    from svmtext.smo._core import bias

    y = np.array([1.0, -1.0])
    g = np.array([0.4, -0.2])
    alpha = np.array([0.5, 0.5])
    assert bias_from_gradient(g[:0], alpha[:0], y[:0], 1.0) == 0.0
    assert bias(g, alpha, y, np.zeros(2, bool), 2, 1.0) == 0.0


def test_dense_smo_stopped_by_max_iter_with_I_up_not_empty_reports_a_finite_gap():
    """Two points, one step (max_iter = 1): after it both are in I_up, the first index
    first, so the gap reported is not the -inf of an empty I_up."""
    y = np.array([1.0, -1.0])
    n_iter, gap = smo_dense(np.eye(2), y, np.zeros(2), y.copy(), np.ones(2, bool), 2, 10.0,
                            1e-3, max_iter=1)
    assert n_iter == 1 and np.isfinite(gap) and gap >= 0


def test_wss2_scan_takes_the_first_of_tied_candidates():
    """Two candidates with the same score -b^2/a (a duplicated point): j is the first,
    as LIBSVM's strict comparison picks it."""
    from svmtext.smo._core import wss2_scan

    y = np.array([1.0, -1.0, -1.0, -1.0])
    status = np.full(4, FREE, dtype=np.int8)
    movable = np.ones(4, bool)
    g = np.array([2.0, 0.5, 0.5, 1.0])            # k = 1 and 2 tie: same b and a
    d = np.ones(4)
    K_i = np.array([1.0, 0.3, 0.3, 0.1])
    j, g_min = wss2_scan(0, 2.0, g, y, status, movable, d, K_i, 1e-12, 4)
    assert (j, g_min) == (1, 0.5)


def test_wss2_scan_without_a_first_index_has_no_second():
    """``i = -1`` (I_up empty) gives ``j = -1`` whatever ``g_max`` the caller passes;
    ``M(alpha)`` is still the minimum over I_low."""
    from svmtext.smo._core import wss2_scan

    y = np.array([1.0, -1.0, -1.0])
    status = np.full(3, FREE, dtype=np.int8)
    g = np.array([0.4, -0.3, 0.2])
    j, g_min = wss2_scan(-1, 5.0, g, y, status, np.ones(3, bool), np.ones(3),
                         np.zeros(3), 1e-12, 3)
    assert (j, g_min) == (-1, -0.3)


def test_dense_smo_records_the_pairs_it_takes():
    """The pairs written by the dense loop are those of a replay with the scalar
    functions (max_up, wss2_scan, two_variable_step, update_gradient), step by step:
    i in column 0, j in column 1."""
    from svmtext.smo._core import max_up, two_variable_step, update_gradient, wss2_scan

    K, y, alpha, g = _dense_problem(n=12, seed=5, C=1.0)
    n = len(y)
    movable = np.ones(n, bool)
    pairs = np.full((40, 2), -7, dtype=np.int64)
    n_iter, _ = smo_dense(K, y, alpha.copy(), g.copy(), movable, n, 1.0, 1e-3, pairs=pairs)
    assert n_iter >= 3
    a, gg = alpha.copy(), g.copy()
    status = np.full(n, LOWER, dtype=np.int8)
    d = np.diag(K).copy()
    expected = []
    for _ in range(min(n_iter, len(pairs))):
        i, g_max = max_up(gg, y, status, movable, n)
        j, _ = wss2_scan(i, g_max, gg, y, status, movable, d, K[i], 1e-12, n)
        expected.append([i, j])
        eta = two_variable_step(i, j, gg, y, a, status, max(d[i] + d[j] - 2 * K[i, j], 1e-12),
                                1.0, 1.0)
        update_gradient(gg, eta, K[i], K[j], n)
    assert pairs[:len(expected)].tolist() == expected


def test_dense_smo_on_no_points_makes_no_step():
    """An empty problem (m = 0): no step, and the gap of an empty I_up."""
    n_iter, gap = smo_dense(np.empty((0, 0)), np.empty(0), np.empty(0), np.empty(0),
                            np.ones(0, bool), 0, 1.0, 1e-3)
    assert (n_iter, gap) == (0, -np.inf)


@pytest.mark.parametrize("alpha", [np.array([0.0, 1.0]), np.array([1.0, 0.0])])
def test_compiled_bias_with_one_end_open_is_the_finite_end(alpha):
    """No free multiplier and one of I_up, I_low empty: the compiled bias is the finite
    end of [m, M], as :func:`svmtext.kkt.bias_from_gradient`, not an infinite midpoint."""
    from svmtext.smo._core import bias

    y = np.array([1.0, -1.0])
    g = np.array([0.3, -0.7])
    expected = bias_from_gradient(g, alpha, y, 1.0)
    assert np.isfinite(expected)
    assert bias(g, alpha, y, np.ones(2, bool), 2, 1.0) == expected


def test_wss2_scan_floors_a_zero_curvature_at_tau():
    """A duplicate of x_i (a_ik = 0 exactly) scores -b^2/tau, finite: with a small
    enough b it loses to a candidate of positive curvature, where an unfloored
    curvature would make it infinitely good."""
    from svmtext.smo._core import curvature, wss2_scan

    tau = 1e-12
    assert curvature(1.0, 1.0, 1.0, tau) == tau
    y = np.array([1.0, -1.0, -1.0])
    status = np.full(3, FREE, dtype=np.int8)
    g = np.array([1.0, 1.0 - 1e-8, 0.0])          # b = 1e-8 (the duplicate), 1
    d = np.ones(3)
    K_i = np.array([1.0, 1.0, 0.5])               # a = 0 (duplicate), 1
    j, _ = wss2_scan(0, 1.0, g, y, status, np.ones(3, bool), d, K_i, tau, 3)
    assert j == 2                                 # -1 < -(1e-8)^2 / 1e-12 = -1e-4


def test_max_up_takes_the_first_of_tied_maxima():
    """Two points of I_up with the same -y G (a duplicated point): i is the first."""
    from svmtext.smo._core import max_up

    y = np.array([-1.0, 1.0, 1.0])
    status = np.full(3, FREE, dtype=np.int8)
    i, g_max = max_up(np.array([0.1, 0.7, 0.7]), y, status, np.ones(3, bool), 3)
    assert (i, g_max) == (1, 0.7)


def test_first_without_the_value_is_minus_one():
    from svmtext.smo._core import _first

    a = np.array([0.5, 1.0, 1.0])
    assert (_first(a, 1.0, 3), _first(a, 2.0, 3), _first(a, 1.0, 1)) == (1, -1, -1)


def test_scores_floor_a_zero_curvature_at_tau():
    """The dense loop's scores: a curvature of exactly 0 (a duplicate of x_i) is
    floored at tau, so the score is finite, -b^2/tau."""
    from svmtext.smo._core import _scores_min

    tau = 1e-12
    g, low = np.array([0.0, 0.5]), np.zeros(2)
    d, K_i = np.ones(2), np.array([1.0, 0.25])    # a = 0 and 1.5
    score = np.empty(2)
    assert _scores_min(g, low, d, K_i, 1.0, 1.0, tau, score, 2) == (0.0, -1.0 / tau)
    assert score.tolist() == [-1.0 / tau, -0.25 / 1.5]


def test_compiled_bias_skips_the_points_that_are_not_live():
    """Points with live[k] false are left out wherever they are, first ones included."""
    from svmtext.smo._core import bias

    y = np.array([1.0, -1.0, 1.0, -1.0])
    g = np.array([5.0, -0.2, 1.3, 0.9])
    alpha = np.array([0.5, 0.3, 0.3, 0.0])
    live = np.array([False, True, True, True])
    expected = bias_from_gradient(g[1:], alpha[1:], y[1:], 1.0)
    assert bias(g, alpha, y, live, 4, 1.0) == pytest.approx(expected, abs=1e-15)


def test_wss2_scan_screen_lets_a_slightly_better_candidate_through():
    """The screen b^2 >= screen a sits just below the best score so far: a later
    candidate better by a relative 1e-10 still passes it and is chosen."""
    from svmtext.smo._core import wss2_scan

    y = np.array([1.0, -1.0, -1.0])
    status = np.full(3, FREE, dtype=np.int8)
    g = np.array([1.0, 0.0, 0.0])                  # b = 1 for both candidates
    d = np.array([1.0, 1.0, 1.0 - 1e-10])          # a = 1 and 1 - 1e-10
    K_i = np.array([1.0, 0.5, 0.5])
    score = [-1.0 / (d[0] + d[k] - 2 * K_i[k]) for k in (1, 2)]
    assert score[1] < score[0] and score[1] / score[0] < 1 + 1e-9
    j, _ = wss2_scan(0, 1.0, g, y, status, np.ones(3, bool), d, K_i, 1e-12, 3)
    assert j == 2


@pytest.mark.parametrize("C", [1.0, 0.3])
def test_compiled_bias_counts_a_multiplier_exactly_one_tolerance_below_C_at_C(C):
    """alpha_k = C - 1e-12 C exactly is at C for the compiled bias, as for the bias
    rule: with no other free multiplier b is the midpoint of [m, M], not alpha_k's -y G."""
    from svmtext.kkt import BIAS_RTOL
    from svmtext.smo._core import bias

    y = np.array([1.0, -1.0, 1.0, -1.0])
    g = np.array([0.4, -0.2, 1.3, 0.9])
    alpha = np.array([C - BIAS_RTOL * C, 0.0, C, 0.0])
    expected = bias_from_gradient(g, alpha, y, C)
    assert expected != g[0]
    assert bias(g, alpha, y, np.ones(4, bool), 4, C) == pytest.approx(expected, abs=1e-15)


@pytest.mark.parametrize("C", [1.0, 0.3])
def test_compiled_bias_counts_a_multiplier_exactly_one_tolerance_above_0_at_0(C):
    """alpha_k = 1e-12 C exactly is at 0 for the compiled bias, as for the bias rule."""
    from svmtext.kkt import BIAS_RTOL
    from svmtext.smo._core import bias

    y = np.array([1.0, -1.0, 1.0, -1.0])
    g = np.array([0.4, -0.2, 1.3, 0.9])
    alpha = np.array([BIAS_RTOL * C, 0.0, C, C])
    expected = bias_from_gradient(g, alpha, y, C)
    assert expected != g[0]
    assert bias(g, alpha, y, np.ones(4, bool), 4, C) == pytest.approx(expected, abs=1e-15)


def test_intercept_from_alpha_reads_the_bounds_with_its_tolerance():
    """``intercept_from_alpha``'s default tolerance is free_and_bounded's (1e-8 max(1, C)):
    a multiplier 1e-10 below C is at C there, and b is the midpoint of [m, M]; given
    ``tol=0`` the same multiplier is free and b is its -y G."""
    from svmtext.kkt import bound_tol, intercept_from_alpha

    K = np.array([[1.0, 0.2, 0.1], [0.2, 1.0, 0.3], [0.1, 0.3, 1.0]])
    y = np.array([1.0, -1.0, -1.0])
    C = 1.0
    alpha = np.array([C - 1e-10, C - 1e-10, 0.0])
    minus_yG = y - K @ (alpha * y)
    assert bound_tol(alpha, C) > 1e-10
    at_bound = intercept_from_alpha(alpha, K, y, C)
    assert at_bound == pytest.approx(bias_from_gradient(minus_yG, alpha, y, C, bound_tol(alpha, C)))
    assert at_bound != pytest.approx(np.mean(minus_yG[:2]))
    free = intercept_from_alpha(alpha, K, y, C, tol=0.0)
    assert free == pytest.approx(np.mean(minus_yG[:2]))


def test_dual_feasibility_residual_is_zero_inside_the_box_and_the_excess_outside():
    """max(0, -alpha_i) + max(0, alpha_i - C): 0 for 0 <= alpha_i <= C, the distance
    to the box outside it, never negative."""
    K = np.eye(4)
    y = np.array([1.0, -1.0, 1.0, -1.0])
    alpha = np.array([0.25, 0.5, -0.5, 1.75])
    r = kkt_residuals(alpha, 0.0, K, y, 1.0)
    np.testing.assert_array_equal(r.dual_feasibility, [0.0, 0.0, 0.5, 0.75])


def test_bias_interval_reads_the_bounds_with_its_tolerance():
    """``bias_interval``'s default tolerance is 1e-12 C (:func:`svmtext.kkt.bias_tol`): a
    multiplier of y = +1 1e-10 below C is free there, so in I_up (m = its -y G), but at C
    with ``tol=1e-8``, and I_up is empty (m = -inf)."""
    y = np.array([1.0, -1.0])
    g = np.array([0.3, -0.7])
    C = 1.0
    alpha = np.array([C - 1e-10, 0.0])         # y = -1 at 0: in I_low only
    assert bias_interval(g, alpha, y, C) == (0.3, -0.7)
    assert bias_interval(g, alpha, y, C, tol=1e-8) == (-np.inf, -0.7)
