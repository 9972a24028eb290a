r"""The SVM dual as the steady state of generalised Lotka--Volterra dynamics
(book: :ref:`sec-eco-lv`).

With :math:`Q_{ij} = y_i y_j K_{ij}` and the *interaction matrix*
:math:`A = -Q` (competition within a class, mutualism across classes for a
positive kernel), every data point is a species of abundance :math:`\alpha_i`
growing at the per-capita rate

.. math::

    g_i(\alpha, b) = 1 + \sum_j A_{ij}\alpha_j - y_i b = 1 - y_i f(x_i),
    \qquad f(x) = \sum_j \alpha_j y_j K(x_j, x) + b .

Hard margin (book eq. :eq:`eq-lv-hard`, Howell et al. 2020, eq. 7):
:math:`\dot\alpha_i = \alpha_i\, g_i`. Soft margin (eq. :eq:`eq-lv-soft`, the
Howell et al. 2020, eq. 16), with the carrying-capacity factor:
:math:`\dot\alpha_i = \alpha_i (1 - \alpha_i / C)\, g_i`.

The bias :math:`b` is the abiotic factor that enforces
:math:`\sum_i \alpha_i y_i = 0`. Here it is taken at its quasi-steady state
(the environment equilibrates fast): the value that keeps
:math:`\frac{d}{dt}\sum_i \alpha_i y_i = 0`,

.. math::

    b(\alpha) = \frac{\sum_i w_i y_i (1 - (Q\alpha)_i)}{\sum_i w_i},
    \qquad w_i = \alpha_i (1 - \alpha_i / C),

so a start with :math:`\sum_i \alpha_i y_i = 0` stays on the constraint and the
dual objective :math:`W(\alpha)` increases along every trajectory
(:math:`\dot W = \sum_i w_i g_i^2`).

Numerically the flow is integrated in the coordinates
:math:`u_i = \log\alpha_i` (hard margin) or :math:`u_i = \operatorname{logit}(\alpha_i / C)`
(soft margin), in which :math:`\dot u_i = g_i` exactly; positivity and the box
are then automatic.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.integrate import solve_ivp
from scipy.special import expit, logit

from .._validation import check_C, check_dual_problem
from ..kkt import intercept_from_alpha
from ..qp import dual_objective

__all__ = ["interaction_matrix", "capacity_factor", "quasi_steady_bias",
           "lv_rhs", "growth_rates", "positive_start", "integrate_lv",
           "LVSolution"]


def interaction_matrix(K, y) -> np.ndarray:
    r"""Species interactions :math:`A_{ij} = -y_i y_j K_{ij}` (book eq. :eq:`eq-lv-hard`).

    For a kernel with :math:`K_{ij} > 0` (e.g. RBF), :math:`A_{ij} < 0`
    (competition) when :math:`y_i = y_j` and :math:`A_{ij} > 0` (mutualism)
    when :math:`y_i \ne y_j`; the strength is the niche overlap :math:`K_{ij}`.
    """
    K, y = check_dual_problem(K, y)
    return -(y[:, None] * y[None, :]) * K


def capacity_factor(alpha, C=None) -> np.ndarray:
    r""":math:`w_i = \alpha_i (1 - \alpha_i/C)`, or :math:`\alpha_i` for the hard margin."""
    alpha = np.asarray(alpha, dtype=float)
    C = check_C(C)
    return alpha if np.isinf(C) else alpha * (1.0 - alpha / C)


def quasi_steady_bias(alpha, K, y, C=None) -> float:
    r"""The bias that keeps :math:`\sum_i \alpha_i y_i` constant along the flow.

    :math:`b = \sum_i w_i y_i (1 - (Q\alpha)_i) / \sum_i w_i`.
    """
    w = capacity_factor(alpha, C)
    r = 1.0 - y * (K @ (alpha * y))
    s = w.sum()
    return float(w @ (y * r) / s) if s > 0 else 0.0


def growth_rates(alpha, K, y, b) -> np.ndarray:
    r"""Per-capita growth :math:`g_i = 1 - (Q\alpha)_i - y_i b = 1 - y_i f(x_i)`."""
    return 1.0 - y * (K @ (alpha * y) + b)


def lv_rhs(alpha, K, y, C=None, b=None) -> np.ndarray:
    r"""Right-hand side :math:`\dot\alpha_i = w_i\, g_i` of eq. 7 (``C=inf``) or eq. 16.

    ``b=None`` uses :func:`quasi_steady_bias`.
    """
    alpha = np.asarray(alpha, dtype=float)
    if b is None:
        b = quasi_steady_bias(alpha, K, y, C)
    return capacity_factor(alpha, C) * growth_rates(alpha, K, y, b)


def positive_start(y, C=None, scale=0.1) -> np.ndarray:
    r"""A positive start on the constraint :math:`\sum_i\alpha_i y_i = 0`.

    :math:`\alpha_i = s / n_{y_i}` with :math:`s` = ``scale`` (times ``C`` for
    the soft margin), so each class carries the same total abundance.
    """
    y = np.asarray(y, dtype=float)
    C = check_C(C)
    s = scale * (C if np.isfinite(C) else 1.0)
    n_pos, n_neg = np.sum(y > 0), np.sum(y < 0)
    return np.where(y > 0, s / n_pos, s / n_neg)


@dataclass
class LVSolution:
    """Trajectory and end state of the Lotka--Volterra integration."""

    alpha: np.ndarray       # abundances at t_end
    b: float                # bias from the KKT conditions at t_end
    b_flow: float           # quasi-steady bias of the flow at t_end
    objective: float        # dual objective W(alpha)
    t: np.ndarray           # sample times
    alphas: np.ndarray      # (len(t), n) abundances at the sample times
    success: bool
    message: str


def integrate_lv(K, y, C=None, alpha0=None, t_end=1e4, n_samples=200,
                 method="LSODA", rtol=1e-9, atol=1e-11) -> LVSolution:
    r"""Integrate eq. 7 / eq. 16 with :func:`scipy.integrate.solve_ivp`.

    Parameters
    ----------
    K : (n, n) array
        Gram matrix.
    y : (n,) array of -1/+1
    C : float, None or inf
        Carrying capacity (box constant); ``None``/``inf`` is the hard margin.
    alpha0 : (n,) array, optional
        Positive start (default :func:`positive_start`); must satisfy
        :math:`\sum_i \alpha_i y_i = 0`, which the flow then preserves.
    t_end : float
        Integration time; samples are log-spaced in :math:`[10^{-2}, t_{end}]`.

    Returns
    -------
    LVSolution
    """
    K, y = check_dual_problem(K, y)
    C = check_C(C)
    alpha0 = positive_start(y, C) if alpha0 is None else np.asarray(alpha0, float)
    if alpha0.shape != y.shape or np.any(alpha0 <= 0) or np.any(alpha0 >= C):
        raise ValueError("alpha0 must be a strictly positive start inside the "
                         "box (0, C), one value per point")
    if abs(alpha0 @ y) > 1e-9 * max(1.0, alpha0.sum()):
        raise ValueError("alpha0 must satisfy sum_i alpha_i y_i = 0")
    hard = np.isinf(C)

    def to_alpha(u):
        return np.exp(u) if hard else C * expit(u)

    def rhs(t, u):
        a = to_alpha(u)
        return growth_rates(a, K, y, quasi_steady_bias(a, K, y, C))

    u0 = np.log(alpha0) if hard else logit(alpha0 / C)
    t_eval = np.concatenate([[0.0], np.geomspace(1e-2, t_end, n_samples)])
    sol = solve_ivp(rhs, (0.0, t_end), u0, method=method, t_eval=t_eval,
                    rtol=rtol, atol=atol)
    alphas = np.array([to_alpha(u) for u in sol.y.T])
    a = alphas[-1]
    tol = 1e-6 * (C if np.isfinite(C) else max(1.0, float(a.max())))
    return LVSolution(alpha=a, b=intercept_from_alpha(a, K, y, C, tol=tol),
                      b_flow=quasi_steady_bias(a, K, y, C),
                      objective=dual_objective(a, K, y), t=sol.t,
                      alphas=alphas, success=bool(sol.success),
                      message=str(sol.message))
