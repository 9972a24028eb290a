r"""The kernel-column cache: least recently used, bounded in megabytes (book: :ref:`sec-smo-cache`).

Each SMO step needs two columns :math:`K_{\cdot i}, K_{\cdot j}` of the Gram matrix.
Storing all :math:`n^2` entries is what decomposition avoids, but the same few
indices are chosen again and again (the free support vectors), so the solver keeps
the most recently used columns up to a memory budget (LIBSVM's default is 100 MB,
scikit-learn's ``cache_size`` is 200 MB) and evicts the least recently used one when
a new column does not fit.

Columns are stored for the *active* rows only. When shrinking removes rows, every
cached column is cut down to the new active rows (:meth:`ColumnCache.restrict`).
When the full problem is restored (:meth:`ColumnCache.reset`), the cached columns
are kept as *partial* columns and completed on their next use by computing only
the missing rows, as LIBSVM does.
"""
from __future__ import annotations

from collections import OrderedDict

import numpy as np

__all__ = ["ColumnCache"]


class ColumnCache:
    """LRU cache of kernel columns :math:`K_{A, i}` on the active rows ``A``.

    Parameters
    ----------
    provider : column provider
        See :mod:`svmtext.smo._columns`.
    cache_mb : float
        Memory budget in megabytes (:math:`2^{20}` bytes). At least two columns are
        always kept (the current pair), whatever the budget.
    """

    def __init__(self, provider, cache_mb=200.0):
        if not cache_mb > 0:
            raise ValueError(f"cache_mb must be positive; got {cache_mb!r}")
        self.provider = provider
        self.capacity = float(cache_mb) * 2 ** 20
        self.columns: OrderedDict[int, np.ndarray] = OrderedDict()
        self.partial: OrderedDict[int, np.ndarray] = OrderedDict()
        self._old_pos = self._new_pos = None
        self.nbytes = 0
        self.hits = 0
        self.misses = 0

    def column(self, i):
        """The column :math:`K_{A, i}` (a cached array: do not modify it)."""
        col = self.columns.get(i)
        if col is not None:
            self.columns.move_to_end(i)
            self.hits += 1
            return col
        self.misses += 1
        part = self.partial.pop(i, None)
        if part is None:
            col = self.provider.active_columns([i])[:, 0].copy()
        else:               # complete a column cached before the rows were restored
            self.nbytes -= part.nbytes
            col = np.empty(len(self._old_pos) + len(self._new_pos), dtype=part.dtype)
            col[self._old_pos] = part
            col[self._new_pos] = self.provider.extra_columns([i])[:, 0]
        self._evict(col.nbytes)
        self.columns[i] = col
        return col

    def complete(self, cols, block):
        """Complete the partial columns among ``cols`` with ``block`` (their missing rows)."""
        for k, i in enumerate(cols):
            part = self.partial.pop(int(i), None)
            if part is None:
                continue
            col = np.empty(len(self._old_pos) + len(self._new_pos), dtype=part.dtype)
            col[self._old_pos] = part
            col[self._new_pos] = block[:, k]
            self.nbytes -= part.nbytes
            self._evict(col.nbytes)
            self.columns[int(i)] = col

    def _evict(self, new_bytes):
        """Drop partial columns, then least recently used ones, until ``new_bytes`` fit."""
        while (self.nbytes + new_bytes > self.capacity
               and len(self.columns) + len(self.partial) >= 2):
            store = self.partial if self.partial else self.columns
            _, old = store.popitem(last=False)
            self.nbytes -= old.nbytes
        self.nbytes += new_bytes

    def restrict(self, keep, rows):
        """Shrinking: keep positions ``keep`` of every column; the active rows become ``rows``."""
        self.provider.set_active(rows)
        self.partial.clear()
        self.nbytes = 0
        for i, col in self.columns.items():
            new = col[keep]
            self.columns[i] = new
            self.nbytes += new.nbytes

    def reset(self, n, previous):
        """Unshrinking: all ``n`` rows become active; the rows were ``previous``.

        Cached columns become partial columns, completed on their next use.
        """
        self.provider.set_active(None)
        for col in self.partial.values():
            self.nbytes -= col.nbytes
        self.partial = self.columns
        self.columns = OrderedDict()
        previous = np.asarray(previous)
        self._old_pos = previous
        self._new_pos = np.setdiff1d(np.arange(n), previous, assume_unique=True)
        self.provider.set_extra(self._new_pos)
