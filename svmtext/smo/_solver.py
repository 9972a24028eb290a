r"""The SMO solver for the SVM dual (book: :ref:`sec-smo`).

LIBSVM's form of the dual, with :math:`Q_{ij} = y_i y_j K_{ij}`:

.. math::

    \min_\alpha f(\alpha) = \tfrac12 \alpha^\top Q \alpha - \mathbf 1^\top \alpha
    \quad\text{s.t.}\quad y^\top\alpha = 0,\; 0 \le \alpha_t \le C ;

the book's dual objective is :math:`W(\alpha) = -f(\alpha)`.
Each iteration picks a pair :math:`(i, j)` (:mod:`svmtext.smo._wss`) and moves along
the line that keeps :math:`y^\top\alpha = 0` (book: :ref:`sec-smo-subproblem`),

.. math::

    \alpha_i \leftarrow \alpha_i + y_i t, \quad \alpha_j \leftarrow \alpha_j - y_j t, \quad
    t = \min\Bigl(\frac{g_i - g_j}{a_{ij}},\ \text{room}_i,\ \text{room}_j\Bigr),
    \quad a_{ij} = K_{ii} + K_{jj} - 2K_{ij},

then updates :math:`g \leftarrow g - t (K_{\cdot i} - K_{\cdot j})`, where
:math:`g_t = y_t - \sum_j \alpha_j y_j K_{tj}`. It stops when
:math:`m(\alpha) - M(\alpha) <` ``tol`` (:ref:`sec-smo-optimality`).
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from threadpoolctl import threadpool_limits

from ..kkt import bias_from_gradient
from ._cache import ColumnCache
from ._columns import as_column_provider
from ._wss import PlattHeuristics, extreme_violators, make_rule

__all__ = ["SMOResult", "smo_solve", "bias_from_gradient"]


@dataclass
class SMOResult:
    r"""What :func:`smo_solve` returns.

    Attributes
    ----------
    alpha : (n,) array
        Dual variables (exactly 0 or exactly ``C`` at the bounds).
    b : float
        Bias of :math:`f(x) = \sum_i \alpha_i y_i k(x_i, x) + b`; ``b = -rho``.
    rho : float
        LIBSVM's :math:`\rho = -b`.
    objective : float
        LIBSVM's minimised objective :math:`\tfrac12\alpha^\top Q\alpha - \mathbf 1^\top\alpha`.
    dual_objective : float
        The book's maximised :math:`W(\alpha) = -`\ ``objective`` (as
        :attr:`svmtext.qp.DualSolution.objective`).
    gap : float
        :math:`m(\alpha) - M(\alpha)` on the full problem (``< tol`` when converged).
    n_iter : int
        Pair updates made.
    n_select : int
        Working-set selections (equals ``n_iter`` except for Platt's failed attempts).
    n_kernel_evals : int
        Kernel values computed (cache misses, gradient set-up and reconstruction).
    converged : bool
    history : dict of lists or None
        With ``history=True``: per update the gap before it, the pair ``(i, j)``, the
        objective after it and the kernel evaluations so far.
    """

    alpha: np.ndarray
    b: float
    rho: float
    objective: float
    dual_objective: float
    gap: float
    n_iter: int
    n_select: int
    n_kernel_evals: int
    converged: bool
    selection: str
    tol: float
    C: float
    cache_hits: int = 0
    cache_misses: int = 0
    n_shrink: int = 0
    n_unshrink: int = 0
    history: dict | None = field(default=None, repr=False)

    @property
    def support(self):
        """Indices with :math:`\\alpha_i > 0`."""
        return np.flatnonzero(self.alpha > 0)

    @property
    def free(self):
        """Indices with :math:`0 < \\alpha_i < C`."""
        return np.flatnonzero((self.alpha > 0) & (self.alpha < self.C))

    @property
    def bounded(self):
        """Indices with :math:`\\alpha_i = C`."""
        return np.flatnonzero(self.alpha == self.C)


def _check_inputs(provider, y, C, tol, alpha0):
    y = np.asarray(y, dtype=float).ravel()
    n = provider.n
    if len(y) != n:
        raise ValueError(f"y has {len(y)} labels but the kernel has {n} rows")
    if not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError("y must contain only the labels -1 and +1")
    if len(np.unique(y)) < 2:
        raise ValueError("y contains only one class; an SVM needs both -1 and +1")
    if isinstance(C, bool) or not np.isscalar(C) or not np.isfinite(C) or not C > 0:
        raise ValueError(f"SMO needs a finite positive C; got {C!r}")
    if not (np.isscalar(tol) and tol > 0):
        raise ValueError(f"tol must be positive; got {tol!r}")
    if alpha0 is None:
        return y, np.zeros(n)
    alpha = np.array(alpha0, dtype=float).ravel()
    if alpha.shape != (n,) or not np.all(np.isfinite(alpha)):
        raise ValueError(f"alpha0 must be a finite array of length {n}")
    eps = 1e-12 * C
    if np.any(alpha < -eps) or np.any(alpha > C + eps):
        raise ValueError("alpha0 is not feasible: every alpha_i must lie in [0, C]")
    alpha = np.clip(alpha, 0.0, C)
    alpha[alpha <= eps] = 0.0
    alpha[alpha >= C - eps] = C
    if abs(alpha @ y) > 1e-9 * max(1.0, C * n):
        raise ValueError(f"alpha0 is not feasible: y^T alpha0 = {alpha @ y:.3g} != 0")
    return y, alpha


class _SMO:
    """One run of SMO; the state the working-set rules read (``g, up, low, d, ...``)."""

    def __init__(self, provider, y, C, alpha, tol, tau, cache_mb, rule):
        self.provider, self.C, self.tol, self.tau, self.rule = provider, float(C), tol, tau, rule
        n = self.n = len(y)
        self.y_full, self.alpha_full = y, alpha
        self.d_full = provider.diag()
        provider.set_active(None)
        self.cache = ColumnCache(provider, cache_mb)
        # gradient g = y - K (alpha y) and its part from variables at C (LIBSVM's G_bar)
        self.g_full = y.copy()
        self.gbar = np.zeros(n)
        S = np.flatnonzero(alpha > 0)
        everyone = np.arange(n)
        for k in range(0, len(S), 256):
            cols = S[k:k + 256]
            Kb = provider.block(everyone, cols)
            self.g_full -= Kb @ (alpha[cols] * y[cols])
            at_C = alpha[cols] == C
            if at_C.any():
                self.gbar -= C * (Kb[:, at_C] @ y[cols][at_C])
        self.active = everyone
        self._bind_full()
        self.n_shrink = self.n_unshrink = 0
        self.unshrunk = False

    # -- active set -----------------------------------------------------------
    def _bind_full(self):
        self.g, self.alpha, self.y, self.d = self.g_full, self.alpha_full, self.y_full, self.d_full
        self._masks()

    def _masks(self):
        y, a, C = self.y, self.alpha, self.C
        self.up = ((y > 0) & (a < C)) | ((y < 0) & (a > 0))
        self.low = ((y > 0) & (a > 0)) | ((y < 0) & (a < C))

    def _write_back(self):
        if len(self.active) < self.n:
            self.g_full[self.active] = self.g
            self.alpha_full[self.active] = self.alpha

    def shrink(self):
        r"""Remove bound variables that cannot be part of a violating pair (LIBSVM's rule).

        A variable only in :math:`I_{up}` with :math:`g_t < M(\alpha)`, or only in
        :math:`I_{low}` with :math:`g_t > m(\alpha)`, is set aside. The first time the gap
        falls below ``10 tol`` the full problem is restored once.
        """
        m, _, M, _ = extreme_violators(self)
        if not self.unshrunk and m - M <= 10 * self.tol:
            self.unshrunk = True
            self.unshrink()
            m, _, M, _ = extreme_violators(self)
        out = (self.up & ~self.low & (self.g < M)) | (self.low & ~self.up & (self.g > m))
        if not out.any():
            return
        self._write_back()
        keep = np.flatnonzero(~out)
        self.active = self.active[keep]
        self.cache.restrict(keep, self.active)
        A = self.active
        self.g, self.alpha = self.g_full[A], self.alpha_full[A]
        self.y, self.d = self.y_full[A], self.d_full[A]
        self.up, self.low = self.up[keep], self.low[keep]
        self.n_shrink += 1

    def unshrink(self):
        r"""Rebuild the gradient of the shrunk variables and make every variable active.

        For a set-aside :math:`t` (at a bound),
        :math:`g_t = y_t + \bar g_t - \sum_{j\ \mathrm{free}} \alpha_j y_j K_{tj}` with
        :math:`\bar g_t = -C\sum_{j: \alpha_j = C} y_j K_{tj}` kept up to date throughout.
        """
        if len(self.active) == self.n:
            return
        self._write_back()
        inactive = np.setdiff1d(np.arange(self.n), self.active, assume_unique=True)
        a, y, C = self.alpha_full, self.y_full, self.C
        free = np.flatnonzero((a > 0) & (a < C))
        g = y[inactive] + self.gbar[inactive]
        for k in range(0, len(free), 256):
            cols = free[k:k + 256]
            g -= self.cache.complete_block(cols, inactive) @ (a[cols] * y[cols])
        self.cache.reset()
        self.g_full[inactive] = g
        self.active = np.arange(self.n)
        self._bind_full()
        self.n_unshrink += 1

    # -- the two-variable step -------------------------------------------------
    def _update_gbar(self, p, Kp, sign):
        """``gbar -= sign * C y_p K[:, p]`` over all rows (p is a position in the active set)."""
        i = self.active[p]
        coef = sign * self.C * self.y[p]
        if len(self.active) == self.n:
            self.gbar -= coef * Kp
            return
        self.gbar[self.active] -= coef * Kp
        inactive = np.setdiff1d(np.arange(self.n), self.active, assume_unique=True)
        self.gbar[inactive] -= coef * self.provider.block(inactive, [i])[:, 0]

    def take_step(self, p, q):
        r"""Solve the two-variable subproblem on positions ``p, q``; return whether it moved.

        The pair is ordered so that :math:`g_p \ge g_q`; it can move only if
        :math:`p \in I_{up}` and :math:`q \in I_{low}`.
        """
        if p < 0 or p == q:
            return False
        g, y, alpha, C = self.g, self.y, self.alpha, self.C
        if g[p] < g[q]:
            p, q = q, p
        if not (self.up[p] and self.low[q]):
            return False
        Kp = self.cache.column(self.active[p])
        Kq = self.cache.column(self.active[q])
        a = self.d[p] + self.d[q] - 2.0 * Kp[q]
        if a <= 0:
            a = self.tau
        room_p = C - alpha[p] if y[p] > 0 else alpha[p]
        room_q = alpha[q] if y[q] > 0 else C - alpha[q]
        t = min((g[p] - g[q]) / a, room_p, room_q)
        if not t > 0:
            return False
        was_C = alpha[p] == C, alpha[q] == C
        alpha[p] = (C if y[p] > 0 else 0.0) if t == room_p else alpha[p] + y[p] * t
        alpha[q] = (0.0 if y[q] > 0 else C) if t == room_q else alpha[q] - y[q] * t
        g -= t * Kp
        g += t * Kq
        for r in (p, q):
            self.up[r] = (alpha[r] < C) if y[r] > 0 else (alpha[r] > 0)
            self.low[r] = (alpha[r] > 0) if y[r] > 0 else (alpha[r] < C)
        for r, Kr, was in ((p, Kp, was_C[0]), (q, Kq, was_C[1])):
            if was != (alpha[r] == C):
                self._update_gbar(r, Kr, +1.0 if alpha[r] == C else -1.0)
        return True

    def objective(self):
        r""":math:`f(\alpha) = -\tfrac12 \sum_t \alpha_t (1 + y_t g_t)` (LIBSVM's sign)."""
        return float(-0.5 * np.sum(self.alpha * (1.0 + self.y * self.g)))

    # -- the loop ---------------------------------------------------------------
    def run(self, max_iter, shrinking, history):
        n_iter = n_select = 0
        interval = min(self.n, 1000)
        counter = interval
        converged = False
        hist = {"gap": [], "i": [], "j": [], "objective": [], "kernel_evals": []} if history else None
        while n_select < max_iter:
            if shrinking:
                counter -= 1
                if counter == 0:
                    counter = interval
                    self.shrink()
            gap, i, j = self.rule.select(self)
            if i < 0:
                if len(self.active) == self.n:
                    converged = True
                    break
                self.unshrink()                      # optimal on the active set:
                gap, i, j = self.rule.select(self)   # check the whole problem
                if i < 0:
                    converged = True
                    break
                counter = 1
            n_select += 1
            moved = self.take_step(i, j)
            self.rule.feedback(self, i, j, moved)
            if moved:
                n_iter += 1
                if hist is not None:
                    hist["gap"].append(float(gap))
                    hist["i"].append(int(self.active[i]))
                    hist["j"].append(int(self.active[j]))
                    hist["objective"].append(self.objective())
                    hist["kernel_evals"].append(int(self.provider.n_kernel_evals))
        self.unshrink()
        return n_iter, n_select, converged, hist


def smo_solve(K_or_provider, y, C, *, alpha0=None, tol=1e-3, max_iter=None,
              selection="wss2", cache_mb=200.0, shrinking=True, tau=1e-12,
              history=False, random_state=0) -> SMOResult:
    r"""Solve the SVM dual by sequential minimal optimisation.

    .. math::

        \min_\alpha \tfrac12 \alpha^\top Q \alpha - \mathbf 1^\top\alpha
        \quad\text{s.t.}\quad y^\top\alpha = 0,\ 0 \le \alpha_t \le C,
        \qquad Q_{ij} = y_i y_j K_{ij}.

    Book: :ref:`sec-smo` (subproblem :ref:`sec-smo-subproblem`, stopping rule
    :ref:`sec-smo-optimality`, working sets :ref:`sec-smo-wss`, cache and shrinking
    :ref:`sec-smo-cache`, :ref:`sec-smo-shrinking`).

    Parameters
    ----------
    K_or_provider : (n, n) array or column provider
        A precomputed Gram matrix, or an object with ``n``, ``diag()``,
        ``set_active(rows)``, ``active_columns(cols)`` and ``block(rows, cols)``, such as
        :class:`svmtext.smo.KernelColumns` (kernel columns computed on demand).
    y : (n,) array of -1/+1
    C : float
        Box constant (finite, positive).
    alpha0 : (n,) array, optional
        Feasible warm start (:math:`0 \le \alpha_t \le C`, :math:`y^\top\alpha = 0`);
        default zeros. ``ValueError`` if infeasible.
    tol : float, default 1e-3
        Stop when the gap :math:`m(\alpha) - M(\alpha)` is below ``tol`` (LIBSVM's eps).
    max_iter : int, optional
        Maximal number of working-set selections; default
        :math:`\max(10^7, 100 n)`. A ``ConvergenceWarning`` is issued when reached.
    selection : {'wss2', 'mvp', 'platt'}
        Working-set rule (:mod:`svmtext.smo._wss`).
    cache_mb : float, default 200
        Size of the LRU kernel-column cache in megabytes.
    shrinking : bool, default True
        Set aside bound variables that cannot move (ignored for ``'platt'``).
        The solver runs with one BLAS thread (kernel columns are matrix-vector
        products, too small for threads to pay off).
    tau : float
        Replaces a non-positive curvature :math:`a_{ij}`.
    history : bool
        Record the gap, pair, objective and kernel evaluations of every update.
    random_state : int
        Seed of Platt's random starting points.

    Returns
    -------
    SMOResult
        ``alpha``, ``b`` (:math:`= -\rho`), ``objective`` (LIBSVM's
        :math:`\tfrac12\alpha^\top Q\alpha - \mathbf 1^\top\alpha`), ``dual_objective``
        (:math:`W = -` ``objective``), ``gap``, ``n_iter``, ``n_kernel_evals``, ...
    """
    provider = as_column_provider(K_or_provider)
    y, alpha = _check_inputs(provider, y, C, tol, alpha0)
    rule = make_rule(selection, random_state)
    if isinstance(rule, PlattHeuristics):
        shrinking = False
    if max_iter is None:
        max_iter = max(10_000_000, 100 * len(y))
    if not (isinstance(max_iter, (int, np.integer)) and max_iter >= 0):
        raise ValueError(f"max_iter must be a non-negative integer; got {max_iter!r}")
    evals0 = provider.n_kernel_evals
    # one BLAS thread: a kernel column is a single matrix-vector product, too small
    # for threads to pay off (and threads spin badly on a busy machine)
    with threadpool_limits(limits=1, user_api="blas"):
        solver = _SMO(provider, y, C, alpha, tol, tau, cache_mb, rule)
        n_iter, n_select, converged, hist = solver.run(max_iter, shrinking, history)
    if not converged:
        warnings.warn(f"SMO stopped after max_iter={max_iter} selections before the gap fell "
                      f"below tol={tol}", ConvergenceWarning, stacklevel=2)
    alpha, g = solver.alpha_full, solver.g_full
    m, _, M, _ = extreme_violators(solver)
    b = bias_from_gradient(g, alpha, y, C)
    obj = solver.objective()
    return SMOResult(
        alpha=alpha, b=b, rho=-b, objective=obj, dual_objective=-obj, gap=float(m - M),
        n_iter=n_iter, n_select=n_select,
        n_kernel_evals=int(provider.n_kernel_evals - evals0), converged=converged,
        selection=rule.name, tol=tol, C=float(C), cache_hits=solver.cache.hits,
        cache_misses=solver.cache.misses, n_shrink=solver.n_shrink,
        n_unshrink=solver.n_unshrink, history=hist)
