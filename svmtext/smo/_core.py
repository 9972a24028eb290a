r"""The SMO core, compiled: WSS2 scan, two-variable step, gradient update (book: :ref:`sec-smo`).

Every SMO in the package (the cached column solver :func:`~svmtext.smo.smo_solve`, the
warm-started dense solver :func:`~svmtext.smo.smo_dense` and the SVDD solver
:func:`~svmtext.eco.svdd_smo`) runs these functions on LIBSVM's form of the dual

.. math::

    \min_\alpha \tfrac12\alpha^\top Q\alpha - p^\top\alpha
    \quad\text{s.t.}\quad y^\top\alpha = \Delta,\ 0 \le \alpha_k \le C ,

with :math:`G = Q\alpha - p` and the selection quantity :math:`-y_kG_k` (the array
``g``; for the SVM, :math:`Q_{ij} = y_iy_jK_{ij}`, :math:`p = \mathbf 1`:
:math:`-y_kG_k = y_k - \sum_l \alpha_l y_l K_{kl}`). The arrays passed as ``K`` hold
:math:`y_iy_jQ_{ij}` (the kernel for the SVM, :math:`2K` for SVDD).
Each multiplier has a status (:data:`~svmtext.kkt.LOWER`, ``FREE``, ``UPPER``) from
which :math:`I_{up}` and :math:`I_{low}` follow (:func:`svmtext.kkt.in_up`,
:func:`~svmtext.kkt.in_low`); ``movable[k] = False`` takes :math:`k` out of both.

This module imports numba (through :mod:`svmtext._numba`, which puts compiled code in
the user's cache folder); the rest of the package imports it on first use, so
``import svmtext`` stays fast.
"""
from __future__ import annotations

import numpy as np

from .. import kkt
from .._numba import njit

__all__ = ["max_up", "wss2_scan", "curvature", "two_variable_step", "update_gradient",
           "update_and_max_up", "dense_loop", "sparse_dot_column", "rbf_from_dots"]

_jit = njit(cache=True)
_in_up = _jit(kkt.in_up)
_in_low = _jit(kkt.in_low)
LOWER, FREE, UPPER = kkt.LOWER, kkt.FREE, kkt.UPPER


@_jit
def max_up(g, y, status, movable, m):
    r"""``(i, m(alpha))``: :math:`i = \arg\max_{k \in I_{up}} -y_kG_k` over the first ``m``
    entries (first index on ties; ``i = -1`` when :math:`I_{up}` is empty)."""
    i = -1
    g_max = -np.inf
    for t in range(m):
        if movable[t] and _in_up(y[t], status[t]) and g[t] > g_max:
            g_max = g[t]
            i = t
    return i, g_max


@_jit
def curvature(d_i, d_j, K_ij, tau):
    r""":math:`a_{ij} = K_{ii} + K_{jj} - 2K_{ij}`, replaced by the floor ``tau`` when :math:`\le 0`."""
    a = d_i + d_j - 2.0 * K_ij
    return a if a > 0 else tau


@_jit
def wss2_scan(i, g_max, g, y, status, movable, d, K_i, tau, m):
    r"""Fan, Chen and Lin's second index and :math:`M(\alpha)` in one pass.

    ``j`` minimises :math:`-b_{ik}^2 / a_{ik}`, :math:`b_{ik} = y_kG_k - y_iG_i`, over
    :math:`k \in I_{low}` with :math:`b_{ik} > 0` (first index on ties); ``g_min`` is
    :math:`M(\alpha) = \min_{k\in I_{low}} -y_kG_k`.
    Returns ``(j, g_min)`` (``j = -1`` when no such ``k``).
    """
    j = -1
    g_min = np.inf
    best = np.inf
    # -b^2/a < best  <=>  b^2 > -best a: a multiplication screens the candidates,
    # the division (exactly as before) is made for the few that pass the screen
    screen = 0.0
    d_i = d[i] if i >= 0 else 0.0
    for k in range(m):
        if movable[k] and _in_low(y[k], status[k]):
            gk = g[k]
            if gk < g_min:
                g_min = gk
            b = g_max - gk
            if i >= 0 and b > 0:
                a = curvature(d_i, d[k], K_i[k], tau)
                if b * b >= screen * a:
                    score = -b * b / a
                    if score < best:
                        best = score
                        j = k
                        screen = -best * (1.0 - 1e-9)
    return j, g_min


@_jit
def _status_of(alpha, k, C):
    """The status of ``alpha[k]`` after an interior step; a step that lands on a bound
    by rounding is put exactly on it (LIBSVM's ``update_alpha_status``), else the
    pair would be selected again with no room to move."""
    if alpha[k] >= C:
        alpha[k] = C
        return UPPER
    if alpha[k] <= 0:
        alpha[k] = 0.0
        return LOWER
    return FREE


@_jit
def two_variable_step(i, j, g, y, alpha, status, a, C_i, C_j):
    r"""Move :math:`\alpha_i \mathrel{+}= y_i\eta`, :math:`\alpha_j \mathrel{-}= y_j\eta`.

    The step length is :math:`\eta = \min\{(y_jG_j - y_iG_i)/a_{ij}, \text{room}_i,
    \text{room}_j\}` (``i`` in :math:`I_{up}`, ``j`` in :math:`I_{low}`,
    :math:`-y_iG_i > -y_jG_j`) within the boxes :math:`0 \le \alpha_i \le C_i`,
    :math:`0 \le \alpha_j \le C_j` (one ``C`` for all, or per-sample bounds); a multiplier
    stopped by the box lands exactly on its bound, and the status of both is updated.
    Returns :math:`\eta` (the gradient is not touched: :func:`update_gradient`).
    """
    room_i = C_i - alpha[i] if y[i] > 0 else alpha[i]
    room_j = alpha[j] if y[j] > 0 else C_j - alpha[j]
    eta = min((g[i] - g[j]) / a, room_i, room_j)
    if not eta > 0:
        return 0.0
    if eta == room_i:
        alpha[i] = C_i if y[i] > 0 else 0.0
        status[i] = UPPER if y[i] > 0 else LOWER
    else:
        alpha[i] += y[i] * eta
        status[i] = _status_of(alpha, i, C_i)
    if eta == room_j:
        alpha[j] = 0.0 if y[j] > 0 else C_j
        status[j] = LOWER if y[j] > 0 else UPPER
    else:
        alpha[j] -= y[j] * eta
        status[j] = _status_of(alpha, j, C_j)
    return eta


@_jit
def update_gradient(g, eta, K_i, K_j, m):
    r""":math:`-y_kG_k \mathrel{-}= \eta (K_{ik} - K_{jk})` for the first ``m`` entries."""
    for k in range(m):
        g[k] -= eta * (np.float64(K_i[k]) - np.float64(K_j[k]))   # float32 columns too


@_jit
def update_and_max_up(g, eta, K_i, K_j, y, status, movable, m):
    r""":func:`update_gradient` and then :func:`max_up`, in one pass over the arrays
    (the dense loop reads ``g`` once per step instead of twice)."""
    i = -1
    g_max = -np.inf
    for k in range(m):
        gk = g[k] - eta * (np.float64(K_i[k]) - np.float64(K_j[k]))
        g[k] = gk
        if movable[k] and _in_up(y[k], status[k]) and gk > g_max:
            g_max = gk
            i = k
    return i, g_max


@_jit
def dense_loop(K, d, y, alpha, g, status, movable, m, C, tol, tau, max_iter, pairs):
    r"""WSS2 SMO on the dense matrix ``K[:m, :m]``, in place; the first ``len(pairs)``
    pairs are written to ``pairs``. Returns ``(n_iter, gap)``."""
    i, g_max = max_up(g, y, status, movable, m)
    gap = np.inf
    n_iter = 0
    while n_iter < max_iter:
        j, g_min = wss2_scan(i, g_max, g, y, status, movable, d, K[i], tau, m)
        gap = g_max - g_min
        if i < 0 or j < 0 or gap < tol:
            break
        eta = two_variable_step(i, j, g, y, alpha, status, curvature(d[i], d[j], K[i, j], tau),
                                C, C)
        if n_iter < len(pairs):
            pairs[n_iter, 0] = i
            pairs[n_iter, 1] = j
        n_iter += 1
        i, g_max = update_and_max_up(g, eta, K[i], K[j], y, status, movable, m)
    return n_iter, gap


@njit(cache=True, fastmath=True)
def sparse_dot_column(XT, nz, v, out):
    r"""``out[r] = <x_r, x>`` for the columns ``x_r`` of ``XT`` (features by rows), where
    ``x`` has the non-zero values ``v`` at the features ``nz``.

    Only the rows of ``XT`` of those features are read: for data with many zeros
    (MNIST: four pixels in five are 0) a fifth of ``X``. Rows are processed in blocks
    so that the partial sums stay in the L1 cache, four features at a time (the loops
    count from 0 over slices so that the compiler can vectorise them).
    """
    n = XT.shape[1]
    k = len(nz)
    for lo in range(0, n, 1024):
        hi = min(lo + 1024, n)
        o = out[lo:hi]
        m = hi - lo
        for r in range(m):
            o[r] = 0
        q = 0
        while q + 4 <= k:
            w0, w1, w2, w3 = v[q], v[q + 1], v[q + 2], v[q + 3]
            a0, a1 = XT[nz[q], lo:hi], XT[nz[q + 1], lo:hi]
            a2, a3 = XT[nz[q + 2], lo:hi], XT[nz[q + 3], lo:hi]
            for r in range(m):
                o[r] += w0 * a0[r] + w1 * a1[r] + w2 * a2[r] + w3 * a3[r]
            q += 4
        while q < k:
            w0, a0 = v[q], XT[nz[q], lo:hi]
            for r in range(m):
                o[r] += w0 * a0[r]
            q += 1
    return out


@_jit
def rbf_from_dots(dots, sq_rows, sq_c, gamma):
    r"""In place: :math:`K_{rc} = \exp(-\gamma\max(0, \lVert x_r\rVert^2 + \lVert x_c\rVert^2
    - 2\langle x_r, x_c\rangle))` from the inner products ``dots``."""
    for r in range(len(dots)):
        dist = sq_rows[r] + sq_c - 2 * dots[r]
        if dist < 0:
            dist = 0
        dots[r] = np.exp(-gamma * dist)
    return dots
