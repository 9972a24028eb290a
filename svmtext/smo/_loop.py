r"""The SMO iteration loop, compiled (book: :ref:`sec-smo-benchmark`).

:func:`svmtext.smo.smo_solve` with the WSS2 rule runs its iterations here: selection
(:func:`~svmtext.smo._core.max_up` and :func:`~svmtext.smo._core.wss2_scan`, written as
the vectorised passes of :func:`~svmtext.smo._core.dense_loop`), the two-variable
step, the gradient update, LIBSVM's :math:`\bar G` (the gradient part from
multipliers at their bound), the stopping test and shrinking, in one compiled function
over the arrays of :class:`~svmtext.smo._solver._SMO` and of the column cache
(:mod:`svmtext.smo._cache`). It makes the same selections and the same arithmetic as
the Python loop that the teaching rules (Platt's, the maximal violating pair) and the
step history use, pair for pair and bit for bit (``tests/test_smo_loop.py``).

The function returns to Python only for what it cannot do itself:

* a kernel column that is not cached, on the active rows (:data:`NEED_COLUMN`) -- a
  precomputed Gram matrix (``kind = 1``) is read by the loop itself, and the named
  kernels on the data are computed by it (kinds 2 to 4; kinds 4 to 6 ask Python when one
  row is active, where NumPy's column takes another path);
* the last operation of NumPy's RBF and polynomial columns (:data:`NEED_FINISH`,
  kinds 5 and 6), where the loop cannot call NumPy's own loop for it: the loop makes
  the column with NumPy's operations up to the exponential or the power, so that the
  column has NumPy's bits (NumPy's ``exp`` and power are not the compiled code's, in
  the last bit), and applies NumPy's ``exp`` or power by calling the inner loop that
  NumPy runs (:mod:`svmtext._ufunc`); where that loop could not be found or does not
  give NumPy's bits (:func:`svmtext.smo._columns.finishing_loop`), NumPy applies it in
  place;
* a column on the set-aside rows, for :math:`\bar G` when a multiplier reaches or
  leaves its bound while shrunk (:data:`NEED_INACTIVE`), the first time after each
  shrink: Python then hands the loop the set-aside rows of the data
  (:meth:`~svmtext.smo.KernelColumns.inactive_source`, ``st[INACTIVE_READY]``), and the
  loop computes the later ones itself (kinds 3 to 6, with the operations of Python's
  :meth:`~svmtext.smo.KernelColumns.block`, so with its bits; a Gram matrix is read);
* the gradient reconstruction when the full problem is restored
  (:data:`NEED_UNSHRINK`: blocks of kernel columns of the set-aside rows) -- except
  on dense data with NumPy's columns (kinds 4 to 6, the rows kept by the loop) with
  two rows or more set aside, where the loop makes it itself with Python's operations
  (:func:`reconstruct`, ``st[RECONSTRUCT_BY_LOOP]``, where
  :func:`svmtext.smo._columns.loop_blocks_are_numpys`);
* after shrinking, so that the column provider keeps only the active rows
  (:data:`SHRUNK`) -- except on dense data with NumPy's columns (kinds 4 to 6), whose
  rows the loop keeps itself (``st[ROWS_BY_LOOP]``, :func:`_keep_rows`); Python reads
  the new active set at the next return (``st[SYNC]``);
* with ``null_steps``, a null-space step (:data:`NULL_STEP`,
  :func:`svmtext.smo._null.null_step`) where the free multipliers have stayed the same
  for :data:`NULL_INTERVAL` selections (:func:`_flat_face`).

Python serves the request and calls the loop again; the loop resumes where it stopped
(the phase of the iteration is kept in the integer state ``st``). Variables are held
twice: the full arrays (global indices) and the active buffers (positions
``0 .. na-1``, in increasing global index, as the Python loop's compacted arrays);
the buffers are written back into the full arrays before every return that needs them.

What every iteration runs (the column reads :func:`_cached`, the step :func:`_step`,
the selection passes of :mod:`~svmtext.smo._core`) is compiled without reference
counting (numba's ``_nrt=False``): numba counts a reference to each array a compiled
function is passed or creates, an atomic operation each, and on a small problem these
counts took more time than the arithmetic (51 of them an iteration, about two thirds
of the loop's time, on a 130-point linear problem). The loop reads a cached column through a
borrowed array (:func:`svmtext._numba.view`), which holds no reference; the
cache never evicts the most recent column, so the columns of the current pair stay
valid while they are read. The step and the column reads take the addresses of the
buffers they use rather than the arrays (:func:`svmtext._numba.view` makes them
arrays again): a call copies seven machine words per array argument onto the stack,
and for the step's twelve arrays and the reads' four these copies were about a fifth
of an iteration's time on small problems (random problem 54 of
``benchmarks/targets.py``, 2.3 million iterations: 190 to 150 ms).
"""
from __future__ import annotations

import types

import numpy as np

from .._blas import matmul_abt, matvec, numpy_blas
from .._numba import jit, njit, pointer, python_function, renamed, view
from .._ufunc import call_binary_inner_loop, call_inner_loop
from ..kkt import UPPER
from . import _core
from ._cache import (ACTIVE, ADDRESS, COPIES, HITS, LENGTH, MISSES, N_INFO, SLOTS, append,
                     complete_partial, drop_partial, gather_full_columns, restrict_columns,
                     store_column, unlink)

__all__ = ["run", "run_threads", "DONE", "MAX_ITER", "NEED_COLUMN", "NEED_INACTIVE", "NEED_UNSHRINK",
           "SHRUNK", "NEED_FINISH", "NULL_STEP", "new_state"]

# return codes
DONE, MAX_ITER, NEED_COLUMN, NEED_INACTIVE, NEED_UNSHRINK, SHRUNK, NEED_FINISH, NULL_STEP = range(8)

# the integer state st[...]
(NA, COUNTER, UNSHRUNK, N_ITER, N_SELECT, N_SHRINK, PHASE, REQ, SKIP, I, J, MAXIT,
 INTERVAL, SHRINKING, CONVERGED, KIND, EVALS, GBAR_WAS_I, GBAR_WAS_J, N_INACTIVE,
 KERNEL, DEGREE, FINISH, FINISH_LOOP, FINISH_DATA, INACTIVE_READY, ROWS_BY_LOOP,
 SYNC, RECONSTRUCT_BY_LOOP, N_RECONSTRUCT, NP_GEMM, NP_GEMV, NP_DOT,
 NULL_STEPS, NULL_AT, FREE_N, FREE_SUM, FREE_SQ, NULL_FAILED, N_NULL) = range(40)
N_ST = 40
# the float state fs[...]
TOL, TAU, GAP, REQ_COEF, GAMMA, COEF0, EXPONENT = range(7)
N_FS = 7

# phases of an iteration (where the loop resumes)
(P_TOP, P_SHRINK, P_SHRINK2, P_SELECT, P_SELECT2, P_STEP_I, P_STEP_J, P_GBAR_I,
 P_GBAR_J) = range(9)

_in_up, _in_low = _core._in_up, _core._in_low


def new_state(n, tol, tau, max_iter, shrinking, kind, kernel=-1, gamma=0.0, coef0=0.0,
              degree=0, null_steps=False) -> tuple[np.ndarray, np.ndarray]:
    """The integer and float state arrays of a fresh run."""
    st = np.zeros(N_ST, dtype=np.int64)
    fs = np.zeros(N_FS)
    st[NA] = n
    st[INTERVAL] = min(n, 1000)
    st[COUNTER] = st[INTERVAL]
    st[MAXIT] = max_iter
    st[SHRINKING] = bool(shrinking)
    st[SKIP] = -1
    st[KIND] = kind
    st[PHASE] = P_TOP
    st[KERNEL], st[DEGREE] = kernel, degree
    st[NULL_STEPS] = bool(null_steps)
    # NumPy's own BLAS functions (svmtext._blas; 0: numba's np.dot, SciPy's BLAS)
    st[NP_GEMM], st[NP_GEMV], st[NP_DOT] = numpy_blas()
    fs[TOL], fs[TAU], fs[GAMMA], fs[COEF0] = tol, tau, gamma, coef0
    return st, fs


@jit
def extreme(g, y, status, na):
    r""":math:`m = \max_{I_{up}} -y_kG_k`, :math:`M = \min_{I_{low}} -y_kG_k` on the active set."""
    m, M = -np.inf, np.inf
    for k in range(na):
        if _in_up(y[k], status[k]) and g[k] > m:
            m = g[k]
        if _in_low(y[k], status[k]) and g[k] < M:
            M = g[k]
    return m, M


@jit
def _write_back(active, na, n, g, alpha, status, g_f, alpha_f, status_f):
    for t in range(na):
        k = active[t]
        g_f[k] = g[t]
        alpha_f[k] = alpha[t]
        status_f[k] = status[t]


@jit
def _rows_data(st, src, src_i, active_rows, na, n):
    """The data of the active rows (``active_rows``) or of the set-aside ones: ``src``'s
    and ``src_i``'s, or, where the loop keeps them itself (``st[ROWS_BY_LOOP]``), ``X``
    while nothing is set aside and else the active rows at the top of the buffer
    ``src[2]`` and the set-aside ones below them (:func:`_keep_rows`)."""
    X, sq, Xa, sqa = src[0], src[1], src[2], src[3]
    if st[ROWS_BY_LOOP]:
        if active_rows:
            if na == n:
                return X, sq
            return Xa[:na], sqa[:na]
        return Xa[na:n], sqa[na:n]
    if active_rows:
        return Xa, sqa
    return src_i[2], src_i[3]


@jit
def _keep_rows(src, active, na, inactive, ni):
    """After a shrink, the buffer ``src[2]`` (and the squared norms ``src[3]``) gets the
    active rows of ``X`` on top, in order, and the set-aside ones below them: the
    contiguous blocks NumPy's column on those rows reads (``st[ROWS_BY_LOOP]``)."""
    X, sq, buf, sqbuf = src[0], src[1], src[2], src[3]
    for t in range(na):
        buf[t, :] = X[active[t]]
        sqbuf[t] = sq[active[t]]
    for t in range(ni):
        buf[na + t, :] = X[inactive[t]]
        sqbuf[na + t] = sq[inactive[t]]


@jit
def _rbf_exponent(dot, sq_sum, minus_gamma):
    r""":math:`-\gamma \max(\lVert a\rVert^2 + \lVert b\rVert^2 - 2\langle a, b\rangle, 0)`
    from ``dot`` :math:`= \langle a, b\rangle` and ``sq_sum``, in the order of
    :func:`svmtext.kernels.squared_distances` and ``rbf_kernel`` (``np.maximum`` keeps
    NaN)."""
    v = dot * -2.0 + sq_sum
    return minus_gamma * (v if v > 0.0 or v != v else 0.0)


@jit
def _compute(c, st, fs, KG, src, Xa, sqa, rows, na, dtype_of):
    """Column ``c`` on the rows ``rows[:na]`` (the data of those rows: ``Xa, sqa``),
    computed here (kinds 1 to 6) as Python would; kinds 5 and 6 up to NumPy's last
    operation (:func:`_miss` applies it, or Python: :data:`NEED_FINISH`)."""
    col = np.empty(na, dtype=dtype_of.dtype)
    kind = st[KIND]
    if kind == 1:                         # a Gram matrix
        for t in range(na):
            col[t] = KG[rows[t], c]
        return col
    X, sq, _, _, indptr, indices, data = src
    if kind == 5:                         # dense float64, RBF: NumPy's column before its exp
        D = matvec(_blas(st), Xa, X[c])    # (rbf_kernel's order of operations)
        sq_c, minus_gamma = sq[c], -fs[GAMMA]
        for t in range(na):
            col[t] = _rbf_exponent(D[t], sqa[t] + sq_c, minus_gamma)
        return col
    if kind == 6:                         # dense float64, polynomial: before NumPy's power
        prod = _column_product(_blas(st), Xa, X, c)
        for t in range(na):
            col[t] = fs[GAMMA] * prod[t] + fs[COEF0]
        return col
    if kind == 4:                         # dense data, linear: NumPy's product, same bits
        col[:] = _column_product(_blas(st), Xa, X, c)
        return col
    if kind == 2:                         # dense data
        _core.kernel_column(Xa, sqa, X[c], np.float64(sq[c]), st[KERNEL], fs[GAMMA],
                            fs[COEF0], st[DEGREE], col)
        return col
    lo, hi = indptr[c], indptr[c + 1]     # sparse columns
    _core.sparse_dot_column(Xa, indices[lo:hi].copy(), data[lo:hi].copy(), col)
    if st[KERNEL] == 1:
        _core.rbf_from_dots(col, sqa, np.float64(sq[c]), fs[GAMMA])
    return col


# Column reads, every iteration, without reference counts (``_nrt=False``): they
# return where the values are, and the loop reads them through a borrowed array.

@njit(cache=True, _nrt=False)
def _column_at(c, lru, info, active, na, n, buf):
    """The address of cached column ``c`` on the active rows. A full column read at the
    active rows is its active copy: made at the first read after a shrink, in the
    cache's slab while it has a free slot, else gathered into ``buf`` at every read
    (:mod:`svmtext.smo._cache`). ``c`` must be held: the callers read the current pair,
    which the cache never evicts (the most recent column stays)."""
    if na < n and lru[LENGTH, c] == n:
        if lru[ACTIVE, c]:
            return lru[ACTIVE, c]
        k = info[COPIES]
        if k < info[SLOTS]:
            address = lru[ADDRESS, n] + k * na * buf.itemsize
            info[COPIES] = k + 1
            lru[ACTIVE, c] = address
        else:
            address = np.int64(buf.ctypes.data)
        col = pointer(lru[ADDRESS, c], buf.dtype)
        out = pointer(address, buf.dtype)
        for t in range(na):
            out[t] = col[active[t]]
        return address
    return lru[ADDRESS, c]


# where _cached finds the cache's arrays and the column buffers (as _step its buffers)
C_HELD, C_INFO, C_ACTIVE, C_BUF_I, C_BUF_J = range(5)


@njit(cache=True, _nrt=False)
def _cached(c, st, lru, at, kinds, na, n, which):
    """The address of column ``c`` on the active rows from the cache, 0 on a miss; the
    cache's ``held``, ``info``, the active rows and the column buffers at the addresses
    ``at`` (:data:`C_HELD` ..., value types ``kinds``), ``which`` the buffer a gather
    may use (:data:`C_BUF_I` or :data:`C_BUF_J`).

    A hit counts and makes ``c`` the most recent; the one read that follows a request
    (:func:`_miss`) finds the column just stored and does not count again. (The
    miss, which may allocate, is a function apart.)
    """
    held = view(at[C_HELD], n, kinds[C_HELD])
    if not held[c]:
        return 0
    info = view(at[C_INFO], N_INFO, kinds[C_INFO])
    if st[SKIP] == c:
        st[SKIP] = -1
    else:
        unlink(lru, c)
        append(lru, c)
        info[HITS] += 1
    return _column_at(c, lru, info, view(at[C_ACTIVE], na, kinds[C_ACTIVE]), na, n,
                      view(at[which], n, kinds[C_BUF_I]))


@jit
def _blas(st):
    """The addresses of NumPy's BLAS functions (:func:`svmtext._blas.numpy_blas`)."""
    return st[NP_GEMM:NP_DOT + 1]


@jit
def _column_product(blas, Xa, X, c):
    """:math:`X_a x_c^T` as NumPy's ``A @ Y.T`` makes it, kinds 4 and 6: NumPy's own
    matrix-vector product (:func:`svmtext._blas.matvec`) where its BLAS was found; else
    numba's matrix product."""
    if blas[0] != 0:
        return matvec(blas, Xa, X[c])
    return np.dot(Xa, X[c:c + 1].T)[:, 0]


@jit
def block_product(st, M, v):
    """``M @ v`` as :func:`reconstruct` makes it (for
    :func:`svmtext.smo._columns.loop_blocks_are_numpys`)."""
    return matvec(_blas(st), M, v)


@jit
def blas_products(blas, X, c) -> tuple:
    """``(X x_c, X x_c^T)`` as :func:`_compute` makes them (kinds 5, and 4 and 6), for
    :func:`svmtext.smo._columns.loop_products_are_numpys`."""
    return matvec(blas, X, X[c]), _column_product(blas, X, X, c).copy()


@jit
def apply_inner_loop(function, data, a, operand):
    """The inner loop at ``function`` in place on the contiguous array ``a``, as
    :func:`_miss` calls it: ``exp(a)`` (``operand`` empty) or ``a ** operand[0]``
    (:func:`svmtext.smo._columns.finishing_loop` checks it on a few arrays)."""
    if len(operand) == 0:
        call_inner_loop(function, data, len(a), a.ctypes.data, a.itemsize)
    else:
        call_binary_inner_loop(function, data, len(a), a.ctypes.data, a.itemsize,
                               operand.ctypes.data, 0)


@jit
def _loop_finishes(st, itemsize):
    """Whether the loop applies NumPy's last operation of a column of kinds 5 and 6
    itself: NumPy's inner loop was found (the loops found are float64's: a column of
    another type asks Python)."""
    return st[FINISH_LOOP] != 0 and itemsize == 8


@jit
def _finish(st, fs, col):
    """NumPy's own ``exp`` (kind 5) or power (kind 6) on ``col``, in place."""
    apply_inner_loop(st[FINISH_LOOP], st[FINISH_DATA], col,
                     fs[EXPONENT:EXPONENT + st[KIND] - 5])


@jit
def _miss(c, st, fs, store, held, lru, info, KG, src, active, na, buf):
    """Column ``c``, not cached: computed here (a Gram matrix, ``kind = 1``; a named
    kernel on the data, kinds 2 to 4; kinds 5 and 6 with NumPy's own ``exp`` or power
    loop, called from here where ``st[FINISH_LOOP]`` holds its address) and stored, or
    requested from Python (``st[REQ] = c``; an empty array is returned; ``st[FINISH]``:
    the column is stored but for NumPy's last operation, kinds 5 and 6 without the
    address)."""
    info[MISSES] += 1
    kind = st[KIND]
    if kind != 0 and (kind < 4 or na > 1):    # (one row: NumPy's own path for 4 to 6)
        Xa, sqa = _rows_data(st, src, src, True, na, len(held))
        col = _compute(c, st, fs, KG, src, Xa, sqa, active, na, buf)
        st[EVALS] += na
        finished = kind >= 5 and _loop_finishes(st, col.itemsize)
        if finished:                      # NumPy's own exp (kind 5) or power (kind 6)
            _finish(st, fs, col)
        store_column(store, held, lru, info, c, col)
        if kind < 5 or finished:
            return col
        st[FINISH] = 1
    st[REQ] = c
    st[SKIP] = c
    return buf[:0]


@njit(cache=True, _nrt=False)
def _request(st):
    """The code of a column request (:func:`_miss`): the whole column, or NumPy's last
    operation on it."""
    if st[FINISH]:
        st[FINISH] = 0
        return NEED_FINISH
    return NEED_COLUMN


# where _step finds the active buffers: their addresses, in this order, in an array of
# the loop's, and their value types in a tuple of the same order (a call copies each
# array argument's seven fields onto the stack: for _step's twelve arrays, 720 bytes
# written and read again every iteration)
A_G, A_Y, A_ALPHA, A_STATUS, A_CV, A_D, A_MOVABLE, A_UP, A_LOW, A_G_UP = range(10)


@njit(cache=True, _nrt=False)
def _step(st, at, kinds, i, j, p, q, tau, na, dtype):
    """The two-variable step on the pair ``(i, j)`` with the columns at addresses ``p, q``
    (values of type ``dtype``), the gradient update and the offsets, on the active
    buffers at the addresses ``at`` (:data:`A_G` ...; value types ``kinds``);
    ``st[GBAR_WAS_I]``, ``st[GBAR_WAS_J]``: whether a multiplier reached or left its
    upper bound. Returns the step length (0: no move). (A function apart, without
    reference counts: every iteration runs it.)"""
    g, y = view(at[A_G], na, kinds[A_G]), view(at[A_Y], na, kinds[A_Y])
    alpha = view(at[A_ALPHA], na, kinds[A_ALPHA])
    status = view(at[A_STATUS], na, kinds[A_STATUS])
    Cv, d = view(at[A_CV], na, kinds[A_CV]), view(at[A_D], na, kinds[A_D])
    movable = view(at[A_MOVABLE], na, kinds[A_MOVABLE])
    up, low = view(at[A_UP], na, kinds[A_UP]), view(at[A_LOW], na, kinds[A_LOW])
    g_up = view(at[A_G_UP], na, kinds[A_G_UP])
    Kp, Kq = view(p, na, dtype), view(q, na, dtype)
    a = _core.curvature(d[i], d[j], Kp[j], tau)
    was_i, was_j = status[i] == UPPER, status[j] == UPPER
    eta = _core.two_variable_step(i, j, g, y, alpha, status, a, Cv[i], Cv[j])
    if eta > 0:
        st[N_ITER] += 1
        _core._set_offsets(y, status, movable, up, low, i)
        _core._set_offsets(y, status, movable, up, low, j)
        _core._update(g, up, eta, Kp, Kq, g_up, na)
        st[GBAR_WAS_I] = 1 if was_i != (status[i] == UPPER) else 0
        st[GBAR_WAS_J] = 1 if was_j != (status[j] == UPPER) else 0
    return eta


@jit
def _offsets(g, y, status, movable, up, low, g_up, na):
    """The offsets of :math:`I_{up}`, :math:`I_{low}` and ``g_up`` on the active set
    (:func:`svmtext.smo._core._set_offsets` for every element, written out)."""
    for k in range(na):
        mk, yk, sk = movable[k], y[k], status[k]
        up[k] = 0.0 if mk and _core._in_up(yk, sk) else -np.inf
        low[k] = 0.0 if mk and _core._in_low(yk, sk) else np.inf
        g_up[k] = g[k] + up[k]


NULL_INTERVAL = 1000     # selections between two looks for a flat face


@jit
def _flat_face(st, active, status, na):
    """Whether to ask Python for a null-space step (:mod:`svmtext.smo._null`): checked
    every :data:`NULL_INTERVAL` selections, true when the free multipliers are those of
    the last check and no step was found on them already. The sets are compared by
    their size and the sum and sum of squares of their indices: a set that is not the
    same but matches only costs a look that finds no step or a valid one."""
    if st[N_SELECT] == 0 or st[N_SELECT] % NULL_INTERVAL != 0 or st[NULL_AT] == st[N_SELECT]:
        return False
    st[NULL_AT] = st[N_SELECT]
    count = total = squares = 0
    for t in range(na):
        if status[t] == _core.FREE:
            k = active[t]
            count += 1
            total += k
            squares += k * k
    same = count == st[FREE_N] and total == st[FREE_SUM] and squares == st[FREE_SQ]
    if not same:
        st[NULL_FAILED] = 0
    st[FREE_N], st[FREE_SUM], st[FREE_SQ] = count, total, squares
    return same and not st[NULL_FAILED]


@jit
def _shrink_out(g, y, status, na, m, M, keep):
    """LIBSVM's shrinking rule: the positions kept (written to ``keep``) and their number."""
    n_keep = 0
    for t in range(na):
        up, low = _in_up(y[t], status[t]), _in_low(y[t], status[t])
        out = (up and not low and g[t] < M) or (low and not up and g[t] > m)
        if not out:
            keep[n_keep] = t
            n_keep += 1
    return n_keep


@jit
def _gbar_update(gbar, active, na, coef, Kr):
    for t in range(na):
        gbar[active[t]] -= coef * Kr[t]


@jit
def _gbar_inactive(st, fs, gbar, inactive, KG, src, src_i, c, coef, buf, na, n):
    """:math:`\\bar G` on the set-aside rows: read from the Gram matrix, computed from
    the set-aside rows of the data (``src_i``, once Python has handed them over:
    ``st[INACTIVE_READY]``), or requested. Returns whether Python must serve it."""
    ni = st[N_INACTIVE]
    kind = st[KIND]
    if kind == 1:
        for t in range(ni):
            k = inactive[t]
            gbar[k] -= coef * KG[k, c]
        st[EVALS] += ni
        return False
    # kinds 3 to 6 compute K[inactive, c] as Python's block does (NumPy's one-column
    # path for 4 to 6 needs two rows or more; 5 and 6 need NumPy's own last operation)
    if st[INACTIVE_READY] and (kind == 3 or (kind >= 4 and ni > 1 and (
            kind == 4 or _loop_finishes(st, buf.itemsize)))):
        Xi, sqi = _rows_data(st, src, src_i, False, na, n)
        col = _compute(c, st, fs, KG, src, Xi, sqi, inactive, ni, buf)
        if kind >= 5:
            _finish(st, fs, col)
        for t in range(ni):
            gbar[inactive[t]] -= coef * col[t]
        st[EVALS] += ni
        return False
    st[REQ] = c
    fs[REQ_COEF] = coef
    return True


@jit
def kernel_block(st, fs, X, sq, Xi, sqi, cols):
    """``K[rows, cols]`` for the rows whose data are ``Xi, sqi`` (dense data, kinds 4 to
    6), as :meth:`~svmtext.smo.KernelColumns.block` makes it: NumPy's ``A @ B.T``
    (``A @ b`` for one RBF column of two rows or more, as
    :func:`svmtext.kernels.squared_distances`), then the kernel's operations in NumPy's
    order, its ``exp`` or power by NumPy's own inner loop (:func:`_finish`)."""
    ni, nc = len(Xi), len(cols)
    B = np.empty((nc, X.shape[1]), dtype=X.dtype)
    for k in range(nc):
        B[k, :] = X[cols[k]]
    kind = st[KIND]
    one_rbf_column = kind == 5 and nc == 1 and ni > 1
    if st[NP_GEMM] != 0:                  # NumPy's own BLAS (svmtext._blas)
        D = matmul_abt(_blas(st), Xi, B)
    elif one_rbf_column:
        D = np.dot(Xi, B[0]).reshape((ni, 1))
    else:
        D = np.dot(Xi, B.T)
    if kind == 5:                         # rbf_kernel: -gamma * max(-2 D + |a|^2 + |b|^2, 0)
        minus_gamma = -fs[GAMMA]
        for t in range(ni):
            for k in range(nc):
                D[t, k] = _rbf_exponent(D[t, k], sqi[t] + sq[cols[k]], minus_gamma)
    elif kind == 6:                       # polynomial_kernel: gamma D + coef0
        for t in range(ni):
            for k in range(nc):
                D[t, k] = fs[GAMMA] * D[t, k] + fs[COEF0]
    if kind >= 5:
        _finish(st, fs, D.reshape(ni * nc))
    return D


@jit
def _block_into(st, fs, X, sq, Xi, sqi, cols, ks, out):
    """The columns ``cols[ks]`` on the rows of ``Xi`` (:func:`kernel_block`), written
    into the columns ``ks`` of ``out`` and returned."""
    block = kernel_block(st, fs, X, sq, Xi, sqi, cols[ks])
    st[EVALS] += block.size
    for k in range(len(ks)):
        out[:, ks[k]] = block[:, k]
    return block


@jit
def reconstruct(st, fs, g_f, alpha_f, status_f, y_f, yp_f, gbar, active, inactive, n,
                store, held, lru, info, X, sq, Xi, sqi):
    r"""The gradient of the set-aside variables, as :meth:`~svmtext.smo._solver._SMO.
    _reconstruct` makes it (kinds 4 to 6, the loop keeping the rows' data):
    :math:`-y_kG_k = y_kp_k - y_k\bar G_k - \sum_{j\ \mathrm{free}} \alpha_jy_jK_{kj}`
    for the set-aside :math:`k`, the free columns 256 at a time (cached whole columns
    read, partial ones completed and stored, the rest computed:
    :meth:`~svmtext.smo._cache.ColumnCache.complete_block`), the partial columns then
    dropped. The full arrays must be current; writes ``g_f`` at the set-aside rows."""
    ni, na = st[N_INACTIVE], st[NA]
    rows_i, rows_a = inactive[:ni], active[:na]
    free = np.flatnonzero(status_f == 0)
    g = np.empty(ni)
    for t in range(ni):
        k = rows_i[t]
        g[t] = yp_f[k] + gbar[k]
    for lo in range(0, len(free), 256):
        cols = free[lo:lo + 256]
        nc = len(cols)
        out = np.empty((ni, nc), dtype=X.dtype)      # (float64: kinds 4 to 6)
        whole = np.empty(nc, dtype=np.bool_)
        gather_full_columns(store, held, n, cols, rows_i, out, whole)
        partial = np.empty(nc, dtype=np.int64)
        missing = np.empty(nc, dtype=np.int64)
        n_partial = n_missing = 0
        for k in range(nc):               # (read before any column is stored)
            if whole[k]:
                continue
            if held[cols[k]]:
                partial[n_partial] = k
                n_partial += 1
            else:
                missing[n_missing] = k
                n_missing += 1
        if n_partial:
            part = partial[:n_partial]
            block = _block_into(st, fs, X, sq, Xi, sqi, cols, part, out)
            complete_partial(store, held, lru, info, n, cols[part], rows_a, rows_i, block,
                             np.arange(n_partial))
        if n_missing:
            _block_into(st, fs, X, sq, Xi, sqi, cols, missing[:n_missing], out)
        v = np.empty(nc, dtype=X.dtype)
        for k in range(nc):
            v[k] = alpha_f[cols[k]] * y_f[cols[k]]
        prod = matvec(_blas(st), out, v)
        for t in range(ni):
            g[t] -= prod[t]
    drop_partial(store, held, lru, info, n)
    for t in range(ni):
        g_f[rows_i[t]] = g[t]
    st[N_RECONSTRUCT] += 1


@jit
def _restore_full(st, g, alpha, status, y, d, Cv, active, g_f, alpha_f, status_f, y_f, d_f,
                  C_f, n):
    """After :func:`reconstruct`: every variable active, the buffers the full arrays."""
    for k in range(n):
        active[k] = k
        g[k], alpha[k], status[k] = g_f[k], alpha_f[k], status_f[k]
        y[k], d[k], Cv[k] = y_f[k], d_f[k], C_f[k]
    st[NA], st[N_INACTIVE] = n, 0
    st[INACTIVE_READY] = 1
    st[SYNC] = 1                          # (Python reads the active set at its next turn)


@jit
def _unshrink(st, fs, g, alpha, status, y, d, Cv, active, inactive, g_f, alpha_f, status_f,
              y_f, d_f, C_f, yp_f, gbar, store, held, lru, info, src, movable, up, low,
              g_up):
    """Restore the full problem in the loop, where it can (``st[RECONSTRUCT_BY_LOOP]``,
    at least two rows set aside); returns whether it did (else Python must)."""
    n, na = len(g_f), st[NA]
    if not st[RECONSTRUCT_BY_LOOP] or n - na < 2:
        return False
    Xi, sqi = src[2][na:n], src[3][na:n]
    reconstruct(st, fs, g_f, alpha_f, status_f, y_f, yp_f, gbar, active, inactive, n,
                store, held, lru, info, src[0], src[1], Xi, sqi)
    _restore_full(st, g, alpha, status, y, d, Cv, active, g_f, alpha_f, status_f, y_f, d_f,
                  C_f, n)
    _offsets(g, y, status, movable, up, low, g_up, n)
    return True


@jit
def run(st, fs, g, alpha, status, y, d, Cv, active, inactive, keep,
        g_f, alpha_f, status_f, y_f, d_f, C_f, gbar, yp_f,
        store, held, lru, info, KG, src, src_i, buf_i, buf_j, movable, up, low, g_up, score):
    r"""Run SMO iterations until done or until Python must serve a request.

    ``g, alpha, status, y, d, Cv`` are the active buffers (first ``st[NA]`` entries),
    ``*_f`` the full arrays, ``gbar`` :math:`-y_k\bar G_k` (global), ``yp_f`` the
    :math:`y_kp_k` of the linear term (for :func:`reconstruct`), ``store, held, lru,
    info`` the column cache, ``KG`` the Gram matrix when ``st[KIND] == 1``, ``src`` the
    data when the loop computes columns (:meth:`~svmtext.smo.KernelColumns.compiled_source`;
    its active rows change with shrinking, so the loop returns after it), ``src_i`` the
    same with the set-aside rows (valid while ``st[INACTIVE_READY]``), ``movable``
    all true, ``up, low, g_up, score`` the offsets and work arrays of the
    vectorised passes (:func:`svmtext.smo._core.dense_loop`). Returns a code (module
    docstring).
    """
    n = len(g_f)
    tol, tau = fs[TOL], fs[TAU]
    _offsets(g, y, status, movable, up, low, g_up, st[NA])
    dtype = buf_i.dtype
    Ki = view(np.int64(buf_i.ctypes.data), 0, dtype)
    bufs = np.empty(10, dtype=np.int64)       # the active buffers' addresses (_step)
    bufs[A_G], bufs[A_Y], bufs[A_ALPHA] = g.ctypes.data, y.ctypes.data, alpha.ctypes.data
    bufs[A_STATUS], bufs[A_CV], bufs[A_D] = status.ctypes.data, Cv.ctypes.data, d.ctypes.data
    bufs[A_MOVABLE], bufs[A_UP] = movable.ctypes.data, up.ctypes.data
    bufs[A_LOW], bufs[A_G_UP] = low.ctypes.data, g_up.ctypes.data
    kinds = (g.dtype, y.dtype, alpha.dtype, status.dtype, Cv.dtype, d.dtype, movable.dtype,
             up.dtype, low.dtype, g_up.dtype)
    cache_at = np.empty(5, dtype=np.int64)   # the cache's arrays and buffers (_cached)
    cache_at[C_HELD], cache_at[C_INFO] = held.ctypes.data, info.ctypes.data
    cache_at[C_ACTIVE] = active.ctypes.data
    cache_at[C_BUF_I], cache_at[C_BUF_J] = buf_i.ctypes.data, buf_j.ctypes.data
    cache_kinds = (held.dtype, info.dtype, active.dtype, dtype, dtype)
    while True:
        na = st[NA]
        phase = st[PHASE]
        if phase == P_TOP:
            if st[N_SELECT] >= st[MAXIT]:
                _write_back(active, na, n, g, alpha, status, g_f, alpha_f, status_f)
                return MAX_ITER
            if st[NULL_STEPS] and _flat_face(st, active, status, na):
                return NULL_STEP
            phase = P_SELECT
            if st[SHRINKING]:
                st[COUNTER] -= 1
                if st[COUNTER] == 0:
                    st[COUNTER] = st[INTERVAL]
                    phase = P_SHRINK
            st[PHASE] = phase
        if phase == P_SHRINK:
            m, M = extreme(g, y, status, na)
            st[PHASE] = phase = P_SHRINK2
            if st[UNSHRUNK] == 0 and m - M <= 10 * tol:
                st[UNSHRUNK] = 1
                if na < n:                    # restore the full problem first
                    _write_back(active, na, n, g, alpha, status, g_f, alpha_f, status_f)
                    if not _unshrink(st, fs, g, alpha, status, y, d, Cv, active, inactive,
                                     g_f, alpha_f, status_f, y_f, d_f, C_f, yp_f, gbar,
                                     store, held, lru, info, src, movable, up, low, g_up):
                        return NEED_UNSHRINK
                    na = n
        if phase == P_SHRINK2:
            m, M = extreme(g, y, status, na)
            n_keep = _shrink_out(g, y, status, na, m, M, keep)
            st[PHASE] = phase = P_SELECT
            if n_keep < na:
                _write_back(active, na, n, g, alpha, status, g_f, alpha_f, status_f)
                for t in range(n_keep):
                    q = keep[t]
                    active[t] = active[q]
                    g[t], alpha[t], status[t] = g[q], alpha[q], status[q]
                    y[t], d[t], Cv[t] = y[q], d[q], Cv[q]
                # the set-aside rows, in increasing order
                ni = 0
                t = 0
                for k in range(n):
                    if t < n_keep and active[t] == k:
                        t += 1
                    else:
                        inactive[ni] = k
                        ni += 1
                st[N_INACTIVE] = ni
                st[NA] = n_keep
                st[N_SHRINK] += 1
                _offsets(g, y, status, movable, up, low, g_up, n_keep)
                # cut the partial columns to the kept positions
                restrict_columns(store, held, lru, info, keep, n_keep, n)
                if st[ROWS_BY_LOOP]:              # the loop keeps the rows' data itself
                    _keep_rows(src, active, n_keep, inactive, ni)
                    st[SYNC] = 1                  # (Python reads the new active set later)
                    continue
                st[INACTIVE_READY] = 0            # src_i is of the rows set aside before
                return SHRUNK
        if phase in (P_SELECT, P_SELECT2):
            # max_up and wss2_scan, as the vectorised passes of dense_loop
            g_max = _core._max(g_up, na)
            i = _core._first(g_up, g_max, na) if g_max > -np.inf else -1
            j = -1
            gap = -np.inf
            if i >= 0:
                at = _cached(active[i], st, lru, cache_at, cache_kinds, na, n, C_BUF_I)
                Ki = view(at, na if at else 0, dtype)
                if len(Ki) < na:
                    Ki = _miss(active[i], st, fs, store, held, lru, info, KG, src, active, na,
                               buf_i)
                    if len(Ki) < na:
                        return _request(st)
                g_min, best = _core._scores_min(g, low, d, Ki, d[i], g_max, tau, score,
                                                na)
                if best < 0:
                    j = _core._first(score, best, na)
                gap = g_max - g_min
            fs[GAP] = gap
            if i < 0 or not gap >= tol or j < 0:
                if phase == P_SELECT and na < n:      # optimal on the active set:
                    st[PHASE] = P_SELECT2             # check the whole problem
                    _write_back(active, na, n, g, alpha, status, g_f, alpha_f, status_f)
                    if _unshrink(st, fs, g, alpha, status, y, d, Cv, active, inactive,
                                 g_f, alpha_f, status_f, y_f, d_f, C_f, yp_f, gbar,
                                 store, held, lru, info, src, movable, up, low, g_up):
                        continue
                    return NEED_UNSHRINK
                st[CONVERGED] = 1
                _write_back(active, na, n, g, alpha, status, g_f, alpha_f, status_f)
                return DONE
            if phase == P_SELECT2:
                st[COUNTER] = 1
            st[N_SELECT] += 1
            st[I], st[J] = i, j
            st[PHASE] = phase = P_STEP_I
        if phase == P_STEP_I:
            # the step reads column i again (a hit: it is the most recent), then column j
            c = active[st[I]]
            unlink(lru, c)
            append(lru, c)
            info[HITS] += 1
            st[PHASE] = phase = P_STEP_J
        if phase == P_STEP_J:
            i, j = st[I], st[J]
            at = _cached(active[j], st, lru, cache_at, cache_kinds, na, n, C_BUF_J)
            Kq = view(at, na if at else 0, dtype)
            if len(Kq) < na:
                Kq = _miss(active[j], st, fs, store, held, lru, info, KG, src, active, na, buf_j)
                if len(Kq) < na:
                    return _request(st)
            Kp = Ki                          # column i, as the selection read it
            if len(Kp) < na:                 # (read again when the loop resumes here)
                Kp = view(_column_at(active[i], lru, info, active, na, n, buf_i), na,
                              dtype)
            eta = _step(st, bufs, kinds, i, j, np.int64(Kp.ctypes.data),
                        np.int64(Kq.ctypes.data), tau, na, dtype)
            st[PHASE] = phase = P_TOP
            if eta > 0:
                if st[GBAR_WAS_I]:
                    was_i = status[i] != UPPER        # it changed
                    coef = (-1.0 if was_i else 1.0) * Cv[i] * y[i]
                    _gbar_update(gbar, active, na, coef, Kp)
                    if na < n and _gbar_inactive(st, fs, gbar, inactive, KG, src, src_i,
                                                 active[i], coef, buf_i, na, n):
                        st[PHASE] = P_GBAR_I
                        return NEED_INACTIVE
                phase = P_GBAR_I
        if phase == P_GBAR_I:
            j = st[J]
            st[PHASE] = phase = P_TOP
            if st[GBAR_WAS_J]:
                st[GBAR_WAS_J] = 0
                i = st[I]
                Kq = view(_column_at(active[j], lru, info, active, na, n, buf_j), na,
                              dtype)
                was_j = status[j] != UPPER        # it changed
                coef = (-1.0 if was_j else 1.0) * Cv[j] * y[j]
                _gbar_update(gbar, active, na, coef, Kq)
                if na < n and _gbar_inactive(st, fs, gbar, inactive, KG, src, src_i,
                                             active[j], coef, buf_j, na, n):
                    st[PHASE] = P_TOP
                    return NEED_INACTIVE


# The same loop on threads (SMOSVC(n_jobs=...)): twins of _compute, _miss and run, the
# same source with other globals, whose columns are the threaded kernels of _core
# (each row made by one thread in the same order: the same bits). They have their own
# names, so numba compiles and caches them apart, on their first use only.

def _twin(dispatcher, name, **globals_) -> object:
    f = python_function(dispatcher)
    return jit(renamed(f, name, f"{f.__name__}, with the threaded column kernels of "
                       ":mod:`svmtext.smo._core`.", **globals_))


_core_threads = types.ModuleType(f"{__name__}._core_threads")
_core_threads.kernel_column = _core.kernel_column_threads
_core_threads.sparse_dot_column = _core.sparse_dot_column_threads
_core_threads.rbf_from_dots = _core.rbf_from_dots_threads
_compute_threads = _twin(_compute, "_compute_threads", _core=_core_threads)
_miss_threads = _twin(_miss, "_miss_threads", _compute=_compute_threads)
_gbar_inactive_threads = _twin(_gbar_inactive, "_gbar_inactive_threads",
                               _compute=_compute_threads)
run_threads = _twin(run, "run_threads", _miss=_miss_threads,
                    _gbar_inactive=_gbar_inactive_threads)
