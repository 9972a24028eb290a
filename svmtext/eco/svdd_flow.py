r"""SVDD as a Lotka--Volterra flow (book: :ref:`sec-eco-svdd`; Howell et al. 2020, eq. 27).

With :math:`\lambda` the multiplier of :math:`\sum_i\alpha_i = 1`,

.. math::

    \dot\alpha_i = \alpha_i(1 - \alpha_i/C)\,(K_{ii} - 2(K\alpha)_i - \lambda),

and at the steady state :math:`\lambda = R^2 - \alpha^\top K\alpha`.
"""
from __future__ import annotations

import numpy as np
from scipy.integrate import solve_ivp
from scipy.special import expit, logit

from .._validation import check_gram
from .svdd_dual import check_svdd_C

__all__ = ["integrate_svdd_lv"]


def integrate_svdd_lv(K, C=1.0, t_end=1e4, n_samples=100, rtol=1e-9, atol=1e-11) -> tuple:
    r"""Integrate the flow from :math:`\alpha_i = 1/n` with the quasi-steady :math:`\lambda`.

    :math:`\lambda = \sum_i w_i (K_{ii} - 2(K\alpha)_i)/\sum_i w_i`,
    :math:`w_i = \alpha_i(1-\alpha_i/C)`, keeps :math:`\sum_i\alpha_i = 1`.
    Returns ``(t, alphas)``.
    """
    K = check_gram(K)
    n = len(K)
    C = check_svdd_C(C, n)
    if C * n <= 1:
        raise ValueError("the dynamics need C * n > 1 for a positive start")
    d = np.diag(K)

    def rhs(t, u):
        a = C * expit(u)
        r = d - 2 * K @ a
        w = a * (1 - a / C)
        return r - (w @ r) / w.sum()

    t_eval = np.concatenate([[0.0], np.geomspace(1e-2, t_end, n_samples)])
    sol = solve_ivp(rhs, (0, t_end), logit(np.full(n, 1.0 / n) / C),
                    method="LSODA", t_eval=t_eval, rtol=rtol, atol=atol)
    return sol.t, C * expit(sol.y.T)
