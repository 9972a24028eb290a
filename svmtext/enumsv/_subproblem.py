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

from ..kkt import bias_from_gradient, bias_interval
from ..smo import smo_dense

__all__ = ["Subproblems", "objective_error"]


def objective_error(gap, alpha_sum, W) -> float:
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
    polish : bool, default True
        Try the exact finish :meth:`polish` after SMO to ``coarse_tol``,
        ``coarse_tol / 10``, ... before running SMO all the way to ``tol``.
    coarse_tol : float, default 1e-2
        The first gap at which SMO hands over to :meth:`polish`.
    bound_eps : float, optional
        The distance to a bound under which a multiplier counts as at it (the snap, the
        bias and the gap); default :math:`10^{-12}C`, the book's rule
        (:func:`svmtext.kkt.bias_tol`). A problem rescaled to a box far above its
        multipliers passes its own.
    """

    def __init__(self, K, y, C, tol, max_iter=10_000_000, polish=True, coarse_tol=1e-2,
                 bound_eps=None):
        self.K = np.ascontiguousarray(K, dtype=np.float64)
        self.y = np.ascontiguousarray(y, dtype=np.float64)
        self.C, self.tol, self.max_iter = float(C), float(tol), int(max_iter)
        # distance to a bound under which a multiplier counts as at it (snap, bias, gap)
        self.eps = 1e-12 * self.C if bound_eps is None else float(bound_eps)
        self.n = len(self.y)
        self.n_solves = 0
        self.n_iter = 0          # SMO pair updates over all solves
        self.n_polished = 0      # solves finished by the exact polish
        self.polish_rounds = 2
        self.use_polish, self.coarse_tol = bool(polish), float(coarse_tol)

    # -- state at a solution -------------------------------------------------
    def gradient(self, alpha) -> np.ndarray:
        r""":math:`-y_kG_k = y_k - \sum_j \alpha_j y_j K_{kj}` for every :math:`k`."""
        S = np.flatnonzero(alpha > 0)
        return self.y - self.K[:, S] @ (alpha[S] * self.y[S])

    def objective(self, alpha, g) -> float:
        r""":math:`W(\alpha) = \tfrac12\sum_k \alpha_k (1 + y_k(-y_kG_k))`."""
        return 0.5 * float(alpha.sum() + (alpha * self.y) @ g)

    def bias(self, alpha, g, active) -> float:
        """The bias from the points of ``active`` only (:func:`svmtext.kkt.bias_from_gradient`)."""
        return bias_from_gradient(g[active], alpha[active], self.y[active], self.C,
                                  self.eps)

    # -- solvers ---------------------------------------------------------------
    def _run_smo(self, alpha, g, active, tol):
        n_iter, gap = smo_dense(self.K, self.y, alpha, g, active, self.n, self.C, tol,
                                self.max_iter)
        self.n_iter += n_iter
        if n_iter >= self.max_iter and gap >= tol:
            warnings.warn(f"SMO reached max_iter={self.max_iter} on a subproblem",
                          ConvergenceWarning, stacklevel=4)
        gap = float(gap) if np.isfinite(gap) else 0.0   # -inf: one class, nothing moves
        return alpha, g, max(gap, 0.0)

    def gap(self, alpha, g, active) -> float:
        r"""The gap :math:`m(\alpha) - M(\alpha)` over the points of ``active``
        (:func:`svmtext.kkt.bias_interval`; 0 when nothing can move)."""
        m, M = bias_interval(g[active], alpha[active], self.y[active], self.C, self.eps)
        gap = m - M
        return float(gap) if np.isfinite(gap) and gap > 0 else 0.0

    def polish(self, alpha, active) -> tuple | None:
        r"""The exact optimum, by a few active-set rounds from the split of ``alpha``; or None.

        With :math:`U` the multipliers at :math:`C` and :math:`F` the free ones (in
        ``active``), the free support vectors satisfy :math:`y_kf(x_k) = 1` and
        :math:`y^\top\alpha = 0`: with :math:`v = \alpha\odot y`,

        .. math::

            \begin{pmatrix} K_{FF} & \mathbf 1 \\ \mathbf 1^\top & 0 \end{pmatrix}
            \begin{pmatrix} v_F \\ b \end{pmatrix} =
            \begin{pmatrix} y_F - K_{FU}v_U \\ -\mathbf 1^\top v_U \end{pmatrix},

        solved by least squares (minimum norm when :math:`K_{FF}` is singular). A round
        puts a free multiplier that leaves :math:`(0, C)` on the bound it crossed, or,
        if none does, frees every bounded point that violates the optimality condition
        by at least ``tol / 2`` against this :math:`b` (:math:`k \in I_{up}` needs
        :math:`-y_kG_k \le b`, :math:`k \in I_{low}` needs :math:`-y_kG_k \ge b`). The
        result is returned as ``(alpha, g, gap)`` as soon as the gap over ``active`` is
        below ``tol`` -- SMO's own certificate -- and None after ``polish_rounds``.
        """
        C, y, K, eps = self.C, self.y, self.K, self.eps
        act = np.flatnonzero(active)
        state = np.where(alpha[act] <= 0, 0, np.where(alpha[act] >= C, 2, 1))
        for _ in range(self.polish_rounds):
            F, U = act[state == 1], act[state == 2]
            if not len(F):
                return None
            vU = C * y[U]
            A = np.ones((len(F) + 1, len(F) + 1))
            A[:-1, :-1] = K[np.ix_(F, F)]
            A[-1, -1] = 0.0
            rhs = np.append(y[F] - K[np.ix_(F, U)] @ vU, -vU.sum())
            sol = np.linalg.lstsq(A, rhs, rcond=None)[0]
            aF, b = y[F] * sol[:-1], sol[-1]
            low, high = aF <= eps, aF >= C - eps
            if low.any() or high.any():
                pos = np.flatnonzero(state == 1)
                state[pos[low]], state[pos[high]] = 0, 2
                continue
            new = np.zeros(self.n)
            new[U], new[F] = C, aF
            g = self.gradient(new)
            gap = self.gap(new, g, active)
            if gap < self.tol and abs(new @ y) <= eps:
                self.n_polished += 1
                return new, g, gap
            ga, ya = g[act], y[act]
            up_only = ((state == 0) & (ya > 0)) | ((state == 2) & (ya < 0))
            low_only = ((state == 0) & (ya < 0)) | ((state == 2) & (ya > 0))
            wrong = (up_only & (ga - b >= 0.5 * self.tol)) | (low_only & (b - ga >= 0.5 * self.tol))
            if not wrong.any():
                return None
            state[wrong] = 1
        return None

    def _solve(self, alpha, g, active):
        """SMO to ``tol``; with ``polish``, the exact finish is tried after SMO to
        ``coarse_tol``, ``coarse_tol / 10``, ... (while above ``tol``), and the first
        result that passes SMO's certificate (gap below ``tol``) is returned."""
        active = np.ascontiguousarray(active)
        self.n_solves += 1
        if self.use_polish:
            stage = self.coarse_tol
            while stage > self.tol:
                alpha, g, _ = self._run_smo(alpha, g, active, stage)
                done = self.polish(alpha, active)
                if done is not None:
                    return done
                stage /= 10
        alpha, g, gap = self._run_smo(alpha, g, active, self.tol)
        return (*self.snap(alpha, g), gap)

    def snap(self, alpha, g, reference=None) -> tuple:
        r"""Put multipliers within ``bound_eps`` (:math:`10^{-12}C`) of a bound on it and update ``g``.

        The book's rule for starting points (:func:`svmtext._validation.check_warm_start`),
        applied to every solution too, so that a rounding residue such as
        :math:`\alpha_j = 10^{-16}` never counts as a support vector.
        ``reference``: the multipliers ``g`` belongs to (default ``alpha`` before snapping).
        """
        C, eps = self.C, self.eps
        new = np.where(alpha <= eps, 0.0, np.where(alpha >= C - eps, C, alpha))
        ref = alpha if reference is None else reference
        changed = np.flatnonzero(new != ref)
        if len(changed):
            g = g - self.K[:, changed] @ ((new[changed] - ref[changed]) * self.y[changed])
        return new, g

    def solve_cold(self, active) -> tuple:
        """SMO from :math:`\\alpha = 0` on the points ``active`` (bool mask)."""
        alpha = np.zeros(self.n)
        return self._solve(alpha, self.y.copy(), active)

    def warm_start(self, alpha, g, active, i) -> tuple:
        r"""A feasible start for ``active`` (which excludes ``i``) from the parent's ``alpha``.

        :math:`\alpha_i` is set to 0; :math:`y^\top\alpha = 0` is restored by raising
        same-class :math:`\alpha_j` (:math:`j` in ``active``, largest :math:`-G_j =
        y_j(-y_jG_j)` first) up to ``C``, and, if that is not enough, by lowering
        other-class :math:`\alpha_j` (smallest :math:`-G_j` first). The gradient is
        updated for every changed multiplier. Returns new arrays.
        """
        y, C = self.y, self.C
        eps = self.eps
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

    def solve_warm(self, alpha, g, active, i) -> tuple:
        """SMO on ``active`` from :meth:`warm_start` of the parent's ``(alpha, g)``."""
        a0, g0 = self.warm_start(alpha, g, active, i)
        return self._solve(a0, g0, active)
