r"""The explicit feature map of the polynomial kernel :math:`(1 + x^\top z)^2`
(book: :ref:`sec-practice-kernels`).

.. math::

    (1 + x^\top z)^2 = \phi(x)^\top\phi(z), \qquad
    \phi(x) = \bigl(1,\ \sqrt2\,x_1, \dots, \sqrt2\,x_d,\ x_1^2, \dots, x_d^2,\
    \sqrt2\,x_ix_j\ (i < j)\bigr),

:math:`1 + 2d + d(d-1)/2 = (d+1)(d+2)/2` features: 10 for :math:`d = 3`.
"""
from __future__ import annotations

import numpy as np

__all__ = ["poly2_feature_map", "poly2_feature_names"]


def poly2_feature_map(X) -> np.ndarray:
    r""":math:`\phi(x)` of :math:`(1 + x^\top z)^2` for each row of ``X`` (shape ``(n, (d+1)(d+2)/2)``)."""
    X = np.atleast_2d(np.asarray(X, dtype=float))
    d = X.shape[1]
    i, j = np.triu_indices(d, k=1)
    return np.hstack([np.ones((len(X), 1)), np.sqrt(2) * X, X ** 2,
                      np.sqrt(2) * X[:, i] * X[:, j]])


def poly2_feature_names(d) -> list:
    """Names of the features of :func:`poly2_feature_map` (``'1', 'sqrt2 x1', ...``)."""
    i, j = np.triu_indices(d, k=1)
    return (["1"] + [f"sqrt2 x{k + 1}" for k in range(d)] + [f"x{k + 1}^2" for k in range(d)]
            + [f"sqrt2 x{a + 1} x{b + 1}" for a, b in zip(i, j)])
