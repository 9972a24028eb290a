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
