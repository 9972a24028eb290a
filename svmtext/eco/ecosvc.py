r"""EcoSVM: online SVM learning by ecological invasion (book: :ref:`sec-eco-online`).

The algorithm (Howell et al. 2020, Sec. IV and SI VIII), with the defects of the public
reference code corrected:

1. *Initial batch*: collect the first ``n_start`` points (more if one class is
   missing), solve their dual, keep the species with :math:`\alpha_i > 0`.
2. *Invasion test* for each new point: :math:`g = 1 - y f(x) > 0`
   (:func:`~svmtext.eco.invasion.invasion_growth`, the full
   :math:`\sum_j \alpha_j y_j K(x_j, x)` with the abundances).
3. *Re-equilibration* of :math:`S \cup \{x\}` after an invasion: SMO warm-started
   at :math:`(\alpha_S, 0)`, a feasible point, on the incrementally maintained
   Gram matrix :math:`K_{SS}` and gradient
   (:class:`~svmtext.eco.community.Community`, :func:`~svmtext.eco._compiled.steady_state`:
   the steps of :func:`~svmtext.smo.smo_dense`, vectorised);
   the bias is averaged over *free* support vectors only (midpoint rule
   without one).
4. *Forgetting*: a point that cannot invade is discarded, and species whose
   abundance falls to 0 go extinct (their rows are dropped).

``pass_tol = t > tol`` settles each re-equilibration during the stream only to a KKT gap
below ``t`` (an approximate steady state, as LASVM's online steps are) and the last one of
every ``fit`` / ``partial_fit`` call to ``tol``: the invasion tests in between read a
community within ``t`` of equilibrium, and the model returned meets the same stopping
rule as a batch SMO fit.

``reequilibrate_every = k > 1`` defers the re-equilibration until ``k``
invaders have joined (at :math:`\alpha = 0`): one SMO run absorbs several
disturbances at once, and the points in between are tested against the last
steady state.

Optional remedy for historical contingency: ``buffer_size = B > 0`` keeps the
last ``B`` discarded points; whenever the buffer is full it is re-tested
against the current ecosystem (one kernel block, amortised one kernel row per
discard), invaders are added and re-equilibrated together, and the buffer is
emptied.
"""
from __future__ import annotations

from typing import Self

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import check_psd, kernel_needs_check
from ..base import BaseSVC, labels_to_pm1
from ..kkt import FREE, alpha_status
from ..qp import solve_dual
from ..smo import smo_solve
from ..smo._solver import _one_blas_thread
from .community import Community, RowPrefetch
from .invasion import invasion_growth

__all__ = ["EcoSVC", "reequilibrate"]


def reequilibrate(K, y, C, alpha0, tol=1e-3) -> tuple:
    r"""Steady state of the community: the dual optimum, warm-started at ``alpha0``.

    Uses the SMO solver :func:`svmtext.smo.smo_solve` (second-order working-set
    selection, book: :ref:`sec-smo`) on the precomputed Gram matrix ``K``
    (the reference QP :func:`svmtext.qp.solve_dual` for the hard margin);
    ``alpha0`` must be feasible (:math:`0\le\alpha\le C`, :math:`\sum\alpha_i
    y_i = 0`). Returns ``(alpha, b)``.
    """
    if not np.isfinite(C):
        # SMO needs a finite box; the hard margin (small problems) goes to the
        # reference QP, which also reports inseparable data
        sol = solve_dual(K, y, C, check_psd_kernel=False)
        return sol.alpha, sol.b
    res = smo_solve(K, y, C, alpha0=alpha0, tol=tol)
    return np.asarray(res.alpha, dtype=float), float(res.b)


class EcoSVC(BaseSVC):
    r"""Online binary kernel SVM by ecological invasion (EcoSVM).

    ``fit(X, y)`` streams the rows of ``X`` in order; ``partial_fit`` continues
    the stream. Only the support vectors are stored.

    Parameters
    ----------
    C : float, default=1.0
        Carrying capacity :math:`0\le\alpha_i\le C`; ``inf`` is the hard margin.
    kernel, degree, gamma, coef0
        As in :class:`~svmtext.base.BaseSVC` (``gamma='scale'`` is resolved on
        the initial batch).
    n_start : int, default=10
        Size of the initial batch (more if one class is missing). A ``fit`` /
        ``partial_fit`` call that ends before that solves the batch it has, if it
        holds both classes.
    tol : float, default=1e-3
        Stopping tolerance of the re-equilibration (SMO's KKT gap).
    pass_tol : float or None, default=None
        Stopping tolerance of the re-equilibrations during the stream (None: ``tol``,
        the pure EcoSVM); the last re-equilibration of every ``fit`` /
        ``partial_fit`` call still stops at ``tol``.
    invasion_threshold : float, default=0.0
        A point invades when its growth rate :math:`1 - y f(x)` exceeds this.
    buffer_size : int, default=0
        Length of the re-test buffer of recent discards (0: pure EcoSVM).
    reequilibrate_every : int, default=1
        Re-equilibrate after this many invasions (1: after each, the pure
        EcoSVM). Invaders in between join at :math:`\alpha = 0` and later
        points are tested against the last steady state; every ``fit`` /
        ``partial_fit`` call ends at a steady state.
    track_discards : bool, default=False
        Record the stream indices of discarded points in ``discarded_``
        (for measuring historical contingency).

    Attributes
    ----------
    classes_, support_, support_vectors_, alpha_, dual_coef_, intercept_, n_support_, C_
        As in :class:`~svmtext.base.BaseSVC`, for the surviving species.
    b_ : float
        The bias of the last steady state.
    n_free_, n_bounded_ : int
        Species with :math:`0 < \alpha_i < C` and with :math:`\alpha_i = C`.
    n_seen_, n_invasions_, n_discarded_, n_rescued_ : int
        Stream counts (``n_rescued_``: buffered discards that later invaded).
    n_reequilibration_steps_ : int
        SMO pair updates over all re-equilibrations.
    n_kernel_evals_ : int
        Kernel values computed: the initial batch's Gram matrix, one row per invasion
        test (:math:`|S|` values), the invader's own :math:`K(x, x)`, buffer re-tests.
    discarded_ : list of int
        With ``track_discards``: stream indices of discarded points.
    fit_info_ : dict
        ``dual_objective`` :math:`W(\alpha)` of the community and the counts above.

    Notes
    -----
    ``fit`` and ``partial_fit`` run on one BLAS thread, as :func:`~svmtext.smo.smo_solve`
    does. Threaded BLAS splits a matrix product differently for each thread count, which
    changes the last bits of the kernel rows; the invasion tests (:math:`g > 0`) and the
    re-equilibrations amplify those bits into other step and invasion counts. On one thread
    the counts are those of the machine's BLAS kernels alone, whatever the thread count
    the process was started with.

    References
    ----------
    Howell, A. L., Teschl, S., Marsland, R. and Mehta, P. (2020). Machine learning as
    ecology. *Journal of Physics A* 53, 334001.

    Fan, R.-E., Chen, P.-H. and Lin, C.-J. (2005). Working set selection using second
    order information for training support vector machines. *Journal of Machine
    Learning Research* 6, 1889--1918.
    """

    _parameter_constraints = {
        **BaseSVC._parameter_constraints,
        "n_start": [Interval(Integral, 0, None, closed="left")],
        "tol": [Interval(Real, 0.0, None, closed="neither")],
        "pass_tol": [Interval(Real, 0.0, None, closed="neither"), None],
        "invasion_threshold": [Interval(Real, None, None, closed="neither")],
        "buffer_size": [Interval(Integral, 0, None, closed="left")],
        "reequilibrate_every": [Interval(Integral, 1, None, closed="left")],
        "track_discards": ["boolean"],
    }

    def __init__(self, *, C=1.0, kernel="rbf", degree=3, gamma="scale", coef0=0.0,
                 n_start=10, tol=1e-3, pass_tol=None, invasion_threshold=0.0,
                 buffer_size=0,
                 reequilibrate_every=1, track_discards=False):
        super().__init__(C=C, kernel=kernel, degree=degree, gamma=gamma,
                         coef0=coef0)
        self.n_start = n_start
        self.tol = tol
        self.pass_tol = pass_tol
        self.invasion_threshold = invasion_threshold
        self.buffer_size = buffer_size
        self.reequilibrate_every = reequilibrate_every
        self.track_discards = track_discards

    # -- state -------------------------------------------------------------
    def _reset(self, X, classes):
        self._validate_params()
        self.classes_ = np.asarray(classes)
        self.C_ = float(self.C)
        self._resolve_kernel(X)
        # 'linear', 'rbf' and 'poly' with coef0 >= 0 are Mercer kernels; any other kernel's
        # community is checked at every re-equilibration
        self._check_kernel = kernel_needs_check(self.kernel, self.coef0)
        self._community = Community(
            self._kernel_function(), self._kernel_diag, X.shape[1],
            rbf_gamma=self._gamma if self.kernel == "rbf" else None)
        self._pending_X, self._pending_y = [], []
        self._buf_X, self._buf_y, self._buf_i = [], [], []
        self._initialised = False
        self._n_pending = 0
        self._loose = False            # the last re-equilibration stopped at pass_tol
        self.b_ = 0.0
        self.n_seen_ = 0
        self.n_invasions_ = 0
        self.n_discarded_ = 0
        self.n_rescued_ = 0
        self.n_reequilibration_steps_ = 0
        self.n_kernel_evals_ = 0
        self.discarded_ = []

    # -- the algorithm ----------------------------------------------------
    def _initial_batch(self):
        Xp = np.vstack(self._pending_X)
        yp = np.asarray(self._pending_y)
        idx = np.arange(self.n_seen_ - len(yp), self.n_seen_)
        com = self._community
        com.append(Xp, yp, idx, rows=np.empty((len(yp), 0)))
        self.n_kernel_evals_ += len(yp) ** 2
        if self._check_kernel:
            check_psd(com.K, needed_by="the EcoSVM's dual")
        alpha, b = reequilibrate(com.K, com.y, self.C_, np.zeros(len(yp)),
                                 self.tol)
        com.set_alpha(alpha)
        com.keep(alpha > 0)
        self.b_ = float(b)
        self._pending_X, self._pending_y = [], []
        self._initialised = True

    def _equilibrate(self, final=False):
        """Re-equilibrate the community: to ``tol`` if ``final``, else to ``pass_tol``."""
        com = self._community
        self._n_pending = 0
        if self._check_kernel:
            check_psd(com.K, needed_by="the EcoSVM's dual")
        if not np.isfinite(self.C_):
            alpha, b = reequilibrate(com.K, com.y, self.C_, com.alpha.copy(),
                                     self.tol)
            com.set_alpha(alpha)
            com.keep(alpha > 0)
            self.b_ = float(b)
            return
        tol = self.tol if final or self.pass_tol is None else self.pass_tol
        # warm start: the stored abundances and gradient (invaders at 0)
        n_iter, gap, self.b_ = com.reequilibrate(self.C_, tol)
        self._loose = tol > self.tol
        self.n_reequilibration_steps_ += n_iter
        if not gap < tol:
            warnings.warn(f"re-equilibration stopped with gap {gap:.3g} >= tol",
                          ConvergenceWarning, stacklevel=2)

    def _equilibrate_with(self, Xnew, ynew, idx, rows):
        self._community.append(Xnew, ynew, idx, rows=rows)
        self._equilibrate()

    def _retest_buffer(self):
        com = self._community
        Xb = np.vstack(self._buf_X)
        yb = np.asarray(self._buf_y)
        ib = np.asarray(self._buf_i)
        rows = com.kernel_rows(Xb)
        self.n_kernel_evals_ += rows.size
        g = invasion_growth(rows, yb, com.alpha, com.y, self.b_)
        inv = g > self.invasion_threshold
        if inv.any():
            self.n_rescued_ += int(inv.sum())
            self._equilibrate_with(Xb[inv], yb[inv], ib[inv], rows[inv])
            if self.track_discards:
                rescued = set(ib[inv].tolist())
                self.discarded_ = [i for i in self.discarded_
                                   if i not in rescued]
        self._buf_X, self._buf_y, self._buf_i = [], [], []

    def _stream(self, X, y, whole=False):
        """Feed ``X`` point by point; ``whole`` (``fit``: the data end here) solves a
        batch smaller than ``n_start``, while ``partial_fit`` keeps waiting for
        ``n_start`` points as the source's initial batch does."""
        com = self._community
        rows = RowPrefetch(com, X)
        for t, (x, yi) in enumerate(zip(X, y)):
            i = self.n_seen_
            self.n_seen_ += 1
            if not self._initialised:
                self._pending_X.append(x[None, :])
                self._pending_y.append(yi)
                ys = self._pending_y
                if len(ys) >= self.n_start and min(ys) < 0 < max(ys):
                    self._initial_batch()
                continue
            row = rows.row(t)
            self.n_kernel_evals_ += row.shape[1]
            g = invasion_growth(row[0], yi, com.alpha, com.y, self.b_)
            if g > self.invasion_threshold:
                self.n_invasions_ += 1
                com.append(x[None, :], yi, i, rows=row)
                self.n_kernel_evals_ += 1
                self._n_pending += 1
                if self._n_pending >= self.reequilibrate_every:
                    self._equilibrate()
            else:
                self.n_discarded_ += 1
                if self.track_discards:
                    self.discarded_.append(i)
                if self.buffer_size:
                    self._buf_X.append(x[None, :])
                    self._buf_y.append(yi)
                    self._buf_i.append(i)
                    if len(self._buf_y) >= self.buffer_size:
                        self._retest_buffer()
        if whole and not self._initialised and self._pending_y and min(
                self._pending_y) < 0 < max(self._pending_y):
            # fit's data ended before n_start points: solve the batch it has
            self._initial_batch()
        if self._n_pending or self._loose:
            self._equilibrate(final=True)

    def _publish(self, X):
        """Expose the community as scikit-learn's fitted attributes."""
        com = self._community
        com.compact()
        # partial_fit before n_start points (or with one class only): no model yet
        self._waiting_ = None
        if not self._initialised and com.m == 0:
            k = len(self._pending_y)
            self._waiting_ = (
                f"EcoSVC has seen {k} point(s) with labels "
                f"{sorted(set(self._pending_y))}; its initial batch needs n_start = "
                f"{self.n_start} points of both classes: pass more points to "
                "partial_fit, lower n_start, or call fit (which solves the batch it has)")
        free = alpha_status(com.alpha, self.C_, 0.0) == FREE
        self.n_free_ = int(free.sum())
        self.n_bounded_ = int(com.m - free.sum())
        info = {"n_seen": self.n_seen_, "n_invasions": self.n_invasions_,
                "n_discarded": self.n_discarded_, "n_rescued": self.n_rescued_,
                "n_reequilibration_steps": self.n_reequilibration_steps_,
                "n_kernel_evals": self.n_kernel_evals_}
        return self._set_solution(com.X.copy(), com.y.copy(), com.alpha.copy(), self.b_,
                                  self.C_, info, K=com.K, index=com.idx.copy())

    # -- scikit-learn API -------------------------------------------------
    def fit(self, X, y) -> Self:
        """Stream the rows of ``X`` (in order) through the EcoSVM."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        classes, y_pm = labels_to_pm1(y)
        self._reset(X, classes)
        with _one_blas_thread():                    # the numbers: class docstring
            self._stream(X, y_pm, whole=True)
            return self._publish(X)

    def partial_fit(self, X, y, classes=None) -> Self:
        """Continue the stream with the rows of ``X``.

        ``classes`` (both labels) is required on the first call.
        """
        first = not hasattr(self, "_community")
        X, y = validate_data(self, X, y, dtype=np.float64, reset=first)
        if first:
            if classes is None:
                raise ValueError("classes must be passed on the first call "
                                 "to partial_fit")
            classes = np.unique(classes)
            if len(classes) != 2:
                raise ValueError("EcoSVC is a binary classifier: classes must "
                                 f"hold exactly two labels; got {classes}")
            self._reset(X, classes)
        elif classes is not None and not np.array_equal(
                np.unique(classes), self.classes_):
            raise ValueError("classes differ from the first call's "
                             f"{self.classes_.tolist()}")
        if not np.all(np.isin(y, self.classes_)):
            raise ValueError(f"y has labels outside classes "
                             f"{self.classes_.tolist()}")
        y_pm = np.where(y == self.classes_[1], 1.0, -1.0)
        with _one_blas_thread():
            self._stream(X, y_pm)
            return self._publish(X)

    def decision_function(self, X) -> np.ndarray:
        check_is_fitted(self, "support_")
        if getattr(self, "_waiting_", None):
            raise NotFittedError(self._waiting_)
        return super().decision_function(X)

    def predict(self, X) -> np.ndarray:
        check_is_fitted(self, "support_")
        return super().predict(X)
