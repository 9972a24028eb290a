r"""The RBF kernel's :math:`\exp` for float32 columns: fast, and with the bits of the
C library's (book: :ref:`sec-smo-cache`).

A float32 kernel column is :math:`\mathrm{fl}_{32}(\exp(x))`: the exponent
:math:`x = -\gamma\max(0, \lVert x_r\rVert^2 + \lVert x_c\rVert^2 - 2\langle x_r, x_c\rangle)`
and its :math:`\exp` are computed in float64 (the C library's ``exp``, as numba calls
it), and only the result is rounded to float32. The ``exp`` costs more than the inner
product of a sparse MNIST column, and the loop that calls it one value at a time does
not use the processor's vector instructions.

:func:`exp_near` computes :math:`y \approx e^x` with a loop the compiler vectorises:
:math:`x = k\ln 2 + r` with :math:`k` the nearest integer to :math:`x/\ln 2` and
:math:`\lvert r\rvert \le \tfrac12\ln 2` (Cody and Waite's two-part :math:`\ln 2`, as
fdlibm's), :math:`e^r` by its Taylor polynomial of degree 12 (truncation error below
:math:`0.35^{13}/13! < 2\cdot 10^{-16}`), times :math:`2^k` from a table. Its relative
distance from the C library's ``exp`` stays below :math:`2^{-50}` (``tests/
test_smo_exp32.py`` measures it on :math:`2\cdot 10^7` points of :math:`[-110, 0]`).

Rounding to float32 is monotonic, so if the two float64 numbers
:math:`y(1 \mp 2^{-46})` round to the same float32 value, every number between them does,
the C library's :math:`e^x` among them: that value *is* :math:`\mathrm{fl}_{32}(\exp(x))`.
Otherwise (about one value in :math:`2^{21}`, and for :math:`x > 0` or NaN) the value is
made again with the C library's ``exp``. Below :math:`x = -110` both give 0
(:math:`e^{-104} < 2^{-150}`, half the smallest float32). So :func:`rbf_single` gives the
same bits as the loop it replaces, three times as fast.
"""
from __future__ import annotations

import math

import numpy as np

from .._numba import njit

__all__ = ["exp_near", "rbf_exponent", "rbf_single"]

LN2_HI = 6.93147180369123816490e-01      # fdlibm's ln2_hi: its last 32 bits are zero
LN2_LO = 1.90821492927058770002e-10      # ln 2 - LN2_HI
LOG2_E = 1.4426950408889634
X_MIN = -110.0                           # below it exp rounds to float32 0
MARGIN = 2.0 ** -46
_C = tuple(1.0 / math.factorial(i) for i in range(13))
TWO_POW = np.array([2.0 ** -k for k in range(161)])      # 2^-k for k = 0 ... 160

_inline = njit(cache=True, inline="always")


@_inline
def rbf_exponent(dot, sq_r, sq_c, gamma) -> float:
    r""":math:`x = -\gamma\max(0, s_r + s_c - 2d)`, with the operations of
    :func:`svmtext.smo._core.rbf_from_dots`."""
    dist = sq_r + sq_c - 2 * dot
    if dist < 0:
        dist = 0
    return -gamma * dist


@_inline
def exp_near(x) -> float:
    r""":math:`y \approx e^x` for :math:`X_{\min} \le x \le 0` (relative error below
    :math:`2^{-50}`); ``x`` is clipped to that range."""
    x = min(max(x, X_MIN), 0.0)
    k = np.floor(x * LOG2_E + 0.5)
    r = (x - k * LN2_HI) - k * LN2_LO
    c = _C
    p = ((((((((((((c[12] * r + c[11]) * r + c[10]) * r + c[9]) * r + c[8]) * r + c[7])
                * r + c[6]) * r + c[5]) * r + c[4]) * r + c[3]) * r + c[2]) * r + c[1])
         * r + c[0])
    return p * TWO_POW[-int(k)]


@_inline
def settled(x, y) -> bool:
    """Whether ``y`` (:func:`exp_near` of ``x``) rounds to float32 as ``exp(x)`` does,
    surely: ``y(1 - MARGIN)`` and ``y(1 + MARGIN)`` round alike, and ``x`` is in range."""
    return (np.float32(y * (1.0 - MARGIN)) == np.float32(y * (1.0 + MARGIN))) \
        and x <= 0.0 and x == x


@njit(cache=True)
def _fast_pass(dots, sq_rows, sq_c, gamma, out) -> int:
    """``out[r]`` = float32 of :func:`exp_near`; returns how many are not settled."""
    unsettled = 0
    for r in range(len(dots)):
        x = rbf_exponent(dots[r], sq_rows[r], sq_c, gamma)
        y = exp_near(x)
        out[r] = np.float32(y)
        unsettled += 0 if settled(x, y) else 1
    return unsettled


@njit(cache=True)
def rbf_single(dots, sq_rows, sq_c, gamma) -> np.ndarray:
    r"""In place, float32 ``dots``: :math:`\mathrm{fl}_{32}(\exp(x_r))` with
    :math:`x_r` = :func:`rbf_exponent` of ``dots[r]`` (the bits of
    :func:`svmtext.smo._core.rbf_from_dots`' loop with the C library's ``exp``)."""
    out = np.empty(len(dots), dtype=np.float32)
    if _fast_pass(dots, sq_rows, sq_c, gamma, out) == 0:
        for r in range(len(dots)):
            dots[r] = out[r]
        return dots
    for r in range(len(dots)):
        x = rbf_exponent(dots[r], sq_rows[r], sq_c, gamma)
        dots[r] = out[r] if settled(x, exp_near(x)) else np.exp(x)
    return dots
