r"""The SMO solver for the SVM dual (book: :ref:`sec-smo`).

LIBSVM's form of the dual, with :math:`Q_{ij} = y_i y_j K_{ij}`:

.. math::

    \min_\alpha f(\alpha) = \tfrac12 \alpha^\top Q \alpha - p^\top \alpha
    \quad\text{s.t.}\quad y^\top\alpha = 0,\; 0 \le \alpha_k \le C ;

with :math:`p = \mathbf 1` (the default) this is the SVM dual and the book's dual
objective is :math:`W(\alpha) = -f(\alpha)`. Another linear term :math:`p` gives the
other problems LIBSVM solves with the same loop, e.g. epsilon-SVR in :math:`2n`
variables (:mod:`svmtext.svr`; LIBSVM's ``linear_term`` is :math:`-p`).
Each iteration picks a pair :math:`(i, j)` (:mod:`svmtext.smo._wss`) and moves along
the line that keeps :math:`y^\top\alpha = 0` (book: :ref:`sec-smo-subproblem`),

.. math::

    \alpha_i \leftarrow \alpha_i + y_i \eta, \quad \alpha_j \leftarrow \alpha_j - y_j \eta, \quad
    \eta = \min\Bigl(\frac{(-y_iG_i) - (-y_jG_j)}{a_{ij}},\ \text{room}_i,\ \text{room}_j\Bigr),
    \quad a_{ij} = K_{ii} + K_{jj} - 2K_{ij},

then updates :math:`-y_kG_k \leftarrow -y_kG_k - \eta (K_{ki} - K_{kj})`, where
:math:`G = Q\alpha - \mathbf 1` and :math:`-y_kG_k = y_k - \sum_j \alpha_j y_j K_{kj}`
(the array ``g`` of the code). It stops when
:math:`m(\alpha) - M(\alpha) <` ``tol`` (:ref:`sec-smo-optimality`).
The selection scan, the step and the gradient update are the compiled core shared
with the other SMOs (:mod:`svmtext.smo._core`); this module adds the column cache,
shrinking and the working-set rules.
"""
from __future__ import annotations

import threading
import warnings
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from threadpoolctl import ThreadpoolController

from .._validation import check_C, check_labels, check_tol, check_warm_start
from ..kkt import FREE, LOWER, UPPER, alpha_status, bias_from_gradient, free_and_bounded, in_low, in_up
from . import _core
from . import _loop as L
from ._cache import ColumnCache, get_stored, store_column
from ._columns import GramColumns, as_column_provider, finishing_loop, loop_blocks_are_numpys
from ._null import null_step
from ._wss import WSS2, PlattHeuristics, extreme_violators, make_rule

__all__ = ["SMOResult", "smo_solve", "solve_checked", "bias_from_gradient"]


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
    n_null_steps : int
        Null-space steps made (``null_steps=True``; :mod:`svmtext.smo._null`).
    gradient : (n,) array
        :math:`-y_kG_k = y_kp_k - \sum_j \alpha_j y_j K_{kj}` at ``alpha``
        (:math:`y_k - \dots` for the default :math:`p = \mathbf 1`).
    history : dict of lists or None
        With ``history=True`` (see :func:`smo_solve`): per update the gap before it, the
        pair ``(i, j)``, LIBSVM's objective after it and the kernel evaluations so far.
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
    C: float | np.ndarray
    cache_hits: int = 0
    cache_misses: int = 0
    n_shrink: int = 0
    n_unshrink: int = 0
    n_null_steps: int = 0
    gradient: np.ndarray | None = field(default=None, repr=False)
    history: dict | None = field(default=None, repr=False)

    @property
    def support(self) -> np.ndarray:
        """Indices with :math:`\\alpha_i > 0`."""
        return np.flatnonzero(self.alpha > 0)

    @property
    def free(self) -> np.ndarray:
        """Indices with :math:`0 < \\alpha_i < C` (SMO lands exactly on the bounds)."""
        return np.flatnonzero(free_and_bounded(self.alpha, self.C, 0.0)[0])

    @property
    def bounded(self) -> np.ndarray:
        """Indices with :math:`\\alpha_i = C`."""
        return np.flatnonzero(free_and_bounded(self.alpha, self.C, 0.0)[1])


class _SMO:
    """One run of SMO; the state the working-set rules read (``g, y, status, d, ...``).

    ``alpha, g, y, status, d`` hold the active variables (all of them unless shrunk);
    ``up`` and ``low`` are :math:`I_{up}` and :math:`I_{low}` read off the status.
    """

    def __init__(self, provider, y, C, alpha, tol, tau, cache_size, rule, p=None):
        self.core = _core
        self.provider, self.C, self.tol, self.tau, self.rule = provider, C, tol, tau, rule
        n = self.n = len(y)
        # the box of every multiplier: one C, or per-sample bounds C_k
        self.C_full = np.full(n, C) if np.ndim(C) == 0 else C
        self.y_full, self.alpha_full = y, alpha
        # linear term p of -p^T alpha (default 1: the SVM dual); y p = -G at alpha = 0
        self.p_full = np.ones(n) if p is None else p
        self.yp_full = y * self.p_full
        S = np.flatnonzero(alpha > 0)
        # (alpha = 0, the usual start: every multiplier at its lower bound, W = 0)
        self.status_full = alpha_status(alpha, C, 0.0) if len(S) else \
            np.full(n, LOWER, dtype=np.int8)
        self.d_full = provider.diag()
        self.movable = np.ones(n, dtype=bool)
        provider.set_active(None)
        self.cache = ColumnCache(provider, cache_size)
        # gradient g = y p - K (alpha y) and its part from variables at C (LIBSVM's G_bar)
        self.g_full = self.yp_full.copy()
        self.gbar = np.zeros(n)
        everyone = np.arange(n)
        for k in range(0, len(S), 256):
            cols = S[k:k + 256]
            Kb = provider.block(everyone, cols)
            self.g_full -= Kb @ (alpha[cols] * y[cols])
            at_C = self.status_full[cols] == UPPER
            if at_C.any() and np.ndim(C) == 0:
                self.gbar -= C * (Kb[:, at_C] @ y[cols][at_C])
            elif at_C.any():
                self.gbar -= Kb[:, at_C] @ (C[cols][at_C] * y[cols][at_C])
        self.active = everyone
        self._bind_full()
        self.n_shrink = self.n_unshrink = self.n_null_steps = 0
        self.unshrunk = False
        # W(alpha), followed step by step (exact on the full problem while shrunk)
        self.W = -self.objective() if len(S) else 0.0

    # -- active set -----------------------------------------------------------
    @property
    def up(self):
        return in_up(self.y, self.status)

    @property
    def low(self):
        return in_low(self.y, self.status)

    def _bind_full(self):
        self.g, self.alpha, self.y = self.g_full, self.alpha_full, self.y_full
        self.status, self.d, self.p = self.status_full, self.d_full, self.p_full
        self.Cv = self.C_full

    def _write_back(self):
        if len(self.active) < self.n:
            self.g_full[self.active] = self.g
            self.alpha_full[self.active] = self.alpha
            self.status_full[self.active] = self.status

    def _inactive(self):
        """The set-aside variables, in increasing order."""
        out = np.ones(self.n, dtype=bool)
        out[self.active] = False
        return np.flatnonzero(out)

    def shrink(self):
        r"""Remove bound variables that cannot be part of a violating pair (LIBSVM's rule).

        A variable only in :math:`I_{up}` with :math:`-y_kG_k < M(\alpha)`, or only in
        :math:`I_{low}` with :math:`-y_kG_k > m(\alpha)`, is set aside. The first time the gap
        falls below ``10 tol`` the full problem is restored once.
        """
        m, _, M, _ = extreme_violators(self)
        if not self.unshrunk and m - M <= 10 * self.tol:
            self.unshrunk = True
            self.unshrink()
            m, _, M, _ = extreme_violators(self)
        up, low = self.up, self.low
        out = (up & ~low & (self.g < M)) | (low & ~up & (self.g > m))
        if not out.any():
            return
        self._write_back()
        keep = np.flatnonzero(~out)
        self.active = self.active[keep]
        self.cache.restrict(keep, self.active)
        A = self.active
        self.g, self.alpha, self.status = self.g_full[A], self.alpha_full[A], self.status_full[A]
        self.y, self.d, self.p = self.y_full[A], self.d_full[A], self.p_full[A]
        self.Cv = self.C_full[A]
        self.n_shrink += 1

    def unshrink(self):
        r"""Rebuild the gradient of the shrunk variables and make every variable active.

        For a set-aside :math:`k` (at a bound),
        :math:`-y_kG_k = y_k - y_k\bar G_k - \sum_{j\ \mathrm{free}} \alpha_j y_j K_{kj}` with
        LIBSVM's :math:`\bar G_k = \sum_{j: \alpha_j = C_j} C_j y_k y_j K_{kj}` kept up to date
        throughout (the array ``gbar`` holds :math:`-y_k\bar G_k`).
        """
        if len(self.active) == self.n:
            return
        self._write_back()
        self._reconstruct()

    def _reconstruct(self, inactive=None):
        """The gradient of the set-aside variables (``inactive``, in increasing order;
        default: all but ``active``) from ``gbar`` and the free columns; every variable
        becomes active (the full arrays are current)."""
        if inactive is None:
            inactive = self._inactive()
        a, y = self.alpha_full, self.y_full
        free = np.flatnonzero(self.status_full == FREE)
        g = self.yp_full[inactive] + self.gbar[inactive]
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
        """``gbar -= sign * C_p y_p K[:, p]`` over all rows (p is a position in the active set)."""
        coef = sign * self.Cv[p] * self.y[p]
        if len(self.active) == self.n:
            self.gbar -= coef * Kp
            return
        self.gbar[self.active] -= coef * Kp
        inactive = self._inactive()
        self.gbar[inactive] -= coef * self.provider.block(inactive, [self.active[p]])[:, 0]

    def take_step(self, p, q):
        r"""Solve the two-variable subproblem on positions ``p, q``; return whether it moved.

        The pair is ordered so that :math:`-y_pG_p \ge -y_qG_q`; it can move only if
        :math:`p \in I_{up}` and :math:`q \in I_{low}`. The step is the core's
        (:func:`svmtext.smo._core.two_variable_step`).
        """
        if p < 0 or p == q:
            return False
        g, y, status = self.g, self.y, self.status
        if g[p] < g[q]:
            p, q = q, p
        if not (in_up(y[p], status[p]) and in_low(y[q], status[q])):
            return False
        Kp = self.cache.column(self.active[p])
        Kq = self.cache.column(self.active[q])
        a = self.core.curvature(self.d[p], self.d[q], Kp[q], self.tau)
        b = g[p] - g[q]
        was_C = status[p] == UPPER, status[q] == UPPER
        eta = self.core.two_variable_step(p, q, g, y, self.alpha, status, a, self.Cv[p],
                                          self.Cv[q])
        if not eta > 0:
            return False
        self.W += eta * b - 0.5 * eta * eta * a
        self.core.update_gradient(g, eta, Kp, Kq, len(g))
        for r, Kr, was in ((p, Kp, was_C[0]), (q, Kq, was_C[1])):
            if was != (status[r] == UPPER):
                self._update_gbar(r, Kr, -1.0 if was else +1.0)
        return True

    def objective(self):
        r"""LIBSVM's :math:`-W(\alpha) = \tfrac12 \sum_k \alpha_k (G_k - p_k)` on the active
        variables (the full problem when nothing is shrunk)."""
        return float(-0.5 * np.sum(self.alpha * (self.p + self.y * self.g)))

    # -- the loops ---------------------------------------------------------------
    def run_compiled(self, max_iter, shrinking, null_steps=False):
        """WSS2 in the compiled loop (:mod:`svmtext.smo._loop`): the same pairs and
        arithmetic as :meth:`run` (without ``null_steps``); Python only serves the
        loop's requests, and makes the null-space steps (:mod:`svmtext.smo._null`)."""
        n, cache, provider = self.n, self.cache, self.provider
        kind, kernel = (1, -1) if type(provider) is GramColumns else (0, -1)
        source = getattr(provider, "compiled_source", None)
        if source is not None:
            kind, kernel, _ = source()
        st, fs = L.new_state(n, self.tol, self.tau, max_iter, shrinking, kind, kernel,
                             float(getattr(provider, "gamma", 0.0) or 0.0),
                             float(getattr(provider, "coef0", 0.0) or 0.0),
                             int(getattr(provider, "degree", 0) or 0), null_steps)
        if kind in (5, 6):            # the loop calls NumPy's exp or power, where it can
            st[L.FINISH_LOOP], st[L.FINISH_DATA] = finishing_loop(provider.kernel,
                                                                  provider.degree)
            fs[L.EXPONENT] = float(provider.degree) if kind == 6 else 0.0
        bufs = [self.g_full.copy(), self.alpha_full.copy(), self.status_full.copy(),
                self.y_full.copy(), self.d_full.copy(), np.array(self.C_full, dtype=float)]
        active, inactive, keep = np.arange(n), np.empty(n, np.int64), np.empty(n, np.int64)
        KG = provider.K if kind == 1 else np.empty((0, 0), dtype=cache.dtype)
        none, vec0 = np.empty((0, 0), dtype=cache.dtype), np.empty(0, dtype=cache.dtype)
        no_idx = np.empty(0, dtype=np.int32)
        work = (np.empty(n, dtype=cache.dtype), np.empty(n, dtype=cache.dtype),
                np.ones(n, dtype=np.bool_), *(np.empty(n) for _ in range(4)))

        src_i = None                  # the set-aside rows' data, once the loop needs them
        # dense data with NumPy's columns: the loop keeps the active and the set-aside
        # rows itself, in one buffer (no return at a shrink)
        rows_by_loop = kind in (4, 5, 6) and shrinking
        if rows_by_loop:
            X, sq = source()[2][:2]
            own_rows = (X, sq, np.empty_like(X), np.empty_like(sq), no_idx, no_idx, sq[:0])
            st[L.ROWS_BY_LOOP] = st[L.INACTIVE_READY] = 1
            # and makes the gradient reconstruction itself, with Python's operations
            st[L.RECONSTRUCT_BY_LOOP] = (kind == 4 or st[L.FINISH_LOOP] != 0) and \
                loop_blocks_are_numpys()

        def arguments():              # the data's active rows change with shrinking
            src = own_rows if rows_by_loop else source()[2] if source is not None else \
                (none, vec0, none, vec0, no_idx, no_idx, vec0)
            rows_i = src_i if src_i is not None else \
                (*src[:2], np.empty((0, 0), dtype=src[2].dtype), src[3][:0], *src[4:])
            return (st, fs, *bufs, active, inactive, keep, self.g_full, self.alpha_full,
                    self.status_full, self.y_full, self.d_full, self.C_full, self.gbar,
                    self.yp_full, cache.store, cache.held, cache.lru, cache.info, KG, src, rows_i, *work)

        args = arguments()
        numpy_column = getattr(provider, "numpy_column", lambda c: None)
        # the loop's twin on threads computes its columns with the threaded kernels
        loop = L.run_threads if getattr(provider, "n_threads", 1) > 1 else L.run
        def read_active():            # the loop shrank or unshrank: Python's view of the rows
            if st[L.NA] == n:             # (after the loop's own reconstruction: all rows)
                self.active = np.arange(n)
                provider.set_active(None)
                cache.rows = None
                return
            self.active = active[:st[L.NA]].copy()
            provider.set_active(self.active)
            cache.rows = self.active

        while True:
            code = loop(*args)
            if st[L.SYNC]:
                st[L.SYNC] = 0
                read_active()
            if code == L.NEED_FINISH:         # the loop's column, finished by NumPy
                provider.finish_column(get_stored(cache.store, int(st[L.REQ])))
            elif code == L.NEED_COLUMN:       # the miss is counted by the loop
                c = int(st[L.REQ])
                col = numpy_column(c)
                col = cache._compute(c) if col is None else \
                    np.ascontiguousarray(col, dtype=cache.dtype)
                store_column(cache.store, cache.held, cache.lru, cache.info, c, col)
            elif code == L.NEED_INACTIVE:
                rows = inactive[:st[L.N_INACTIVE]]
                self.gbar[rows] -= fs[L.REQ_COEF] * provider.block(rows, [st[L.REQ]])[:, 0]
                if kind == 3 and not st[L.INACTIVE_READY]:
                    # sparse data: the loop computes the next ones itself, until the
                    # next shrink (dense data's rows it keeps itself: ROWS_BY_LOOP)
                    src_i = provider.inactive_source(rows)
                    st[L.INACTIVE_READY] = 1
                    args = arguments()
            elif code == L.NULL_STEP:         # a flat face (svmtext.smo._null)
                na = int(st[L.NA])
                moved = null_step(*bufs[:4], bufs[5], active, na, provider.block)
                if moved is None:
                    st[L.NULL_FAILED] = 1
                else:
                    st[L.N_NULL] += 1
                    for c, coef in moved:
                        self.gbar -= coef * provider.block(np.arange(n), [c])[:, 0]
            elif code == L.SHRUNK:
                src_i = None
                read_active()
                args = arguments()
            elif code == L.NEED_UNSHRINK or (code == L.MAX_ITER and st[L.NA] < n):
                self.active = active[:st[L.NA]].copy()
                self._reconstruct(inactive[:st[L.N_INACTIVE]])
                for buf, full in zip(bufs, (self.g_full, self.alpha_full, self.status_full,
                                            self.y_full, self.d_full, self.C_full)):
                    buf[:] = full
                active[:] = np.arange(n)
                st[L.NA], st[L.N_INACTIVE] = n, 0
                st[L.INACTIVE_READY] = int(rows_by_loop)
                src_i = None
                args = arguments()
                if code == L.MAX_ITER:
                    break
            else:
                break
        self.provider.n_kernel_evals += int(st[L.EVALS])
        self.n_shrink = int(st[L.N_SHRINK])
        self.n_unshrink += int(st[L.N_RECONSTRUCT])
        self.n_null_steps = int(st[L.N_NULL])
        return int(st[L.N_ITER]), int(st[L.N_SELECT]), bool(st[L.CONVERGED]), None

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
                    hist["objective"].append(-self.W)
                    hist["kernel_evals"].append(int(self.provider.n_kernel_evals))
        self.unshrink()
        return n_iter, n_select, converged, hist


_CONTROLLER = []


def _controller() -> ThreadpoolController:
    """The process's thread-pool controller (the libraries are looked up once per
    process: the look-up costs milliseconds, more than a small fit)."""
    if not _CONTROLLER:
        _CONTROLLER.append(ThreadpoolController())
    return _CONTROLLER[0]


def _one_blas_thread():
    """One BLAS thread for the fit; nothing to do when BLAS runs one thread already
    (setting and restoring the limit costs about 0.2 ms, a tenth of a small fit)."""
    blas = [lib for lib in _controller().lib_controllers if lib.user_api == "blas"]
    if all(lib.num_threads == 1 for lib in blas):
        return nullcontext()
    return _controller().limit(limits=1, user_api="blas")


def column_threads_of(provider) -> tuple[int, bool]:
    """The arguments of :func:`_column_threads` for the columns of ``provider``: its
    threads and whether its columns are NumPy's (BLAS) products."""
    return (int(getattr(provider, "n_threads", 1)),
            bool(getattr(provider, "numpy_columns", False)))


_HELD = threading.local()       # the setting of an enclosing _column_threads, per thread


@contextmanager
def _column_threads(k, blas):
    """``k`` threads for the kernel columns: ``k`` numba threads (the compiled columns,
    at most numba's ``NUMBA_NUM_THREADS``), and ``k`` BLAS threads if ``blas`` (NumPy's
    columns), else one; ``k = 1`` is :func:`_one_blas_thread` alone. (Without NumPy's
    columns BLAS makes only the gradient reconstruction's short products, which a
    second thread slowed down: measured on MNIST, n = 4,000, 0.86 s against 1.18 s.)

    Inside another ``_column_threads`` of the same setting (the pairs of a one-vs-one
    fit, :class:`~svmtext.smo.SMOSVC`) it does nothing: reading the libraries' thread
    counts costs about 20 microseconds, a hundredth of a small pair's fit."""
    setting = (1, False) if k == 1 else (k, bool(blas))
    if getattr(_HELD, "setting", None) == setting:
        yield
        return
    before, _HELD.setting = getattr(_HELD, "setting", None), setting
    try:
        with _set_column_threads(k, blas):
            yield
    finally:
        _HELD.setting = before


@contextmanager
def _set_column_threads(k, blas):
    """The thread limits of :func:`_column_threads`."""
    if k == 1:
        with _one_blas_thread():
            yield
        return
    import numba

    from .._numba import prefer_threading_layers
    prefer_threading_layers()
    before = numba.get_num_threads()
    with _controller().limit(limits=k if blas else 1, user_api="blas"):
        numba.set_num_threads(min(k, numba.config.NUMBA_NUM_THREADS))
        try:
            yield
        finally:
            numba.set_num_threads(before)


def _check_box(C, n):
    """One finite positive ``C`` (a float) or ``n`` of them (a float array)."""
    if np.ndim(C) == 0:
        return check_C(C, finite=True)
    C = np.array(C, dtype=float).ravel()
    if C.shape != (n,) or not np.all(np.isfinite(C)) or not np.all(C > 0):
        raise ValueError(f"C must be a finite positive number or an array of {n} finite "
                         f"positive numbers (one per sample); got shape {C.shape}")
    return C


def smo_solve(K_or_provider, y, C, *, alpha0=None, tol=1e-3, max_iter=None,
              selection="wss2", cache_size=200.0, shrinking=True, tau=1e-12,
              history=False, random_state=0, p=None, null_steps=False) -> SMOResult:
    r"""Solve the SVM dual by sequential minimal optimisation.

    .. math::

        \min_\alpha \tfrac12 \alpha^\top Q \alpha - p^\top\alpha
        \quad\text{s.t.}\quad y^\top\alpha = 0,\ 0 \le \alpha_k \le C,
        \qquad Q_{ij} = y_i y_j K_{ij},

    with :math:`p = \mathbf 1` for the SVM dual (the default).

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
    C : float or (n,) array
        Box constant (finite, positive), or per-sample upper bounds :math:`C_k`
        (:math:`0 \le \alpha_k \le C_k`; LIBSVM's class weights are
        :math:`C_k = C w_{y_k}`). A scalar gives bit for bit the result of the array
        ``np.full(n, C)``.
    alpha0 : (n,) array, optional
        Feasible warm start (:math:`0 \le \alpha_k \le C_k`, :math:`y^\top\alpha = 0`);
        default zeros. ``ValueError`` if infeasible.
    tol : float, default 1e-3
        Stop when the gap :math:`m(\alpha) - M(\alpha)` is below ``tol`` (LIBSVM's eps).
    max_iter : int, optional
        Maximal number of working-set selections; default
        :math:`\max(10^7, 100 n)`. A ``ConvergenceWarning`` is issued when reached.
    selection : {'wss2', 'mvp', 'platt'}
        Working-set rule (:mod:`svmtext.smo._wss`).
    cache_size : float, default 200
        Size of the LRU kernel-column cache in megabytes (scikit-learn's name).
    shrinking : bool, default True
        Set aside bound variables that cannot move (ignored for ``'platt'``).
        The solver runs with one BLAS thread (kernel columns are matrix-vector
        products, too small for threads to pay off).
    tau : float, default 1e-12
        Curvature floor: replaces a non-positive :math:`a_{ij}`.
    history : bool
        Record, for every update, the gap :math:`m - M` on the active variables before
        it, the pair ``(i, j)`` (indices of ``y``), LIBSVM's objective
        :math:`-W(\alpha)` of the whole problem after it (followed exactly through
        shrinking: each step changes :math:`W` by :math:`\eta(y_jG_j - y_iG_i) -
        \tfrac12\eta^2 a_{ij}`) and the kernel evaluations so far.
    random_state : int
        Seed of Platt's random starting points.
    p : (n,) array, optional
        Linear term of :math:`-p^\top\alpha`; default :math:`\mathbf 1` (the SVM
        dual, bit for bit as without it). LIBSVM writes the same problem with
        ``linear_term`` :math:`= -p`; epsilon-SVR in :math:`2n` variables uses
        :math:`p = (z - \varepsilon,\ -z - \varepsilon)` (:mod:`svmtext.svr`).
        Then ``gradient`` is :math:`y_kp_k - \sum_j\alpha_jy_jK_{kj}`,
        ``objective`` :math:`\tfrac12\alpha^\top Q\alpha - p^\top\alpha` and ``b``
        the mean of ``gradient`` over the free variables (or the midpoint rule).
    null_steps : bool, default False
        Where the free multipliers (2 to 64 of them) are the same as 1,000 selections
        before and their face of the box is flat (a singular :math:`Q_{FF}`),
        move along the flat direction to the next bound in one step
        (:mod:`svmtext.smo._null`, book :ref:`sec-smo-null-steps`; not LIBSVM's).
        Only with ``selection='wss2'`` and ``history=False`` (the compiled loop).

    Returns
    -------
    SMOResult
        ``alpha``, ``b`` (:math:`= -\rho`), ``objective`` (LIBSVM's
        :math:`\tfrac12\alpha^\top Q\alpha - \mathbf 1^\top\alpha`), ``dual_objective``
        (:math:`W = -` ``objective``), ``gap``, ``n_iter``, ``n_kernel_evals``, ...
    """
    provider = as_column_provider(K_or_provider)
    y = check_labels(y, provider.n)
    C = _check_box(C, len(y))
    tol = check_tol(tol)
    alpha = np.zeros(len(y)) if alpha0 is None else check_warm_start(alpha0, y, C)
    if p is not None:
        p = np.array(p, dtype=float).ravel()
        if p.shape != y.shape or not np.all(np.isfinite(p)):
            raise ValueError(f"p must be a finite array of length {len(y)}; "
                             f"got shape {p.shape}")
    rule = make_rule(selection, random_state)
    if null_steps not in (False, True):
        raise TypeError(f"null_steps must be True or False; got {null_steps!r}")
    if not (max_iter is None or isinstance(max_iter, (int, np.integer)) and max_iter >= 0):
        raise ValueError(f"max_iter must be a non-negative integer; got {max_iter!r}")
    return solve_checked(provider, y, C, alpha, tol, max_iter, rule, cache_size, shrinking,
                         tau=tau, history=history, p=p, null_steps=bool(null_steps),
                         stacklevel=3)


def solve_checked(provider, y, C, alpha, tol, max_iter, rule, cache_size=200.0,
                  shrinking=True, *, tau=1e-12, history=False, p=None, null_steps=False,
                  stacklevel=2) -> SMOResult:
    """:func:`smo_solve` on arguments it has checked already (a column provider, labels
    of both classes, a checked box and ``tol``, a feasible ``alpha``, a rule of
    :func:`~svmtext.smo._wss.make_rule`): the pairs of a one-vs-one fit
    (:class:`~svmtext.smo.SMOSVC`), whose checks are made once for all of them."""
    if isinstance(rule, PlattHeuristics):
        shrinking = False
    compiled = isinstance(rule, WSS2) and not history
    if null_steps and not compiled:
        raise ValueError("null_steps=True needs selection='wss2' and history=False (the "
                         f"compiled loop); got selection={rule.name!r}, history={history!r}")
    if max_iter is None:
        max_iter = max(10_000_000, 100 * len(y))
    evals0 = provider.n_kernel_evals
    # one BLAS thread: a kernel column is a single matrix-vector product, too small
    # for threads to pay off (and threads spin badly on a busy machine); more only when
    # the provider asks for them (KernelColumns(n_threads=...), SMOSVC(n_jobs=...))
    with _column_threads(*column_threads_of(provider)):
        solver = _SMO(provider, y, C, alpha, tol, tau, cache_size, rule, p)
        if compiled:
            n_iter, n_select, converged, hist = solver.run_compiled(max_iter, shrinking,
                                                                    null_steps)
        else:
            n_iter, n_select, converged, hist = solver.run(max_iter, shrinking, history)
    if not converged:
        warnings.warn(f"SMO stopped after max_iter={max_iter} selections before the gap fell "
                      f"below tol={tol}", ConvergenceWarning, stacklevel=stacklevel)
    alpha, g = solver.alpha_full, solver.g_full
    m, M = L.extreme(g, solver.y_full, solver.status_full, len(g))   # on the full problem
    b = bias_from_gradient(g, alpha, y, C)
    obj = solver.objective()
    return SMOResult(
        alpha=alpha, b=b, rho=-b, objective=obj, dual_objective=-obj, gap=float(m - M),
        n_iter=n_iter, n_select=n_select,
        n_kernel_evals=int(provider.n_kernel_evals - evals0), converged=converged,
        selection=rule.name, tol=tol, C=C, cache_hits=solver.cache.hits,
        cache_misses=solver.cache.misses, n_shrink=solver.n_shrink,
        n_unshrink=solver.n_unshrink, n_null_steps=solver.n_null_steps, gradient=g,
        history=hist)
