r"""The surviving species of an online ecosystem and their Gram matrix
(book: :ref:`sec-eco-online`).

Only the support set :math:`S` is kept: its points, labels, abundances
:math:`\alpha_S`, Gram matrix :math:`K_{SS}` and the gradient
SMO's :math:`-y_kG_k = y_k - \sum_l \alpha_l y_l K_{kl}` (the array ``g``) that
warm-starts the next re-equilibration. An invader appends one row and column (:math:`O(|S|\,d)`
kernel evaluations); storage grows geometrically (by a quarter), so appends are amortised
:math:`O(|S|)` beyond the kernel row itself. An extinct species is first only
marked (``live = False``, :math:`\alpha = 0`, it can no longer move); the rows of
extinct species are deleted together once they are an eighth of the storage
(one :math:`O(|S|^2)` copy for many extinctions).
"""
from __future__ import annotations

import numpy as np

from ..kernels import rbf_kernel

__all__ = ["Community", "RowPrefetch"]


class Community:
    r"""Growable store of support points with their Gram matrix.

    Parameters
    ----------
    kernel : callable
        ``k(X, Y) -> K``.
    diag : callable
        ``diag(X) -> k(x_i, x_i)``.
    d : int
        Number of features.
    rbf_gamma : float, optional
        For the RBF kernel: new kernel rows are then computed from stored squared
        norms, :math:`K(x, x_j) = \exp(-\gamma(\lVert x\rVert^2 + \lVert x_j\rVert^2
        - 2\langle x, x_j\rangle))`, one matrix-vector product per point.
    """

    def __init__(self, kernel, diag, d, capacity=64, rbf_gamma=None):
        self.kernel = kernel
        self.diag = diag
        self.rbf_gamma = rbf_gamma
        self.m = 0
        self._X = np.empty((capacity, d))
        self._y = np.empty(capacity)
        self._alpha = np.empty(capacity)
        self._idx = np.empty(capacity, dtype=np.int64)
        self._g = np.empty(capacity)
        self._sq = np.empty(capacity)
        self._live = np.empty(capacity, dtype=bool)
        self._K = np.empty((capacity, capacity))
        self.n_dead = 0
        self.version = 0          # bumped whenever stored rows are deleted

    # views on the live part
    @property
    def X(self) -> np.ndarray:
        return self._X[:self.m]

    @property
    def y(self) -> np.ndarray:
        return self._y[:self.m]

    @property
    def alpha(self) -> np.ndarray:
        return self._alpha[:self.m]

    @property
    def idx(self) -> np.ndarray:
        return self._idx[:self.m]

    @property
    def g(self) -> np.ndarray:
        return self._g[:self.m]

    @property
    def live(self) -> np.ndarray:
        return self._live[:self.m]

    @property
    def K(self) -> np.ndarray:
        return self._K[:self.m, :self.m]

    def kernel_rows(self, Xnew, start=0, X_sq=None) -> np.ndarray:
        """:math:`K(x, x_j)` for new points ``Xnew`` against members ``start:m``
        (``X_sq``: the squared norms of ``Xnew``, if known)."""
        Xnew = np.atleast_2d(Xnew)
        if self.rbf_gamma is None:
            return self.kernel(Xnew, self.X[start:])
        return rbf_kernel(Xnew, self.X[start:], gamma=self.rbf_gamma,
                          Y_sq=self._sq[start:self.m], X_sq=X_sq)

    def _grow(self, need):
        cap = len(self._y)
        if need <= cap:
            return
        new = max(need, cap + cap // 4 + 16)
        m = self.m
        for name in ("_X", "_y", "_alpha", "_idx", "_g", "_sq", "_live"):
            old = getattr(self, name)
            arr = np.empty((new,) + old.shape[1:], dtype=old.dtype)
            arr[:m] = old[:m]
            setattr(self, name, arr)
        K = np.empty((new, new))
        K[:m, :m] = self._K[:m, :m]
        self._K = K

    def append(self, Xnew, ynew, idx, rows=None) -> None:
        r"""Add invaders at abundance :math:`\alpha = 0` (kernel ``rows`` against the
        stored species if already known).

        Their gradient is :math:`g = y - \sum_l \alpha_l y_l K(x, x_l)` from ``rows``
        (:func:`~svmtext.eco._compiled.join`).
        """
        from ._compiled import join                     # compiled on first use
        Xnew = np.atleast_2d(Xnew)
        p, m = len(Xnew), self.m
        if rows is None:
            rows = self.kernel_rows(Xnew)
        self._grow(m + p)
        self._X[m:m + p] = Xnew
        self._idx[m:m + p] = idx
        self._sq[m:m + p] = np.einsum("ij,ij->i", Xnew, Xnew)
        y_new = np.empty(p)
        y_new[:] = ynew
        K_new = self.diag(Xnew)[:, None] if p == 1 else self.kernel(Xnew, Xnew)
        join(self._K, self._y, self._alpha, self._g, self._live, m,
             np.asarray(rows, dtype=float), y_new, np.asarray(K_new, dtype=float))
        self.m = m + p

    def set_alpha(self, alpha) -> None:
        """Set the abundances and recompute the gradient exactly."""
        self._alpha[:self.m] = alpha
        self.refresh_gradient()

    def refresh_gradient(self) -> None:
        r""":math:`g = y - K(\alpha \odot y)` over the stored species."""
        self._g[:self.m] = self.y - self.K @ (self.alpha * self.y)

    def reequilibrate(self, C, tol=1e-3) -> tuple:
        r"""The steady state: SMO on the stored species, warm-started at the current
        abundances and gradient (invaders at :math:`\alpha = 0`); extinct species never
        move (:func:`~svmtext.eco._compiled.steady_state`: the steps of
        :func:`~svmtext.smo.smo_dense`, vectorised). Species left at :math:`\alpha = 0`
        go extinct: they stop moving and their rows are deleted later (:meth:`compact`).

        Returns ``(n_iter, gap, b)``, ``b`` the bias of the live species
        (:func:`~svmtext.kkt.bias_from_gradient`: the mean over free species, else the
        midpoint of :math:`[m(\alpha), M(\alpha)]`).
        """
        from ._compiled import settle                   # compiled on first use
        n_iter, gap, b, n_extinct = settle(self._K, self._y, self._alpha, self._g,
                                           self._live, self.m, float(C), float(tol))
        self._count_dead(n_extinct)
        return n_iter, gap, b

    def _count_dead(self, n):
        self.n_dead += n
        if self.n_dead > max(16, self.m // 8):
            self.compact()

    def compact(self) -> None:
        r"""Delete the rows of extinct species (their :math:`\alpha = 0`: no gradient changes)."""
        if self.n_dead:
            self.keep(self.live)

    def keep(self, mask) -> None:
        """Keep only the species where ``mask`` is true (extinction of the rest)."""
        keep = np.flatnonzero(mask)
        if len(keep) == self.m:
            return
        p = len(keep)
        for name in ("_X", "_y", "_alpha", "_idx", "_g", "_sq", "_live"):
            arr = getattr(self, name)
            arr[:p] = arr[keep]
        self._K[:p, :p] = self._K[np.ix_(keep, keep)]
        self.m = p
        self.version += 1
        self.n_dead = int(np.sum(~self.live))


class RowPrefetch:
    """Kernel rows of the coming stream points, computed a block at a time.

    The invasion test of point :math:`t` needs :math:`K(x_t, x_j)` for every
    stored species :math:`j`. Those values do not depend on the abundances, so
    the rows of the next ``block`` points are computed together (one matrix
    product instead of ``block`` matrix-vector products, reading the stored
    points once). A species that joins later gets its column for the rest of the
    block at once (one matrix-vector product per invader, written into room kept
    for it); a deletion of stored rows starts a new block.
    """

    def __init__(self, community, X, block=64):
        self.com, self.X, self.block = community, X, block
        self.lo = self.hi = 0
        self.rows, self.sq, self.filled, self.version = None, None, 0, -1

    def row(self, t) -> np.ndarray:
        """``K(x_t, x_j)`` for all stored species, shape ``(1, m)`` (a view)."""
        com, m = self.com, self.com.m
        if (not self.lo <= t < self.hi or com.version != self.version
                or m > self.rows.shape[1]):
            self.lo, self.hi = t, min(t + self.block, len(self.X))
            Xb = self.X[self.lo:self.hi]
            self.sq = np.einsum("ij,ij->i", Xb, Xb)
            self.rows = np.empty((self.hi - self.lo, m + self.block))
            self.rows[:, :m] = com.kernel_rows(Xb, X_sq=self.sq)
            self.filled, self.version = m, com.version
        elif m > self.filled:         # columns of the species that joined since
            self.rows[t - self.lo:, self.filled:m] = com.kernel_rows(
                self.X[t:self.hi], start=self.filled, X_sq=self.sq[t - self.lo:])
            self.filled = m
        return self.rows[t - self.lo, :m][None, :]
