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
from .._numba import max_of, min_of, njit, prange, python_function, renamed
from ._exp32 import rbf_single

__all__ = ["max_up", "wss2_scan", "curvature", "two_variable_step", "update_gradient", "bias",
           "dense_loop", "sparse_dot_column", "sparse_dot_columns", "sparse_kernel_rows",
           "rbf_from_dots", "kernel_column", "sparse_dot_column_threads",
           "sparse_dot_columns_threads", "sparse_kernel_rows_threads",
           "rbf_from_dots_threads", "kernel_column_threads"]

_jit = njit(cache=True)
# error_model="numpy" (the vectorised passes of dense_loop): see below
_vec = njit(cache=True, fastmath={"nnan", "nsz"}, error_model="numpy", _nrt=False)
# The functions every SMO iteration calls take no references (``_nrt=False``): numba
# counts a reference to each array argument of a compiled function, an atomic
# operation each, and in a small problem's iteration these counts cost more than the
# arithmetic. They allocate nothing and return no array.
_hot = njit(cache=True, _nrt=False)
_in_up = _jit(kkt.in_up)
_in_low = _jit(kkt.in_low)
LOWER, FREE, UPPER = kkt.LOWER, kkt.FREE, kkt.UPPER
BIAS_RTOL = kkt.BIAS_RTOL


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


@_hot
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


@_hot
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


@_hot
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
def bias(g, alpha, y, live, m, C):
    r"""The bias :math:`b` of :func:`svmtext.kkt.bias_from_gradient`, compiled, over the first
    ``m`` entries with ``live[k]`` true.

    The mean of :math:`-y_kG_k` (``g``) over the free multipliers, else the midpoint of
    :math:`[m(\alpha), M(\alpha)]` (a finite end alone if the other is infinite; 0 if both
    are). :math:`\alpha_k` within :data:`~svmtext.kkt.BIAS_RTOL` :math:`C` of a bound counts
    as at it (:func:`svmtext.kkt.bias_tol`). The mean is summed in index order (NumPy's
    ``mean`` sums pairwise: the two agree to rounding).
    """
    tol = BIAS_RTOL * C
    total, n_free = 0.0, 0
    lo, hi = -np.inf, np.inf
    for k in range(m):
        if not live[k]:
            continue
        a = alpha[k]
        s = LOWER if a <= tol else UPPER if a >= C - tol else FREE
        if s == FREE:
            total += g[k]
            n_free += 1
        if _in_up(y[k], s) and g[k] > lo:
            lo = g[k]
        if _in_low(y[k], s) and g[k] < hi:
            hi = g[k]
    if n_free:
        return total / n_free
    if np.isfinite(lo) and np.isfinite(hi):
        return 0.5 * (lo + hi)
    return lo if np.isfinite(lo) else hi if np.isfinite(hi) else 0.0


@_jit
def update_gradient(g, eta, K_i, K_j, m):
    r""":math:`-y_kG_k \mathrel{-}= \eta (K_{ik} - K_{jk})` for the first ``m`` entries."""
    for k in range(m):
        g[k] -= eta * (np.float64(K_i[k]) - np.float64(K_j[k]))   # float32 columns too


# the vectorised passes: error_model="numpy" makes a division by zero give inf instead
# of raising, which removes a test per element and lets the loops vectorise (the
# curvature is floored at tau > 0)


# The length from which _max runs as one vectorised loop (max_of: LLVM's loop
# vectoriser, 32 values an iteration on AVX-512); below it four scalar accumulators are
# faster, the vector loop's set-up and scalar remainder costing more than it saves.
# Measured here, per call: 340 values 51 ns scalar, 20 ns vectorised; even at 100.
_VEC_MAX = 128


@_vec
def _max(a, m):
    r"""``max(a[:m])``: vectorised from :data:`_VEC_MAX` values, else with four
    independent accumulators."""
    if m >= _VEC_MAX:
        r = -np.inf
        for k in range(m):
            r = max_of(a[k], r)
        return r
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


@_hot
def _first(a, value, m):
    """The first ``k < m`` with ``a[k] == value`` (-1 if none). From :data:`_VEC_MAX`
    values, blocks of 16 are tested whole first (16 comparisons or-ed: vector
    instructions), then the block that holds it is read value by value."""
    k = 0
    while k + 16 <= m and m >= _VEC_MAX:
        hit = False
        for t in range(16):
            hit |= a[k + t] == value
        if hit:
            break
        k += 16
    for t in range(k, m):
        if a[t] == value:
            return t
    return -1


@_vec
def _scores_min(g, low, d, K_i, d_i, g_max, tau, score, m):
    r"""The WSS2 scores :math:`-b_{ik}^2/a_{ik}` (0 where :math:`b_{ik} \le 0` or
    :math:`k \notin I_{low}`) into ``score``, and in the same pass
    ``(M(alpha), min(score))``, :math:`M(\alpha) = \min_k (-y_kG_k + l_k)`
    (the minima with :func:`~svmtext._numba.min_of`: the whole loop vectorises)."""
    g_min = best = np.inf
    for k in range(m):
        x = g[k] + low[k]
        g_min = min_of(x, g_min)
        b = max(g_max - x, 0.0)
        a = d_i + d[k] - 2.0 * K_i[k]
        a = a if a > 0 else tau                      # as curvature()
        s = -(b * b) / a
        score[k] = s
        best = min_of(s, best)
    return g_min, best


@_vec
def _update(g, up, eta, K_i, K_j, g_up, m):
    r""":math:`-y_kG_k \mathrel{-}= \eta(K_{ik} - K_{jk})` and ``g_up = -y G + u``."""
    for k in range(m):
        x = g[k] - eta * (np.float64(K_i[k]) - np.float64(K_j[k]))   # float32 columns too
        g[k] = x
        g_up[k] = x + up[k]


@_hot
def _set_offsets(y, status, movable, up, low, k):
    up[k] = 0.0 if movable[k] and _in_up(y[k], status[k]) else -np.inf
    low[k] = 0.0 if movable[k] and _in_low(y[k], status[k]) else np.inf


@_jit
def dense_loop(K, d, y, alpha, g, status, movable, m, C, tol, tau, max_iter, pairs):
    r"""WSS2 SMO on the dense matrix ``K[:m, :m]``, in place; the first ``len(pairs)``
    pairs are written to ``pairs``. Returns ``(n_iter, gap)`` (``gap = -inf`` when
    :math:`I_{up}` is empty).

    The selections and steps of :func:`max_up`, :func:`wss2_scan` and
    :func:`two_variable_step`, with the passes written without a branch per element:
    the index sets are offsets added to the gradient,

    .. math::

        u_k = \begin{cases} 0 & k \in I_{up} \\ -\infty & \text{otherwise,}\end{cases}
        \qquad
        l_k = \begin{cases} 0 & k \in I_{low} \\ +\infty & \text{otherwise,}\end{cases}

    so that :math:`m(\alpha) = \max_k (-y_kG_k + u_k)`,
    :math:`M(\alpha) = \min_k (-y_kG_k + l_k)` and the WSS2 score
    :math:`-b_{ik}^2/a_{ik}` with :math:`b_{ik} = \max(0, m(\alpha) + y_kG_k - l_k)`: each
    pass is a loop the compiler turns into vector instructions, and the arg-max is the
    first index holding the maximum (first index on ties, as :func:`max_up` and
    :func:`wss2_scan`: the same pairs and the same arithmetic). Only :math:`u` and
    :math:`l` of the two moved multipliers change per step. Every dense SMO of the
    package runs this loop (:func:`svmtext.smo.smo_dense`, the EcoSVM's
    re-equilibration, the prototype SVMs' linear SVMs, the enumeration's subproblems).
    """
    up, low = np.empty(m), np.empty(m)
    g_up, score = np.empty(m), np.empty(m)
    for k in range(m):
        _set_offsets(y, status, movable, up, low, k)
        g_up[k] = g[k] + up[k]
    g_max = _max(g_up, m)
    i = _first(g_up, g_max, m) if g_max > -np.inf else -1
    gap = np.inf if i >= 0 else -np.inf
    n_iter = 0
    while n_iter < max_iter and i >= 0:
        g_min, best = _scores_min(g, low, d, K[i], d[i], g_max, tau, score, m)
        gap = g_max - g_min
        if gap < tol or not best < 0:
            break
        j = _first(score, best, m)
        eta = two_variable_step(i, j, g, y, alpha, status, curvature(d[i], d[j], K[i, j], tau),
                                C, C)
        if n_iter < len(pairs):
            pairs[n_iter, 0] = i
            pairs[n_iter, 1] = j
        _set_offsets(y, status, movable, up, low, i)
        _set_offsets(y, status, movable, up, low, j)
        n_iter += 1
        _update(g, up, eta, K[i], K[j], g_up, m)
        g_max = _max(g_up, m)
        i = _first(g_up, g_max, m) if g_max > -np.inf else -1
        if i < 0:
            gap = -np.inf
    return n_iter, gap


@_jit
def transposed(X, out):
    """``out[:] = X.T`` (cast to ``out``'s type), 64 by 64 at a time: both arrays are
    read and written a cache line at a time (half the time of NumPy's copy of ``X.T``;
    :class:`~svmtext.smo.KernelColumns` stores sparse data features by rows)."""
    n, p = X.shape
    for i0 in range(0, n, 64):
        for j0 in range(0, p, 64):
            for j in range(j0, min(j0 + 64, p)):
                for i in range(i0, min(i0 + 64, n)):
                    out[j, i] = X[i, j]
    return out


@_jit
def nonzero_rows(X, dtype_of) -> tuple:
    """``X`` in compressed sparse rows, ``(indptr, indices, data)``: each row's non-zero
    entries in the order of its features (int32 indices, ``data`` of ``dtype_of``'s
    type; NaN counts as non-zero), as ``csr_matrix(X)`` holds them, in two passes over
    ``X`` (a third of the time of NumPy's mask, ``nonzero`` and boolean index)."""
    n, p = X.shape
    indptr = np.zeros(n + 1, dtype=np.int32)
    for i in range(n):
        c = 0
        for f in range(p):
            if X[i, f] != 0:
                c += 1
        indptr[i + 1] = indptr[i] + c
    indices = np.empty(indptr[n], dtype=np.int32)
    data = np.empty(indptr[n], dtype=dtype_of.dtype)
    k = 0
    for i in range(n):
        for f in range(p):
            v = X[i, f]
            if v != 0:
                indices[k] = f
                data[k] = v
                k += 1
    return indptr, indices, data


def _dot_rows(XT, nz, v, o, lo, hi):
    """``o[r - lo] = <x_r, x>`` for the rows ``lo <= r < hi`` (the body of
    :func:`sparse_dot_column` and :func:`sparse_dot_columns`: one source, the same bits)."""
    m = hi - lo
    k = len(nz)
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


_ROW_BLOCK = 1024       # rows per block of several columns (sparse_dot_columns)
_COLUMN_BLOCK = 8192    # rows per block of one column (sparse_dot_column; its threaded
#                         twin has _ROW_BLOCK, so that there are blocks to share)


def sparse_dot_column(XT, nz, v, out) -> np.ndarray:
    r"""``out[r] = <x_r, x>`` for the columns ``x_r`` of ``XT`` (features by rows), where
    ``x`` has the non-zero values ``v`` at the features ``nz``.

    Only the rows of ``XT`` of those features are read: for data with many zeros
    (MNIST: four pixels in five are 0) a fifth of ``X``. Rows are processed in blocks,
    four features at a time (the loops count from 0 over slices so that the compiler
    can vectorise them): blocks of :data:`_COLUMN_BLOCK` rows, whose partial sums stay
    in the L2 cache. (The block's rows of a feature are read as one stream; streams of
    8,192 rows rather than 1,024 took 0.145 instead of 0.206 ms per column of 8,000
    MNIST images in float64, 0.054 instead of 0.067 in float32, 1.9 instead of 2.1 ms
    at 60,000.) The blocks are independent: :func:`sparse_dot_column_threads` shares
    them between threads (in blocks of :data:`_ROW_BLOCK` rows: its
    :data:`_COLUMN_BLOCK` is that; reading the number of threads here would make the
    function, and the loop that calls it, impossible to cache), each row's sum made by
    one thread in the same order (the same bits, whatever the blocks).
    """
    n = XT.shape[1]
    for b in prange((n + _COLUMN_BLOCK - 1) // _COLUMN_BLOCK):
        lo = b * _COLUMN_BLOCK
        hi = min(lo + _COLUMN_BLOCK, n)
        _dot_rows(XT, nz, v, out[lo:hi], lo, hi)
    return out


def sparse_dot_columns(XT, indptr, indices, data, cols, out) -> np.ndarray:
    r"""``out[k, r] = <x_r, x_{c}>`` for the columns ``c = cols[k]`` of a matrix in
    compressed sparse rows (``indptr, indices, data``), each with the operations of
    :func:`sparse_dot_column` (the same bits), all of them a block of rows at a time:
    the rows of ``XT`` that the columns share are read from memory once per block
    instead of once per column (MNIST, 16,000 rows: half the time of one column at a
    time; :meth:`~svmtext.smo.KernelColumns.block`). Threaded twin:
    :func:`sparse_dot_columns_threads`."""
    n = XT.shape[1]
    for b in prange((n + _ROW_BLOCK - 1) // _ROW_BLOCK):
        lo = b * _ROW_BLOCK
        hi = min(lo + _ROW_BLOCK, n)
        for k in range(len(cols)):
            a, z = indptr[cols[k]], indptr[cols[k] + 1]
            _dot_rows(XT, indices[a:z], data[a:z], out[k, lo:hi], lo, hi)
    return out


_ROWS_FUSED = 256        # rows per block of sparse_kernel_rows (its buffer in L2)


def sparse_kernel_rows(XT, indptr, indices, data, cols, sq_rows, sq_cols, gamma, rbf,
                       ks, out) -> np.ndarray:
    r"""``out[r, ks[k]]`` :math:`= K_{r c}` for the rows :math:`x_r` stored in ``XT``
    (features by rows, squared norms ``sq_rows``) and the columns ``c = cols[k]`` of a
    matrix in compressed sparse rows (squared norms ``sq_cols``): the linear kernel, or
    the RBF kernel when ``rbf``.

    Each value is made with the operations of :func:`sparse_dot_columns`, in ``XT``'s
    type, and then of :func:`rbf_from_dots` (the same bits as :meth:`KernelColumns.block
    <svmtext.smo.KernelColumns.block>`), :data:`_ROWS_FUSED` rows at a time into a small
    buffer, which is written into those rows of ``out`` while it is in cache. This is
    the layout of the gradient reconstruction
    (:meth:`~svmtext.smo._cache.ColumnCache.complete_block`), made without the passes of
    a block in the other layout (its ``exp``, then a transposed copy) over memory."""
    n = XT.shape[1]
    m = len(cols)
    for b in prange((n + _ROWS_FUSED - 1) // _ROWS_FUSED):
        lo = b * _ROWS_FUSED
        hi = min(lo + _ROWS_FUSED, n)
        buf = np.empty((m, hi - lo), dtype=XT.dtype)
        for k in range(m):
            a, z = indptr[cols[k]], indptr[cols[k] + 1]
            _dot_rows(XT, indices[a:z], data[a:z], buf[k], lo, hi)
            if rbf:
                rbf_from_dots(buf[k], sq_rows[lo:hi], sq_cols[k], gamma)
        for t0 in range(lo, hi, 16):
            t1 = min(t0 + 16, hi)
            for k in range(m):
                c = ks[k]
                for t in range(t0, t1):
                    out[t, c] = buf[k, t - lo]
    return out


def kernel_column(Xa, sqa, x, sq_x, kernel, gamma, coef0, degree, out) -> np.ndarray:
    r"""``out[r]`` :math:`= k(x_r, x)` for the rows :math:`x_r` of ``Xa``: ``kernel`` 0
    linear :math:`\langle x_r, x\rangle`, 1 RBF :math:`\exp(-\gamma\max(0, \lVert x_r\rVert^2
    + \lVert x\rVert^2 - 2\langle x_r, x\rangle))` (``sqa``, ``sq_x`` the squared norms),
    2 polynomial :math:`(\gamma\langle x_r, x\rangle + c_0)^d`; sums in float64.
    The columns of :class:`~svmtext.smo.KernelColumns` on dense data (Python and the
    compiled loop call this one function)."""
    n, p = Xa.shape
    for r in prange(n):
        s = 0.0
        for f in range(p):
            s += np.float64(Xa[r, f]) * np.float64(x[f])
        if kernel == 1:
            dist = np.float64(sqa[r]) + sq_x - 2.0 * s
            out[r] = np.exp(-gamma * (dist if dist > 0 else 0.0))
        elif kernel == 2:
            out[r] = (gamma * s + coef0) ** degree
        else:
            out[r] = s
    return out


def rbf_from_dots(dots, sq_rows, sq_c, gamma) -> np.ndarray:
    r"""In place: :math:`K_{rc} = \exp(-\gamma\max(0, \lVert x_r\rVert^2 + \lVert x_c\rVert^2
    - 2\langle x_r, x_c\rangle))` from the inner products ``dots``. In float32 the
    same bits by :func:`svmtext.smo._exp32.rbf_single` (vectorised, one thread)."""
    if dots.itemsize == 4:
        return rbf_single(dots, sq_rows, sq_c, gamma)
    for r in prange(len(dots)):
        dist = sq_rows[r] + sq_c - 2 * dots[r]
        if dist < 0:
            dist = 0
        dots[r] = np.exp(-gamma * dist)
    return dots


# The column kernels, twice from one source: their loops over rows (or blocks of rows)
# are ``prange``, which a function compiled without ``parallel=True`` runs as ``range``.
# The serial variants keep the plain names (the compiled SMO loop calls them); the
# ``*_threads`` variants share the rows between numba's threads (``SMOSVC(n_jobs=...)``,
# :class:`~svmtext.smo.KernelColumns` sets their number). Each row is made by one thread
# with the same operations in the same order, so both give the same bits. The copies
# have their own names, so that numba caches the two compilations apart.


_dot_rows = njit(cache=True, fastmath=True)(_dot_rows)
rbf_from_dots = _jit(rbf_from_dots)        # (the serial one: sparse_kernel_rows calls it)
_kernels = (sparse_dot_column, sparse_dot_columns, sparse_kernel_rows, kernel_column,
            python_function(rbf_from_dots))
# (sparse_dot_column's twin: blocks of _ROW_BLOCK rows, in a copy of the globals)
(sparse_dot_column_threads, sparse_dot_columns_threads, sparse_kernel_rows_threads,
 kernel_column_threads, rbf_from_dots_threads) = (
    njit(cache=True, parallel=True, **opts)(renamed(
        f, f.__name__ + "_threads",
        f"Threaded :func:`{f.__name__}` (``parallel=True``): the same bits.", **blocks))
    for f, opts, blocks in zip(_kernels, ({"fastmath": True},) * 3 + ({}, {}),
                               ({"_COLUMN_BLOCK": _ROW_BLOCK},) + ({},) * 4))
sparse_dot_column = njit(cache=True, fastmath=True)(sparse_dot_column)
sparse_dot_columns = njit(cache=True, fastmath=True)(sparse_dot_columns)
sparse_kernel_rows = njit(cache=True, fastmath=True)(sparse_kernel_rows)
kernel_column = _jit(kernel_column)
