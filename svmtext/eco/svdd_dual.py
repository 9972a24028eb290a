r"""The SVDD dual and its two solvers (book: :ref:`sec-eco-svdd`).

Primal (Tax and Duin 2004): the smallest sphere of centre :math:`a` and radius
:math:`R` in feature space holding the data, with slacks,

.. math::

    \min_{R, a, \xi} R^2 + C \sum_i \xi_i \quad\text{s.t.}\quad
    \lVert \phi(x_i) - a \rVert^2 \le R^2 + \xi_i,\ \xi_i \ge 0 ;

dual (Howell et al. 2020, eq. 23), with :math:`a = \sum_i \alpha_i \phi(x_i)`:

.. math::

    \max_\alpha\; L_D = \sum_i \alpha_i K_{ii} - \sum_{i,j} \alpha_i\alpha_j K_{ij}
    \quad\text{s.t.}\quad \sum_i \alpha_i = 1,\ 0 \le \alpha_i \le C .

In LIBSVM's form :math:`\min \tfrac12\alpha^\top Q\alpha - p^\top\alpha` this is
:math:`Q = 2K`, :math:`p = \operatorname{diag} K`, :math:`y = \mathbf 1`,
:math:`\Delta = 1`, so :func:`svdd_smo` is the SVM's SMO core
(:mod:`svmtext.smo._core`) on that problem.
"""
from __future__ import annotations

import cvxopt
import numpy as np

from .._validation import check_C, check_gram, check_psd, check_tol, check_warm_start
from ..kkt import LOWER, alpha_status
from ..smo import smo_dense

__all__ = ["check_svdd_C", "svdd_objective", "svdd_kkt_gap", "solve_svdd_qp", "svdd_smo"]


def check_svdd_C(C, n) -> float:
    """A positive ``C`` with :math:`Cn \\ge 1` (else :math:`\\sum_i\\alpha_i = 1` is infeasible)."""
    C = check_C(C, finite=False)
    if C * n < 1 - 1e-12:
        raise ValueError(f"SVDD is infeasible with n_samples = {n} and C = {C:g}: C * n < 1 "
                         "(sum alpha = 1 with alpha <= C); raise C")
    return C


def svdd_objective(alpha, K) -> float:
    r""":math:`L_D(\alpha) = \sum_i \alpha_i K_{ii} - \alpha^\top K \alpha` (maximised)."""
    return float(alpha @ np.diag(K) - alpha @ K @ alpha)


def svdd_kkt_gap(alpha, K, C) -> float:
    r"""SMO's stopping quantity for the SVDD dual at ``alpha``:
    :math:`\max_{k:\,\alpha_k < C} -G_k - \min_{k:\,\alpha_k > 0} -G_k` with
    :math:`G = 2K\alpha - \operatorname{diag}K` (0 at the optimum)."""
    minus_G = np.diag(K) - 2 * K @ alpha
    up, low = alpha < C, alpha > 0
    if not up.any() or not low.any():
        return 0.0
    return max(0.0, float(minus_G[up].max() - minus_G[low].min()))


def solve_svdd_qp(K, C=1.0) -> np.ndarray:
    """Batch SVDD dual with cvxopt (the reference solver). Returns ``alpha``.

    ``K`` must be positive semi-definite (:func:`~svmtext.kernels.check_psd`: otherwise
    the dual is not concave and has no reliable maximiser). cvxopt's status is read: an
    answer that is not ``'optimal'`` is accepted only if its KKT gap
    (:func:`svdd_kkt_gap`) is below :math:`10^{-6}` of the kernel's scale; otherwise
    ``ValueError``.
    """
    K = check_gram(K)
    n = len(K)
    C = check_svdd_C(C, n)
    check_psd(K, needed_by="SVDD")
    m = cvxopt.matrix
    G = np.vstack([-np.eye(n), np.eye(n)])
    h = np.concatenate([np.zeros(n), np.full(n, C)])
    try:
        res = cvxopt.solvers.qp(m(2 * K), m(-np.diag(K).copy()), m(G), m(h),
                                m(np.ones((1, n))), m(1.0),
                                options={"show_progress": False, "abstol": 1e-12,
                                         "reltol": 1e-12, "feastol": 1e-12})
    except (ArithmeticError, ValueError) as exc:
        raise ValueError("the SVDD quadratic programme could not be solved: it is numerically "
                         f"degenerate (check the kernel and C) (cvxopt: {exc})") from exc
    alpha = np.clip(np.array(res["x"]).ravel(), 0.0, C)
    alpha[alpha_status(alpha, C) == LOWER] = 0.0
    alpha = alpha / alpha.sum()
    if res["status"] != "optimal":
        gap = svdd_kkt_gap(alpha, K, C)
        scale = max(1.0, float(np.abs(np.diag(K)).max(initial=0.0)))
        if not gap <= 1e-6 * scale:
            raise ValueError(f"the SVDD quadratic programme did not reach an optimum (cvxopt "
                             f"status {res['status']!r}, KKT gap {gap:.3g}); check the kernel "
                             "(scale the features) and C")
    return alpha


def svdd_smo(K, C=1.0, alpha0=None, tol=1e-6, max_iter=100_000) -> np.ndarray:
    r"""SVDD dual by SMO (WSS2 and the two-variable step of every SMO in the package).

    Minimises :math:`F = \alpha^\top K\alpha - \sum_i\alpha_i K_{ii}`; with its gradient
    :math:`G = \nabla F = 2K\alpha - \operatorname{diag}K` (the array ``g`` holds
    :math:`-G`) it stops when :math:`\max_{k:\,\alpha_k < C} -G_k - \min_{k:\,\alpha_k > 0} -G_k
    <` ``tol``. Warm-started at a
    feasible ``alpha0`` (default :math:`\alpha_i = 1/n`). ``K`` must be positive
    semi-definite (:func:`~svmtext.kernels.check_psd`). Returns ``alpha``.
    """
    K = check_gram(K)
    n = len(K)
    C = check_svdd_C(C, n)
    tol = check_tol(tol)
    check_psd(K, needed_by="SVDD")
    ones = np.ones(n)
    alpha = np.full(n, 1.0 / n) if alpha0 is None else check_warm_start(alpha0, ones, C, 1.0)
    g = np.diag(K) - 2 * K @ alpha
    smo_dense(2 * K, ones, alpha, g, np.ones(n, bool), n, C, tol, max_iter)
    return alpha
