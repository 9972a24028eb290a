r"""Kernel columns on demand: SMO never forms the whole Gram matrix (book: :ref:`sec-smo-cache`).

A *column provider* hands the solver blocks :math:`K_{RC} = (k(x_r, x_c))_{r\in R, c\in C}`
of the Gram matrix. Two providers are defined here:

* :class:`GramColumns` reads blocks of a precomputed ``(n, n)`` matrix ``K``;
* :class:`KernelColumns` computes them from the data ``X``, with one matrix product per
  block (BLAS, through :mod:`svmtext.kernels`) or, for data with many zeros, from the
  non-zero features of each column's point only; e.g. for the Gaussian kernel

  .. math::

      K_{rc} = \exp\bigl(-\gamma(\lVert x_r\rVert^2 + \lVert x_c\rVert^2
      - 2\langle x_r, x_c\rangle)\bigr).

Both count the kernel values they produce (``n_kernel_evals``) and keep a compact copy
of the *active* rows (see shrinking, :ref:`sec-smo-shrinking`), so that a column of the
active problem costs one product with the active rows only.
"""
from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from scipy.sparse import csr_matrix

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

    def diag(self) -> np.ndarray:
        """The diagonal :math:`K_{ii}` (float64)."""
        return np.diag(self.K).astype(np.float64)

    def set_active(self, rows) -> None:
        """Restrict :meth:`active_columns` to ``rows`` (``None``: all rows)."""
        self._rows = None if rows is None else np.asarray(rows)

    def active_columns(self, cols) -> np.ndarray:
        """``K[active, cols]`` as an array of shape ``(n_active, len(cols))``."""
        block = self.K[:, cols] if self._rows is None else self.K[np.ix_(self._rows, cols)]
        self.n_kernel_evals += block.size
        return block

    def block(self, rows, cols) -> np.ndarray:
        """``K[rows, cols]`` for index arrays ``rows`` and ``cols``."""
        out = self.K[np.ix_(rows, cols)]
        self.n_kernel_evals += out.size
        return out


@cache
def loop_products_are_numpys() -> bool:
    """Whether the compiled loop's matrix-vector products give NumPy's bits, checked once
    per process on a few shapes.

    The loop (:mod:`svmtext.smo._loop`, kinds 4 to 6 of
    :meth:`KernelColumns.compiled_source`) calls NumPy's own BLAS library with NumPy's
    arguments where it finds it (:func:`svmtext._blas.numpy_blas`), else BLAS through
    numba, that is SciPy's library. The two libraries are separate builds (here OpenBLAS
    0.3.30 and 0.3.31) whose kernels can differ (under ``OPENBLAS_CORETYPE=Haswell``
    their matrix products do; in single precision their AVX-512 kernels do). If the
    loop's products disagree with NumPy's here, the loop leaves dense columns to NumPy.
    """
    from .._blas import numpy_blas
    from ._loop import blas_products
    rng = np.random.default_rng(0)
    for n, p in ((2, 1), (7, 3), (130, 9), (1001, 22), (300, 784)):
        X = rng.standard_normal((n, p))
        c = n // 2
        col, col_t = blas_products(np.array(numpy_blas()), X, c)   # X x_c, X x_c^T
        if not (np.array_equal(col, X @ X[c]) and np.array_equal(col_t, (X @ X[[c]].T)[:, 0])):
            return False
    return True


@cache
def loop_blocks_are_numpys() -> bool:
    """Whether the compiled loop's gradient reconstruction
    (:func:`svmtext.smo._loop.reconstruct`) gives Python's bits, checked once per process:
    its kernel blocks against :meth:`KernelColumns.block` (kinds 4 to 6 of
    :meth:`KernelColumns.compiled_source`: NumPy's matrix products, from NumPy's own BLAS
    in the loop where :func:`svmtext._blas.numpy_blas` finds it, else SciPy's) and its
    products ``block @ v`` against NumPy's, on a few shapes (one row
    or one column included). If they disagree, the loop hands the reconstruction to
    Python (:data:`svmtext.smo._loop.NEED_UNSHRINK`)."""
    from . import _loop as L
    rng = np.random.default_rng(0)
    for kernel in ("linear", "rbf", "poly"):
        for ni, nc, p in ((2, 1, 3), (1, 3, 2), (2, 2, 1), (7, 5, 9), (65, 17, 20),
                          (300, 256, 22), (33, 40, 784)):
            X = rng.standard_normal((ni + nc, p)) * rng.uniform(0.1, 3.0)
            kc = KernelColumns(X, kernel, gamma=0.05, degree=3, coef0=1.0)
            kind = kc.compiled_source()[0]
            if kind not in (4, 5, 6):
                return False
            st, fs = L.new_state(len(X), 1e-3, 1e-12, 1, True, kind, -1, 0.05, 1.0, 3)
            if kind > 4:
                st[L.FINISH_LOOP], st[L.FINISH_DATA] = finishing_loop(kernel, 3)
                fs[L.EXPONENT] = 3.0
                if not st[L.FINISH_LOOP]:
                    return False
            rows, cols = np.arange(ni), rng.permutation(np.arange(ni, ni + nc))
            block = L.kernel_block(st, fs, kc.X, kc.sq, kc.X[rows], kc.sq[rows], cols)
            expected = kc.block(rows, cols)
            v = rng.standard_normal(nc)
            if not (np.array_equal(block.view(np.int64), expected.view(np.int64))
                    and np.array_equal(L.block_product(st, block, v), expected @ v)):
                return False
    return True


def numpy_last_operation(col, kernel, degree) -> None:
    """In place, NumPy's last operation on an RBF column (``exp``) or a polynomial one
    (the power ``degree``), as :meth:`KernelColumns.numpy_column` applies it."""
    if kernel == "rbf":
        np.exp(col, out=col)
    else:
        col **= degree


def finishing_loop(kernel: str, degree=3) -> tuple[int, int]:
    r"""``(function, data)``: the inner loop of NumPy's last operation on a float64 RBF
    column (``np.exp``) or polynomial column (``col **= degree``, the ``float64`` power
    loop with the exponent ``float(degree)``), found by :func:`svmtext._ufunc.inner_loop`
    -- if, called from compiled code, it gives NumPy's bits, checked once per process
    (per degree) on a few arrays; else ``(0, 0)``, and the compiled SMO loop asks Python
    for that operation (:data:`svmtext.smo._loop.NEED_FINISH`).

    The arrays: RBF exponents :math:`-\gamma \lVert x - x_c \rVert^2 \le 0` and
    polynomial bases :math:`\gamma \langle x, x_c \rangle + c_0` of either sign, over
    fifteen orders of magnitude, with zeros, NaN and infinities, of lengths 1 to 300,
    at every position of a float64 within 64 bytes.

    NumPy checks the floating-point flags after each of its operations; the loop does
    not, so an overflow in a column's power gives no ``RuntimeWarning`` (the kernel's
    diagonal, which NumPy computes, still warns for its own entries). A degree that
    cannot be a dictionary key (an array) is left to NumPy: ``(0, 0)``.
    """
    try:
        return _finishing_loop(kernel, type(degree), degree if kernel == "poly" else None)
    except TypeError:               # a degree that cannot be a key (an array): NumPy's way
        return 0, 0


@cache
def _finishing_loop(kernel, degree_type, degree) -> tuple[int, int]:
    from .._ufunc import inner_loop
    from ._loop import apply_inner_loop
    if kernel not in ("rbf", "poly"):
        return 0, 0
    function, data = inner_loop(np.exp if kernel == "rbf" else np.power, np.float64)
    if not function:
        return 0, 0
    operand = np.empty(0) if kernel == "rbf" else np.array([float(degree)])
    rng = np.random.default_rng(0)
    buf = np.empty(320)
    for n in (1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 64, 100, 255, 300):
        for offset in range(8):
            a = rng.standard_normal(n) * 10.0 ** rng.uniform(-12, 3, n)
            a[rng.random(n) < 0.05] = 0.0
            if n > 8:
                a[:4] = np.nan, -np.inf, np.inf, -745.2
            if kernel == "rbf":
                a = -np.abs(a)
            out = buf[offset:offset + n]
            out[:] = a
            expected = a.copy()
            with np.errstate(all="ignore"):
                apply_inner_loop(function, data, out, operand)
                numpy_last_operation(expected, kernel, degree)
            if not np.array_equal(out.view(np.int64), expected.view(np.int64)):
                return 0, 0
    return function, data


class KernelColumns:
    r"""Column provider that evaluates a kernel on data ``X``, a block at a time.

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
    sparse_columns : {'auto', True, False}, default 'auto'
        Compute a column :math:`K_{\cdot c}` from the non-zero features of :math:`x_c`
        only, :math:`\langle x_r, x_c\rangle = \sum_{f:\, x_{cf} \ne 0} x_{rf} x_{cf}`,
        reading ``X`` stored feature by feature (compiled:
        :func:`svmtext.smo._core.sparse_dot_column`; several columns, as :meth:`block`
        asks for them, in one pass over each block of rows:
        :func:`~svmtext.smo._core.sparse_dot_columns`, the same bits). For MNIST, where
        four pixels in five are 0, a column reads a fifth of the data and costs a tenth
        of a dense matrix-vector product. ``'auto'``: when at most half of ``X`` is non-zero
        (named kernels only).
    compiled_columns : bool or None, default None (:attr:`compiled_default`, False)
        Dense data, named kernel: compute each column with the compiled
        :func:`svmtext.smo._core.kernel_column`, inside the compiled SMO loop, instead of
        NumPy's matrix-vector product and ``exp``. Cheaper per column on small problems
        (NumPy's RBF and polynomial columns return to Python once each, for NumPy's
        ``exp`` or power: :meth:`compiled_source`), but its roundings differ from
        NumPy's (BLAS sums in another order, NumPy's vectorised ``exp``), and an SMO path
        is sensitive to the last bit: iteration counts move by a few percent, so the
        results recorded with NumPy's columns would not be reproduced exactly.
    n_threads : int, default 1
        Threads for a kernel column (``SMOSVC(n_jobs=...)``): the compiled columns share
        their rows between numba's threads (:func:`svmtext.smo._core.sparse_dot_column_threads`,
        :func:`~svmtext.smo._core.kernel_column_threads`), NumPy's columns use that many
        BLAS threads (:func:`svmtext.smo.smo_solve` sets the limit; BLAS keeps one thread
        when the columns are compiled, :attr:`numpy_columns`). Each row's sum is made
        by one thread in the same order, so the columns have the same bits for every
        ``n_threads``. With more than one thread the compiled SMO loop is its twin
        :func:`svmtext.smo._loop.run_threads`, which calls the threaded kernels.
    check_input : bool, default True
        Check that ``X`` is finite; ``False`` where the caller has checked it (an
        estimator's ``fit``: :class:`~svmtext.smo.SMOSVC` builds one provider per pair
        of classes).
    """

    compiled_default = False
    """The default of ``compiled_columns`` (``benchmarks/targets.py --compiled-columns``
    sets it)."""

    def __init__(self, X, kernel="rbf", *, gamma=1.0, degree=3, coef0=0.0,
                 dtype=np.float64, sparse_columns="auto", compiled_columns=None,
                 n_threads=1, check_input=True):
        X = np.asarray(X)
        if X.ndim != 2:
            raise ValueError(f"X must be a 2-D array; got shape {X.shape}")
        if check_input and not np.all(np.isfinite(X)):
            raise ValueError("X contains NaN or infinite values")
        if sparse_columns not in ("auto", True, False):
            raise ValueError("sparse_columns must be 'auto', True or False; "
                             f"got {sparse_columns!r}")
        if not (isinstance(n_threads, (int, np.integer)) and n_threads >= 1):
            raise ValueError(f"n_threads must be a positive integer; got {n_threads!r}")
        self.n_threads = int(n_threads)
        self.kernel = kernel
        self.gamma, self.degree, self.coef0 = gamma, degree, coef0
        self.dtype = np.dtype(dtype)
        self.n = len(X)
        if sparse_columns == "auto":
            # the sparse column pays off when most entries are zero (MNIST: 81 %)
            sparse_columns = X.size > 0 and np.count_nonzero(X) <= 0.5 * X.size
        self.sparse_columns = bool(sparse_columns) and kernel in ("rbf", "linear", "poly")
        if self.sparse_columns:
            # features by rows: a column of K reads the rows of the non-zero features
            from . import _core              # compiled on first use
            self.XT = _core.transposed(X, np.empty((X.shape[1], X.shape[0]), dtype=self.dtype))
            self.X = self.XT.T
            # and each row's non-zero features and values (compressed sparse rows)
            indptr, indices, data = _core.nonzero_rows(X, np.empty(0, dtype=self.dtype))
            self._csr = csr_matrix((data, indices, indptr), shape=X.shape)
        else:
            self.X = np.ascontiguousarray(X, dtype=self.dtype)
        self.sq = np.einsum("ij,ij->i", self.X, self.X)
        self._k = get_kernel(kernel, gamma=gamma, degree=degree, coef0=coef0)
        if compiled_columns is None:
            compiled_columns = self.compiled_default
        # dense data: the compiled column (kernel_column) only when asked for
        self.kernel_code = {"linear": 0, "rbf": 1, "poly": 2}.get(kernel) \
            if isinstance(kernel, str) and (compiled_columns or self.sparse_columns) else None
        self._diag = kernel_diag(X, kernel, gamma=gamma, degree=degree, coef0=coef0)
        self.n_kernel_evals = 0
        self._rows_buf = None            # the copies of _take
        self.set_active(None)

    @property
    def numpy_columns(self) -> bool:
        """Whether the columns are NumPy's (BLAS) products: dense data, no compiled
        kernel (:func:`svmtext.smo.smo_solve` gives BLAS ``n_threads`` threads then)."""
        return self.kernel_code is None          # sparse columns always have a code

    def diag(self) -> np.ndarray:
        """The diagonal :math:`k(x_i, x_i)` (float64)."""
        return np.asarray(self._diag, dtype=np.float64)

    def set_active(self, rows) -> None:
        """Keep a contiguous copy of the active rows ``X[rows]`` (``None``: all rows)."""
        self._rows = None if rows is None else np.asarray(rows)
        self._last_rows = None
        if self.sparse_columns:
            # (np.take along the rows: a tenth of the time of the index XT[:, rows])
            self._XTa = self.XT if rows is None else self._take(self._rows)
        else:
            self._Xa = self.X if rows is None else self.X[rows]
        self._sqa = self.sq if rows is None else self.sq[rows]

    def _take(self, rows, back=False) -> np.ndarray:
        """``XT[:, rows]`` (sparse columns) in one buffer of ``XT``'s size kept for both
        copies: the active rows at its front, the rows of :meth:`_rows_block` (the rows
        set aside) at its back, or in new memory where the two would overlap.

        Shrinking makes these copies again and again in one fit; each new array of
        that size is fresh memory whose first writes cost page faults (MNIST, 60,000
        rows, float64: 4 s of a 46 s fit), a buffer kept is touched once."""
        p, m = self.XT.shape[0], len(rows)
        if self._rows_buf is None:
            self._rows_buf = np.empty(self.XT.size, dtype=self.dtype)
        buf = self._rows_buf
        front = 0 if self._rows is None else p * len(self._rows)
        if not back:
            out = buf[:p * m]
        elif front + p * m <= buf.size:
            out = buf[buf.size - p * m:]
        else:
            return np.take(self.XT, rows, axis=1)
        # mode "clip" (the rows are valid): no intermediate copy, as "raise" makes
        return np.take(self.XT, rows, axis=1, out=out.reshape(p, m), mode="clip")

    def _kernel(self, A, sqA, B, sqB):
        if self.kernel == "rbf":     # the stored squared norms save a pass over A
            return rbf_kernel(A, B, gamma=self.gamma, X_sq=sqA, Y_sq=sqB)
        return np.asarray(self._k(A, B), dtype=self.dtype)

    def _sparse_columns(self, XT, sq, cols):
        """``K[rows, cols]`` for the rows stored in ``XT`` (features by rows, squared
        norms ``sq``), from the non-zero features of each ``x_c`` only (compiled)."""
        from . import _core              # compiled on first use
        if self.n_threads > 1:
            dots, rbf = _core.sparse_dot_columns_threads, _core.rbf_from_dots_threads
        else:
            dots, rbf = _core.sparse_dot_columns, _core.rbf_from_dots
        csr = self._csr
        out = np.empty((len(cols), XT.shape[1]), dtype=self.dtype)
        cols = np.asarray(cols, dtype=np.int64)
        dots(XT, csr.indptr, csr.indices, csr.data, cols, out)
        if self.kernel == "rbf":
            for k, c in enumerate(cols):
                rbf(out[k], sq, float(self.sq[c]), float(self.gamma))
        if self.kernel == "poly":
            out = (self.gamma * out + self.coef0) ** self.degree
        return out.T

    def _rows_block(self, rows):
        """``XT[:, rows]`` contiguous; the last one is kept (the gradient reconstruction
        asks for the same rows block after block)."""
        if len(rows) == self.n and np.array_equal(rows, np.arange(self.n)):
            return self.XT
        last = getattr(self, "_last_rows", None)
        if last is None or not np.array_equal(last[0], rows):
            last = self._last_rows = (rows.copy(), self._take(rows, back=True))
        return last[1]

    def active_column(self, c) -> np.ndarray:
        """``K[active, c]`` as a contiguous 1-D array (a named kernel on dense data:
        :func:`svmtext.smo._core.kernel_column`, compiled)."""
        if self.sparse_columns:
            out = self._sparse_columns(self._XTa, self._sqa, [c])[:, 0]
            self.n_kernel_evals += out.size
            return out
        if self.kernel_code is not None:
            from . import _core              # compiled on first use
            out = np.empty(len(self._sqa), dtype=self.dtype)
            column = _core.kernel_column_threads if self.n_threads > 1 else _core.kernel_column
            column(self._Xa, self._sqa, self.X[c], float(self.sq[c]),
                                self.kernel_code, float(self.gamma), float(self.coef0),
                                int(self.degree), out)
            self.n_kernel_evals += out.size
            return out
        return np.ascontiguousarray(self.active_columns([c])[:, 0])

    def numpy_column(self, c) -> np.ndarray | None:
        """``K[active, c]`` as :meth:`active_column` computes it on dense data with NumPy
        (the same operations in the same order, so the same bits), without the layers
        of checks around them: a small problem asks for a column every few iterations.
        None where that path does not apply (sparse or compiled columns, a callable
        kernel, one active row); the caller then uses :meth:`active_column`."""
        if self.kernel_code is not None or len(self._Xa) < 2:
            return None                  # (sparse columns have a code, and keep no _Xa)
        A = self._Xa
        Y = self.X[[c]]
        if self.kernel == "rbf":           # squared_distances, then rbf_kernel's exp
            D = A @ Y[0]
            D *= -2.0
            D += self._sqa + self.sq[c]
            np.maximum(D, 0.0, out=D)
            out = np.exp(-self.gamma * D, out=D)
        elif self.kernel == "linear":
            out = np.asarray((A @ Y.T)[:, 0], dtype=self.dtype)
        elif self.kernel == "poly":
            out = np.asarray(((self.gamma * (A @ Y.T) + self.coef0) ** self.degree)[:, 0],
                             dtype=self.dtype)
        else:
            return None
        self.n_kernel_evals += len(out)
        return out

    def finish_column(self, col) -> None:
        """In place, the last operation of :meth:`numpy_column` on a column the compiled
        loop made up to it (kinds 5 and 6 of :meth:`compiled_source`): NumPy's ``exp``
        (RBF) or power (polynomial). The loop applies it itself, by NumPy's own inner
        loop, where :func:`finishing_loop` found and checked that loop; this is the way
        back where it did not."""
        numpy_last_operation(col, self.kernel, self.degree)

    def compiled_source(self) -> tuple:
        """What the compiled SMO loop needs to compute columns itself:
        ``(kind, kernel code, (X, sq, X_active, sq_active, indptr, indices, data))``,
        kind 2 for dense data with compiled columns, 3 for the sparse columns (linear and
        RBF), 4 for the linear kernel on dense float64 data (NumPy's product :math:`A x^T`, the
        same BLAS call with the same bits, made from compiled code), 5 and 6 for the RBF
        and polynomial kernels on dense float64 data (NumPy's column up to its ``exp`` or
        power, which the loop applies by NumPy's own inner loop, :func:`finishing_loop`,
        or else :meth:`finish_column`; kinds 4 to 6 only where
        :func:`loop_products_are_numpys`), 0 when the loop must ask Python (a callable
        kernel; the sparse polynomial kernel; float32 columns). With more
        than one thread the loop's twin :func:`svmtext.smo._loop.run_threads` calls the
        threaded kernels."""
        none = np.empty((0, 0), dtype=self.dtype)
        no_idx = np.empty(0, dtype=np.int32)
        if self.sparse_columns and self.kernel in ("linear", "rbf"):
            csr = self._csr
            return 3, self.kernel_code, (self.XT, self.sq, self._XTa, self._sqa,
                                         csr.indptr.astype(np.int32, copy=False),
                                         csr.indices.astype(np.int32, copy=False),
                                         csr.data)
        if not self.sparse_columns and self.kernel_code is not None:
            return 2, self.kernel_code, (self.X, self.sq, self._Xa, self._sqa, no_idx,
                                         no_idx, self.sq[:0])
        numpys = not self.sparse_columns and self.dtype == np.float64 \
            and loop_products_are_numpys()       # (float64: the products checked)
        if numpys and self.kernel == "linear":
            # NumPy's column A x^T as one BLAS call from compiled code: the same bits
            return 4, 0, (self.X, self.sq, self._Xa, self._sqa, no_idx, no_idx, self.sq[:0])
        if numpys and self.kernel in ("rbf", "poly"):
            # NumPy's column but its exp or power (NumPy's inner loop, or finish_column)
            return 5 if self.kernel == "rbf" else 6, -1, (
                self.X, self.sq, self._Xa, self._sqa, no_idx, no_idx, self.sq[:0])
        return 0, -1, (none, self.sq, none, self._sqa, no_idx, no_idx, self.sq[:0])

    def inactive_source(self, rows) -> tuple:
        """:meth:`compiled_source`'s data with the rows ``rows`` (those set aside by
        shrinking) in place of the active ones: the compiled loop then computes
        ``K[rows, c]`` for :math:`\\bar G` as :meth:`block` does."""
        X, sq, _, _, indptr, indices, data = self.compiled_source()[2]
        rows = np.asarray(rows)
        X_rows = self._rows_block(rows) if self.sparse_columns else self.X[rows]
        return X, sq, X_rows, sq[rows], indptr, indices, data

    def active_columns(self, cols) -> np.ndarray:
        """``K[active, cols]``, shape ``(n_active, len(cols))``: one matrix product."""
        cols = np.atleast_1d(cols)
        if self.sparse_columns:
            out = self._sparse_columns(self._XTa, self._sqa, cols)
        else:
            out = self._kernel(self._Xa, self._sqa, self.X[cols], self.sq[cols])
        self.n_kernel_evals += out.size
        return out

    def block_into(self, rows, cols, out, ks) -> bool:
        """``out[:, ks] = K[rows, cols]`` (``out`` float64 and C-contiguous: the layout of
        :meth:`~svmtext.smo._cache.ColumnCache.complete_block`) where the columns are
        sparse and the kernel linear or RBF: computed straight into ``out``'s rows
        (:func:`svmtext.smo._core.sparse_kernel_rows`, the bits of :meth:`block`).
        False, and ``out`` untouched, elsewhere (the caller then uses :meth:`block`)."""
        if not (self.sparse_columns and self.kernel in ("linear", "rbf")):
            return False
        from . import _core              # compiled on first use
        kernel_rows = _core.sparse_kernel_rows_threads if self.n_threads > 1 \
            else _core.sparse_kernel_rows
        rows = np.atleast_1d(rows)
        cols = np.asarray(np.atleast_1d(cols), dtype=np.int64)
        rbf = self.kernel == "rbf"
        csr = self._csr
        kernel_rows(self._rows_block(rows), csr.indptr, csr.indices, csr.data, cols,
                    self.sq[rows], self.sq[cols].astype(np.float64),
                    float(self.gamma) if rbf else 0.0,
                    rbf, np.asarray(ks, dtype=np.int64), out)
        self.n_kernel_evals += len(rows) * len(cols)
        return True

    def block(self, rows, cols) -> np.ndarray:
        """``K[rows, cols]`` for index arrays ``rows`` and ``cols``."""
        rows, cols = np.atleast_1d(rows), np.atleast_1d(cols)
        if self.sparse_columns:
            XT = self._rows_block(rows)
            out = self._sparse_columns(XT, self.sq[rows], cols)
        else:
            out = self._kernel(self.X[rows], self.sq[rows], self.X[cols], self.sq[cols])
        self.n_kernel_evals += out.size
        return out


def as_column_provider(K_or_provider) -> Any:
    """A column provider for a Gram matrix (ndarray) or an object with ``block``."""
    if hasattr(K_or_provider, "active_columns") and hasattr(K_or_provider, "block"):
        return K_or_provider
    return GramColumns(K_or_provider)
