r"""Coulomb energy of coupled conductors: models 2 and 3, the :math:`\kappa`-SVM and the
charge flow (book: :ref:`sec-coulomb-model2`, :ref:`sec-coulomb-model3`).

Conductor :math:`i` at :math:`x_i` carries the charge :math:`q_i = y_i\alpha_i`
(:math:`\alpha_i \ge 0`; the book writes :math:`q` for the source's :math:`Q`, which
names the matrix :math:`y_iy_jK_{ij}` elsewhere). With the coefficients of potential
:math:`P` the potentials are :math:`\varphi = Pq` and the energy of the charges and of
the batteries :math:`\phi_i = -\beta_iy_i` is

.. math::

    E(\alpha) = \tfrac12 q^\top P q + \phi^\top q
              = \tfrac12\sum_{i,j}\alpha_i\alpha_j y_iy_jP_{ij} - \sum_i\beta_i\alpha_i .

Model 2 (no batteries, :math:`\beta = 0`) with :math:`0 \le \alpha_i \le 1/n` and
:math:`\sum_{S^+}\alpha_i = \sum_{S^-}\alpha_i = \nu/2` is the :math:`\nu`-SVM; model 3
(:math:`\beta_i = 1`, :math:`0 \le \alpha_i \le C`, :math:`\sum_i y_i\alpha_i = 0`) is
the C-SVM, whose :math:`E` is LIBSVM's :math:`-W(\alpha)`.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np

from .._validation import check_C, check_dual_problem, check_psd, check_tol
from ..qp import _MAX_SCALE, solve_box_qp
from .kernels import neutral_eigenvalues
from ..smo import smo_solve

__all__ = ["ChargeSolution", "coulomb_energy", "solve_nu", "solve_battery",
           "charge_flow", "project_class_charges", "class_potentials", "check_beta",
           "NonConvexWarning", "NEUTRAL_RTOL"]

#: A neutral-subspace eigenvalue below ``-NEUTRAL_RTOL * lambda_max`` makes the energy non-convex.
NEUTRAL_RTOL = 1e-8


class NonConvexWarning(UserWarning):
    """The energy is not convex on the charges the constraints allow: a solver that
    still runs (SMO) stops at a stationary point, not necessarily the minimum."""


@dataclass
class ChargeSolution:
    r"""Charges at an optimum: :math:`\alpha`, the constant potential :math:`b` of
    :math:`\varphi(x) = \sum_i q_i k(x_i, x) + b`, the energy, and what the solver reports."""

    alpha: np.ndarray
    b: float
    energy: float
    info: dict = field(default_factory=dict)

    @property
    def support(self) -> np.ndarray:
        """Charged conductors, :math:`\\alpha_i > 0`."""
        return np.flatnonzero(self.alpha > 0)


def check_beta(beta, n) -> np.ndarray:
    """Battery strengths :math:`\\beta_i \\ge 0` (a number for all, or one per conductor)."""
    b = np.broadcast_to(np.asarray(beta, float), (n,)).copy() if np.ndim(beta) == 0 \
        else np.asarray(beta, float)
    if b.shape != (n,) or not np.all(np.isfinite(b)) or np.any(b < 0):
        raise ValueError(f"beta must be a non-negative number or {n} non-negative numbers")
    return b


def coulomb_energy(alpha, P, y, beta=0.0) -> float:
    r""":math:`E = \tfrac12 q^\top Pq - \beta^\top\alpha`, :math:`q = y\odot\alpha`."""
    P, y = check_dual_problem(P, y)
    q = y * np.asarray(alpha, float)
    return float(0.5 * q @ P @ q - check_beta(beta, len(y)) @ np.asarray(alpha, float))


def _snap(alpha, C, rel=1e-6):
    """Interior-point values within ``rel`` of a bound put on it (scale C or max alpha):
    the interior point's charges are accurate to about 1e-7 relative."""
    scale = C if np.isfinite(C) else max(float(alpha.max(initial=0.0)), 1e-300)
    eps = rel * scale
    alpha = np.where(alpha > eps, alpha, 0.0)
    return np.where(alpha >= C - eps, C, alpha) if np.isfinite(C) else alpha


def class_potentials(v, alpha, y, C) -> tuple[float, float]:
    r"""The common value :math:`s_\pm` of :math:`y_i\varphi_i` on the connected (free)
    conductors of each class; without free ones, the middle of the interval the KKT
    conditions allow (:math:`y_i\varphi_i \le s` at :math:`C`, :math:`\ge s` at 0).
    ``v`` holds :math:`y_i\varphi_i`."""
    out = []
    for cls in (1.0, -1.0):
        m = y == cls
        free = m & (alpha > 0) & (alpha < C)
        if free.any():
            out.append(float(v[free].mean()))
        else:
            lo = v[m & (alpha >= C)].max(initial=-np.inf)
            hi = v[m & (alpha <= 0)].min(initial=np.inf)
            out.append(float(np.nan_to_num((lo + hi) / 2) if np.isfinite(lo + hi)
                             else (lo if np.isfinite(lo) else hi)))
    return out[0], out[1]


def solve_nu(P, y, nu) -> ChargeSolution:
    r"""Model 2, the coupled conductors = the :math:`\nu`-SVM (book: :ref:`sec-coulomb-model2`).

    .. math::

        \min_\alpha \tfrac12 q^\top P q \quad\text{s.t.}\quad
        0 \le \alpha_i \le \tfrac1N,\quad
        \sum_{i\in S^+}\alpha_i = \sum_{i\in S^-}\alpha_i = \tfrac\nu2 ,

    then, with the class potentials :math:`\varphi_{S^\pm}` read off the multipliers
    of the two charge totals, :math:`b = -\tfrac12(\varphi_{S^+} + \varphi_{S^-})` and
    :math:`\rho = \tfrac12(\varphi_{S^+} - \varphi_{S^-})` (``info``), with
    :math:`\varphi_{S^\pm}` the potential of the conductors still connected.
    Feasible for :math:`0 < \nu \le 2\min(n_+, n_-)/n`. A :math:`P` whose largest
    entry :math:`s` exceeds :math:`10^3` is solved as :math:`P/s` (the same charges; the
    multipliers, hence :math:`b` and :math:`\rho`, scaled back by :math:`s`).
    """
    P, y = check_dual_problem(P, y)
    n = len(y)
    nu_max = 2 * min(np.sum(y > 0), np.sum(y < 0)) / n
    if isinstance(nu, bool) or not (0 < float(nu) <= nu_max + 1e-12):
        raise ValueError(f"nu must lie in (0, 2 min(N+, N-)/N] = (0, {nu_max:.4g}]; got {nu!r}")
    C = 1.0 / n
    Q = (y[:, None] * y[None, :]) * P
    A = np.vstack([(y > 0), (y < 0)]).astype(float)
    # the charge may only move within a class: convexity is needed where both class
    # totals are fixed (a subspace of the neutral charges)
    check_psd(Q, NEUTRAL_RTOL, "P (the coefficients of potential)", orthogonal_to=A,
              needed_by="the nu-SVM's energy (model 2, solved by interior point)")
    # the charges do not change when P is divided by s (only the energy and the
    # multipliers do, by 1/s): a P of scale 1e12 (features of scale 1e6, linear kernel)
    # is solved at unit scale, below which cvxopt's absolute tolerances stop
    s = float(np.abs(P).max(initial=0.0))
    s = s if s > _MAX_SCALE else 1.0
    sol = solve_box_qp(Q / s, np.zeros(n), A, [nu / 2, nu / 2], 0.0, C)
    if sol.status != "optimal":
        raise ValueError(f"the interior-point solver of the nu-SVM ended with status "
                         f"{sol.status!r}, not 'optimal': no charges are returned; check "
                         "that P is finite and well scaled, or try another nu")
    alpha = _snap(sol.x, C)
    phi = P @ (y * alpha)
    # stationarity y_i phi_i + lambda_{y_i} = 0 on connected conductors: the class
    # potentials are the multipliers of the two charge totals
    lam = s * sol.eq_multipliers
    phi_plus, phi_minus = -float(lam[0]), float(lam[1])
    b = -0.5 * (phi_plus + phi_minus)
    rho = 0.5 * (phi_plus - phi_minus)
    xi = np.maximum(0.0, rho - y * (phi + b))
    return ChargeSolution(alpha=alpha, b=float(b), energy=coulomb_energy(alpha, P, y), info={
        "C": C, "nu": float(nu), "rho": float(rho), "phi_plus": phi_plus,
        "phi_minus": phi_minus, "xi": xi, "mu": C - alpha, "status": sol.status,
        "n_iter": sol.iterations})


def solve_battery(P, y, C=1.0, beta=1.0, *, tol=1e-3, max_iter=None, solver="smo") -> ChargeSolution:
    r"""Model 3, conductors with batteries :math:`\phi_i = -\beta_iy_i` = the C-SVM
    for :math:`\beta_i = 1` (book: :ref:`sec-coulomb-model3`).

    .. math::

        \min_\alpha \tfrac12 q^\top P q - \beta^\top\alpha
        \quad\text{s.t.}\quad \sum_i y_i\alpha_i = 0,\ 0 \le \alpha_i \le C .

    ``solver='smo'`` (finite ``C``): :func:`svmtext.smo.smo_solve` with linear term
    :math:`\beta`, stopping gap ``tol``, at most ``max_iter`` selections. SMO runs also
    when :math:`P` is indefinite on neutral charges (``info["neutral_min_eigenvalue"]``
    < 0, a :class:`NonConvexWarning`): its answer is then a stationary point (the KKT
    conditions hold), not necessarily the minimum (``info["convex"]`` is False).
    ``solver='qp'`` or ``C = inf`` (the :math:`\kappa`-SVM): the interior-point
    :func:`svmtext.qp.solve_box_qp`, whose multiplier of :math:`\sum_iy_i\alpha_i = 0`
    is :math:`b`; it raises ``ValueError`` when :math:`P` is not positive
    semi-definite on neutral charges or (for ``C = inf``) no finite charges balance the
    batteries.
    """
    P, y = check_dual_problem(P, y)
    C = check_C(C)
    beta = check_beta(beta, len(y))
    if solver not in ("smo", "qp"):
        raise ValueError(f"solver must be 'smo' or 'qp'; got {solver!r}")
    if np.isfinite(C) and solver == "smo":
        ev = neutral_eigenvalues(P)
        lam = float(ev[0])
        convex = lam >= -NEUTRAL_RTOL * max(1.0, abs(float(ev[-1])))
        if not convex:
            warnings.warn(f"P is indefinite on neutral charges (smallest eigenvalue "
                          f"{lam:.3g}): SMO returns a stationary point of the energy, not "
                          "necessarily its minimum", NonConvexWarning, stacklevel=2)
        res = smo_solve(P, y, C, tol=check_tol(tol), p=beta, max_iter=max_iter)
        return ChargeSolution(alpha=res.alpha, b=res.b, energy=res.objective,
                              info={"gap": res.gap, "n_iter": res.n_iter,
                                    "converged": res.converged, "C": C,
                                    "neutral_min_eigenvalue": lam, "convex": bool(convex)})
    Q = (y[:, None] * y[None, :]) * P
    check_psd(Q, NEUTRAL_RTOL, "P (the coefficients of potential)", orthogonal_to=y,
              needed_by="the interior-point solve of the energy with batteries (raise "
              "kappa, use a finite C with SMO, or the p-SVM)")
    sol = solve_box_qp(Q, -beta, y[None, :], [0.0], 0.0, C)
    if sol.status != "optimal":
        raise ValueError("the batteries cannot be balanced by finite charges (the classes "
                         "are not separable with this P); use a finite C or raise kappa")
    alpha = _snap(sol.x, C)
    return ChargeSolution(alpha=alpha, b=float(sol.eq_multipliers[0]),
                          energy=coulomb_energy(alpha, P, y, beta),
                          info={"status": sol.status, "C": C, "convex": True,
                                "n_iter": sol.iterations})


def project_class_charges(v, y, C, totals, iters=200) -> np.ndarray:
    r"""Euclidean projection of ``v`` onto :math:`\{0 \le \alpha_i \le C,\
    \sum_{S^+}\alpha_i = t_+,\ \sum_{S^-}\alpha_i = t_-\}`: per class
    :math:`\alpha_i = \mathrm{clip}(v_i - \tau, 0, C)` with the shift :math:`\tau` found
    by bisection (the charge that leaves every connected conductor equally)."""
    out = np.empty_like(v)
    for cls, total in zip((1.0, -1.0), totals):
        m = y == cls
        w = v[m]
        lo, hi = w.min() - C, w.max()
        for _ in range(iters):
            tau = 0.5 * (lo + hi)
            if np.clip(w - tau, 0.0, C).sum() > total:
                lo = tau
            else:
                hi = tau
        out[m] = np.clip(w - 0.5 * (lo + hi), 0.0, C)
    return out


def charge_flow(P, y, nu, *, n_steps=5000, eta=None, energy_tol=None) -> tuple[np.ndarray, np.ndarray]:
    r"""Charges flowing within :math:`S^+` and within :math:`S^-` down the energy
    (projected gradient, book: :ref:`sec-coulomb-flow`).

    Start from the uniform charge :math:`\alpha_i = (\nu/2)/|S^{y_i}|`; each step moves
    charge against the potential, :math:`\alpha \leftarrow \Pi(\alpha - \eta\,
    y\odot\varphi)`, :math:`\varphi = Pq`, where :math:`\Pi` (:func:`project_class_charges`)
    keeps each class's total charge and the bounds :math:`[0, 1/n]` (a conductor at a
    bound is disconnected). :math:`\eta = 1/\lambda_{\max}(P)` by default.
    Returns ``(alpha, energies)``; stops early when successive energies differ by less
    than ``energy_tol``.
    """
    P, y = check_dual_problem(P, y)
    n = len(y)
    C = 1.0 / n
    if eta is None:
        eta = 1.0 / float(np.linalg.eigvalsh(P)[-1])
    alpha = np.where(y > 0, nu / 2 / np.sum(y > 0), nu / 2 / np.sum(y < 0))
    energies = [coulomb_energy(alpha, P, y)]
    for _ in range(n_steps):
        phi = P @ (y * alpha)
        alpha = project_class_charges(alpha - eta * y * phi, y, C, (nu / 2, nu / 2))
        energies.append(float(0.5 * (y * alpha) @ P @ (y * alpha)))
        if energy_tol is not None and abs(energies[-2] - energies[-1]) < energy_tol:
            break
    return alpha, np.array(energies)
