r"""The SVM as the nearest points of two (reduced) convex hulls (book: :ref:`sec-practice-hulls`).

For separable classes the maximum-margin normal :math:`w` points from the nearest
point :math:`d` of the convex hull of the negative class to the nearest point
:math:`c` of the hull of the positive class (Bennett and Bredensteiner 2000; Keerthi,
Shevade, Bhattacharyya and Murthy 2000):

.. math::

    \min_\lambda \Bigl\lVert \sum_{i: y_i=+1}\lambda_i\phi(x_i)
    - \sum_{i: y_i=-1}\lambda_i\phi(x_i)\Bigr\rVert^2 = \lambda^\top Q\lambda
    \quad\text{s.t.}\quad \sum_{y_i=+1}\lambda_i = \sum_{y_i=-1}\lambda_i = 1,\
    0 \le \lambda_i \le \mu ,

with :math:`\mu = 1` for the convex hulls and :math:`\mu < 1` for the *reduced*
convex hulls of the soft margin (Crisp and Burges 2000). The hard-margin SVM has
:math:`\alpha = 2\lambda/\lVert c - d\rVert^2` and margin :math:`\lVert c - d\rVert/2`;
a C-SVM solution with :math:`s = \sum_{y_i = +1}\alpha_i` is :math:`s\lambda` for the
reduced hulls with :math:`\mu = C/s`.

References
----------
Bennett, K. P. and Bredensteiner, E. J. (2000). Duality and geometry in SVM
classifiers. *ICML 2000*, 57--64.

Crisp, D. J. and Burges, C. J. C. (2000). A geometric interpretation of nu-SVM
classifiers. *NIPS 12*, 244--250.

Keerthi, S. S., Shevade, S. K., Bhattacharyya, C. and Murthy, K. R. K. (2000). A fast
iterative nearest point algorithm for support vector machine classifier design.
*IEEE Transactions on Neural Networks* 11(1), 124--136.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validation import check_labels
from .qp import solve_box_qp

__all__ = ["NearestPoints", "nearest_hull_points"]


@dataclass
class NearestPoints:
    """Solution of :func:`nearest_hull_points`."""

    lam: np.ndarray           # lambda, sums to 1 on each class
    distance: float           # ||c - d||
    mu: float
    c: np.ndarray | None      # nearest point of the positive hull (with X)
    d: np.ndarray | None      # nearest point of the negative hull (with X)


def nearest_hull_points(K, y, mu=1.0, X=None) -> NearestPoints:
    r"""Nearest points of the (reduced) convex hulls of the two classes, by cvxopt.

    Parameters
    ----------
    K : (n, n) array
        Gram matrix (:math:`\phi(x_i)^\top\phi(x_j)`).
    y : (n,) array of -1/+1
    mu : float, default 1
        Upper bound of each :math:`\lambda_i` (``1``: the convex hulls; the reduced
        hulls need :math:`\mu \ge 1/\min(n_+, n_-)` to be non-empty).
    X : (n, d) array, optional
        Input points; with them ``c`` and ``d`` are returned (linear kernel).
    """
    K = np.asarray(K, dtype=float)
    y = check_labels(y, len(K))
    n_min = min(np.sum(y > 0), np.sum(y < 0))
    if not mu * n_min >= 1 - 1e-12:
        raise ValueError(f"the reduced hulls are empty for mu = {mu} < 1/{n_min}; "
                         "raise mu")
    Q = np.outer(y, y) * K
    A = np.vstack([(y > 0).astype(float), (y < 0).astype(float)])
    sol = solve_box_qp(2 * Q, np.zeros(len(y)), A, [1.0, 1.0], 0.0, min(mu, 1.0))
    lam = sol.x
    dist = float(np.sqrt(max(lam @ Q @ lam, 0.0)))
    c = d = None
    if X is not None:
        X = np.asarray(X, dtype=float)
        c, d = lam[y > 0] @ X[y > 0], lam[y < 0] @ X[y < 0]
    return NearestPoints(lam=lam, distance=dist, mu=float(mu), c=c, d=d)
