r"""Machines that equalise potentials: the p-SVM, the LP-SVM, the one-equation SVM
and the quick-and-dirty approximation (book: :ref:`sec-coulomb-psvm`,
:ref:`sec-coulomb-fast`).

Without constraints the energy of model 3 is smallest where the potentials cancel
the batteries, :math:`Pq + \phi = 0` with :math:`\phi_i = -\beta_iy_i`, i.e.
:math:`y_i\varphi_i = \beta_i`. The machines here make :math:`Pq + \phi` small
directly, which needs no positive definite :math:`P`:

.. math::

    \text{p-SVM:}\ \min \tfrac12\lVert Pq + \phi\rVert_2^2, \qquad
    \text{LP-SVM:}\ \min \lVert Pq + \phi\rVert_1, \qquad
    \text{one equation:}\ Pq = -\phi \text{ with } P_{ii} = \kappa_0 .
"""
from __future__ import annotations

import warnings

import numpy as np
from scipy.optimize import linprog

from .._validation import check_C, check_dual_problem, check_tol
from ..qp import _MAX_SCALE, solve_box_qp
from ..smo import smo_solve
from .energy import ChargeSolution, check_beta

__all__ = ["solve_p", "solve_lp", "lp_certificate", "jacobi", "solve_one_equation",
           "quick_and_dirty", "mu_coefficients"]


def mu_coefficients(P, y, beta=1.0) -> np.ndarray:
    r""":math:`\mu_i = y_i\sum_j P_{ij}y_j\beta_j` (the source writes
    :math:`\beta_i\sum_j y_iy_jP_{ij}`, the same for equal :math:`\beta`)."""
    P, y = check_dual_problem(P, y)
    return y * (P @ (y * check_beta(beta, len(y))))


def solve_p(P, y, C=1.0, beta=1.0, *, tol=1e-3, max_iter=None, solver="smo") -> ChargeSolution:
    r"""The p-SVM: the least-squares potential difference (book: :ref:`sec-coulomb-psvm`).

    .. math::

        \min_\alpha \tfrac12\alpha^\top Q\alpha - \mu^\top\alpha
        \quad\text{s.t.}\quad y^\top\alpha = 0,\ 0 \le \alpha_i \le C,
        \qquad Q_{ij} = y_iy_j[P^\top P]_{ij},\ \mu = :func:`mu_coefficients`,

    which is :math:`\tfrac12\lVert Pq + \phi\rVert^2` up to a constant. :math:`P^\top P` is
    positive semi-definite for any symmetric :math:`P`, so SMO
    (:func:`svmtext.smo.smo_solve` on the "kernel" :math:`P^\top P` with linear term
    :math:`\mu`; ``solver='qp'``: the interior point :func:`svmtext.qp.solve_box_qp`)
    solves it for kernels that are not positive definite. The constant
    potential is the least-squares one, :math:`b = \mathrm{mean}_i(\beta_iy_i - \varphi_i)`
    (our choice; the source gives none). With ``solver='qp'`` a :math:`P` whose largest
    entry :math:`s` exceeds :math:`10^3` is solved in :math:`\alpha' = s\alpha` with
    :math:`P/s` and the box :math:`sC` (the same objective, at unit scale).
    """
    P, y = check_dual_problem(P, y)
    C = check_C(C, finite=True)
    beta = check_beta(beta, len(y))
    mu = mu_coefficients(P, y, beta)
    if solver == "qp":
        # a P of scale s > 1e3 (features of scale 1e6, linear kernel: s ~ 1e12, alpha ~
        # 1/s) is solved in alpha' = s alpha with P/s and the box sC: the same objective
        s = float(np.abs(P).max(initial=0.0))
        s = s if s > _MAX_SCALE else 1.0
        Ps = P / s
        H = (y[:, None] * y[None, :]) * (Ps.T @ Ps)
        sol = solve_box_qp(H, -mu / s, y[None, :], [0.0], 0.0, C * s)
        x = sol.x / s
        # charges below 1e-6 of C (of the largest charge when rescaled) are zero
        floor = 1e-6 * (C if s == 1.0 else min(C, float(x.max(initial=0.0))))
        alpha = np.where(x > floor, x, 0.0)
        info = {"status": sol.status, "n_iter": sol.iterations}
    elif solver == "smo":
        res = smo_solve(P.T @ P, y, C, tol=check_tol(tol), p=mu, max_iter=max_iter)
        alpha = res.alpha
        info = {"gap": res.gap, "converged": res.converged, "n_iter": res.n_iter}
    else:
        raise ValueError(f"solver must be 'smo' or 'qp'; got {solver!r}")
    r = P @ (y * alpha) - beta * y
    b = -float(r.mean())
    return ChargeSolution(alpha=alpha, b=b, energy=float(0.5 * r @ r),
                          info={"mu": mu, "C": C, **info})


def _lp_matrices(P, y, beta):
    n = len(y)
    Qm = (y[:, None] * y[None, :]) * P          # y_i [P q]_i as a function of alpha
    I = np.eye(n)
    A_ub = np.block([[Qm, -I], [-Qm, -I]])
    b_ub = np.concatenate([beta, -beta])
    A_eq = np.concatenate([y, np.zeros(n)])[None, :]
    c = np.concatenate([np.zeros(n), np.ones(n)])
    return c, A_ub, b_ub, A_eq, np.zeros(1)


def lp_certificate(res, c, A_ub, b_ub, A_eq, b_eq) -> dict:
    r"""Optimality certificate of a HiGHS answer from its dual values.

    With scipy's signs (:math:`\lambda_{ub} \le 0`, lower-bound multipliers
    :math:`\lambda_\ell \ge 0`) the dual is feasible when
    :math:`c = A_{ub}^\top\lambda_{ub} + A_{eq}^\top\lambda_{eq} + \lambda_\ell` and
    optimal when its value :math:`b_{ub}^\top\lambda_{ub} + b_{eq}^\top\lambda_{eq}` (all
    lower bounds are 0) equals the primal :math:`c^\top x`. Returns
    ``{"primal", "dual", "gap", "dual_infeasibility", "sign_violation"}``.
    """
    lam_ub, lam_eq = res.ineqlin.marginals, res.eqlin.marginals
    lam_lo = res.lower.marginals
    dual = float(b_ub @ lam_ub + b_eq @ lam_eq)
    resid = c - A_ub.T @ lam_ub - A_eq.T @ lam_eq - lam_lo
    return {"primal": float(c @ res.x), "dual": dual, "gap": float(c @ res.x - dual),
            "dual_infeasibility": float(np.abs(resid).max()),
            "sign_violation": float(max(lam_ub.max(initial=0.0), -lam_lo.min(initial=0.0)))}


def solve_lp(P, y, beta=1.0) -> ChargeSolution:
    r"""The LP-SVM of section 2.4.1 (book: :ref:`sec-coulomb-lp`).

    .. math::

        \min_{\alpha, s}\ \sum_i s_i \quad\text{s.t.}\quad
        \beta_i - s_i \le y_i[Pq]_i \le \beta_i + s_i,\ \ \sum_i y_i\alpha_i = 0,\
        \alpha_i \ge 0 ,

    i.e. :math:`\min\lVert Pq + \phi\rVert_1`, by scipy's ``linprog`` (HiGHS);
    ``info["certificate"]`` is :func:`lp_certificate`. The constant potential is the
    median of :math:`\beta_iy_i - \varphi_i` (the :math:`\ell_1` choice; ours). A
    :math:`P` whose largest entry :math:`s` exceeds :math:`10^3` is solved in
    :math:`\alpha' = s\alpha` with :math:`P/s` (the same potentials and objective).
    """
    P, y = check_dual_problem(P, y)
    n = len(y)
    beta = check_beta(beta, n)
    # alpha' = s alpha with P/s: the same potentials and objective, at unit scale
    s = float(np.abs(P).max(initial=0.0))
    s = s if s > _MAX_SCALE else 1.0
    c, A_ub, b_ub, A_eq, b_eq = _lp_matrices(P / s, y, beta)
    res = linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq,
                  bounds=[(0, None)] * (2 * n), method="highs")
    if res.status != 0:
        raise ValueError(f"the LP-SVM's linear programme failed: {res.message}")
    alpha = res.x[:n]
    alpha = np.where(alpha > 1e-12 * max(1.0, alpha.max()), alpha, 0.0) / s
    r = P @ (y * alpha) - beta * y
    return ChargeSolution(alpha=alpha, b=-float(np.median(r)), energy=float(res.fun), info={
        "certificate": lp_certificate(res, c, A_ub, b_ub, A_eq, b_eq), "s": res.x[n:],
        "n_iter": int(res.nit)})


def jacobi(P_off, kappa, rhs, *, tol=1e-12, max_iter=100_000) -> tuple[np.ndarray, int, float]:
    r"""Jacobi iteration for :math:`(\tilde P + D)q = r`, :math:`D = \mathrm{diag}(\kappa)`:
    :math:`q \leftarrow D^{-1}(r - \tilde Pq)` until :math:`\lVert(\tilde P + D)q - r\rVert_\infty`
    < ``tol``. Converges when :math:`\kappa_i > \sum_{j\ne i}|\tilde P_{ij}|` (strict
    diagonal dominance). Returns ``(q, iterations, residual)``."""
    kappa = np.broadcast_to(np.asarray(kappa, float), rhs.shape)
    q = rhs / kappa
    for it in range(1, max_iter + 1):
        res = P_off @ q + kappa * q - rhs
        err = float(np.abs(res).max())
        if err < tol:
            return q, it - 1, err
        if not np.isfinite(err):
            break
        q = (rhs - P_off @ q) / kappa
    raise ValueError(f"the Jacobi iteration did not converge (residual {err:.3g}); "
                     "is the matrix strictly diagonally dominant?")


def solve_one_equation(P, y, beta=1.0, *, kappa0=None, n_bisect=40, tol=1e-10) -> ChargeSolution:
    r"""The SVM by solving one equation (book: :ref:`sec-coulomb-fast`).

    :math:`P = \tilde P + \kappa_0 I` with :math:`\tilde P` the off-diagonal part; the
    charges solve :math:`Pq = -\phi`, i.e. :math:`y_i\varphi_i = \beta_i` on every
    conductor, and :math:`b = 0`. Without ``kappa0``, a ``n_bisect``-step bisection
    between :math:`0` and :math:`\kappa_{\max} = \Delta(1 + \beta_{\max}/\beta_{\min})`,
    :math:`\Delta = \max_i\sum_{j\ne i}|P_{ij}|` (``info["delta"]``; where :math:`\alpha \ge 0` is guaranteed,
    book: :ref:`sec-coulomb-fast`), finds the smallest :math:`\kappa_0` with
    :math:`\alpha \ge 0` it can bracket (each trial a direct solve). The final charges
    come from the Jacobi iteration (:func:`jacobi`) when it converges, i.e. when
    :math:`\kappa_0` exceeds the spectral radius of :math:`\tilde P`, else from a
    direct solve; ``info["residual"]`` is :math:`\lVert Pq + \phi\rVert_\infty`.
    """
    P, y = check_dual_problem(P, y)
    beta = check_beta(beta, len(y))
    if np.any(beta <= 0):
        raise ValueError("the one-equation SVM needs beta_i > 0")
    n = len(y)
    P_off = P - np.diag(np.diag(P))
    delta = float(np.abs(P_off).sum(axis=1).max())
    rhs = beta * y

    def alpha_at(k0):
        return y * np.linalg.solve(P_off + k0 * np.eye(n), rhs)

    if kappa0 is None:
        lo, hi = 0.0, delta * (1 + beta.max() / beta.min()) + 1e-12
        for _ in range(n_bisect):
            mid = 0.5 * (lo + hi)
            try:
                ok = bool(np.all(alpha_at(mid) >= 0))
            except np.linalg.LinAlgError:
                ok = False
            lo, hi = (lo, mid) if ok else (mid, hi)
        kappa0 = hi
    elif isinstance(kappa0, bool) or not 0 < float(kappa0) < np.inf:
        raise ValueError(f"kappa0 must be a positive number; got {kappa0!r}")
    kappa0 = float(kappa0)
    cond = float(np.linalg.cond(P_off + kappa0 * np.eye(n)))
    if not cond < 1e10:
        raise ValueError(f"P with the diagonal kappa0 = {kappa0:.6g} is singular (condition "
                         f"number {cond:.3g}): the charges that equalise the potentials are "
                         "unbounded there (with two training points, for instance, the "
                         "smallest kappa0 that keeps every charge non-negative is exactly "
                         "where P becomes singular); pass a larger kappa0")
    spectral = float(np.abs(np.linalg.eigvalsh(P_off)).max())
    if kappa0 > 1.01 * spectral:      # Jacobi converges, and not too slowly
        q, n_iter, _ = jacobi(P_off, kappa0, rhs, tol=tol * max(1.0, beta.max()))
        method = "jacobi"
    else:
        q, n_iter, method = np.linalg.solve(P_off + kappa0 * np.eye(n), rhs), 0, "solve"
    alpha = y * q
    residual = float(np.abs(P_off @ q + kappa0 * q - rhs).max())
    return ChargeSolution(alpha=np.maximum(alpha, 0.0), b=0.0, energy=float("nan"), info={
        "kappa0": kappa0, "delta": delta, "spectral_radius": spectral, "method": method,
        "n_iter": n_iter, "residual": residual, "min_alpha": float(alpha.min())})


def quick_and_dirty(P, y, beta=1.0, mu_min=1e-3, rule="drop", *, eps=None) -> ChargeSolution:
    r"""Charges of section 2.4.3: assume every neighbour of :math:`i` holds the same
    charge magnitude, :math:`\alpha_j = \alpha_i`, in :math:`y_i\sum_jy_jP_{ij}\alpha_j =
    \beta_i`; then :math:`\alpha_i = \beta_i/\mu_i` with :math:`\mu_i = y_i\sum_jy_jP_{ij}`;
    :math:`b = 0`. The source says "keep :math:`\mu_i` above a small bound" (its
    :math:`\epsilon`; here ``mu_min``, since :math:`\varepsilon` is the regression tube), read
    two ways (``rule``): ``'floor'`` replaces :math:`\mu_i` by :math:`\max(\mu_i, \mu_{\min})`
    (a conductor with :math:`\mu_i < \mu_{\min}` gets the charge :math:`\beta_i/\mu_{\min}`);
    ``'drop'`` leaves it uncharged (:math:`\alpha_i = 0`), the default, as for
    :class:`~svmtext.coulomb.QuickSVC` (the floor charges a point lying inside the other
    class with :math:`\beta_i/\mu_{\min}`; the chapter measures it worse than chance).
    ``mu_min`` > 0; ``eps`` is its former name (deprecated)."""
    if eps is not None:
        warnings.warn("quick_and_dirty(eps=...) is renamed mu_min=...; eps will be removed",
                      FutureWarning, stacklevel=2)
        mu_min = eps
    P, y = check_dual_problem(P, y)
    if isinstance(mu_min, bool) or not (0 < float(mu_min) < np.inf):
        raise ValueError(f"mu_min must be a positive number (the bound on mu_i); got {mu_min!r}")
    if rule not in ("floor", "drop"):
        raise ValueError(f"rule must be 'floor' (mu_i -> max(mu_i, mu_min)) or 'drop' "
                         f"(alpha_i = 0 where mu_i < mu_min); got {rule!r}")
    beta = check_beta(beta, len(y))
    mu = y * (P @ y)
    low = mu < mu_min
    alpha = np.where(low, 0.0, beta / np.where(low, 1.0, mu)) if rule == "drop" \
        else beta / np.maximum(mu, mu_min)
    return ChargeSolution(alpha=alpha, b=0.0, energy=float("nan"),
                          info={"mu": mu, "n_below_mu_min": int(np.sum(low)), "rule": rule})
