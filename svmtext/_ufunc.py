r"""NumPy's own inner loop of a unary ufunc, called from compiled code.

A ufunc such as ``np.exp`` is a table of inner loops, one per type signature, each a C
function ``loop(char **args, npy_intp *dimensions, npy_intp *steps, void *data)``; NumPy
picks the first loop whose types match and calls it on the whole array when the array
is contiguous and needs no cast. The loop for ``float64`` may be a vectorised one chosen
for the processor (on AVX-512 machines NumPy's own ``exp``), whose results differ from
the C library's ``exp``, which numba compiles, in the last bit of about one value in
twenty. Compiled code that calls NumPy's loop itself gets NumPy's bits without returning
to Python for them (the SMO loop's RBF columns: :mod:`svmtext.smo._loop`).

:func:`inner_loop` reads the loop's address from the ufunc object, whose layout is the
public ``PyUFuncObject`` of NumPy's C API (``numpy/ufuncobject.h``), and checks what it
reads against the ufunc's Python attributes; :func:`call_inner_loop` calls it from
compiled code. A caller must still check the results against NumPy's
(:func:`svmtext.smo._columns.finishing_loop`) before it relies on them.

numba's on-disk cache of a compiled function notices changes to that function's own
file only; the package's cache folder changes with any of its sources
(:data:`svmtext._numba.CACHE_DIR`), so the callers are compiled again after a change
here.
"""
from __future__ import annotations

import ctypes

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils

from ._numba import intrinsic_or

__all__ = ["inner_loop", "call_inner_loop", "call_binary_inner_loop"]


_POINTER = ctypes.sizeof(ctypes.c_void_p)


class _UFuncObject(ctypes.Structure):
    """The first fields of ``PyUFuncObject`` (NumPy's C API), up to ``types``."""
    _fields_ = [("ob_refcnt", ctypes.c_ssize_t), ("ob_type", ctypes.c_void_p),
                ("nin", ctypes.c_int), ("nout", ctypes.c_int), ("nargs", ctypes.c_int),
                ("identity", ctypes.c_int), ("functions", ctypes.c_void_p),
                ("data", ctypes.c_void_p), ("ntypes", ctypes.c_int),
                ("reserved1", ctypes.c_int), ("name", ctypes.c_char_p),
                ("types", ctypes.c_void_p)]


def inner_loop(ufunc: np.ufunc, dtype) -> tuple[int, int]:
    """``(function, data)``, the addresses of the inner loop that ``ufunc`` (one or two
    inputs, one output) runs on arrays of ``dtype``: the first loop of its table whose
    inputs and output are all ``dtype``, as NumPy's type resolution picks it. ``(0, 0)``
    when the object does not read as NumPy's documented layout (another NumPy, another
    Python build) or has no such loop."""
    dtype = np.dtype(dtype)
    if not isinstance(ufunc, np.ufunc) or ufunc.nin not in (1, 2) or ufunc.nout != 1:
        return 0, 0
    m = ufunc.nargs
    u = _UFuncObject.from_address(id(ufunc))
    if (u.nin, u.nout, u.nargs, u.ntypes) != (ufunc.nin, 1, m, ufunc.ntypes) \
            or u.name != ufunc.__name__.encode() or not (u.functions and u.types):
        return 0, 0
    codes = ctypes.string_at(u.types, m * u.ntypes)
    expected = [np.dtype(a).num for t in ufunc.types for a in t.replace("->", "")]
    if list(codes) != expected:
        return 0, 0
    for t in range(u.ntypes):
        if all(code == dtype.num for code in codes[m * t:m * (t + 1)]):
            function = ctypes.c_void_p.from_address(u.functions + _POINTER * t).value or 0
            data = (ctypes.c_void_p.from_address(u.data + _POINTER * t).value or 0) if u.data else 0
            return function, data
    return 0, 0


def _call(context, builder, signature, values):
    """Lowering of :func:`call_inner_loop` and :func:`call_binary_inner_loop`: the
    operands ``(address, step)`` are the inputs; the output is the first input again."""
    function, data, n, *pointers = (
        context.cast(builder, v, t, types.int64) for v, t in zip(values, signature.args))
    i8p, i64 = ir.IntType(8).as_pointer(), ir.IntType(64)
    loop_type = ir.FunctionType(ir.VoidType(), [i8p.as_pointer(), i64.as_pointer(),
                                                i64.as_pointer(), i8p])
    operands = [pointers[k:k + 2] for k in range(0, len(pointers), 2)]
    operands.append(operands[0])
    argv = cgutils.alloca_once(builder, i8p, size=len(operands))
    steps = cgutils.alloca_once(builder, i64, size=len(operands))
    dims = cgutils.alloca_once(builder, i64, size=1)
    for k, (address, step) in enumerate(operands):
        at = ir.Constant(i64, k)
        builder.store(builder.inttoptr(address, i8p), builder.gep(argv, [at]))
        builder.store(step, builder.gep(steps, [at]))
    builder.store(n, dims)
    builder.call(builder.inttoptr(function, loop_type.as_pointer()),
                 [argv, dims, steps, builder.inttoptr(data, i8p)])
    return context.get_dummy_value()


_LOOP = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_int64),
                         ctypes.POINTER(ctypes.c_int64), ctypes.c_void_p)


def _python_call(function, data, n, *pointers):
    """The same call from Python (numba switched off: :func:`svmtext._numba.intrinsic_or`)."""
    operands = [pointers[k:k + 2] for k in range(0, len(pointers), 2)]
    operands.append(operands[0])
    argv = (ctypes.c_void_p * len(operands))(*(int(a) for a, _ in operands))
    steps = (ctypes.c_int64 * len(operands))(*(int(s) for _, s in operands))
    _LOOP(int(function))(argv, (ctypes.c_int64 * 1)(int(n)), steps, int(data) or None)


def _typed(*args):
    """The intrinsics' typing: integer arguments (addresses, counts, steps) only."""
    if all(isinstance(a, types.Integer) for a in args):
        return types.void(*args), _call
    return None


@intrinsic_or(_python_call)
def call_inner_loop(typingctx, function, data, n, address, step):
    """Call the inner loop at ``function`` (with its ``data``) in place on the ``n``
    values at ``address``, ``step`` bytes apart -- ``args = {address, address}``,
    ``dimensions = {n}``, ``steps = {step, step}``, as NumPy calls it for ``ufunc(a,
    out=a)`` on a contiguous array."""
    return _typed(function, data, n, address, step)


@intrinsic_or(_python_call)
def call_binary_inner_loop(typingctx, function, data, n, address, step, operand,
                           operand_step):
    """The same for a loop of two inputs, ``a = ufunc(a, b)`` in place, with ``b`` at
    ``operand``, ``operand_step`` bytes apart (0: one value, as NumPy passes a
    scalar)."""
    return _typed(function, data, n, address, step, operand, operand_step)
