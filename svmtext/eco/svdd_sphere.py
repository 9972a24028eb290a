r"""The SVDD sphere: its radius, the growth rate of a newcomer, FISVDD's test and the
similarity of two centres (book: :ref:`sec-eco-svdd`; Howell et al. 2020, eqs. 25, 28--31;
Jiang et al. 2019 for FISVDD).

Invasion: a new point grows iff

.. math::

    K(x, x) - 2\sum_j \alpha_j K(x_j, x) - K_{ss} + 2 \sum_j \alpha_j K_{sj} > 0
    \iff \lVert \phi(x) - a \rVert^2 > R^2 ,

with the factor 2 on *both* cross terms; dropping it is harmless only when
:math:`K(x, x)` is constant (e.g. RBF).
"""
from __future__ import annotations

import numpy as np

from ..kkt import FREE, LOWER, UPPER, alpha_status

__all__ = ["svdd_radius2", "svdd_growth", "fisvdd_new_weight", "center_similarity"]


def svdd_radius2(alpha, K, C=1.0) -> float:
    r"""Squared radius :math:`R^2 = K_{ss} - 2\sum_j \alpha_j K_{sj} + \alpha^\top K\alpha`
    (eq. 25), averaged over the free support vectors :math:`s`.

    Without a free SV, the midpoint of the interval allowed by the KKT conditions
    (:math:`d_i^2 \le R^2` for :math:`\alpha_i = 0`, :math:`\ge R^2` for :math:`\alpha_i = C`).
    """
    alpha = np.asarray(alpha, dtype=float)
    Ka = K @ alpha
    d2 = np.diag(K) - 2 * Ka + alpha @ Ka
    status = alpha_status(alpha, C)
    if np.any(status == FREE):
        return float(d2[status == FREE].mean())
    lo = d2[status == LOWER].max(initial=0.0)
    hi = d2[status == UPPER].min(initial=np.inf)
    return float((lo + hi) / 2 if np.isfinite(hi) else lo)


def svdd_growth(k, kxx, alpha, K, s) -> np.ndarray:
    r"""Eq. 30: growth of a new point with :math:`\lambda` eliminated via free SV ``s``.

    :math:`g = K(x,x) - 2 k^\top\alpha - K_{ss} + 2 (K\alpha)_s`
    :math:`= \lVert\phi(x)-a\rVert^2 - R^2`.
    """
    k = np.asarray(k, dtype=float)
    return kxx - 2 * k @ alpha - K[s, s] + 2 * K[s] @ alpha


def fisvdd_new_weight(K, k, kxx) -> float:
    r"""FISVDD's test (Jiang et al. 2019): the new point's weight in :math:`A'\beta = e`
    (positive = invades).

    With :math:`A'` the Gram matrix of the support set extended by :math:`x`,
    the Schur complement gives
    :math:`\beta_x = (1 - k^\top A^{-1}e) / (K(x,x) - k^\top A^{-1}k)`.
    """
    Ainv_e = np.linalg.solve(K, np.ones(len(K)))
    Ainv_k = np.linalg.solve(K, k)
    return (1.0 - k @ Ainv_e) / (kxx - k @ Ainv_k)


def center_similarity(alpha1, alpha2, K12, K11, K22) -> float:
    r"""Eq. 31: cosine :math:`S = \langle a_1, a_2\rangle/(\lVert a_1\rVert\lVert a_2\rVert)`
    of two centres :math:`a_k = \sum_i \alpha^{(k)}_i\phi(x^{(k)}_i)`."""
    num = alpha1 @ K12 @ alpha2
    return float(num / np.sqrt((alpha1 @ K11 @ alpha1) * (alpha2 @ K22 @ alpha2)))
