r"""The compiled re-equilibration of the online community (book: :ref:`sec-eco-scaling`).

This module imports numba; :mod:`~svmtext.eco.community` imports it on first use.

The EcoSVM re-equilibrates after every invasion: a few hundred SMO steps on the
community's dense Gram matrix, thousands of times per pass. The steps are those of
every dense SMO in the package, :func:`svmtext.smo._core.dense_loop` (WSS2, its passes
over the community vectorised); this module adds what a re-equilibration does around
them: the bias of the live species (:func:`svmtext.smo._core.bias`), the extinctions,
and the invaders joining the Gram buffer.
"""
from __future__ import annotations

import numpy as np

from .._numba import njit
from ..smo._core import _status_of, bias, dense_loop

__all__ = ["steady_state", "settle", "join"]

_jit = njit(cache=True)

@_jit
def _loop(K, y, alpha, g, movable, m, C, tol, tau, max_iter):
    """:func:`svmtext.smo._core.dense_loop` with the status read from ``alpha``."""
    d, status = np.empty(m), np.empty(m, dtype=np.int8)
    for k in range(m):
        d[k] = K[k, k]
        status[k] = _status_of(alpha, k, C)
    return dense_loop(K, d, y, alpha, g, status, movable, m, C, tol, tau, max_iter,
                      np.empty((0, 2), dtype=np.int64))


@_jit
def _extinctions(alpha, live, m):
    r"""Live species at :math:`\alpha = 0` stop living; returns how many."""
    n = 0
    for k in range(m):
        if live[k] and alpha[k] <= 0.0:
            live[k] = False
            alpha[k] = 0.0
            n += 1
    return n


@_jit
def settle(K, y, alpha, g, live, m, C, tol, tau=1e-12, max_iter=10_000_000):
    r"""One re-equilibration of the community (book: :ref:`sec-eco-online`), in place:
    the steady state of the live species (:func:`steady_state`), its bias
    (:func:`~svmtext.kkt.bias_from_gradient` over the live species) and the
    extinctions (live species left at :math:`\alpha = 0` are marked dead).

    Returns ``(n_iter, gap, b, n_extinct)``.
    """
    n_iter, gap = _loop(K, y, alpha, g, live, m, C, tol, tau, max_iter)
    b = bias(g, alpha, y, live, m, C)
    return n_iter, gap, b, _extinctions(alpha, live, m)


@_jit
def join(K, y, alpha, g, live, m, rows, y_new, K_new):
    r"""Invaders join as species ``m, m+1, ...`` at :math:`\alpha = 0`, in place: their
    kernel ``rows`` against the ``m`` stored species become rows and columns of ``K``
    (``K_new`` their own block), and their gradient entries are
    :math:`y - \sum_l \alpha_l y_l K(x, x_l)`. The buffers must have room for them."""
    p = rows.shape[0]
    for q in range(p):
        s = 0.0
        for k in range(m):
            v = rows[q, k]
            K[m + q, k] = v
            K[k, m + q] = v
            s += alpha[k] * y[k] * v
        for r in range(p):
            K[m + q, m + r] = K_new[q, r]
        y[m + q] = y_new[q]
        alpha[m + q] = 0.0
        g[m + q] = y_new[q] - s
        live[m + q] = True


def steady_state(K, y, alpha, g, active, m, C, tol=1e-3, max_iter=10_000_000, *,
                 tau=1e-12) -> tuple:
    r"""Re-equilibrate the first ``m`` species of a dense Gram buffer, in place.

    The arguments and the result are those of :func:`svmtext.smo.smo_dense`
    (``K`` float64, ``alpha`` a feasible warm start with its bound entries exactly 0
    or ``C``, ``g`` the matching :math:`-y_kG_k`, ``active`` the species that may move),
    and so are the steps taken; only the passes over the community are vectorised
    (module docstring).

    Returns
    -------
    n_iter : int
    gap : float
        :math:`m(\alpha) - M(\alpha)` at the end (below ``tol`` on success).
    """
    return _loop(K, y, alpha, g, active, int(m), float(C), float(tol), float(tau),
                 int(max_iter))
