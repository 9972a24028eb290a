r"""The constrained SVM problem on an index subset and its solver (book: :ref:`sec-enumsv-constrained`).

For an index subset :math:`I \subseteq [n]` the constrained dual is

.. math::

    \max_\alpha W(\alpha) = \sum_i \alpha_i - \tfrac12 \sum_{i,j} \alpha_i\alpha_j y_iy_jK_{ij}
    \quad\text{s.t.}\quad y^\top\alpha = 0,\ 0 \le \alpha_i \le C,\
    \alpha_i = 0 \ (i \notin I),

the ordinary dual restricted to the points of :math:`I` (Kanamori et al. 2019,
Definition 1). :class:`Subproblems` solves it with the compiled, deterministic SMO
of :func:`svmtext.smo.smo_dense` (WSS2, first index on ties), either from
:math:`\alpha = 0` (cold) or from a parent's solution with one support vector removed
(warm): the removed multiplier's share of :math:`y^\top\alpha` is first given to
points of the same class in :math:`I` with room below :math:`C` (largest gradient
:math:`\partial W/\partial\alpha_j = -G_j` first), and only if they have no room
taken from the other class (smallest :math:`-G_j` first), so that SMO starts from a
feasible point.

References
----------
T. Kanamori, S. Hara, M. Ishihata, H. Arimura, "Enumeration of distinct support
vectors for interactive decision making", arXiv:1906.01876 (2019).
"""
from __future__ import annotations

import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from ..kkt import bias_from_gradient
from ..smo import smo_dense

__all__ = ["Subproblems", "objective_error"]


def objective_error(gap, alpha_sum, W):
    r"""Bound on :math:`|W(\alpha) - W(\alpha^*)|` for a solution stopped at ``gap``.

    With :math:`g = m(\alpha) - M(\alpha)` the book's bound
    (:ref:`sec-smo-optimality`) gives
    :math:`W^* - W \le \tfrac12 g (\mathbf 1^\top\alpha + \mathbf 1^\top\alpha^*)` and
    :math:`\mathbf 1^\top\alpha^* \le 2W^*`; solving for :math:`W^* - W`,

    .. math::

        0 \le W^* - W(\alpha) \le \varepsilon(\alpha) =
        \frac{g\,(\mathbf 1^\top\alpha + 2W(\alpha))}{2(1 - g)} \qquad (g < 1).
    """
    gap = max(float(gap), 0.0)
    if gap >= 1.0:
        return float("inf")
    return gap * (alpha_sum + 2.0 * W) / (2.0 * (1.0 - gap))


class Subproblems:
    """Solve the constrained dual on subsets of one data set (dense Gram matrix ``K``).

    Parameters
    ----------
    K : (n, n) float64 array
        Gram matrix.
    y : (n,) array of -1/+1
    C : float
        Box constant (finite, positive).
    tol : float
        SMO's stopping tolerance on the gap :math:`m(\\alpha) - M(\\alpha)`.
    max_iter : int
        SMO's iteration limit per subproblem (a ``ConvergenceWarning`` when reached).
    """

    def __init__(self, K, y, C, tol, max_iter=10_000_000):
        self.K = np.ascontiguousarray(K, dtype=np.float64)
        self.y = np.ascontiguousarray(y, dtype=np.float64)
        self.C, self.tol, self.max_iter = float(C), float(tol), int(max_iter)
        self.n = len(self.y)
        self.n_solves = 0

    # -- state at a solution -------------------------------------------------
    def gradient(self, alpha):
        r""":math:`-y_kG_k = y_k - \sum_j \alpha_j y_j K_{kj}` for every :math:`k`."""
        S = np.flatnonzero(alpha > 0)
        return self.y - self.K[:, S] @ (alpha[S] * self.y[S])

    def objective(self, alpha, g):
        r""":math:`W(\alpha) = \tfrac12\sum_k \alpha_k (1 + y_k(-y_kG_k))`."""
        return 0.5 * float(alpha.sum() + (alpha * self.y) @ g)

    def bias(self, alpha, g, active):
        """The bias from the points of ``active`` only (:func:`svmtext.kkt.bias_from_gradient`)."""
        return bias_from_gradient(g[active], alpha[active], self.y[active], self.C)

    # -- solvers ---------------------------------------------------------------
    def _smo(self, alpha, g, active):
        # In rounds of `chunk` pair updates: smo_dense re-reads every multiplier's
        # status from alpha at each call. A step can leave alpha_k exactly on a bound
        # with the status "free" (alpha_k + eta rounds to C); the next step along that
        # pair then has length 0 and the pair is selected again and again. A new
        # round reads alpha_k = C as "at the bound" and goes on.
        chunk = max(1000, 20 * self.n)
        n_iter = 0
        while True:
            done, gap = smo_dense(self.K, self.y, alpha, g, active, self.n, self.C,
                                  self.tol, min(chunk, self.max_iter - n_iter))
            n_iter += done
            if done < chunk or not gap >= self.tol or n_iter >= self.max_iter:
                break
        self.n_solves += 1
        if n_iter >= self.max_iter and gap >= self.tol:
            warnings.warn(f"SMO reached max_iter={self.max_iter} on a subproblem",
                          ConvergenceWarning, stacklevel=3)
        gap = float(gap) if np.isfinite(gap) else 0.0   # -inf: one class, nothing moves
        return (*self.snap(alpha, g), max(gap, 0.0))

    def snap(self, alpha, g, reference=None):
        r"""Put multipliers within :math:`10^{-12}C` of a bound on it and update ``g``.

        The book's rule for starting points (:func:`svmtext._validation.check_warm_start`),
        applied to every solution too, so that a rounding residue such as
        :math:`\alpha_j = 10^{-16}` never counts as a support vector.
        ``reference``: the multipliers ``g`` belongs to (default ``alpha`` before snapping).
        """
        C, eps = self.C, 1e-12 * self.C
        new = np.where(alpha <= eps, 0.0, np.where(alpha >= C - eps, C, alpha))
        ref = alpha if reference is None else reference
        changed = np.flatnonzero(new != ref)
        if len(changed):
            g = g - self.K[:, changed] @ ((new[changed] - ref[changed]) * self.y[changed])
        return new, g

    def solve_cold(self, active):
        """SMO from :math:`\\alpha = 0` on the points ``active`` (bool mask)."""
        alpha = np.zeros(self.n)
        return self._smo(alpha, self.y.copy(), np.ascontiguousarray(active))

    def warm_start(self, alpha, g, active, i):
        r"""A feasible start for ``active`` (which excludes ``i``) from the parent's ``alpha``.

        :math:`\alpha_i` is set to 0; :math:`y^\top\alpha = 0` is restored by raising
        same-class :math:`\alpha_j` (:math:`j` in ``active``, largest :math:`-G_j =
        y_j(-y_jG_j)` first) up to ``C``, and, if that is not enough, by lowering
        other-class :math:`\alpha_j` (smallest :math:`-G_j` first). The gradient is
        updated for every changed multiplier. Returns new arrays.
        """
        y, C = self.y, self.C
        eps = 1e-12 * C
        parent = alpha
        alpha = alpha.copy()
        s, need = y[i], alpha[i]
        alpha[i] = 0.0
        same = np.flatnonzero(active & (y == s) & (alpha < C))
        if len(same) and need > eps:
            order = same[np.argsort(-(s * g[same]), kind="stable")]
            for j in order:
                room = C - alpha[j]
                step = min(room, need)
                alpha[j] = C if step == room else alpha[j] + step
                need -= step
                if need <= eps:
                    break
        if need > eps:
            other = np.flatnonzero(active & (y == -s) & (alpha > 0))
            order = other[np.argsort(-s * g[other], kind="stable")]
            for j in order:
                step = min(alpha[j], need)
                alpha[j] = 0.0 if step == alpha[j] else alpha[j] - step
                need -= step
                if need <= eps:
                    break
        return self.snap(alpha, g, reference=parent)

    def solve_warm(self, alpha, g, active, i):
        """SMO on ``active`` from :meth:`warm_start` of the parent's ``(alpha, g)``."""
        a0, g0 = self.warm_start(alpha, g, active, i)
        return self._smo(a0, g0, np.ascontiguousarray(active))
