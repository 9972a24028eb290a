r"""The kernel-column cache: least recently used, bounded in megabytes (book: :ref:`sec-smo-cache`).

Each SMO step needs two columns :math:`K_{\cdot i}, K_{\cdot j}` of the Gram matrix.
Storing all :math:`n^2` entries is what decomposition avoids, but the same few
indices are chosen again and again (the support vectors), so the solver keeps the
most recently used columns up to a memory budget (LIBSVM's default is 100 MB,
scikit-learn's ``cache_size`` is 200 MB) and evicts the least recently used one when
a new one does not fit.

With shrinking (:ref:`sec-smo-shrinking`) the solver works on the *active* rows
``A``. A column computed while rows are set aside covers the active rows only
(a *partial* column); a column computed on all rows (a *full* column) is kept whole
and read at the active rows. When the full problem is restored, the partial columns
the gradient reconstruction needs are completed, by computing their missing rows only
(:meth:`ColumnCache.complete_block`), and the other partial columns are dropped.

The cache lives in arrays that the compiled SMO loop (:mod:`svmtext.smo._loop`) reads
and updates directly: the columns in a numba typed list (one entry per index, empty
when not cached), the recency order in a doubly linked list over the indices
(``lru[0]`` the predecessors, ``lru[1]`` the successors, ``n`` the list's head), and
the counters in ``info`` (bytes held, capacity, columns held, hits, misses, and the
active copies below). The same ``lru`` array holds, in its rows :data:`ADDRESS` and
:data:`LENGTH`, where each cached column's values are and how many there are: the
compiled loop reads a column through them (:func:`svmtext._numba.view`) without
taking a reference to its array (reference counts are atomic operations; on a small
problem they cost more than an iteration's arithmetic, :mod:`svmtext.smo._loop`).

*Active copies.* A full column read at the active rows is a gather of its values at
those rows, twice an iteration when both columns of the pair are full: on a small
problem, whose columns are all computed before the first shrink, that was a fifth of
an iteration's time. So at each shrink the cache sets aside one buffer, the *slab*
(``store[n]``, its address in ``lru[ADDRESS, n]``), with a slot of the active rows'
length for each full column it holds -- as many as fit in the room the budget has
left (``info[SLOTS]``; none when the cache is full). The first read of a full column
after the shrink gathers it into the next free slot (``info[COPIES]`` taken so far),
whose address goes into ``lru[ACTIVE, c]``; later reads use the copy. The copies are
the same values; the slab is not counted in the bytes held, so what is evicted and
when does not change. It lives until the next shrink or the restoring of the full
problem, so the cache holds at most its budget and the room left at the last shrink.
"""
from __future__ import annotations

import numpy as np
from numba.typed import List

from .._numba import jit

__all__ = ["ColumnCache", "NBYTES", "CAPACITY", "COUNT", "HITS", "MISSES", "COPIES", "SLOTS", "N_INFO",
           "ADDRESS", "LENGTH", "ACTIVE"]

NBYTES, CAPACITY, COUNT, HITS, MISSES, COPIES, SLOTS = range(7)
N_INFO = SLOTS + 1          # the length of ``info``
# rows of ``lru`` after the predecessors (0) and successors (1); the compiled loop
# (_loop.py) has them compiled in (numba's cache folder changes with every source file:
# svmtext._numba.CACHE_DIR)
ADDRESS, LENGTH, ACTIVE = 2, 3, 4


@jit
def _hold(lru, c, col):
    lru[ADDRESS, c] = np.int64(col.ctypes.data)
    lru[LENGTH, c] = len(col)


@jit
def _vacant(col):
    """An empty array for a slot whose column is dropped: a new one (an empty view
    ``col[:0]`` would keep ``col``'s memory alive as long as the slot holds it)."""
    return np.empty(0, dtype=col.dtype)


@jit
def _new_store(n, proto):
    """``n`` empty slots for the columns and one for the slab of active copies."""
    store = List()
    empty = proto[:0].copy()
    for _ in range(n + 1):
        store.append(empty)
    return store


@jit
def unlink(lru, c):
    """Take ``c`` out of the recency list."""
    p, q = lru[0, c], lru[1, c]
    lru[1, p] = q
    lru[0, q] = p


@jit
def append(lru, c):
    """Put ``c`` at the most recent end of the recency list."""
    head = lru.shape[1] - 1
    last = lru[0, head]
    lru[1, last] = c
    lru[0, c] = last
    lru[1, c] = head
    lru[0, head] = c


@jit
def touch(lru, c):
    """``c`` was used: it becomes the most recent."""
    unlink(lru, c)
    append(lru, c)


@jit
def store_column(store, held, lru, info, c, col):
    """Insert ``col`` as column ``c``, evicting least recently used columns until it
    fits (at least one other column is kept: the current pair)."""
    head = lru.shape[1] - 1
    if held[c]:
        unlink(lru, c)
        info[NBYTES] -= store[c].nbytes
        info[COUNT] -= 1
        held[c] = False
        lru[ACTIVE, c] = 0
    while info[COUNT] >= 2 and info[NBYTES] + col.nbytes > info[CAPACITY]:
        first = lru[1, head]
        unlink(lru, first)
        info[NBYTES] -= store[first].nbytes
        info[COUNT] -= 1
        held[first] = False
        store[first] = _vacant(col)
        lru[ADDRESS, first] = 0
        lru[ACTIVE, first] = 0
    store[c] = col
    _hold(lru, c, col)
    held[c] = True
    append(lru, c)
    info[NBYTES] += col.nbytes
    info[COUNT] += 1


@jit
def restrict_columns(store, held, lru, info, keep, n_keep, n):
    """Shrinking: partial columns (length ``< n``) are cut to the positions ``keep[:n_keep]``;
    a new slab of active copies is set aside (module docstring)."""
    head = lru.shape[1] - 1
    c = lru[1, head]
    total = 0
    n_full = 0
    while c != head:
        col = store[c]
        if len(col) != n:
            cut = np.empty(n_keep, dtype=col.dtype)
            for t in range(n_keep):
                cut[t] = col[keep[t]]
            store[c] = cut
            _hold(lru, c, cut)
            col = cut
        else:
            n_full += 1
        total += col.nbytes
        c = lru[1, c]
    info[NBYTES] = total
    _new_slab(store, lru, info, n_full, n_keep, n)


@jit
def _new_slab(store, lru, info, n_full, n_keep, n):
    """The slab of active copies: ``n_full`` slots of ``n_keep`` values, as many as fit in
    the budget's room (none with ``n_keep = 0``); the copies of before are forgotten."""
    slab = store[n]
    size = n_keep * slab.itemsize
    slots = min(n_full, max(info[CAPACITY] - info[NBYTES], 0) // size) if size > 0 else 0
    slab = np.empty(slots * n_keep, dtype=slab.dtype)
    store[n] = slab
    lru[ADDRESS, n] = np.int64(slab.ctypes.data)
    lru[ACTIVE, :] = 0
    info[COPIES] = 0
    info[SLOTS] = slots


@jit
def drop_partial(store, held, lru, info, n):
    """Unshrinking: partial columns and the active copies are dropped."""
    _new_slab(store, lru, info, 0, 0, n)
    head = lru.shape[1] - 1
    c = lru[1, head]
    while c != head:
        nxt = lru[1, c]
        col = store[c]
        if len(col) != n:
            unlink(lru, c)
            info[NBYTES] -= col.nbytes
            info[COUNT] -= 1
            held[c] = False
            store[c] = _vacant(col)
            lru[ADDRESS, c] = 0
        c = nxt


@jit
def get_stored(store, c):
    return store[c]


# ``out[:, k] = column`` writes one value per row of ``out``, each in another cache line;
# the two copies below write ``out`` a block of rows at a time instead (the same values)
_ROWS = 16
_GATHER = 128           # rows per block of gather_full_columns


@jit
def gather_full_columns(store, held, n, cols, rows, out, full):
    """``out[t, k] = K[rows[t], cols[k]]`` for the columns ``cols[k]`` held whole
    (``full[k]`` true); ``full[k]`` false for the others (partial or not held).

    A block of rows at a time: each column's values at those rows are gathered into a
    row of a small buffer (a column read once per block, the writes contiguous), which
    is then copied into ``out`` :data:`_ROWS` rows at a time (the same values)."""
    ks = np.empty(len(cols), dtype=np.int64)
    nk = 0
    for k in range(len(cols)):
        full[k] = held[cols[k]] and len(store[cols[k]]) == n
        if full[k]:
            ks[nk] = k
            nk += 1
    buf = np.empty((nk, _GATHER), dtype=out.dtype)
    for lo in range(0, len(rows), _GATHER):
        hi = min(lo + _GATHER, len(rows))
        for q in range(nk):
            col = store[cols[ks[q]]]
            for t in range(lo, hi):
                buf[q, t - lo] = col[rows[t]]
        for t0 in range(lo, hi, _ROWS):
            t1 = min(t0 + _ROWS, hi)
            for q in range(nk):
                k = ks[q]
                for t in range(t0, t1):
                    out[t, k] = buf[q, t - lo]


@jit
def complete_partial(store, held, lru, info, n, cols, rows, inactive, block, ks):
    """Store the partial columns ``cols`` (held, on the rows ``rows``) completed to
    full columns, their rows ``inactive`` from ``block[:, ks[k]]``, in the order of
    ``cols`` (every partial column is read before any is stored: storing evicts)."""
    parts = List()
    for k in range(len(cols)):
        parts.append(store[cols[k]])
    for k in range(len(cols)):
        part = parts[k]
        full = np.empty(n, dtype=part.dtype)
        for t in range(len(rows)):
            full[rows[t]] = part[t]
        for t in range(len(inactive)):
            full[inactive[t]] = block[t, ks[k]]
        store_column(store, held, lru, info, cols[k], full)


@jit
def scatter_columns(out, ks, block_T):
    """``out[:, ks[c]] = block_T[c]``: the rows of ``block_T`` become columns of ``out``."""
    for lo in range(0, out.shape[0], _ROWS):
        hi = min(lo + _ROWS, out.shape[0])
        for c in range(len(ks)):
            k = ks[c]
            for t in range(lo, hi):
                out[t, k] = block_T[c, t]


@jit
def lru_order(lru):
    head = lru.shape[1] - 1
    out = np.empty(head, dtype=np.int64)
    k = 0
    c = lru[1, head]
    while c != head:
        out[k] = c
        k += 1
        c = lru[1, c]
    return out[:k]


class ColumnCache:
    """LRU cache of kernel columns, read on the active rows.

    Parameters
    ----------
    provider : column provider
        See :mod:`svmtext.smo._columns`.
    cache_size : float
        Memory budget in megabytes (:math:`2^{20}` bytes). At least two columns are
        always kept (the current pair), whatever the budget.
    """

    def __init__(self, provider, cache_size=200.0):
        if not cache_size > 0:
            raise ValueError(f"cache_size must be positive; got {cache_size!r}")
        self.provider = provider
        self.n = n = provider.n
        self.capacity = float(cache_size) * 2 ** 20
        self.dtype = np.dtype(getattr(provider, "dtype", np.float64))
        self.store = _new_store(n, np.zeros(1, dtype=self.dtype))
        self.held = np.zeros(n, dtype=np.bool_)
        self.lru = np.full((5, n + 1), n, dtype=np.int64)
        self.lru[ADDRESS:] = 0
        self.info = np.zeros(N_INFO, dtype=np.int64)
        # a byte count is an integer: nbytes > capacity  <=>  nbytes > floor(capacity)
        self.info[CAPACITY] = int(min(self.capacity, 2.0 ** 62))
        self.rows = None            # active rows (global indices); None: all rows
        self._out = None            # complete_block's buffer

    # counters, read from the arrays the compiled loop updates
    hits = property(lambda self: int(self.info[HITS]))
    misses = property(lambda self: int(self.info[MISSES]))
    nbytes = property(lambda self: int(self.info[NBYTES]))

    @property
    def columns(self) -> list:
        """The cached indices, least recently used first."""
        return [int(c) for c in lru_order(self.lru)]

    def _compute(self, i):
        if hasattr(self.provider, "active_column"):
            col = self.provider.active_column(i)
        else:
            col = self.provider.active_columns([i])[:, 0]
        return np.ascontiguousarray(col, dtype=self.dtype)

    def column(self, i) -> np.ndarray:
        """The column :math:`K_{A, i}` on the active rows (do not modify it)."""
        i = int(i)
        if self.held[i]:
            touch(self.lru, i)
            self.info[HITS] += 1
            col = get_stored(self.store, i)
            if self.rows is not None and len(col) == self.n:
                return col[self.rows]           # a full column, read at the active rows
            return col
        self.info[MISSES] += 1
        col = self._compute(i)
        self._store(i, col)
        return col

    def _store(self, i, col):
        """Insert ``col``, evicting least recently used columns until it fits."""
        store_column(self.store, self.held, self.lru, self.info, int(i),
                     np.ascontiguousarray(col, dtype=self.dtype))

    def restrict(self, keep, rows) -> None:
        """Shrinking: the active rows become ``rows`` (positions ``keep`` of the old ones).

        Partial columns are cut to the new active rows; full columns are kept whole.
        """
        self.provider.set_active(rows)
        self.rows = np.asarray(rows)
        keep = np.asarray(keep, dtype=np.int64)
        restrict_columns(self.store, self.held, self.lru, self.info, keep, len(keep), self.n)

    def complete_block(self, cols, inactive) -> np.ndarray:
        """``K[inactive, cols]`` for restoring the full problem; completes partial columns.

        Full cached columns are read; partial ones (which cover exactly the active
        rows) get their rows ``inactive`` computed and are stored as full columns; the
        rest is computed. Call :meth:`reset` after the last block.
        """
        cols = np.asarray(cols, dtype=np.int64)
        inactive = np.asarray(inactive, dtype=np.int64)
        # in float64 whatever the columns' type (a float32 block in a product with
        # float64 coefficients is cast first, into new memory: the same values), on a
        # buffer kept from block to block (new memory costs page faults)
        size = len(inactive) * len(cols)
        if self._out is None or self._out.size < size:
            self._out = np.empty(size)
        out = self._out[:size].reshape(len(inactive), len(cols))
        whole = np.empty(len(cols), dtype=np.bool_)
        gather_full_columns(self.store, self.held, self.n, cols, inactive, out, whole)
        rest = np.flatnonzero(~whole)
        held = self.held[cols[rest]]
        partial, missing = rest[held], rest[~held]
        if len(partial):
            self._block_into(inactive, cols[partial], out, partial)
            complete_partial(self.store, self.held, self.lru, self.info, self.n,
                             cols[partial], np.asarray(self.rows, dtype=np.int64), inactive,
                             out, partial)
        if len(missing):
            self._block_into(inactive, cols[missing], out, missing)
        return out

    def _block_into(self, rows, cols, out, ks) -> None:
        """``out[:, ks] = K[rows, cols]``: the provider's :meth:`~svmtext.smo.KernelColumns.block_into`
        where it has one that applies, else its block copied in."""
        block_into = getattr(self.provider, "block_into", None)
        if block_into is None or not block_into(rows, cols, out, ks):
            scatter_columns(out, ks, self.provider.block(rows, cols).T)

    def reset(self) -> None:
        """Unshrinking: all rows become active; partial columns are dropped (and the
        buffer of :meth:`complete_block` released)."""
        self._out = None
        self.provider.set_active(None)
        self.rows = None
        drop_partial(self.store, self.held, self.lru, self.info, self.n)
