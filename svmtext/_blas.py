r"""NumPy's own BLAS, called from compiled code.

numba computes ``np.dot`` with the BLAS of SciPy (``scipy.linalg.cython_blas``); NumPy
calls the library it bundles. The two are separate builds (here OpenBLAS 0.3.30 and
0.3.31), and where their kernels differ their products differ in the last bits: on one
machine of this project, under ``OPENBLAS_CORETYPE=Haswell``, a ``33 x 784`` by
``784 x 40`` product did. Compiled code that must give NumPy's bits (the SMO loop's
dense kernel columns and its gradient reconstruction, :mod:`svmtext.smo._loop`) calls
NumPy's library itself, with the arguments and the special cases of NumPy's
``matmul`` (``numpy/_core/src/umath/matmul.c.src``), for C-contiguous float64
operands (``A`` of shape ``(m, k)``, ``B`` of shape ``(n, k)``, ``x`` of length ``k``):

* ``A @ B.T``, ``m, n, k >= 2``: ``cblas_dgemm(RowMajor, NoTrans, Trans, m, n, k, 1, A,
  k, B, k, 0, C, n)``;
* ``A @ x``, and ``A @ B.T`` for one row of ``B`` (``m, k >= 2``):
  ``cblas_dgemv(ColMajor, Trans, k, m, 1, A, k, x, 1, 0, y, 1)``; ``A @ B.T`` for one row
  of ``A`` (``n, k >= 2``): the same with ``B`` and ``A``'s row;
* one value (one row of each): ``0.0 + cblas_ddot(k, A, 1, x, 1)``, NumPy's dot product;
* one feature (``k = 1``): the products ``0.0 + a * b``, NumPy's loop without BLAS.

:func:`numpy_blas` finds the three functions in NumPy's library (its 64-bit-integer
OpenBLAS, whose symbols carry a ``scipy_`` prefix and a ``64_`` suffix) through
``threadpoolctl``; without them (another BLAS), for float32 operands and for operands
of other layouts, numba's ``np.dot`` computes the products. A caller must still check
the results against NumPy's (:func:`svmtext.smo._columns.loop_products_are_numpys`).
"""
from __future__ import annotations

import ctypes
from functools import cache
from pathlib import Path

import numpy as np
from llvmlite import ir
from numba import types

from ._numba import intrinsic_or, jit

__all__ = ["numpy_blas", "matmul_abt", "matvec"]

ROW_MAJOR, COL_MAJOR, NO_TRANS, TRANS = 101, 102, 111, 112


@cache
def numpy_blas() -> tuple[int, int, int]:
    """``(dgemm, dgemv, ddot)``: the addresses of ``cblas_dgemm``, ``cblas_dgemv`` and
    ``cblas_ddot`` in the BLAS library NumPy calls, when it is a 64-bit-integer build
    whose symbols are found; else ``(0, 0, 0)`` (the callers then use numba's
    ``np.dot``)."""
    try:
        return _find_numpy_blas()
    except Exception:                     # whatever the look-up meets: numba's np.dot
        return 0, 0, 0


def _find_numpy_blas() -> tuple[int, int, int]:
    from threadpoolctl import threadpool_info
    config = np.__config__.CONFIG.get("Build Dependencies", {}).get("blas", {})
    if "USE64BITINT" not in str(config.get("openblas configuration", "")):
        return 0, 0, 0
    here = Path(np.__file__).resolve().parent
    libs = [Path(i["filepath"]) for i in threadpool_info() if i.get("user_api") == "blas"]
    # NumPy's bundled library: beside the package, in numpy.libs (or inside it)
    ours = [p for p in libs if p.resolve().parent in (here.parent / "numpy.libs", here)
            or here in p.resolve().parents]
    for path in ours:
        try:
            lib = ctypes.CDLL(str(path))
        except OSError:
            continue
        for prefix, suffix in (("scipy_", "64_"), ("", "64_")):
            try:
                found = [getattr(lib, f"{prefix}cblas_{name}{suffix}")
                         for name in ("dgemm", "dgemv", "ddot")]
            except AttributeError:
                continue
            addresses = tuple(ctypes.cast(f, ctypes.c_void_p).value or 0 for f in found)
            return addresses if all(addresses) else (0, 0, 0)
    return 0, 0, 0


def _cast(context, builder, values, sig, kinds):
    """The call's operands: ``i`` a 32-bit enum, ``l`` a 64-bit integer, ``d`` a double,
    ``p`` an address (an integer made a pointer)."""
    i8p = ir.IntType(8).as_pointer()
    out = []
    for v, t, kind in zip(values, sig.args, kinds):
        if kind == "d":
            out.append(context.cast(builder, v, t, types.float64))
            continue
        v = context.cast(builder, v, t, types.int64)
        out.append(builder.trunc(v, ir.IntType(32)) if kind == "i" else
                   builder.inttoptr(v, i8p) if kind == "p" else v)
    return out


def _lowering(kinds, returns_double=False):
    types_ = {"i": ir.IntType(32), "l": ir.IntType(64), "d": ir.DoubleType(),
              "p": ir.IntType(8).as_pointer()}
    fn_type = ir.FunctionType(ir.DoubleType() if returns_double else ir.VoidType(),
                              [types_[k] for k in kinds])

    def lower(context, builder, sig, values):
        function, *operands = _cast(context, builder, values, sig, "l" + kinds)
        result = builder.call(builder.inttoptr(function, fn_type.as_pointer()), operands)
        return result if returns_double else context.get_dummy_value()
    return lower


# the operands of cblas_dgemm(order, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta,
# c, ldc), cblas_dgemv(order, trans, m, n, alpha, a, lda, x, incx, beta, y, incy) and
# cblas_ddot(n, x, incx, y, incy)
_GEMM, _GEMV, _DOT = "iiillldplpldpl", "iilldplpldpl", "lplpl"


_CTYPES = {"i": ctypes.c_int, "l": ctypes.c_int64, "d": ctypes.c_double, "p": ctypes.c_void_p}


def _python_call(kinds, returns_double=False):
    """The same call from Python (numba switched off: :func:`svmtext._numba.intrinsic_or`)."""
    prototype = ctypes.CFUNCTYPE(ctypes.c_double if returns_double else None,
                                 *(_CTYPES[k] for k in kinds))

    def call(function, *operands):
        return prototype(int(function))(*(float(v) if k == "d" else int(v)
                                           for v, k in zip(operands, kinds)))
    return call


def _typed(args, kinds, returns_double=False):
    ok = all(isinstance(a, types.Float) if k == "d" else isinstance(a, types.Integer)
             for a, k in zip(args, "l" + kinds))
    result = types.float64 if returns_double else types.void
    return (result(*args), _lowering(kinds, returns_double)) if ok else None


@intrinsic_or(_python_call(_GEMM))
def _dgemm(typingctx, function, order, transa, transb, m, n, k, alpha, a, lda, b, ldb,
           beta, c, ldc):
    """``cblas_dgemm`` at the address ``function`` (arrays passed as addresses)."""
    return _typed((function, order, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta,
                   c, ldc), _GEMM)


@intrinsic_or(_python_call(_GEMV))
def _dgemv(typingctx, function, order, trans, m, n, alpha, a, lda, x, incx, beta, y, incy):
    """``cblas_dgemv`` at the address ``function`` (arrays passed as addresses)."""
    return _typed((function, order, trans, m, n, alpha, a, lda, x, incx, beta, y, incy),
                  _GEMV)


@intrinsic_or(_python_call(_DOT, returns_double=True))
def _ddot(typingctx, function, n, x, incx, y, incy):
    """``cblas_ddot`` at the address ``function`` (arrays passed as addresses)."""
    return _typed((function, n, x, incx, y, incy), _DOT, returns_double=True)


@jit
def _blasable(blas, A, B):
    """NumPy's functions found (:func:`numpy_blas` finds all three or none, so the first
    address tells), and ``A`` (2-D) and ``B`` (1-D or 2-D) C-contiguous float64 arrays
    with the same number of columns."""
    k = A.shape[1]
    if blas[0] == 0 or A.itemsize != 8 or B.itemsize != 8 or B.shape[-1] != k:
        return False
    if A.strides[1] != 8 or A.strides[0] != 8 * k or B.strides[-1] != 8:
        return False
    return B.ndim == 1 or B.strides[0] == 8 * k


@jit
def _dot(blas, a, b, k):
    """NumPy's dot product of two contiguous rows of length ``k``."""
    return 0.0 + _ddot(blas[2], k, a.ctypes.data, 1, b.ctypes.data, 1)


@jit
def _gemv(blas, A, x, y):
    """``y = A @ x`` by NumPy's ``cblas_dgemv`` call (``A`` of shape ``(m, k)``)."""
    m, k = A.shape
    _dgemv(blas[1], COL_MAJOR, TRANS, k, m, 1.0, A.ctypes.data, k, x.ctypes.data, 1, 0.0,
           y.ctypes.data, 1)


@jit
def matmul_abt(blas, A, B):
    """NumPy's ``A @ B.T`` for C-contiguous float64 ``A`` (m, k) and ``B`` (n, k), by
    NumPy's functions (``blas``: the addresses of :func:`numpy_blas`) with NumPy's
    special cases (module docstring); otherwise numba's ``np.dot`` (also for float32,
    for which the SMO loop is compiled as well)."""
    m, k = A.shape
    n = B.shape[0]
    if not _blasable(blas, A, B) or m == 0 or n == 0 or k == 0:
        return np.dot(A, B.T)
    C = np.empty((m, n), dtype=A.dtype)
    if m == 1 and n == 1:
        C[0, 0] = _dot(blas, A[0], B[0], k)
    elif k == 1:                          # NumPy's loop without BLAS
        for i in range(m):
            for j in range(n):
                C[i, j] = 0.0 + A[i, 0] * B[j, 0]
    elif m == 1:                          # vector @ matrix: gemv on B
        _gemv(blas, B, A[0], C[0])
    elif n == 1:                          # matrix @ vector: gemv on A
        _gemv(blas, A, B[0], C[:, 0])
    else:
        _dgemm(blas[0], ROW_MAJOR, NO_TRANS, TRANS, m, n, k, 1.0, A.ctypes.data, k,
               B.ctypes.data, k, 0.0, C.ctypes.data, n)
    return C


@jit
def matvec(blas, A, x):
    """NumPy's ``A @ x`` for a C-contiguous float64 ``A`` (m, k) and ``x`` (k,), by
    NumPy's functions (``blas``: the addresses of :func:`numpy_blas`) with NumPy's
    special cases (module docstring); otherwise numba's ``np.dot``."""
    m, k = A.shape
    if not _blasable(blas, A, x) or m == 0 or k == 0:
        return np.dot(A, x)
    y = np.empty(m, dtype=A.dtype)
    if m == 1:
        y[0] = _dot(blas, A[0], x, k)
    elif k == 1:                          # NumPy's loop without BLAS
        for i in range(m):
            y[i] = 0.0 + A[i, 0] * x[0]
    else:
        _gemv(blas, A, x, y)
    return y
