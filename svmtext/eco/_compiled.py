r"""The compiled re-equilibration of the online community, one vectorised pass at a
time (book: :ref:`sec-eco-scaling`).

This module imports numba; :mod:`~svmtext.eco.community` imports it on first use.

The EcoSVM re-equilibrates after every invasion: a few hundred SMO steps on the
community's dense Gram matrix, thousands of times per pass. Each step selects
:math:`i = \arg\max_{k\in I_{up}} -y_kG_k`, then :math:`j` by the second-order rule
(Fan, Chen and Lin, WSS2) over :math:`I_{low}`, moves the pair and updates the gradient,

.. math::

    -y_kG_k \mathrel{-}= \eta\,(K_{ik} - K_{jk}) ,

exactly as :func:`svmtext.smo.smo_dense` does (same pairs, same arithmetic, same
result to the last bit). What differs is how the three passes over the community are
written. The index sets are kept as offsets added to the gradient,

.. math::

    u_k = \begin{cases} 0 & k \in I_{up} \\ -\infty & \text{otherwise,}\end{cases}
    \qquad
    l_k = \begin{cases} 0 & k \in I_{low} \\ +\infty & \text{otherwise,}\end{cases}

so that :math:`\max_{I_{up}} -y_kG_k = \max_k (-y_kG_k + u_k)`,
:math:`M(\alpha) = \min_k (-y_kG_k + l_k)` and the WSS2 score
:math:`-b_{ik}^2/a_{ik}` with :math:`b_{ik} = \max(0, m(\alpha) + y_kG_k - l_k)` need no
branch per element: each pass is a loop the compiler turns into vector instructions,
and the arg-max is the first index holding the maximum (first index on ties, as
before). Only :math:`u` and :math:`l` of the two moved multipliers change per step.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..smo._core import _in_low, _in_up, _status_of, curvature, two_variable_step

__all__ = ["steady_state", "settle", "join"]

# error_model="numpy": a division by zero gives inf instead of raising, which removes a
# test per element and lets the loops vectorise (the curvature is floored at tau > 0)
_vec = njit(cache=True, fastmath={"nnan", "nsz"}, error_model="numpy")
_jit = njit(cache=True)


@_vec
def _min_pair(a, b, m):
    r"""``(min(a[:m]), min(b[:m]))`` with four independent accumulators each."""
    a0 = a1 = a2 = a3 = np.inf
    b0 = b1 = b2 = b3 = np.inf
    k = 0
    while k + 4 <= m:
        a0, a1 = min(a0, a[k]), min(a1, a[k + 1])
        a2, a3 = min(a2, a[k + 2]), min(a3, a[k + 3])
        b0, b1 = min(b0, b[k]), min(b1, b[k + 1])
        b2, b3 = min(b2, b[k + 2]), min(b3, b[k + 3])
        k += 4
    while k < m:
        a0, b0 = min(a0, a[k]), min(b0, b[k])
        k += 1
    return min(min(a0, a1), min(a2, a3)), min(min(b0, b1), min(b2, b3))


@_vec
def _max(a, m):
    r"""``max(a[:m])`` with four independent accumulators."""
    a0 = a1 = a2 = a3 = -np.inf
    k = 0
    while k + 4 <= m:
        a0, a1 = max(a0, a[k]), max(a1, a[k + 1])
        a2, a3 = max(a2, a[k + 2]), max(a3, a[k + 3])
        k += 4
    while k < m:
        a0 = max(a0, a[k])
        k += 1
    return max(max(a0, a1), max(a2, a3))


@_jit
def _first(a, value, m):
    """The first ``k < m`` with ``a[k] == value`` (-1 if none)."""
    for k in range(m):
        if a[k] == value:
            return k
    return -1


@_vec
def _scores(g, low, d, K_i, d_i, g_max, tau, g_low, score, m):
    r"""``g_low = -y G + l`` and the WSS2 scores :math:`-b_{ik}^2/a_{ik}` (0 where
    :math:`b_{ik} \le 0` or :math:`k \notin I_{low}`)."""
    for k in range(m):
        x = g[k] + low[k]
        g_low[k] = x
        b = max(g_max - x, 0.0)
        a = d_i + d[k] - 2.0 * K_i[k]
        a = a if a > 0 else tau                      # as curvature()
        score[k] = -(b * b) / a


@_vec
def _update(g, up, eta, K_i, K_j, g_up, m):
    r""":math:`-y_kG_k \mathrel{-}= \eta(K_{ik} - K_{jk})` and ``g_up = -y G + u``."""
    for k in range(m):
        x = g[k] - eta * (K_i[k] - K_j[k])
        g[k] = x
        g_up[k] = x + up[k]


@_jit
def _set_offsets(y, status, movable, up, low, k):
    up[k] = 0.0 if movable[k] and _in_up(y[k], status[k]) else -np.inf
    low[k] = 0.0 if movable[k] and _in_low(y[k], status[k]) else np.inf


@_jit
def _loop(K, y, alpha, g, movable, m, C, tol, tau, max_iter):
    d, status = np.empty(m), np.empty(m, dtype=np.int8)
    up, low = np.empty(m), np.empty(m)
    g_up, g_low, score = np.empty(m), np.empty(m), np.empty(m)
    for k in range(m):
        d[k] = K[k, k]
        status[k] = _status_of(alpha, k, C)
        _set_offsets(y, status, movable, up, low, k)
        g_up[k] = g[k] + up[k]
    g_max = _max(g_up, m)
    i = _first(g_up, g_max, m) if g_max > -np.inf else -1
    gap = np.inf
    n_iter = 0
    while n_iter < max_iter and i >= 0:
        _scores(g, low, d, K[i], d[i], g_max, tau, g_low, score, m)
        g_min, best = _min_pair(g_low, score, m)
        gap = g_max - g_min
        if gap < tol or not best < 0:
            break
        j = _first(score, best, m)
        eta = two_variable_step(i, j, g, y, alpha, status,
                                curvature(d[i], d[j], K[i, j], tau), C, C)
        _set_offsets(y, status, movable, up, low, i)
        _set_offsets(y, status, movable, up, low, j)
        n_iter += 1
        _update(g, up, eta, K[i], K[j], g_up, m)
        g_max = _max(g_up, m)
        i = _first(g_up, g_max, m) if g_max > -np.inf else -1
    return n_iter, gap


@_jit
def _live_bias(g, alpha, y, live, m, C):
    r"""The bias of the live species, as :func:`svmtext.kkt.bias_from_gradient`: the
    mean of :math:`-y_kG_k` over the free ones, else the midpoint of
    :math:`[m(\alpha), M(\alpha)]` (a finite end alone if the other is infinite; 0 if
    both are)."""
    total, n_free = 0.0, 0
    m_lo, M_hi = -np.inf, np.inf
    for k in range(m):
        if not live[k]:
            continue
        if 0.0 < alpha[k] < C:
            total += g[k]
            n_free += 1
        s = _status_of(alpha, k, C)
        if _in_up(y[k], s):
            m_lo = max(m_lo, g[k])
        if _in_low(y[k], s):
            M_hi = min(M_hi, g[k])
    if n_free:
        return total / n_free
    if np.isfinite(m_lo) and np.isfinite(M_hi):
        return 0.5 * (m_lo + M_hi)
    return m_lo if np.isfinite(m_lo) else M_hi if np.isfinite(M_hi) else 0.0


@_jit
def _extinctions(alpha, live, m):
    r"""Live species at :math:`\alpha = 0` stop living; returns how many."""
    n = 0
    for k in range(m):
        if live[k] and alpha[k] <= 0.0:
            live[k] = False
            alpha[k] = 0.0
            n += 1
    return n


@_jit
def settle(K, y, alpha, g, live, m, C, tol, tau=1e-12, max_iter=10_000_000):
    r"""One re-equilibration of the community (book: :ref:`sec-eco-online`), in place:
    the steady state of the live species (:func:`steady_state`), its bias
    (:func:`~svmtext.kkt.bias_from_gradient` over the live species) and the
    extinctions (live species left at :math:`\alpha = 0` are marked dead).

    Returns ``(n_iter, gap, b, n_extinct)``.
    """
    n_iter, gap = _loop(K, y, alpha, g, live, m, C, tol, tau, max_iter)
    b = _live_bias(g, alpha, y, live, m, C)
    return n_iter, gap, b, _extinctions(alpha, live, m)


@_jit
def join(K, y, alpha, g, live, m, rows, y_new, K_new):
    r"""Invaders join as species ``m, m+1, ...`` at :math:`\alpha = 0`, in place: their
    kernel ``rows`` against the ``m`` stored species become rows and columns of ``K``
    (``K_new`` their own block), and their gradient entries are
    :math:`y - \sum_l \alpha_l y_l K(x, x_l)`. The buffers must have room for them."""
    p = rows.shape[0]
    for q in range(p):
        s = 0.0
        for k in range(m):
            v = rows[q, k]
            K[m + q, k] = v
            K[k, m + q] = v
            s += alpha[k] * y[k] * v
        for r in range(p):
            K[m + q, m + r] = K_new[q, r]
        y[m + q] = y_new[q]
        alpha[m + q] = 0.0
        g[m + q] = y_new[q] - s
        live[m + q] = True


def steady_state(K, y, alpha, g, active, m, C, tol=1e-3, max_iter=10_000_000, *,
                 tau=1e-12):
    r"""Re-equilibrate the first ``m`` species of a dense Gram buffer, in place.

    The arguments and the result are those of :func:`svmtext.smo.smo_dense`
    (``K`` float64, ``alpha`` a feasible warm start with its bound entries exactly 0
    or ``C``, ``g`` the matching :math:`-y_kG_k`, ``active`` the species that may move),
    and so are the steps taken; only the passes over the community are vectorised
    (module docstring).

    Returns
    -------
    n_iter : int
    gap : float
        :math:`m(\alpha) - M(\alpha)` at the end (below ``tol`` on success).
    """
    return _loop(K, y, alpha, g, active, int(m), float(C), float(tol), float(tau),
                 int(max_iter))
