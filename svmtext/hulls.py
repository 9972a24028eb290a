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

__all__ = ["NearestPoints", "nearest_hull_points", "mdm_nearest_points", "reduced_hull_extreme",
           "reduced_hull_vertices"]


@dataclass
class NearestPoints:
    """Solution of :func:`nearest_hull_points`."""

    lam: np.ndarray           # lambda, sums to 1 on each class
    distance: float           # ||c - d||
    mu: float
    c: np.ndarray | None      # nearest point of the positive hull (with X)
    d: np.ndarray | None      # nearest point of the negative hull (with X)
    n_iter: int = 0           # iterations (mdm_nearest_points)
    gap: float = 0.0          # the stopping quantity at return (mdm_nearest_points)


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


def mdm_nearest_points(K, y, mu=1.0, X=None, *, tol=1e-8, max_iter=100_000) -> NearestPoints:
    r"""Nearest points of the (reduced) convex hulls by the Mitchell--Demyanov--Malozemov
    algorithm (Mitchell, Dem'yanov and Malozemov 1974; for reduced hulls Mavroforakis and
    Theodoridis 2006).

    With :math:`z = \mathbf c - \mathbf d = \sum_i y_i\lambda_i\phi(x_i)` and
    :math:`g_k = y_k\langle z, \phi(x_k)\rangle = (Q\lambda)_k`, the gradient of
    :math:`\tfrac12\lVert z\rVert^2`, each iteration moves weight inside one class:
    from the point :math:`i` with the largest :math:`g_i` among :math:`\lambda_i > 0` to
    the point :math:`j` with the smallest :math:`g_j` among :math:`\lambda_j < \mu`, in the
    class where :math:`\Delta_s = g_i - g_j` is larger, by the exact line minimum
    :math:`t = \Delta_s / \lVert\phi(x_i) - \phi(x_j)\rVert^2` clipped to the box. Both
    class sums stay 1. It stops when :math:`\Delta_s <` ``tol`` in both classes; by
    convexity :math:`\tfrac12\lVert z\rVert^2 - \tfrac12\lVert z^*\rVert^2 \le
    \Delta_+ + \Delta_-` (each class moves at most its unit mass). Kernel columns
    only: no quadratic programme.
    """
    K = np.asarray(K, dtype=float)
    y = check_labels(y, len(K))
    groups = (y > 0, y < 0)
    n_min = min(g.sum() for g in groups)
    if not mu * n_min >= 1 - 1e-12:
        raise ValueError(f"the reduced hulls are empty for mu = {mu} < 1/{n_min}; "
                         "raise mu")
    mu = min(float(mu), 1.0)
    lam = np.zeros(len(y))
    for g in groups:                      # a feasible start: fill the box in order
        left = 1.0
        for k in np.flatnonzero(g):
            lam[k] = min(mu, left)
            left -= lam[k]
    Q = np.outer(y, y) * K
    grad = Q @ lam
    it, gap = 0, np.inf
    while it < max_iter:
        gap, best = -np.inf, None
        for g in groups:
            hi, lo = np.flatnonzero(g & (lam > 0)), np.flatnonzero(g & (lam < mu))
            i, j = hi[np.argmax(grad[hi])], lo[np.argmin(grad[lo])]
            if grad[i] - grad[j] > gap:
                gap, best = grad[i] - grad[j], (i, j)
        if gap < tol:
            break
        i, j = best
        eta = max(K[i, i] + K[j, j] - 2 * K[i, j], 1e-12)
        t = min(gap / eta, lam[i], mu - lam[j])
        lam[i] -= t
        lam[j] += t
        grad += t * (Q[:, j] - Q[:, i])
        it += 1
    dist = float(np.sqrt(max(lam @ grad, 0.0)))
    c = d = None
    if X is not None:
        X = np.asarray(X, dtype=float)
        c, d = lam[y > 0] @ X[y > 0], lam[y < 0] @ X[y < 0]
    return NearestPoints(lam=lam, distance=dist, mu=mu, c=c, d=d, n_iter=it,
                         gap=float(max(gap, 0.0)))


def reduced_hull_extreme(P, u, mu=1.0) -> np.ndarray:
    r"""The point of the reduced convex hull of the rows of ``P`` that minimises
    :math:`\langle u, p\rangle`.

    The reduced hull is :math:`\{\sum_i\lambda_i p_i : \sum_i\lambda_i = 1,\
    0 \le \lambda_i \le \mu\}`; a linear function is minimised over it by weight
    :math:`\mu` on the :math:`\lfloor 1/\mu\rfloor` points of smallest projection and
    the remainder on the next one (book: :ref:`sec-dual-geometry`). With
    :math:`\mu = 1` it is the vertex of the convex hull.
    """
    P = np.asarray(P, dtype=float)
    order = np.argsort(P @ np.asarray(u, dtype=float))
    k = min(int(np.floor(1 / mu + 1e-12)), len(P))
    lam = np.zeros(len(P))
    lam[order[:k]] = mu
    if k < len(P):
        lam[order[k]] = 1 - k * mu
    return lam @ P


def reduced_hull_vertices(P, mu=1.0, n_dir=720) -> np.ndarray:
    """Vertices of the reduced convex hull of the 2-D points ``P`` (rows), in order:
    the extreme points (:func:`reduced_hull_extreme`) over ``n_dir`` directions,
    closed into a convex polygon (book: :ref:`sec-dual-geometry`)."""
    from scipy.spatial import ConvexHull

    angles = np.linspace(0, 2 * np.pi, n_dir, endpoint=False)
    pts = np.array([reduced_hull_extreme(P, (np.cos(a), np.sin(a)), mu) for a in angles])
    return pts[ConvexHull(pts).vertices]
