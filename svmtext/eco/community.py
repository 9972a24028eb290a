r"""The surviving species of an online ecosystem and their Gram matrix
(book: :ref:`sec-eco-online`).

Only the support set :math:`S` is kept: its points, labels, abundances
:math:`\alpha_S` and Gram matrix :math:`K_{SS}`. An invader appends one row and
column (:math:`O(|S|\,d)` kernel evaluations), an extinction deletes rows
(:math:`O(|S|^2)` copying); storage grows by doubling, so appends are amortised
:math:`O(|S|)` beyond the kernel row itself.
"""
from __future__ import annotations

import numpy as np

__all__ = ["Community"]


class Community:
    """Growable store of support points with their Gram matrix.

    Parameters
    ----------
    kernel : callable
        ``k(X, Y) -> K``.
    diag : callable
        ``diag(X) -> k(x_i, x_i)``.
    d : int
        Number of features.
    """

    def __init__(self, kernel, diag, d, capacity=64):
        self.kernel = kernel
        self.diag = diag
        self.m = 0
        self._X = np.empty((capacity, d))
        self._y = np.empty(capacity)
        self._alpha = np.empty(capacity)
        self._idx = np.empty(capacity, dtype=np.int64)
        self._K = np.empty((capacity, capacity))

    # views on the live part
    @property
    def X(self):
        return self._X[:self.m]

    @property
    def y(self):
        return self._y[:self.m]

    @property
    def alpha(self):
        return self._alpha[:self.m]

    @property
    def idx(self):
        return self._idx[:self.m]

    @property
    def K(self):
        return self._K[:self.m, :self.m]

    def kernel_rows(self, Xnew):
        """:math:`K(x, x_j)` for new points ``Xnew`` against the community."""
        return self.kernel(np.atleast_2d(Xnew), self.X)

    def _grow(self, need):
        cap = len(self._y)
        if need <= cap:
            return
        new = max(need, 2 * cap)
        m = self.m
        for name in ("_X", "_y", "_alpha", "_idx"):
            old = getattr(self, name)
            arr = np.empty((new,) + old.shape[1:], dtype=old.dtype)
            arr[:m] = old[:m]
            setattr(self, name, arr)
        K = np.empty((new, new))
        K[:m, :m] = self._K[:m, :m]
        self._K = K

    def append(self, Xnew, ynew, idx, rows=None, alpha=0.0):
        """Add invaders at abundance ``alpha`` (kernel ``rows`` if already known)."""
        Xnew = np.atleast_2d(Xnew)
        p, m = len(Xnew), self.m
        if rows is None:
            rows = self.kernel_rows(Xnew)
        self._grow(m + p)
        self._X[m:m + p] = Xnew
        self._y[m:m + p] = ynew
        self._alpha[m:m + p] = alpha
        self._idx[m:m + p] = idx
        self._K[m:m + p, :m] = rows
        self._K[:m, m:m + p] = rows.T
        self._K[m:m + p, m:m + p] = self.kernel(Xnew, Xnew)
        self.m = m + p

    def set_alpha(self, alpha):
        self._alpha[:self.m] = alpha

    def keep(self, mask):
        """Keep only the species where ``mask`` is true (extinction of the rest)."""
        keep = np.flatnonzero(mask)
        if len(keep) == self.m:
            return
        p = len(keep)
        for name in ("_X", "_y", "_alpha", "_idx"):
            arr = getattr(self, name)
            arr[:p] = arr[keep]
        self._K[:p, :p] = self._K[np.ix_(keep, keep)]
        self.m = p
