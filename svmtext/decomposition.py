r"""A minimal decomposition method with a working set of size q (book: :ref:`sec-practice-decomposition`).

The dual (LIBSVM's form, :math:`Q_{ij} = y_iy_jK_{ij}`, :math:`G = Q\alpha - \mathbf 1`)

.. math::

    \min_\alpha \tfrac12\alpha^\top Q\alpha - \mathbf 1^\top\alpha
    \quad\text{s.t.}\quad y^\top\alpha = 0,\ 0 \le \alpha_k \le C

is solved by fixing all variables but a working set :math:`B` of size :math:`q` and
solving the :math:`q`-variable subproblem (Osuna, Freund and Girosi 1997; Joachims 1998)

.. math::

    \min_{\alpha_B}\ \tfrac12\alpha_B^\top Q_{BB}\alpha_B
    + (G_B - Q_{BB}\alpha_B^{\text{old}})^\top\alpha_B
    \quad\text{s.t.}\quad y_B^\top\alpha_B = y_B^\top\alpha_B^{\text{old}},\
    0 \le \alpha_B \le C

with cvxopt, written in the step :math:`\delta = \alpha_B - \alpha_B^{\text{old}}`. :math:`B` holds the
:math:`q/2`
largest :math:`-y_kG_k` over :math:`I_{up}` and the :math:`q/2` smallest over
:math:`I_{low}` (Joachims' rule; for :math:`q = 2` the maximal violating pair, and
the subproblem's solution is SMO's step). The gradient is updated with the
:math:`q` columns :math:`K_{:,B}` -- the only kernel values an iteration needs --
and the method stops when :math:`m(\alpha) - M(\alpha) <` ``tol``, as SMO does.

References
----------
Osuna, E., Freund, R. and Girosi, F. (1997). An improved training algorithm for
support vector machines. *Neural Networks for Signal Processing VII*, 276--285.

Joachims, T. (1999). Making large-scale SVM learning practical. In *Advances in
Kernel Methods -- Support Vector Learning*, MIT Press, 169--184.
"""
from __future__ import annotations

from dataclasses import dataclass

import cvxopt
import numpy as np

from ._validation import check_C, check_labels, check_tol
from .kkt import alpha_status, bias_from_gradient, in_low, in_up

__all__ = ["DecompositionResult", "decomposition_solve", "select_working_set"]

_OPTIONS = {"show_progress": False, "abstol": 1e-14, "reltol": 1e-12, "feastol": 1e-12,
            "maxiters": 200}


@dataclass
class DecompositionResult:
    """What :func:`decomposition_solve` returns (field names as :class:`svmtext.smo.SMOResult`)."""

    alpha: np.ndarray
    b: float
    dual_objective: float     # W(alpha), maximised
    gap: float                # m(alpha) - M(alpha)
    n_iter: int
    n_kernel_evals: int
    converged: bool
    q: int


def select_working_set(g, y, status, q) -> tuple:
    r"""Joachims' working set: the :math:`q/2` largest :math:`-y_kG_k` (``g``) in
    :math:`I_{up}` and the :math:`q/2` smallest in :math:`I_{low}` (an index in both
    lists is taken once; the set is filled from the other list).
    Returns ``(B, gap)`` with ``gap`` :math:`= m(\alpha) - M(\alpha)`."""
    up, low = np.flatnonzero(in_up(y, status)), np.flatnonzero(in_low(y, status))
    order_up = up[np.argsort(-g[up], kind="stable")]
    order_low = low[np.argsort(g[low], kind="stable")]
    gap = g[order_up[0]] - g[order_low[0]]
    B, seen = [], set()
    for a, b in zip(order_up, order_low):
        for k in (a, b):
            if k not in seen and len(B) < q:
                seen.add(k)
                B.append(k)
        if len(B) >= q:
            break
    rest = [k for k in np.concatenate([order_up, order_low]) if k not in seen]
    B += rest[:q - len(B)]
    return np.array(B), float(gap)


def _subproblem_step(QBB, GB, yB, aB, C):
    r"""The step :math:`\delta = \alpha_B - \alpha_B^{\text{old}}` minimising
    :math:`\tfrac12\delta^\top Q_{BB}\delta + G_B^\top\delta` with
    :math:`y_B^\top\delta = 0`, :math:`-\alpha_B^{\text{old}} \le \delta \le C -
    \alpha_B^{\text{old}}` (cvxopt). Written in the step, the objective is small near the
    optimum, so cvxopt's absolute tolerance resolves the last improvements (in
    :math:`\alpha_B` itself they drown in the size of the objective)."""
    q = len(aB)
    m = cvxopt.matrix
    G = np.vstack([-np.eye(q), np.eye(q)])
    h = np.concatenate([aB, C - aB])
    res = cvxopt.solvers.qp(m((QBB + QBB.T) / 2), m(GB), m(G), m(h), m(yB[None, :]),
                            m(np.zeros(1)), options=_OPTIONS)
    if res["status"] not in ("optimal", "unknown"):
        raise ValueError(f"the working-set subproblem failed: cvxopt status "
                         f"{res['status']!r}")
    return np.clip(np.array(res["x"]).ravel(), -aB, C - aB)


def decomposition_solve(K, y, C, q=2, *, tol=1e-3, max_iter=100_000) -> DecompositionResult:
    r"""Solve the SVM dual by decomposition with working sets of size ``q``.

    Parameters
    ----------
    K : (n, n) array
        Gram matrix (read a column at a time: ``n_kernel_evals`` counts the columns
        an implementation without cache would compute, :math:`nq` per iteration).
    y : (n,) array of -1/+1
    C : float
    q : int, default 2
        Working-set size (even, at least 2).
    tol : float
        Stop when :math:`m(\alpha) - M(\alpha) <` ``tol``.

    Returns
    -------
    DecompositionResult
    """
    K = np.asarray(K, dtype=float)
    y = check_labels(y, len(K))
    C = check_C(C, finite=True)
    tol = check_tol(tol)
    if not (isinstance(q, (int, np.integer)) and q >= 2 and q % 2 == 0):
        raise ValueError(f"q must be an even integer >= 2; got {q!r}")
    n = len(y)
    q = min(q, n)
    alpha = np.zeros(n)
    g = y.copy()                         # -y_k G_k at alpha = 0
    status = alpha_status(alpha, C, 0.0)
    evals = n_iter = 0
    converged = False
    while n_iter < max_iter:
        B, gap = select_working_set(g, y, status, q)
        if gap < tol:
            converged = True
            break
        KB = K[:, B]                     # the q kernel columns of this iteration
        evals += KB.size
        yB, aB = y[B], alpha[B]
        QBB = np.outer(yB, yB) * KB[B]
        GB = -yB * g[B]                  # G = Q alpha - 1 on B
        new = aB + _subproblem_step(QBB, GB, yB, aB, C)
        eps = 1e-9 * C                   # interior-point answer: snap to the bounds
        new = np.where(new < eps, 0.0, np.where(new > C - eps, C, new))
        delta = new - aB
        alpha[B] = new
        status[B] = alpha_status(new, C, 0.0)
        g -= KB @ (delta * yB)
        n_iter += 1
    if not converged:                    # the gap of the returned multipliers
        gap = select_working_set(g, y, status, q)[1]
    b = bias_from_gradient(g, alpha, y, C)
    W = float(0.5 * np.sum(alpha * (1.0 + y * g)))
    return DecompositionResult(alpha=alpha, b=b, dual_objective=W, gap=float(gap),
                               n_iter=n_iter, n_kernel_evals=int(evals),
                               converged=converged, q=int(q))
