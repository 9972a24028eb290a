r"""SMO on a small dense Gram matrix, warm-started, compiled (book: :ref:`sec-eco-online`).

Online learners (the ecological chapter's EcoSVM) re-solve the dual many times on
a support set of a few thousand points whose Gram matrix they keep. There the
column cache and shrinking of :func:`~svmtext.smo.smo_solve` cost more than they
save, and what matters is the per-step overhead. This module is the same
algorithm reduced to its core, one loop compiled with numba:

* the gradient, as :math:`-y_kG_k = y_k - \sum_l \alpha_l y_l K_{kl}`, is kept by the
  caller between calls, so a warm start costs nothing;
* the working-set selection (WSS2), the two-variable step and the gradient update
  are those of every SMO in the package (:mod:`svmtext.smo._core`), in one compiled loop;
* it stops when the gap :math:`m(\alpha) - M(\alpha)` is below ``tol``.

Points with ``active[k] = False`` keep :math:`\alpha_k = 0` and are never selected
(extinct species that have not yet been removed from storage).
"""
from __future__ import annotations

import numpy as np

from ..kkt import alpha_status

__all__ = ["smo_dense"]

_NO_PAIRS = np.empty((0, 2), dtype=np.int64)


def smo_dense(K, y, alpha, g, active, m, C, tol=1e-3, max_iter=10_000_000, *, tau=1e-12,
              pairs=None) -> tuple:
    r"""Solve the dual in place on the first ``m`` rows of a dense Gram buffer.

    Parameters
    ----------
    K : (M, M) float64 array, M >= m
        Gram buffer; only ``K[:m, :m]`` is read.
    y : (M,) float64 array of -1/+1
    alpha : (M,) float64 array
        Feasible warm start (:math:`0 \le \alpha \le C`,
        :math:`\sum_k \alpha_k y_k` fixed); updated in place. Its entries must be
        exactly 0 or ``C`` at the bounds (as the solvers leave them).
    g : (M,) float64 array
        :math:`-y_kG_k = y_k - \sum_l \alpha_l y_l K_{kl}` at ``alpha``; updated in place.
    active : (M,) bool array
        Indices that may move.
    m : int
    C, tol : float
    max_iter : int
    tau : float, default 1e-12
        Curvature floor: replaces :math:`a_{ij} \le 0`.
    pairs : (k, 2) int64 array, optional
        Receives the first ``k`` working pairs ``(i, j)``.

    Returns
    -------
    n_iter : int
    gap : float
        :math:`m(\alpha) - M(\alpha) = \max_{I_{up}} -y_kG_k - \min_{I_{low}} -y_kG_k`
        at the end (below ``tol`` on success).
    """
    from ._core import dense_loop
    m = int(m)
    d = np.ascontiguousarray(np.diagonal(K)[:m])   # K_tt, read once per step
    status = alpha_status(alpha[:m], C, 0.0)
    return dense_loop(K, d, y, alpha, g, status, active, m, float(C), float(tol), float(tau),
                      int(max_iter), _NO_PAIRS if pairs is None else pairs)
