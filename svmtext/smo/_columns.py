r"""Kernel columns on demand: SMO never forms the whole Gram matrix (book: :ref:`sec-smo-cache`).

A *column provider* hands the solver blocks :math:`K_{RC} = (k(x_r, x_c))_{r\in R, c\in C}`
of the Gram matrix. Two providers are defined here:

* :class:`GramColumns` reads blocks of a precomputed ``(n, n)`` matrix ``K``;
* :class:`KernelColumns` computes them from the data ``X`` with one matrix product per
  block (BLAS, through :mod:`svmtext.kernels`), e.g. for the Gaussian kernel

  .. math::

      K_{rc} = \exp\bigl(-\gamma(\lVert x_r\rVert^2 + \lVert x_c\rVert^2
      - 2\langle x_r, x_c\rangle)\bigr).

Both count the kernel values they produce (``n_kernel_evals``) and keep a compact copy
of the *active* rows (see shrinking, :ref:`sec-smo-shrinking`), so that a column of the
active problem costs one product with the active rows only.
"""
from __future__ import annotations

import numpy as np

from .._validation import check_gram
from ..kernels import get_kernel, kernel_diag, rbf_kernel

__all__ = ["GramColumns", "KernelColumns", "as_column_provider"]


class GramColumns:
    """Column provider for a precomputed Gram matrix ``K`` (shape ``(n, n)``).

    Parameters
    ----------
    K : (n, n) array
        Gram matrix of a positive semi-definite kernel.
    dtype : numpy dtype, default float64
        Type of the returned columns.
    """

    def __init__(self, K, dtype=np.float64):
        K = check_gram(K, dtype=dtype)
        self.K = K
        self.n = K.shape[0]
        self.dtype = K.dtype
        self.n_kernel_evals = 0
        self._rows = None

    def diag(self):
        """The diagonal :math:`K_{ii}` (float64)."""
        return np.diag(self.K).astype(np.float64)

    def set_active(self, rows):
        """Restrict :meth:`active_columns` to ``rows`` (``None``: all rows)."""
        self._rows = None if rows is None else np.asarray(rows)

    def active_columns(self, cols):
        """``K[active, cols]`` as an array of shape ``(n_active, len(cols))``."""
        block = self.K[:, cols] if self._rows is None else self.K[np.ix_(self._rows, cols)]
        self.n_kernel_evals += block.size
        return block

    def block(self, rows, cols):
        """``K[rows, cols]`` for index arrays ``rows`` and ``cols``."""
        out = self.K[np.ix_(rows, cols)]
        self.n_kernel_evals += out.size
        return out


class KernelColumns:
    """Column provider that evaluates a kernel on data ``X``, a block at a time.

    Parameters
    ----------
    X : (n, d) array
    kernel : {'linear', 'poly', 'rbf'} or callable, default 'rbf'
        A callable must map ``(A, B)`` to the matrix ``k(a_i, b_j)``.
    gamma, degree, coef0 : float
        Kernel parameters (``gamma`` already a number).
    dtype : numpy dtype, default float64
        Precision of the kernel columns. LIBSVM stores :math:`Q` in single
        precision (``float32``), which halves the memory and the time of a column.
    """

    def __init__(self, X, kernel="rbf", *, gamma=1.0, degree=3, coef0=0.0,
                 dtype=np.float64):
        X = np.asarray(X)
        if X.ndim != 2:
            raise ValueError(f"X must be a 2-D array; got shape {X.shape}")
        if not np.all(np.isfinite(X)):
            raise ValueError("X contains NaN or infinite values")
        self.kernel = kernel
        self.gamma, self.degree, self.coef0 = gamma, degree, coef0
        self.dtype = np.dtype(dtype)
        self.X = np.ascontiguousarray(X, dtype=self.dtype)
        self.n = len(X)
        self.sq = np.einsum("ij,ij->i", self.X, self.X)
        self._k = get_kernel(kernel, gamma=gamma, degree=degree, coef0=coef0)
        self._diag = kernel_diag(X, kernel, gamma=gamma, degree=degree, coef0=coef0)
        self.n_kernel_evals = 0
        self.set_active(None)

    def diag(self):
        """The diagonal :math:`k(x_i, x_i)` (float64)."""
        return np.asarray(self._diag, dtype=np.float64)

    def set_active(self, rows):
        """Keep a contiguous copy of the active rows ``X[rows]`` (``None``: all rows)."""
        self._rows = None if rows is None else np.asarray(rows)
        self._Xa = self.X if rows is None else self.X[rows]
        self._sqa = self.sq if rows is None else self.sq[rows]

    def _kernel(self, A, sqA, B, sqB):
        if self.kernel == "rbf":     # the stored squared norms save a pass over A
            return rbf_kernel(A, B, gamma=self.gamma, X_sq=sqA, Y_sq=sqB)
        return np.asarray(self._k(A, B), dtype=self.dtype)

    def active_columns(self, cols):
        """``K[active, cols]``, shape ``(n_active, len(cols))``: one matrix product."""
        cols = np.atleast_1d(cols)
        out = self._kernel(self._Xa, self._sqa, self.X[cols], self.sq[cols])
        self.n_kernel_evals += out.size
        return out

    def block(self, rows, cols):
        """``K[rows, cols]`` for index arrays ``rows`` and ``cols``."""
        rows, cols = np.atleast_1d(rows), np.atleast_1d(cols)
        out = self._kernel(self.X[rows], self.sq[rows], self.X[cols], self.sq[cols])
        self.n_kernel_evals += out.size
        return out


def as_column_provider(K_or_provider):
    """A column provider for a Gram matrix (ndarray) or an object with ``block``."""
    if hasattr(K_or_provider, "active_columns") and hasattr(K_or_provider, "block"):
        return K_or_provider
    return GramColumns(K_or_provider)
