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
"""
from __future__ import annotations

from collections import OrderedDict

import numpy as np

__all__ = ["ColumnCache"]


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
        self.n = provider.n
        self.capacity = float(cache_size) * 2 ** 20
        self.columns: OrderedDict[int, np.ndarray] = OrderedDict()
        self.rows = None            # active rows (global indices); None: all rows
        self.nbytes = 0
        self.hits = 0
        self.misses = 0

    def column(self, i):
        """The column :math:`K_{A, i}` on the active rows (do not modify it)."""
        col = self.columns.get(i)
        if col is not None:
            self.columns.move_to_end(i)
            self.hits += 1
            if self.rows is not None and len(col) == self.n:
                return col[self.rows]           # a full column, read at the active rows
            return col
        self.misses += 1
        if hasattr(self.provider, "active_column"):
            col = self.provider.active_column(i)
        else:
            col = self.provider.active_columns([i])[:, 0].copy()
        self._store(i, col)
        return col

    def _store(self, i, col):
        """Insert ``col``, evicting least recently used columns until it fits."""
        old = self.columns.pop(i, None)
        if old is not None:
            self.nbytes -= old.nbytes
        while self.columns and self.nbytes + col.nbytes > self.capacity \
                and len(self.columns) >= 2:
            _, out = self.columns.popitem(last=False)
            self.nbytes -= out.nbytes
        self.columns[i] = col
        self.nbytes += col.nbytes

    def restrict(self, keep, rows):
        """Shrinking: the active rows become ``rows`` (positions ``keep`` of the old ones).

        Partial columns are cut to the new active rows; full columns are kept whole.
        """
        self.provider.set_active(rows)
        self.rows = np.asarray(rows)
        self.nbytes = 0
        for i, col in self.columns.items():
            if len(col) != self.n:
                col = self.columns[i] = col[keep]
            self.nbytes += col.nbytes

    def complete_block(self, cols, inactive):
        """``K[inactive, cols]`` for restoring the full problem; completes partial columns.

        Full cached columns are read; partial ones (which cover exactly the active
        rows) get their rows ``inactive`` computed and are stored as full columns; the
        rest is computed. Call :meth:`reset` after the last block.
        """
        cols = np.asarray(cols)
        out = np.empty((len(inactive), len(cols)), dtype=self.provider.dtype)
        partial, missing = {}, []
        for k, i in enumerate(cols):
            col = self.columns.get(int(i))
            if col is None:
                missing.append(k)
            elif len(col) == self.n:
                out[:, k] = col[inactive]
            else:
                partial[k] = col        # held here: storing a completed column may evict it
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

    def reset(self):
        """Unshrinking: all rows become active; partial columns are dropped."""
        self.provider.set_active(None)
        self.rows = None
        for i in [i for i, col in self.columns.items() if len(col) != self.n]:
            self.nbytes -= self.columns.pop(i).nbytes
