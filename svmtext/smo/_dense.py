r"""SMO on a small dense Gram matrix, warm-started, compiled (book: :ref:`sec-eco-online`).

Online learners (the ecological chapter's EcoSVM) re-solve the dual many times on
a support set of a few thousand points whose Gram matrix they keep. There the
column cache and shrinking of :func:`~svmtext.smo.smo_solve` cost more than they
save, and what matters is the per-step overhead. This module is the same
algorithm reduced to its core, one loop compiled with numba:

* the gradient :math:`g_t = y_t - \sum_l \alpha_l y_l K_{tl}` is kept by the
  caller between calls, so a warm start costs nothing;
* working-set selection is WSS2 (book: :ref:`sec-smo`): :math:`i = \arg\max_{t \in
  I_{up}} g_t`, then :math:`j` minimises :math:`-(g_i - g_t)^2 / a_{it}` over
  :math:`t \in I_{low}` with :math:`g_t < g_i`, :math:`a_{it} = K_{ii} + K_{tt} - 2K_{it}`;
* the step moves :math:`\alpha_i \mathrel{+}= y_i \tau`, :math:`\alpha_j
  \mathrel{-}= y_j \tau` (which keeps :math:`\sum_t \alpha_t y_t` fixed) with
  :math:`\tau = \min\{(g_i - g_j)/a_{ij},\ \text{room of } \alpha_i,\ \text{room of }
  \alpha_j\}`, and the gradient follows as :math:`g_k \mathrel{-}= \tau (K_{ik} - K_{jk})`;
* it stops when the gap :math:`\max_{I_{up}} g - \min_{I_{low}} g` is below ``tol``.

Points with ``active[t] = False`` keep :math:`\alpha_t = 0` and are never selected
(extinct species that have not yet been removed from storage).
"""
from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["smo_dense"]


@njit(cache=True)
def _in_up(y_t, alpha_t, C):
    return (y_t > 0 and alpha_t < C) or (y_t < 0 and alpha_t > 0)


@njit(cache=True)
def _in_low(y_t, alpha_t, C):
    return (y_t > 0 and alpha_t > 0) or (y_t < 0 and alpha_t < C)


@njit(cache=True)
def _smo_dense(K, Kdiag, y, alpha, g, active, m, C, tol, max_iter):
    # i: the most violating index of I_up (later found during the gradient update)
    i = -1
    g_max = -np.inf
    for t in range(m):
        if active[t] and _in_up(y[t], alpha[t], C) and g[t] > g_max:
            g_max = g[t]
            i = t
    gap = np.inf
    n_iter = 0
    while n_iter < max_iter:
        # j: second-order choice in I_low; g_min for the stopping rule
        j = -1
        g_min = np.inf
        best = np.inf
        for t in range(m):
            if active[t] and _in_low(y[t], alpha[t], C):
                if g[t] < g_min:
                    g_min = g[t]
                d = g_max - g[t]
                if i >= 0 and d > 0:
                    a = Kdiag[i] + Kdiag[t] - 2.0 * K[i, t]
                    if a <= 0:
                        a = 1e-12
                    if -d * d / a < best:
                        best = -d * d / a
                        j = t
        gap = g_max - g_min
        if i < 0 or j < 0 or gap < tol:
            break
        a = Kdiag[i] + Kdiag[j] - 2.0 * K[i, j]
        if a <= 0:
            a = 1e-12
        room_i = C - alpha[i] if y[i] > 0 else alpha[i]
        room_j = alpha[j] if y[j] > 0 else C - alpha[j]
        tau = min((g[i] - g[j]) / a, room_i, room_j)
        # land exactly on a bound when the box stops the step
        if tau == room_i:
            alpha[i] = C if y[i] > 0 else 0.0
        else:
            alpha[i] += y[i] * tau
        if tau == room_j:
            alpha[j] = 0.0 if y[j] > 0 else C
        else:
            alpha[j] -= y[j] * tau
        # gradient update, and the next i in the same pass
        i_old = i
        i = -1
        g_max = -np.inf
        for k in range(m):
            g[k] -= tau * (K[i_old, k] - K[j, k])
            if active[k] and _in_up(y[k], alpha[k], C) and g[k] > g_max:
                g_max = g[k]
                i = k
        n_iter += 1
    return n_iter, gap


def smo_dense(K, y, alpha, g, active, m, C, tol=1e-3, max_iter=10_000_000):
    r"""Solve the dual in place on the first ``m`` rows of a dense Gram buffer.

    Parameters
    ----------
    K : (M, M) float64 array, M >= m
        Gram buffer; only ``K[:m, :m]`` is read.
    y : (M,) float64 array of -1/+1
    alpha : (M,) float64 array
        Feasible warm start (:math:`0 \le \alpha \le C`,
        :math:`\sum \alpha_t y_t` fixed); updated in place.
    g : (M,) float64 array
        :math:`g_t = y_t - \sum_l \alpha_l y_l K_{tl}` at ``alpha``; updated in place.
    active : (M,) bool array
        Indices that may move.
    m : int
    C, tol : float
    max_iter : int

    Returns
    -------
    n_iter : int
    gap : float
        :math:`\max_{I_{up}} g - \min_{I_{low}} g` at the end (below ``tol`` on success).
    """
    m = int(m)
    Kdiag = np.ascontiguousarray(np.diagonal(K)[:m])   # K_tt, read once per step
    return _smo_dense(K, Kdiag, y, alpha, g, active, m, float(C), float(tol),
                      int(max_iter))
