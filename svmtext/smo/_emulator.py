r"""The iteration-count emulator: a small compiled SMO with LIBSVM's choices as switches
(book: :ref:`sec-smo-iterations`).

:class:`~svmtext.smo.SMOSVC` and scikit-learn's ``SVC`` (LIBSVM) both run Fan, Chen
and Lin's WSS2 with shrinking and the same :math:`\tau`, stopping test and starting
gradient, yet their iteration counts differ. :func:`switched_smo` is a WSS2 SMO on a
precomputed Gram matrix in which every choice that differs between the two solvers
is a switch (:data:`SWITCHES`): all off, it makes our choices; all on, LIBSVM's. The
experiment :mod:`svmtext.experiments.smo_iterations` measures what each switch does.

The emulator shares no code with the compiled loop it emulates
(:mod:`svmtext.smo._loop`, :mod:`svmtext.smo._core`), on purpose: the chapter's check
that with every switch off it reproduces ``SMOSVC``'s counts means something only
because the two are written apart.
"""
from __future__ import annotations

import numpy as np

from .._numba import jit
from ._columns import KernelColumns

__all__ = ["SWITCHES", "TIES", "LATE", "STALE", "SWAP", "ARITH", "switched_smo", "gram",
           "emulate"]

#: The switches, in the order of the book's table, and their bit in ``flags``
#: (``flip`` and ``group`` change the problem handed to the loop, not the loop).
SWITCHES = {"flip": 0, "group": 0, "ties": 1, "late": 2, "stale": 4, "swap": 8,
            "f32": 0, "arith": 16}
TIES, LATE, STALE, SWAP, ARITH = 1, 2, 4, 8, 16

LOWER, FREE, UPPER = 0, 1, 2


@jit
def _in_up(yk, s):
    return (yk > 0 and s != UPPER) or (yk < 0 and s != LOWER)


@jit
def _in_low(yk, s):
    return (yk > 0 and s != LOWER) or (yk < 0 and s != UPPER)


@jit
def _set_aside(g, y, status, k, m, M):
    """LIBSVM's shrinking rule (ours too): only in one index set and beyond the bound."""
    u, lw = _in_up(y[k], status[k]), _in_low(y[k], status[k])
    return (u and not lw and g[k] < M) or (lw and not u and g[k] > m)


@jit
def _extreme(g, y, status, act, na):
    r""":math:`m = \max_{I_{up}} -y_kG_k` and :math:`M = \min_{I_{low}} -y_kG_k`."""
    m, M = -np.inf, np.inf
    for t in range(na):
        k = act[t]
        if _in_up(y[k], status[k]) and g[k] > m:
            m = g[k]
        if _in_low(y[k], status[k]) and g[k] < M:
            M = g[k]
    return m, M


@jit
def _select(K, d, g, y, status, act, na, tau, last):
    """WSS2 over the active positions: ``(i, j, m - M)``; ties to the first position,
    or the last with ``last``."""
    i = -1
    m = -np.inf
    for t in range(na):
        k = act[t]
        if _in_up(y[k], status[k]) and (g[k] > m or (last and g[k] == m)):
            m = g[k]
            i = k
    if i < 0:
        return -1, -1, -np.inf
    j = -1
    M = np.inf
    best = np.inf if last else 0.0
    for t in range(na):
        k = act[t]
        if _in_low(y[k], status[k]):
            if g[k] < M:
                M = g[k]
            b = m - g[k]
            if b > 0:
                a = d[i] + d[k] - 2.0 * K[i, k]
                if not a > 0:
                    a = tau
                score = -(b * b) / a
                if score < best or (last and score == best):
                    best = score
                    j = k
    return i, j, m - M


@jit
def _status(a, C):
    return UPPER if a >= C else LOWER if a <= 0 else FREE


@jit
def _step_ours(i, j, K, d, g, y, alpha, status, C, tau, act, na):
    """:func:`svmtext.smo._core.two_variable_step` and its gradient update."""
    a = d[i] + d[j] - 2.0 * K[i, j]
    if not a > 0:
        a = tau
    room_i = C - alpha[i] if y[i] > 0 else alpha[i]
    room_j = alpha[j] if y[j] > 0 else C - alpha[j]
    eta = min((g[i] - g[j]) / a, room_i, room_j)
    for r, sign, room in ((i, 1.0, room_i), (j, -1.0, room_j)):
        if eta == room:
            alpha[r] = C if sign * y[r] > 0 else 0.0
        else:
            alpha[r] += sign * y[r] * eta
            alpha[r] = C if alpha[r] >= C else 0.0 if alpha[r] <= 0 else alpha[r]
        status[r] = _status(alpha[r], C)
    for t in range(na):
        k = act[t]
        g[k] -= eta * (K[i, k] - K[j, k])


@jit
def _clip_pair(ai, aj, C, same, line):
    r"""Bring the pair back into the box along its line, LIBSVM's way: ``line`` is
    :math:`\alpha_i + \alpha_j` (``same`` labels) or :math:`\alpha_i - \alpha_j`, taken
    before the step; a variable that left the box is set to its bound and the other
    is read off the line (not moved by the clipped step)."""
    if same:
        if line > C:
            if ai > C:
                ai, aj = C, line - C
            if aj > C:
                ai, aj = line - C, C
        else:
            if aj < 0:
                ai, aj = line, 0.0
            if ai < 0:
                ai, aj = 0.0, line
        return ai, aj
    if line > 0:
        if aj < 0:
            ai, aj = line, 0.0
        if ai > C:
            ai, aj = C, C - line
    else:
        if ai < 0:
            ai, aj = 0.0, -line
        if aj > C:
            ai, aj = C + line, C
    return ai, aj


@jit
def _step_libsvm(i, j, K, d, g, y, alpha, status, C, tau, act, na):
    """LIBSVM's step in its own variables (gradient :math:`G = Q\\alpha - e`,
    :math:`Q_{ik} = y_iy_kK_{ik}`), then its gradient update with the changes
    :math:`\\Delta\\alpha` (one box ``C`` for both classes)."""
    Gi, Gj = -y[i] * g[i], -y[j] * g[j]
    same = y[i] == y[j]
    quad = d[i] + d[j] - 2.0 * K[i, j]
    if quad <= 0:
        quad = tau
    if same:
        delta = (Gi - Gj) / quad
        ai, aj = _clip_pair(alpha[i] - delta, alpha[j] + delta, C, True,
                            alpha[i] + alpha[j])
    else:
        delta = (-Gi - Gj) / quad
        ai, aj = _clip_pair(alpha[i] + delta, alpha[j] + delta, C, False,
                            alpha[i] - alpha[j])
    dai, daj = ai - alpha[i], aj - alpha[j]
    alpha[i], alpha[j] = ai, aj
    status[i] = _status(ai, C)
    status[j] = _status(aj, C)
    for t in range(na):
        k = act[t]
        Gk = -y[k] * g[k]
        Gk += (y[i] * y[k] * K[i, k]) * dai + (y[j] * y[k] * K[j, k]) * daj
        g[k] = -y[k] * Gk


@jit
def _reconstruct(K, g, y, alpha, status, gbar, act, na, n, arith):
    r"""The gradient of the set-aside positions ``act[na:]`` from :math:`\bar G` and the
    free variables: ours in blocks of 256 free columns in index order
    (:meth:`svmtext.smo._solver._SMO._reconstruct`), LIBSVM's in active order."""
    if arith:
        for t in range(na, n):
            k = act[t]
            Gk = -y[k] * gbar[k] - 1.0
            for s in range(na):
                c = act[s]
                if status[c] == FREE:
                    Gk += alpha[c] * (y[k] * y[c] * K[c, k])
            g[k] = -y[k] * Gk
        return
    free = np.flatnonzero(status == FREE)
    for t in range(na, n):
        k = act[t]
        x = y[k] + gbar[k]
        for lo in range(0, len(free), 256):
            s = 0.0
            for c in free[lo:lo + 256]:
                s += K[c, k] * (alpha[c] * y[c])
            x -= s
        g[k] = x


@jit
def _shrink(g, y, status, act, na, m, M, swap):
    """Set aside what LIBSVM's rule allows; the new number of active positions."""
    if swap:                     # LIBSVM: the last active variable takes the place
        t = 0
        while t < na:
            if _set_aside(g, y, status, act[t], m, M):
                na -= 1
                while na > t:
                    if not _set_aside(g, y, status, act[na], m, M):
                        act[t], act[na] = act[na], act[t]
                        break
                    na -= 1
            t += 1
        return na
    out = np.zeros(len(act), np.bool_)        # ours: the kept ones in index order
    for t in range(na):
        out[act[t]] = _set_aside(g, y, status, act[t], m, M)
    for t in range(na, len(act)):
        out[act[t]] = True
    kept = 0
    for k in range(len(act)):
        if not out[k]:
            act[kept] = k
            kept += 1
    rest = kept
    for k in range(len(act)):
        if out[k]:
            act[rest] = k
            rest += 1
    return kept


@jit
def switched_smo(K, d, y, C, tol, tau, max_iter, shrinking, flags):
    r"""WSS2 SMO on the Gram matrix ``K`` (rows are columns: ``K[i, k]`` is
    :math:`k(x_k, x_i)` as column ``i`` holds it) with the switches ``flags``
    (:data:`TIES`, :data:`LATE`, :data:`STALE`, :data:`SWAP`, :data:`ARITH`).

    Solves :math:`\min \tfrac12\alpha^\top Q\alpha - e^\top\alpha`, :math:`y^\top\alpha = 0`,
    :math:`0 \le \alpha \le C` from :math:`\alpha = 0` with LIBSVM's stopping test
    :math:`m - M <` ``tol``, shrinking every :math:`\min(n, 1000)` iterations and the
    one restoring of the whole problem when the gap first falls below ``10 tol``.
    Returns ``(n_iter, converged, alpha)``.
    """
    n = len(y)
    last = (flags & TIES) != 0
    arith = (flags & ARITH) != 0
    swap = (flags & SWAP) != 0
    alpha = np.zeros(n)
    g = y.copy()                 # -y_k G_k at alpha = 0
    status = np.zeros(n, np.int64)
    gbar = np.zeros(n)           # -y_k Gbar_k
    act = np.arange(n)
    na = n
    interval = min(n, 1000)
    counter = interval + 1 if flags & LATE else interval
    unshrunk = False
    n_iter = 0
    converged = False
    while n_iter < max_iter:
        counter -= 1
        if counter == 0:
            counter = interval
            if shrinking:
                m, M = _extreme(g, y, status, act, na)
                if not unshrunk and m - M <= 10 * tol:
                    unshrunk = True
                    if na < n:
                        _reconstruct(K, g, y, alpha, status, gbar, act, na, n, arith)
                        na = n
                        if not swap:
                            act = np.arange(n)
                        if not flags & STALE:
                            m, M = _extreme(g, y, status, act, na)
                na = _shrink(g, y, status, act, na, m, M, swap)
        i, j, gap = _select(K, d, g, y, status, act, na, tau, last)
        if i < 0 or not gap >= tol or j < 0:
            if na == n:
                converged = True
                break
            _reconstruct(K, g, y, alpha, status, gbar, act, na, n, arith)
            na = n
            if not swap:
                act = np.arange(n)
            i, j, gap = _select(K, d, g, y, status, act, na, tau, last)
            if i < 0 or not gap >= tol or j < 0:
                converged = True
                break
            counter = 1
        was_i, was_j = status[i] == UPPER, status[j] == UPPER
        if arith:
            _step_libsvm(i, j, K, d, g, y, alpha, status, C, tau, act, na)
        else:
            _step_ours(i, j, K, d, g, y, alpha, status, C, tau, act, na)
        n_iter += 1
        for r, was in ((i, was_i), (j, was_j)):
            if was != (status[r] == UPPER):      # Gbar follows the variables at C
                coef = (-1.0 if was else 1.0) * C * y[r]
                for k in range(n):
                    gbar[k] -= coef * K[r, k]
    return n_iter, converged, alpha


def gram(X, kernel, params) -> tuple[np.ndarray, np.ndarray]:
    """The columns :class:`~svmtext.smo.KernelColumns` computes (row ``c`` is column
    ``c``) and its diagonal."""
    cols = KernelColumns(X, kernel, **params)
    K = np.empty((len(X), len(X)))
    for c in range(len(X)):
        K[c] = cols.numpy_column(c)
    return K, cols.diag()


def emulate(K, d, y, C, on, tol, tau, max_iter) -> tuple[int, bool]:
    """:func:`switched_smo` with the switches named in ``on``: ``(n_iter, converged)``."""
    flags = sum(SWITCHES[s] for s in on)
    order = np.arange(len(y))
    if "group" in on:
        order = np.r_[np.flatnonzero(y < 0), np.flatnonzero(y > 0)]
    yy = -y[order] if "flip" in on else y[order]
    Ko = K[np.ix_(order, order)]
    if "f32" in on:
        Ko = Ko.astype(np.float32).astype(np.float64)
    n_iter, converged, _ = switched_smo(np.ascontiguousarray(Ko), d[order], yy, C, tol, tau,
                                        max_iter, True, flags)
    return int(n_iter), bool(converged)
