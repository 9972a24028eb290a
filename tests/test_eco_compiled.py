"""The community's compiled re-equilibration and its kernel-row prefetch."""
import numpy as np
import pytest

from svmtext.eco.community import Community, RowPrefetch
from svmtext.eco._compiled import steady_state
from svmtext.kernels import rbf_kernel
from svmtext.smo import smo_dense


def _problem(seed, n=150, C=1.0, gamma=0.5):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.where(X[:, 0] + 0.7 * rng.normal(size=n) > 0, 1.0, -1.0)
    return rbf_kernel(X, gamma=gamma), y, C


@pytest.mark.parametrize("seed, C", [(0, 0.1), (1, 1.0), (2, 50.0)])
@pytest.mark.parametrize("warm", [False, True])
def test_same_steps_as_smo_dense(seed, C, warm):
    """Bit for bit: the vectorised passes select the same pairs and do the same
    arithmetic as :func:`svmtext.smo.smo_dense` (bounded, free and immovable species;
    a buffer larger than the community, its unused part NaN)."""
    K, y, C = _problem(seed, C=C)
    n, m = len(y), len(y) - 20
    big = np.full((n + 7, n + 7), np.nan)
    big[:m, :m] = K[:m, :m]
    yb = np.concatenate([y[:m], np.full(n + 7 - m, np.nan)])
    alpha0 = np.zeros(n + 7)
    if warm:   # a feasible start: the first steps of a cold run
        g0 = np.concatenate([y[:m], np.full(n + 7 - m, np.nan)])
        smo_dense(big, yb, alpha0, g0, np.ones(n + 7, bool), m, C, 1e-3, max_iter=40)
    active = np.ones(n + 7, bool)
    active[5:m:11] = alpha0[5:m:11] == 0           # some species may not move
    runs = []
    for solver in (smo_dense, steady_state):
        alpha = alpha0.copy()
        g = np.concatenate([y[:m] - K[:m, :m] @ (alpha[:m] * y[:m]), np.full(n + 7 - m, np.nan)])
        n_iter, gap = solver(big, yb, alpha, g, active, m, C, 1e-6)
        runs.append((n_iter, gap, alpha[:m], g[:m]))
    (it0, gap0, a0, g0), (it1, gap1, a1, g1) = runs
    assert it0 == it1 > 0 and gap0 == gap1 < 1e-6
    np.testing.assert_array_equal(a0, a1)
    np.testing.assert_array_equal(g0, g1)
    assert np.all(a1[~active[:m]] == alpha0[:m][~active[:m]])


def test_prefetched_rows_follow_joins_and_deletions():
    """Every row handed out is K(x_t, x_j) for the species stored at that moment,
    while species join (one at a time and several at once) and rows are deleted."""
    rng = np.random.default_rng(4)
    X = rng.normal(size=(200, 5))
    gamma = 0.2
    com = Community(lambda A, B: rbf_kernel(A, B, gamma=gamma),
                    lambda A: np.ones(len(A)), 5, rbf_gamma=gamma)
    com.append(X[:3], np.array([1.0, -1.0, 1.0]), np.arange(3))
    rows = RowPrefetch(com, X, block=16)
    for t in range(3, 200):
        r = rows.row(t)
        np.testing.assert_allclose(r[0], rbf_kernel(X[t:t + 1], com.X, gamma=gamma)[0],
                                   rtol=0, atol=1e-12)
        if t % 3 == 0:
            com.append(X[t:t + 1], 1.0, t, rows=r)
        if t % 37 == 0:            # several species at once (a buffer re-test)
            com.append(X[np.arange(t + 1, t + 40, 9) % 200], np.ones(5), np.arange(5) + 1000)
        if t % 50 == 0:            # extinctions: rows deleted
            com.keep(np.arange(com.m) % 4 != 0)


@pytest.mark.parametrize("seed, C", [(0, 0.1), (1, 1.0), (3, 1e-3)])
def test_settle_is_steady_state_bias_and_extinction(seed, C):
    """One re-equilibration: the same steps as :func:`steady_state`, the bias of
    :func:`svmtext.kkt.bias_from_gradient` over the live species, and every live
    species left at alpha = 0 marked extinct (and no other)."""
    from svmtext.eco._compiled import settle
    from svmtext.kkt import bias_from_gradient
    K, y, C = _problem(seed, C=C)
    m = len(y)
    live = np.ones(m, bool)
    live[::13] = False                     # already extinct: alpha = 0, never moves
    ref = [np.zeros(m), y.copy(), live.copy()]
    alpha, g = np.zeros(m), y.copy()
    n_iter, gap, b, n_extinct = settle(K, y, alpha, g, live, m, C, 1e-4)
    it_ref, gap_ref = steady_state(K, y, ref[0], ref[1], ref[2], m, C, 1e-4)
    assert (n_iter, gap) == (it_ref, gap_ref) and gap < 1e-4
    np.testing.assert_array_equal(alpha, ref[0])
    b_ref = bias_from_gradient(ref[1][ref[2]], ref[0][ref[2]], y[ref[2]], C)
    assert b == pytest.approx(b_ref, rel=1e-12, abs=1e-12)
    dead = ref[2] & (ref[0] == 0)
    assert n_extinct == dead.sum() > 0
    np.testing.assert_array_equal(live, ref[2] & ~dead)


def test_join_writes_rows_columns_and_gradient():
    """Invaders joining at alpha = 0 (one, then three at once): the stored Gram
    matrix is the kernel of all points, and the gradient the full
    y - K (alpha * y)."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(30, 4))
    y = np.where(rng.random(30) < 0.5, 1.0, -1.0)
    gamma = 0.3
    com = Community(lambda A, B: rbf_kernel(A, B, gamma=gamma),
                    lambda A: np.ones(len(A)), 4, capacity=8, rbf_gamma=gamma)
    com.append(X[:20], y[:20], np.arange(20))
    com.set_alpha(np.where(np.arange(20) % 3 == 0, 0.0, 0.5))
    com.append(X[20:21], y[20], 20)
    com.append(X[21:24], y[21:24], np.arange(21, 24))
    np.testing.assert_allclose(com.K, rbf_kernel(X[:24], gamma=gamma), rtol=0, atol=1e-12)
    np.testing.assert_allclose(com.g, y[:24] - com.K @ (com.alpha * y[:24]), rtol=0,
                               atol=1e-12)
    assert np.all(com.alpha[20:] == 0) and np.all(com.live)
