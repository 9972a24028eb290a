r"""Reference solvers: the SVM primal and dual as quadratic programs (book: :ref:`sec-qp`).

Dual (any kernel; :math:`C = \infty` is the hard margin), book eq. :eq:`eq-dual-soft`:

.. math::

    \max_{\alpha}\; W(\alpha) = \sum_i \alpha_i - \tfrac12 \sum_{i,j} \alpha_i \alpha_j y_i y_j K_{ij}
    \quad\text{s.t.}\quad \sum_i \alpha_i y_i = 0,\; 0 \le \alpha_i \le C .

Primal (linear kernel), book eq. :eq:`eq-primal-soft`:

.. math::

    \min_{w, b, \xi}\; \tfrac12 \lVert w \rVert^2 + C \sum_i \xi_i
    \quad\text{s.t.}\quad y_i (\langle w, x_i\rangle + b) \ge 1 - \xi_i,\; \xi_i \ge 0 .

Both are solved with cvxopt's interior-point QP solver at tight tolerances; the dual
solution is then *polished*: with the free set :math:`F` and the bounded set
:math:`B` read off the interior-point answer, the KKT equalities
:math:`Q_{FF}\alpha_F + y_F b = \mathbf 1 - C Q_{FB}\mathbf 1`,
:math:`y_F^\top \alpha_F = -C y_B^\top \mathbf 1` are solved exactly, and the polished point
is kept when it is feasible and has smaller KKT residuals. An interior-point answer
approaches a bound only like its tolerance, so a multiplier that belongs at a bound
can still sit a little above the threshold that reads the sets off; the sets are
therefore read at four thresholds, :math:`10^{-7}` to :math:`10^{-4}` times the scale
of :math:`\alpha`, and the feasible polished point with the smallest residuals wins.
Every other solver in the book is checked against :func:`solve_dual`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cvxopt
import numpy as np
from scipy.optimize import linprog

from ._validation import check_C, check_dual_problem, check_labels
from .base import BaseSVC
from .kernels import check_psd, linear_kernel
from .kkt import dual_objective_from_coef, free_and_bounded, intercept_from_alpha, kkt_residuals

__all__ = [
    "DualSolution", "PrimalSolution", "solve_dual", "solve_primal", "dual_objective",
    "primal_objective", "check_separable", "QPSVC",
]

_CVXOPT_OPTIONS = {"show_progress": False, "abstol": 1e-12, "reltol": 1e-12,
                   "feastol": 1e-12, "maxiters": 200}


@dataclass
class DualSolution:
    """Solution of the dual QP."""

    alpha: np.ndarray
    b: float
    objective: float            # W(alpha), the maximised dual objective
    C: float
    support: np.ndarray         # indices with alpha_i > 0
    free: np.ndarray            # indices with 0 < alpha_i < C
    bounded: np.ndarray         # indices with alpha_i = C
    kkt_violation: float
    status: str = ""
    iterations: int = 0
    w: np.ndarray | None = None  # sum_i alpha_i y_i x_i when X was given


@dataclass
class PrimalSolution:
    """Solution of the (linear) primal QP; ``alpha`` are the margin multipliers."""

    w: np.ndarray
    b: float
    xi: np.ndarray
    objective: float            # 1/2 ||w||^2 + C sum xi
    alpha: np.ndarray
    status: str = ""
    margin: float = field(init=False)

    def __post_init__(self):
        self.margin = 1.0 / float(np.linalg.norm(self.w)) if np.any(self.w) else np.inf


def dual_objective(alpha, K, y) -> float:
    r""":math:`W(\alpha) = \mathbf 1^\top\alpha - \tfrac12 \alpha^\top Q \alpha`,
    :math:`Q_{ij} = y_i y_j K_{ij}` (see :func:`dual_objective_from_coef`)."""
    return dual_objective_from_coef(np.asarray(alpha) * np.asarray(y), K)


def primal_objective(alpha, b, K, y, C=None) -> float:
    r"""Primal value of :math:`w = \sum_i \alpha_i y_i \phi(x_i)` and ``b``, slacks at their best:

    :math:`P = \tfrac12 \alpha^\top Q \alpha + C \sum_i \max(0, 1 - y_i f(x_i))`
    (``inf`` for the hard margin when a margin constraint is violated).
    """
    alpha, y, K = np.asarray(alpha, float), np.asarray(y, float), np.asarray(K, float)
    v = alpha * y
    Kv = K @ v
    xi = np.maximum(0.0, 1.0 - y * (Kv + b))
    C = np.inf if C is None else C
    if np.isinf(C):
        return float(0.5 * v @ Kv) if np.all(xi <= 1e-9) else np.inf
    return float(0.5 * v @ Kv + C * xi.sum())


def check_separable(K, y) -> bool:
    r"""Raise ``ValueError`` unless some :math:`f = K\beta + b` has :math:`y_i f_i \ge 1` for all ``i``.

    This linear programme is feasible exactly when the hard-margin SVM has a solution
    (the data are separable in the kernel's feature space); otherwise the hard-margin
    dual is unbounded and no answer is correct.
    """
    K, y = check_dual_problem(K, y)
    n = len(y)
    A_ub = -y[:, None] * np.hstack([K, np.ones((n, 1))])
    res = linprog(np.zeros(n + 1), A_ub=A_ub, b_ub=-np.ones(n),
                  bounds=[(None, None)] * (n + 1), method="highs")
    if res.status == 2:
        raise ValueError(
            "hard-margin SVM is infeasible: the two classes are not separable in this kernel's "
            "feature space (no f with y_i f(x_i) >= 1 for all i); use a finite C (soft margin)")
    return True


#: Tolerances tried in turn by the linear primal when cvxopt breaks down. Its objective is
#: singular in b and the slacks, and pushed to 1e-12 the interior point can step past its
#: last well-conditioned iterate (the square root of a negative slack, "domain error") on
#: problems that it solves to 1e-10 or 1e-8 without complaint. The dual solvers do not
#: retry: there a breakdown reports an ill-conditioned kernel matrix, which a looser
#: tolerance would hide.
_PRIMAL_FALLBACK_TOLERANCES = (1e-10, 1e-8)


def _run_qp(hard, *args, fallback=()):
    """cvxopt's QP; its numerical breakdowns become a ``ValueError`` that says why.

    A breakdown at the default tolerances (1e-12) is retried at each tolerance of
    ``fallback``; the caller's status check applies as usual.
    """
    options = [_CVXOPT_OPTIONS] + [dict(_CVXOPT_OPTIONS, abstol=t, reltol=t, feastol=t)
                                   for t in fallback]
    for k, opts in enumerate(options):
        try:
            return cvxopt.solvers.qp(*args, options=opts)
        except (ArithmeticError, ValueError) as exc:
            if k + 1 < len(options):
                continue
            why = ("the classes are separable only with a vanishing margin (nearly "
                   "inseparable data); use a finite C" if hard else
                   "the problem is numerically degenerate (check the kernel and C)")
            raise ValueError(f"the SVM quadratic programme could not be solved: {why} "
                             f"(cvxopt: {exc})") from exc


def _polish(alpha, K, y, C, at_bound):
    """Solve the KKT equalities on the free set read off an interior-point answer
    (``at_bound``: distance to a bound under which an alpha counts as at it)."""
    free, bounded = free_and_bounded(alpha, C, at_bound)
    a = np.where(bounded, C if np.isfinite(C) else 0.0, 0.0)
    F = np.flatnonzero(free)
    if len(F) == 0:
        return a
    Q = (y[:, None] * y[None, :]) * K
    rhs = np.ones(len(F)) - Q[np.ix_(F, np.flatnonzero(bounded))] @ a[bounded]
    M = np.zeros((len(F) + 1, len(F) + 1))
    M[:-1, :-1] = Q[np.ix_(F, F)]
    M[:-1, -1] = y[F]
    M[-1, :-1] = y[F]
    sol = np.linalg.lstsq(M, np.append(rhs, -y[bounded] @ a[bounded]), rcond=None)[0]
    a[F] = sol[:-1]
    return a


#: Largest kernel scale (:math:`\max_i K_{ii}`) solved as it is; above, :func:`solve_dual`
#: solves the equivalent problem of :func:`_solve_rescaled`.
_MAX_SCALE = 1e3


def _solve_rescaled(K, y, C, s, *, X=None, polish=True) -> DualSolution:
    r"""The dual with :math:`K/s` and :math:`sC`, mapped back: the same problem, well scaled.

    With :math:`\alpha = \alpha'/s`, :math:`W(\alpha) = W'(\alpha')/s` where :math:`W'` has
    the kernel :math:`K/s` and the box :math:`0 \le \alpha' \le sC`, and the decision
    function (so :math:`b`) is unchanged. Features of scale :math:`10^6` give
    :math:`K_{ii} \sim 10^{12}` and multipliers :math:`\sim 10^{-12}`, below cvxopt's absolute
    tolerances; :math:`K/s` has unit scale. The box :math:`sC` may then lie far above the
    multipliers, so the thresholds that read the bound sets off the interior-point answer
    are relative to :math:`\min(sC, \max(1, \max_k \alpha'_k))` instead of :math:`sC`.
    """
    sol = solve_dual(K / s, y, C * s, polish=polish, check_psd_kernel=False, _box_scale=False)
    alpha = sol.alpha / s
    viol = kkt_residuals(alpha, sol.b, K, y, C).max_violation
    return DualSolution(
        alpha=alpha, b=sol.b, objective=dual_objective(alpha, K, y), C=C, support=sol.support,
        free=sol.free, bounded=sol.bounded, kkt_violation=viol, status=sol.status,
        iterations=sol.iterations, w=None if X is None else np.asarray(X, float).T @ (alpha * y))


def solve_dual(K, y, C=None, *, X=None, polish=True, check_psd_kernel=True,
               _box_scale=True) -> DualSolution:
    r"""Solve the SVM dual with cvxopt.

    Parameters
    ----------
    K : (n, n) array
        Gram matrix of a positive semi-definite kernel.
    y : (n,) array of -1/+1
    C : float, None or inf
        Box constant; ``None``/``inf`` is the hard margin (which raises ``ValueError``
        when the data are not separable, see :func:`check_separable`).
    X : (n, d) array, optional
        Data for a linear kernel; then ``w`` is returned too.
    polish : bool
        Refine the interior-point answer on its active set (see the module docstring).

    A kernel whose largest :math:`K_{ii}` exceeds :math:`10^3` is solved rescaled
    (:func:`_solve_rescaled`; the same solution).

    Returns
    -------
    DualSolution
    """
    K, y = check_dual_problem(K, y)
    C = check_C(C)
    if check_psd_kernel:
        check_psd(K)
    s = float(np.abs(np.diag(K)).max(initial=0.0))
    if s > _MAX_SCALE:
        return _solve_rescaled(K, y, C, s, X=X, polish=polish)
    if np.isinf(C):
        check_separable(K, y)
    n = len(y)
    Q = (y[:, None] * y[None, :]) * K
    if np.isinf(C):
        G, h = -np.eye(n), np.zeros(n)
    else:
        G, h = np.vstack([-np.eye(n), np.eye(n)]), np.concatenate([np.zeros(n), np.full(n, C)])
    m = cvxopt.matrix
    res = _run_qp(np.isinf(C), m(Q), m(-np.ones(n)), m(G), m(h), m(y[None, :]), m(0.0))
    raw = np.clip(np.array(res["x"]).ravel(), 0.0, C)
    if res["status"] not in ("optimal", "unknown"):
        raise ValueError(f"the dual QP failed: cvxopt status {res['status']!r}")
    scale = max(1.0, float(raw.max()))
    if np.isfinite(C):
        scale = C if _box_scale else min(C, scale)
    at_bound = 1e-7 * scale
    raw_b = intercept_from_alpha(raw, K, y, C, tol=at_bound)
    raw_viol = kkt_residuals(raw, raw_b, K, y, C).max_violation
    alpha, b, viol = raw, raw_b, raw_viol
    for free_set_threshold in (at_bound * 10.0 ** np.arange(4) if polish else ()):
        cand = _polish(raw, K, y, C, free_set_threshold)
        if np.all(cand >= -1e-12) and np.all(cand <= C + 1e-12):
            cand = np.clip(cand, 0.0, C)
            cand_b = intercept_from_alpha(cand, K, y, C, tol=at_bound)
            cand_viol = kkt_residuals(cand, cand_b, K, y, C).max_violation
            if cand_viol < viol or (cand_viol == viol and alpha is raw):
                alpha, b, viol = cand, cand_b, cand_viol
    if np.isinf(C) and viol > 1e-3:
        raise ValueError("hard-margin SVM did not converge (the data are nearly inseparable); "
                         "use a finite C")
    alpha = np.where(alpha > at_bound, alpha, 0.0)
    if np.isfinite(C):
        alpha = np.where(alpha >= C - at_bound, C, alpha)
    free, bounded = free_and_bounded(alpha, C, tol=at_bound)
    return DualSolution(
        alpha=alpha, b=b, objective=dual_objective(alpha, K, y), C=C,
        support=np.flatnonzero(alpha > 0), free=np.flatnonzero(free),
        bounded=np.flatnonzero(bounded), kkt_violation=viol, status=res["status"],
        iterations=int(res["iterations"]),
        w=None if X is None else np.asarray(X, float).T @ (alpha * y),
    )


def solve_primal(X, y, C=None) -> PrimalSolution:
    r"""Solve the linear SVM primal (hard margin for ``C=None``/``inf``) with cvxopt.

    The margin multipliers returned by the interior-point solver are the dual
    variables :math:`\alpha_i`.
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D; got shape {X.shape}")
    y = check_labels(y)
    if len(X) != len(y):
        raise ValueError(f"X has {len(X)} rows but y has {len(y)} labels")
    if not np.all(np.isfinite(X)):
        raise ValueError("X contains NaN or infinite values")
    C = check_C(C)
    n, d = X.shape
    if np.isinf(C):
        check_separable(linear_kernel(X), y)
        nv = d + 1
        P = np.zeros((nv, nv))
        P[:d, :d] = np.eye(d)
        G = -y[:, None] * np.hstack([X, np.ones((n, 1))])
        h = -np.ones(n)
    else:
        nv = d + 1 + n
        P = np.zeros((nv, nv))
        P[:d, :d] = np.eye(d)
        G = np.zeros((2 * n, nv))
        G[:n, :d] = -y[:, None] * X
        G[:n, d] = -y
        G[:n, d + 1:] = -np.eye(n)
        G[n:, d + 1:] = -np.eye(n)
        h = np.concatenate([-np.ones(n), np.zeros(n)])
    q = np.zeros(nv)
    if np.isfinite(C):
        q[d + 1:] = C
    m = cvxopt.matrix
    fallback = () if np.isinf(C) else _PRIMAL_FALLBACK_TOLERANCES   # hard margin: report
    res = _run_qp(np.isinf(C), m(P), m(q), m(G), m(h), fallback=fallback)
    if res["status"] not in ("optimal", "unknown"):
        raise ValueError(f"the primal QP failed: cvxopt status {res['status']!r}")
    u = np.array(res["x"]).ravel()
    z = np.array(res["z"]).ravel()
    w, b = u[:d], float(u[d])
    xi = np.maximum(u[d + 1:], 0.0) if np.isfinite(C) else np.zeros(n)
    obj = 0.5 * w @ w + (C * xi.sum() if np.isfinite(C) else 0.0)
    return PrimalSolution(w=w, b=b, xi=xi, objective=float(obj), alpha=z[:n], status=res["status"])


class QPSVC(BaseSVC):
    """Binary kernel SVM fitted by the reference QP solver :func:`solve_dual`.

    Slow (dense interior point, :math:`O(n^3)`) but exact: the yardstick for every
    other solver in the book. ``C=float('inf')`` fits the hard margin and raises
    ``ValueError`` when the data are not separable.

    Parameters and attributes are those of :class:`~svmtext.base.BaseSVC`;
    ``fit_info_`` adds ``kkt_violation``, ``iterations`` and ``status`` (cvxopt's).

    References
    ----------
    Cortes, C. and Vapnik, V. (1995). Support-vector networks. *Machine Learning* 20, 273--297.
    """

    def _solve(self, K, y, C):
        sol = solve_dual(K, y, C)
        return sol.alpha, sol.b, {"kkt_violation": sol.kkt_violation,
                                  "iterations": sol.iterations, "status": sol.status}


@dataclass
class BoxQPSolution:
    """Solution of :func:`solve_box_qp`: the minimiser, the objective and the multipliers."""

    x: np.ndarray
    objective: float            # 1/2 x'Hx + c'x, minimised
    eq_multipliers: np.ndarray  # lambda of A x = b (stationarity: Hx + c + A'lambda - z_lo + z_up = 0)
    status: str = ""
    iterations: int = 0


def solve_box_qp(H, c, A, b, lower=0.0, upper=None) -> BoxQPSolution:
    r"""Minimise a convex quadratic over a box and affine equalities (cvxopt).

    .. math::

        \min_x\ \tfrac12 x^\top H x + c^\top x
        \quad\text{s.t.}\quad A x = b,\ \ \ell \le x_k \le u

    (``upper=None``/``inf``: no upper bound). The general form behind the SVM duals
    with more than one equality, such as the :math:`\nu`-SVM's
    :math:`\sum_{i\in S^+}\alpha_i = \sum_{i\in S^-}\alpha_i = \nu/2` (book:
    :ref:`sec-coulomb-model2`). ``H`` must be positive semi-definite; the answer is
    clipped into the box.
    """
    H = np.asarray(H, float)
    n = len(H)
    if H.shape != (n, n):
        raise ValueError(f"H must be a square n x n matrix; got shape {H.shape}")
    c = np.asarray(c, float).reshape(n)
    A = np.atleast_2d(np.asarray(A, float))
    b = np.atleast_1d(np.asarray(b, float))
    if A.shape != (len(b), n):
        raise ValueError(f"A must have shape ({len(b)}, {n}); got {A.shape}")
    up = np.inf if upper is None else float(upper)
    G, h = [-np.eye(n)], [np.full(n, -float(lower))]
    if np.isfinite(up):
        G.append(np.eye(n))
        h.append(np.full(n, up))
    m = cvxopt.matrix
    res = _run_qp(False, m((H + H.T) / 2), m(c), m(np.vstack(G)), m(np.concatenate(h)),
                  m(A), m(b))
    if res["status"] not in ("optimal", "unknown"):
        raise ValueError(f"the quadratic programme failed: cvxopt status {res['status']!r}")
    x = np.clip(np.array(res["x"]).ravel(), lower, up)
    return BoxQPSolution(x=x, objective=float(0.5 * x @ H @ x + c @ x),
                         eq_multipliers=np.array(res["y"]).ravel(), status=res["status"],
                         iterations=int(res["iterations"]))


__all__ += ["BoxQPSolution", "solve_box_qp"]
