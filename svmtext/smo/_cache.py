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
and updates directly: the columns in the rows (*slots*) of one 2-D array ``store``
(a column of length :math:`\ell` fills the first :math:`\ell` entries of its row), the
slot of each index, its column's length and a stack of the free slots in ``held``
(``held[0, c]`` the slot of ``c``, -1 when not cached; ``held[1, c]`` the length;
``held[2, :info[NFREE]]`` the free slots), the recency order in a doubly linked list
over the indices (``lru[0]`` the predecessors, ``lru[1]`` the successors, ``n`` the
list's head), and the counters in ``info`` (bytes held, capacity, columns held, hits,
misses, free slots). A read is an index into the array: no object is created or
referenced, which the loop's every iteration would pay for. The budget counts the
bytes of the columns held, as before; there are as many slots as full columns fit
(all ``n`` when the whole matrix fits), and more are added
(:meth:`ColumnCache.reserve`) when shrinking lets more, shorter, columns fit.
"""
from __future__ import annotations

import numpy as np

from .._numba import jit

__all__ = ["ColumnCache", "NBYTES", "CAPACITY", "COUNT", "HITS", "MISSES", "NFREE"]

NBYTES, CAPACITY, COUNT, HITS, MISSES, NFREE = range(6)


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
def _release(held, info, c):
    """Column ``c`` leaves the cache: its slot is free again (the recency list is the caller's)."""
    info[NFREE] += 1
    held[2, info[NFREE] - 1] = held[0, c]
    held[0, c] = -1
    info[COUNT] -= 1


@jit
def take_slot(store, held, lru, info, c, length):
    """Make room for column ``c`` of ``length`` entries, evicting least recently used
    columns until it fits (at least one other column is kept: the current pair), and
    return its slot; the caller writes the column into ``store[slot, :length]``."""
    head = lru.shape[1] - 1
    size = store.itemsize
    if held[0, c] >= 0:
        unlink(lru, c)
        info[NBYTES] -= held[1, c] * size
        _release(held, info, c)
    while info[COUNT] >= 2 and info[NBYTES] + length * size > info[CAPACITY]:
        first = lru[1, head]
        unlink(lru, first)
        info[NBYTES] -= held[1, first] * size
        _release(held, info, first)
    if info[NFREE] == 0:
        raise RuntimeError("column cache: no free slot (ColumnCache.reserve was not called)")
    info[NFREE] -= 1
    slot = held[2, info[NFREE]]
    held[0, c] = slot
    held[1, c] = length
    append(lru, c)
    info[NBYTES] += length * size
    info[COUNT] += 1
    return slot


@jit
def store_column(store, held, lru, info, c, col):
    """Insert ``col`` as column ``c`` (:func:`take_slot`)."""
    slot = take_slot(store, held, lru, info, c, len(col))
    row = store[slot]
    for t in range(len(col)):
        row[t] = col[t]


@jit
def stored(store, held, c):
    """Column ``c`` as stored (a view of its slot)."""
    return store[held[0, c], :held[1, c]]


@jit
def restrict_columns(store, held, lru, info, keep, n_keep, n):
    """Shrinking: partial columns (length ``< n``) are cut to the positions ``keep[:n_keep]``
    (in place: ``keep`` increases, so ``keep[t] >= t``)."""
    head = lru.shape[1] - 1
    c = lru[1, head]
    total = 0
    while c != head:
        if held[1, c] != n:
            row = store[held[0, c]]
            for t in range(n_keep):
                row[t] = row[keep[t]]
            held[1, c] = n_keep
        total += held[1, c] * store.itemsize
        c = lru[1, c]
    info[NBYTES] = total


@jit
def drop_partial(store, held, lru, info, n):
    """Unshrinking: partial columns are dropped."""
    head = lru.shape[1] - 1
    c = lru[1, head]
    while c != head:
        nxt = lru[1, c]
        if held[1, c] != n:
            unlink(lru, c)
            info[NBYTES] -= held[1, c] * store.itemsize
            _release(held, info, c)
        c = nxt


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
        self.lru = np.full((2, n + 1), n, dtype=np.int64)
        self.info = np.zeros(6, dtype=np.int64)
        # a byte count is an integer: nbytes > capacity  <=>  nbytes > floor(capacity)
        self.info[CAPACITY] = int(min(self.capacity, 2.0 ** 62))
        # as many slots as full columns fit, and two for the pair kept over budget
        full = self.info[CAPACITY] // max(n * self.dtype.itemsize, 1)
        slots = int(min(n, max(full + 2, 4)))
        self.store = np.empty((slots, n), dtype=self.dtype)
        self.held = np.full((3, n), -1, dtype=np.int64)
        self.held[2, :slots] = np.arange(slots)[::-1]
        self.info[NFREE] = slots
        self.rows = None            # active rows (global indices); None: all rows

    def reserve(self) -> bool:
        """At least two free slots (an iteration stores at most two columns), or all
        ``n``: the store is doubled when needed. Returns whether it was replaced."""
        have = len(self.store)
        if self.info[NFREE] >= 2 or have == self.n:
            return False
        slots = min(self.n, 2 * have)
        store = np.empty((slots, self.n), dtype=self.dtype)
        store[:have] = self.store
        self.store = store
        k = int(self.info[NFREE])
        self.held[2, k:k + slots - have] = np.arange(slots - 1, have - 1, -1)
        self.info[NFREE] += slots - have
        return True

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
        if self.held[0, i] >= 0:
            touch(self.lru, i)
            self.info[HITS] += 1
            col = stored(self.store, self.held, i)
            if self.rows is not None and len(col) == self.n:
                return col[self.rows]           # a full column, read at the active rows
            return col
        self.info[MISSES] += 1
        col = self._compute(i)
        self._store(i, col)
        return col

    def _store(self, i, col):
        """Insert ``col``, evicting least recently used columns until it fits."""
        self.reserve()
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
        cols = np.asarray(cols)
        out = np.empty((len(inactive), len(cols)), dtype=self.provider.dtype)
        partial, missing = {}, []
        for k, i in enumerate(cols):
            if self.held[0, int(i)] < 0:
                missing.append(k)
                continue
            col = stored(self.store, self.held, int(i))
            if len(col) == self.n:
                out[:, k] = col[inactive]
            else:
                partial[k] = col.copy()     # storing a completed column may evict it
        if partial:
            ks = list(partial)
            block = self.provider.block(inactive, cols[ks])
            out[:, ks] = block
            for c, k in enumerate(ks):
                full = np.empty(self.n, dtype=block.dtype)
                full[self.rows] = partial[k]
                full[inactive] = block[:, c]
                self._store(int(cols[k]), full)
        if missing:
            out[:, missing] = self.provider.block(inactive, cols[missing])
        return out

    def reset(self) -> None:
        """Unshrinking: all rows become active; partial columns are dropped."""
        self.provider.set_active(None)
        self.rows = None
        drop_partial(self.store, self.held, self.lru, self.info, self.n)
