r"""The kernel-column cache: least recently used, bounded in megabytes (book: :ref:`sec-smo-cache`).

Each SMO step needs two columns :math:`K_{\cdot i}, K_{\cdot j}` of the Gram matrix.
Storing all :math:`n^2` entries is what decomposition avoids, but the same few
indices are chosen again and again (the free support vectors), so the solver keeps
the most recently used columns up to a memory budget (LIBSVM's default is 100 MB,
scikit-learn's ``cache_size`` is 200 MB) and evicts the least recently used one when
a new column does not fit.

Columns are stored for the *active* rows only. When shrinking removes rows, every
cached column is cut down to the new active rows (:meth:`ColumnCache.restrict`);
when the full problem is restored the cache is emptied.
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
        col = self.provider.active_columns([i])[:, 0].copy()
        while self.columns and (self.nbytes + col.nbytes > self.capacity
                                and len(self.columns) >= 2):
            _, old = self.columns.popitem(last=False)
            self.nbytes -= old.nbytes
        self.columns[i] = col
        self.nbytes += col.nbytes
        return col

    def restrict(self, keep, rows):
        """Shrinking: keep positions ``keep`` of every column; the active rows become ``rows``."""
        self.provider.set_active(rows)
        self.nbytes = 0
        for i, col in self.columns.items():
            new = col[keep]
            self.columns[i] = new
            self.nbytes += new.nbytes

    def reset(self, rows=None):
        """Unshrinking: empty the cache; the active rows become ``rows`` (``None``: all)."""
        self.provider.set_active(rows)
        self.columns.clear()
        self.nbytes = 0
