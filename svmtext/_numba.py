r"""numba, configured once for the package: every compiled module imports it from here.

numba caches compiled functions (``cache=True``) next to their source, in
``__pycache__``, unless ``NUMBA_CACHE_DIR`` names another folder. An installed
package may be read-only, and compiled files do not belong in the source tree, so
this module points the cache at the user's cache folder,
``$XDG_CACHE_HOME/svmtext/numba`` (default ``~/.cache/svmtext/numba``), before numba
reads its configuration -- or, if numba was imported earlier, makes it read the
configuration again. A ``NUMBA_CACHE_DIR`` set by the user is the base folder instead.
Within it each version of the package's sources has a folder of its own
(:func:`_code_digest`: numba would otherwise serve a compiled function with the old
code of the functions it calls from other files); the folders of older versions can
be deleted.

Import :data:`njit` (and :data:`prange`) from this module, never from numba directly.
It also gives compiled code access to values without reference counting
(:func:`pointer`, :func:`view`): numba counts a reference to every array a compiled
function receives or makes, an atomic operation each, which on the SMO solver's small
problems cost more than an iteration's arithmetic (:mod:`svmtext.smo._loop`).
"""
from __future__ import annotations

import ctypes
import os
import sys
import types as pytypes
from pathlib import Path

import numpy as np

__all__ = ["CACHE_DIR", "njit", "prange", "jit", "pointer", "view", "max_of", "min_of",
           "intrinsic_or", "python_function", "renamed", "prefer_threading_layers"]



def _code_digest() -> str:
    """``code-`` and a digest of the package's sources: the name of the cache folder.

    numba keys a function's cache entry on its own file only, while a compiled function
    carries the code of the compiled functions it calls from other files (the SMO loop
    those of :mod:`svmtext.smo._core`, :mod:`svmtext.smo._cache` and the intrinsics of
    this module and :mod:`svmtext._ufunc`): after a change to one of those, the cache would
    serve the caller's old machine code. Each version of the sources therefore has a
    folder of its own."""
    import hashlib
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parent
    try:
        for path in sorted(root.rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    except OSError:                         # sources not readable: one folder for all
        return "code-unknown"
    return "code-" + digest.hexdigest()[:16]


_BASE = os.environ.get("NUMBA_CACHE_DIR") or str(
    Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "svmtext" / "numba")
_DIGEST = _code_digest()
CACHE_DIR = _BASE if Path(_BASE).name == _DIGEST else str(Path(_BASE) / _DIGEST)

if os.environ.get("NUMBA_CACHE_DIR") != CACHE_DIR:
    os.environ["NUMBA_CACHE_DIR"] = CACHE_DIR
    if "numba" in sys.modules:              # configured already: read the variable again
        from numba.core import config as _config
        _config.reload_config()

from numba import njit, prange, types  # noqa: E402
from numba.core import config as _config  # noqa: E402
from numba.extending import intrinsic  # noqa: E402

jit = njit(cache=True)
"""The package's default decorator: compiled, cached in :data:`CACHE_DIR`."""


def python_function(f) -> object:
    """The Python function of a compiled function ``f`` (``f`` itself when numba is
    switched off, ``NUMBA_DISABLE_JIT=1``, and the decorators return their function)."""
    return getattr(f, "py_func", f)


def renamed(f, name, doc, **globals_) -> types.FunctionType:
    """The Python function ``f`` under another ``name`` (numba caches a compilation by
    the function's name: a twin compiled with other options is cached apart), with the
    docstring ``doc`` and, where ``globals_`` are given, those globals in place of
    ``f``'s (in a copy of its globals; the twins of the threaded kernels and of the
    threaded SMO loop, :mod:`svmtext.smo._core` and :mod:`svmtext.smo._loop`)."""
    g = pytypes.FunctionType(f.__code__.replace(co_name=name),
                             {**f.__globals__, **globals_} if globals_ else f.__globals__,
                             name, f.__defaults__, f.__closure__)
    g.__qualname__ = name
    g.__doc__ = doc
    return g


def intrinsic_or(python) -> object:
    """Decorator of an intrinsic's typing function: the intrinsic, or, with numba switched
    off (``NUMBA_DISABLE_JIT=1``, as the mutation tests run the compiled code as Python:
    ``tests/MUTATION.md``), ``python``, which does the same from Python (an intrinsic
    cannot be called from Python)."""
    def decorate(typer):
        if not _config.DISABLE_JIT:
            return intrinsic(typer)

        def call(*args):
            return python(*args)
        call.__name__ = call.__qualname__ = typer.__name__
        call.__doc__ = typer.__doc__
        return call
    return decorate


def _ctype(dtype):
    return np.ctypeslib.as_ctypes_type(np.dtype(dtype))


def _pointer(address, dtype):
    return ctypes.cast(int(address), ctypes.POINTER(_ctype(dtype)))


def _view(address, length, dtype):
    if length <= 0:
        return np.empty(0, dtype=dtype)
    return np.ctypeslib.as_array(_pointer(address, dtype), shape=(int(length),))


@intrinsic_or(_pointer)
def pointer(typingctx, address, dtype):
    """The integer ``address`` as a pointer to values of type ``dtype``."""
    if not isinstance(address, types.Integer):
        return None
    sig = types.CPointer(dtype.dtype)(address, dtype)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(signature.return_type))
    return sig, codegen


@intrinsic_or(_view)
def view(typingctx, address, length, dtype):
    """The ``length`` values of type ``dtype`` at the integer ``address``, as an array
    that holds no reference (valid while their owner, a cached column or a work buffer,
    lives), built in place: usable in functions compiled without reference counting
    (``_nrt=False``) too, where numba's ``carray`` is not. (Numba passes an array
    argument as seven machine words; a function with many array arguments called every
    iteration can take their addresses instead.)"""
    if not isinstance(address, types.Integer) or not isinstance(length, types.Integer):
        return None
    arrty = types.Array(dtype.dtype, 1, "C")
    sig = arrty(address, length, dtype)

    def codegen(context, builder, signature, args):
        from numba.np.arrayobj import make_array, populate_array
        ary = make_array(arrty)(context, builder)
        item = context.get_abi_sizeof(context.get_data_type(arrty.dtype))
        data = builder.inttoptr(args[0], ary.data.type)
        n = context.cast(builder, args[1], signature.args[1], types.intp)
        populate_array(ary, data=data, shape=[n],
                       strides=[context.get_constant(types.intp, item)],
                       itemsize=context.get_constant(types.intp, item), meminfo=None)
        return ary._getvalue()
    return sig, codegen


def _select_intrinsic(predicate, doc):
    """An intrinsic ``(a, b) -> a if a <predicate> b else b`` on float64 whose compare and
    select both carry the flags ``nnan nsz``."""
    def python(a, b):
        return a if (a > b if predicate == ">" else a < b) else b

    def typer(typingctx, a, b):
        if a != types.float64 or b != types.float64:
            return None
        sig = types.float64(types.float64, types.float64)

        def codegen(context, builder, signature, args):
            x, y = args
            flags = ("nnan", "nsz")
            return builder.select(builder.fcmp_ordered(predicate, x, y, flags=flags),
                                  x, y, flags=flags)
        return sig, codegen
    typer.__doc__ = doc
    return intrinsic_or(python)(typer)


_REDUCTION = """

    In a loop ``r = {0}(x[k], r)`` is a reduction that LLVM's loop vectoriser turns
    into vector instructions. numba's own ``{1}`` on floats builds the same compare
    and select, but the select without the flags ``nnan nsz``, and the vectoriser
    then leaves the loop scalar (a chain of dependent comparisons). For arrays
    without NaN (what the flags promise) the value is ``{1}(a, b)``'s, exactly."""
max_of = _select_intrinsic(">", "``max(a, b)`` of two float64 values, vectorisable."
                           + _REDUCTION.format("max_of", "max"))
min_of = _select_intrinsic("<", "``min(a, b)`` of two float64 values, vectorisable."
                           + _REDUCTION.format("min_of", "min"))


def prefer_threading_layers() -> None:
    """Before the first threaded call (``SMOSVC(n_jobs=2)``): let numba's threads be
    TBB's, else its own work queue, OpenMP last -- unless the user chose
    (``NUMBA_THREADING_LAYER`` or ``NUMBA_THREADING_LAYER_PRIORITY``).

    A kernel column is a short parallel region, a few hundred microseconds, called
    thousands of times. On a machine whose cores are busy with other work, OpenMP's
    threads wait at the end of each region for a thread the system has not scheduled
    yet: measured here with other processes on both cores, a threaded column took 5 to 10
    times as long as a serial one. TBB's calling thread takes the work no other thread
    picked up, so a busy machine costs no more than one thread. pip's ``tbb`` puts
    ``libtbb.so.12`` in the environment's ``lib`` folder, where the loader does not look:
    it is loaded from there by path, so that numba finds it.
    """
    if "NUMBA_THREADING_LAYER" in os.environ or "NUMBA_THREADING_LAYER_PRIORITY" in os.environ:
        return
    from numba.core import config
    config.THREADING_LAYER_PRIORITY = ["tbb", "workqueue", "omp"]
    lib = Path(sys.prefix) / "lib" / "libtbb.so.12"
    if sys.platform.startswith("linux") and lib.exists():
        from contextlib import suppress
        with suppress(OSError):             # not loadable: numba takes the next layer
            ctypes.CDLL(str(lib), mode=ctypes.RTLD_GLOBAL)
