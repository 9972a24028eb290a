r"""Ecological invasion: can a new species (data point) grow in the current
ecosystem? (book: :ref:`sec-eco-invasion`)

A new point :math:`(x, y)` enters at abundance :math:`\alpha = 0^+`; its
per-capita growth rate in the steady state of the support set :math:`S` is
(Howell et al. 2020, eq. 9 for the hard margin, eq. 17 for the soft margin, where the
carrying-capacity factor :math:`1 - 0/C = 1` drops out)

.. math::

    g(x, y) = 1 - y \sum_{j\in S} \alpha_j y_j K(x_j, x) - y b = 1 - y f(x) .

Eliminating the bias through any *active* (free) support vector
:math:`s`, :math:`0 < \alpha_s < C`, whose growth vanishes at the steady state,
:math:`b = y_s - \sum_j \alpha_j y_j K_{sj}` (eq. 18), gives eq. 19:

.. math::

    g(x, y) = 1 - y y_s - y \sum_{j\in S} \alpha_j y_j
              \bigl(K(x_j, x) - K_{sj}\bigr) .

The point invades (becomes a support vector) iff :math:`g > 0`, that is iff it
violates the margin of the current model.
"""
from __future__ import annotations

import numpy as np

__all__ = ["invasion_growth", "invasion_growth_active", "bias_from_active"]


def invasion_growth(k, y_new, alpha, y, b) -> np.ndarray | float:
    r"""Growth rate :math:`1 - y(\sum_j \alpha_j y_j k_j + b)` (eqs. 9, 17).

    Parameters
    ----------
    k : (m,) or (n_new, m) array
        Kernel values :math:`K(x_j, x)` between the support set and the new
        point(s).
    y_new : float or (n_new,) array of -1/+1
    alpha, y : (m,) arrays
        Abundances and labels of the support set.
    b : float
        Current bias.
    """
    f = np.asarray(k, dtype=float) @ (np.asarray(alpha) * np.asarray(y)) + b
    return 1.0 - np.asarray(y_new, dtype=float) * f


def bias_from_active(K, alpha, y, s) -> float:
    r"""Eq. 18: :math:`b = y_s - \sum_j \alpha_j y_j K_{sj}` from active SV ``s``."""
    return float(y[s] - K[s] @ (alpha * y))


def invasion_growth_active(k, y_new, alpha, y, K, s) -> np.ndarray:
    r"""Eq. 19: the growth rate with :math:`b` eliminated through active SV ``s``.

    ``K`` is the support set's Gram matrix; ``s`` indexes a free support vector.
    """
    k = np.asarray(k, dtype=float)
    v = np.asarray(alpha) * np.asarray(y)
    y_new = np.asarray(y_new, dtype=float)
    return 1.0 - y_new * y[s] - y_new * ((k - K[s]) @ v)
