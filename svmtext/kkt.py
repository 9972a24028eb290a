r"""The Karush--Kuhn--Tucker conditions of the SVM (book: :ref:`sec-kkt`).

For the soft-margin primal
:math:`\min \tfrac12\lVert w\rVert^2 + C\sum_i \xi_i` s.t.
:math:`y_i f(x_i) \ge 1 - \xi_i,\ \xi_i \ge 0`, with multipliers :math:`\alpha_i`
(margin constraints) and :math:`\mu_i = C - \alpha_i` (slacks), the KKT conditions are

* stationarity: :math:`w = \sum_i \alpha_i y_i \phi(x_i)`, :math:`\sum_i \alpha_i y_i = 0`,
  :math:`C - \alpha_i - \mu_i = 0`;
* primal feasibility: :math:`y_i f(x_i) \ge 1 - \xi_i`, :math:`\xi_i \ge 0`;
* dual feasibility: :math:`\alpha_i \ge 0`, :math:`\mu_i = C - \alpha_i \ge 0`;
* complementary slackness: :math:`\alpha_i (y_i f(x_i) - 1 + \xi_i) = 0`, :math:`(C - \alpha_i)\xi_i = 0`.

Given :math:`(\alpha, b)` the slacks are taken at their best values
:math:`\xi_i = \max(0, 1 - y_i f(x_i))` (soft margin) or :math:`0` (hard margin).
Every later chapter checks its solver with :func:`kkt_residuals`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import math

import numpy as np

__all__ = ["KKTResiduals", "kkt_residuals", "intercept_from_alpha", "bias_from_gradient", "bias_interval",
           "free_and_bounded", "dual_objective_from_coef", "alpha_status", "bound_tol", "in_up", "in_low",
           "LOWER", "FREE", "UPPER", "BIAS_RTOL", "bias_tol"]


@dataclass
class KKTResiduals:
    """Residual of every KKT condition (all zero exactly at an optimum)."""

    stationarity_b: float        # |sum_i alpha_i y_i|
    stationarity_w: float        # ||w - sum_i alpha_i y_i x_i|| (0 when w is implied by alpha)
    primal_feasibility: np.ndarray   # max(0, 1 - xi_i - y_i f_i)
    dual_feasibility: np.ndarray     # max(0, -alpha_i) + max(0, alpha_i - C)
    slackness_margin: np.ndarray     # |alpha_i (y_i f_i - 1 + xi_i)|
    slackness_box: np.ndarray        # |(C - alpha_i) xi_i|
    margins: np.ndarray = field(repr=False)   # y_i f(x_i)

    @property
    def max_violation(self) -> float:
        """The largest residual over all conditions and points."""
        parts = [self.stationarity_b, self.stationarity_w]
        for a in (self.primal_feasibility, self.dual_feasibility,
                  self.slackness_margin, self.slackness_box):
            parts.append(float(np.max(a, initial=0.0)))
        return float(max(parts))

    def as_dict(self) -> dict:
        """The maximum residual of each condition, by name."""
        return {
            "stationarity_b": self.stationarity_b,
            "stationarity_w": self.stationarity_w,
            "primal_feasibility": float(np.max(self.primal_feasibility, initial=0.0)),
            "dual_feasibility": float(np.max(self.dual_feasibility, initial=0.0)),
            "complementary_slackness": float(max(np.max(self.slackness_margin, initial=0.0),
                                                 np.max(self.slackness_box, initial=0.0))),
        }


def _check(alpha, K, y, C):
    alpha = np.asarray(alpha, dtype=float)
    K = np.asarray(K, dtype=float)
    y = np.asarray(y, dtype=float)
    n = len(y)
    if alpha.shape != (n,) or K.shape != (n, n):
        raise ValueError(f"shapes do not match: alpha {alpha.shape}, K {K.shape}, y {y.shape}")
    if not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError("y must contain only the labels -1 and +1")
    C = np.inf if C is None else float(C)
    return alpha, K, y, C


def dual_objective_from_coef(dual_coef, K_SS=None, *, Kv=None) -> float:
    r"""The dual objective :math:`W(\alpha)` from the coefficients :math:`v_i = \alpha_i y_i`.

    .. math::

        W(\alpha) = \sum_i \alpha_i - \tfrac12 \sum_{i,j} v_i v_j K_{ij}
        = \sum_i \lvert v_i\rvert - \tfrac12 v^\top K v \qquad (\alpha_i \ge 0),

    the maximised objective (book: :ref:`sec-qp`; LIBSVM minimises :math:`-W`). Pass the
    Gram matrix ``K_SS`` of the support vectors, or ``Kv`` :math:`= K v` when a solver
    already has it (SMO: :math:`(Kv)_k = y_k + y_k G_k`). ``dual_coef`` may be scikit-learn's
    ``dual_coef_`` (shape ``(1, n_SV)``): every estimator reports this value as
    ``fit_info_["dual_objective"]``.
    """
    v = np.asarray(dual_coef, dtype=float).ravel()
    if Kv is None:
        Kv = np.asarray(K_SS, dtype=float) @ v
    return float(np.abs(v).sum() - 0.5 * v @ np.asarray(Kv, dtype=float).ravel())


def kkt_residuals(alpha, b, K, y, C=None, *, w=None, X=None) -> KKTResiduals:
    r"""Every KKT residual of :math:`(\alpha, b)` for the SVM with Gram matrix ``K``.

    Parameters
    ----------
    alpha : (n,) array
        Dual variables.
    b : float
        Bias, :math:`f(x) = \sum_j \alpha_j y_j K(x_j, x) + b`.
    K : (n, n) array
        Gram matrix.
    y : (n,) array of -1/+1
    C : float or None
        Box constant; ``None`` or ``inf`` for the hard margin.
    w, X : arrays, optional
        A primal weight vector and the data (linear kernel): then the stationarity
        residual :math:`\lVert w - \sum_i \alpha_i y_i x_i \rVert` is reported too.
    """
    alpha, K, y, C = _check(alpha, K, y, C)
    f = K @ (alpha * y) + b
    m = y * f
    xi = np.zeros_like(m) if np.isinf(C) else np.maximum(0.0, 1.0 - m)
    st_w = 0.0
    if w is not None:
        if X is None:
            raise ValueError("pass X together with w to check stationarity in w")
        st_w = float(np.linalg.norm(np.asarray(w) - np.asarray(X).T @ (alpha * y)))
    box = np.maximum(0.0, alpha - C) if np.isfinite(C) else np.zeros_like(alpha)
    return KKTResiduals(
        stationarity_b=float(abs(alpha @ y)),
        stationarity_w=st_w,
        primal_feasibility=np.maximum(0.0, 1.0 - xi - m),
        dual_feasibility=np.maximum(0.0, -alpha) + box,
        slackness_margin=np.abs(alpha * (m - 1.0 + xi)),
        slackness_box=np.abs((C - alpha) * xi) if np.isfinite(C) else np.zeros_like(alpha),
        margins=m,
    )


LOWER, FREE, UPPER = -1, 0, 1
"""The status of a multiplier: :math:`\alpha_t = 0`, :math:`0 < \alpha_t < C`, :math:`\alpha_t = C`."""


def bound_tol(alpha, C=None) -> float:
    r"""The distance to a bound under which :math:`\alpha_k` counts as at it.

    :math:`10^{-8}\max(1, C)` for a finite ``C``, :math:`10^{-8}\max(1, \max_k \alpha_k)`
    for the hard margin: the book's one rule for solutions that need not land exactly on
    a bound (interior point, ODE). Solvers that do land on bounds (SMO) use 0.
    """
    C = np.inf if C is None else C
    if np.ndim(C):              # per-sample bounds C_k
        C = np.asarray(C, dtype=float)
        return 1e-8 * np.maximum(1.0, np.where(np.isfinite(C), C, np.max(alpha, initial=1.0)))
    C = float(C)
    return 1e-8 * max(1.0, C if np.isfinite(C) else float(np.max(alpha, initial=1.0)))


def alpha_status(alpha, C=None, tol=None) -> np.ndarray:
    r"""``LOWER`` (-1), ``FREE`` (0) or ``UPPER`` (+1) for each :math:`\alpha_k`.

    ``LOWER`` when :math:`\alpha_k \le` ``tol``, ``UPPER`` when :math:`\alpha_k \ge C -`
    ``tol``; ``tol`` defaults to :func:`bound_tol`. ``C`` may be one number or an array
    of per-sample bounds :math:`C_k`. The index sets of the optimality
    conditions follow from the status alone (:func:`in_up`, :func:`in_low`).
    """
    alpha = np.asarray(alpha, dtype=float)
    C = np.inf if C is None else C
    C = np.asarray(C, dtype=float) if np.ndim(C) else float(C)
    if tol is None:
        tol = bound_tol(alpha, C)
    status = np.where(alpha <= tol, LOWER, FREE).astype(np.int8)
    if np.ndim(C):
        status[(alpha >= C - tol) & (alpha > tol) & np.isfinite(C)] = UPPER
    elif np.isfinite(C):
        status[(alpha >= C - tol) & (alpha > tol)] = UPPER
    return status


def in_up(y, status) -> np.ndarray | bool:
    r""":math:`k \in I_{up}`: :math:`y_k\alpha_k` may grow (:math:`y_k = +1, \alpha_k < C` or
    :math:`y_k = -1, \alpha_k > 0`). With status in {-1, 0, +1}: ``status != y``.

    Works on scalars and arrays alike (the compiled SMO core uses the same function).
    """
    return status != y


def in_low(y, status) -> np.ndarray | bool:
    r""":math:`k \in I_{low}`: :math:`y_k\alpha_k` may shrink (:math:`y_k = +1, \alpha_k > 0` or
    :math:`y_k = -1, \alpha_k < C`). With status in {-1, 0, +1}: ``status != -y``."""
    return status != -y


def free_and_bounded(alpha, C=None, tol=None) -> tuple:
    r"""Boolean masks of free (:math:`0 < \alpha_i < C`) and bounded (:math:`\alpha_i = C`) SVs.

    ``tol`` defaults to :func:`bound_tol` (see :func:`alpha_status`).
    """
    status = alpha_status(alpha, C, tol)
    return status == FREE, status == UPPER


BIAS_RTOL = 1e-12
r"""The bias rules' bound test: :math:`\alpha_k` within ``BIAS_RTOL`` :math:`C_k` of a bound
counts as at it (:func:`bias_tol`)."""


def bias_tol(alpha, C=None) -> np.ndarray | float:
    r"""The distance to a bound under which the bias rules count :math:`\alpha_k` as at it:
    :math:`10^{-12} C_k` (:data:`BIAS_RTOL`; :math:`10^{-12}\max_k \alpha_k` for the hard
    margin).

    Solvers that land exactly on the bounds (SMO) still leave a multiplier a few
    rounding errors short of one now and then (Platt's rule: :math:`C - 5.6\cdot 10^{-17}`
    at :math:`C = 0.21`); counted as free, it alone would set :math:`b`. The test is
    relative to :math:`C`, the scale of the multipliers, and every bias computation uses
    it (:func:`bias_from_gradient`, the compiled :func:`svmtext.smo._core.bias`).
    """
    C = np.inf if C is None else C
    if np.ndim(C):
        C = np.asarray(C, dtype=float)
        return BIAS_RTOL * np.where(np.isfinite(C), C, np.max(alpha, initial=0.0))
    C = float(C)
    return BIAS_RTOL * (C if np.isfinite(C) else float(np.max(alpha, initial=0.0)))


def bias_interval(minus_yG, alpha, y, C=None, tol=None) -> tuple:
    r"""The interval :math:`[m(\alpha), M(\alpha)]` of biases the KKT conditions allow.

    With LIBSVM's gradient :math:`G = Q\alpha - e` and
    :math:`-y_k G_k = y_k - \sum_j \alpha_j y_j K_{kj}` (``minus_yG``),

    .. math::

        m(\alpha) = \max_{k \in I_{up}} -y_k G_k, \qquad
        M(\alpha) = \min_{k \in I_{low}} -y_k G_k,

    and at an optimum every :math:`b \in [m, M]` satisfies them (book:
    :ref:`sec-dual-bias`, eq. ``eq-bias-interval``). An empty index set gives an
    infinite end. ``tol`` is the distance to a bound under which :math:`\alpha_k` counts
    as at it (default :func:`bias_tol`, :math:`10^{-12} C`).
    """
    minus_yG, alpha, y = (np.asarray(v, dtype=float) for v in (minus_yG, alpha, y))
    status = alpha_status(alpha, C, bias_tol(alpha, C) if tol is None else tol)
    m = float(np.max(minus_yG[in_up(y, status)], initial=-np.inf))
    M = float(np.min(minus_yG[in_low(y, status)], initial=np.inf))
    return m, M


def bias_from_gradient(minus_yG, alpha, y, C=None, tol=None) -> float:
    r"""The bias :math:`b = -\rho` from :math:`-y_k G_k = y_k - \sum_j \alpha_j y_j K_{kj}`.

    A free support vector has :math:`y_k f(x_k) = 1`, i.e. :math:`b = -y_k G_k`: the
    mean over the free set is returned. Without free vectors the optimality conditions
    only bound :math:`b` to :func:`bias_interval` :math:`[m(\alpha), M(\alpha)]`, and
    its midpoint is returned (LIBSVM's rule; book: :ref:`sec-dual-bias`).
    ``tol`` is the distance to a bound under which :math:`\alpha_k` counts as at it
    (default :func:`bias_tol`, :math:`10^{-12} C`: the one rule of every bias computation,
    compiled as :func:`svmtext.smo._core.bias`).
    """
    minus_yG, alpha, y = (np.asarray(v, dtype=float) for v in (minus_yG, alpha, y))
    if isinstance(C, float) and math.isfinite(C) and tol is None:
        # one finite C (the solvers' usual case): alpha_status's FREE in two comparisons,
        # tol < alpha < C - tol (for alpha > tol, "not at C" is alpha < C - tol; NaN
        # counts as free there too)
        tol = BIAS_RTOL * C                                  # bias_tol
        free = ~(alpha <= tol) & ~(alpha >= C - tol)
    else:
        if tol is None:
            tol = bias_tol(alpha, C)
        free = alpha_status(alpha, C, tol) == FREE
    on_free = minus_yG[free]
    if len(on_free):                    # their mean: NumPy's pairwise sum over the count
        return float(on_free.sum() / len(on_free))
    m, M = bias_interval(minus_yG, alpha, y, C, tol)
    if np.isfinite(m) and np.isfinite(M):
        return 0.5 * (m + M)
    return m if np.isfinite(m) else M if np.isfinite(M) else 0.0


def intercept_from_alpha(alpha, K, y, C=None, tol=None) -> float:
    r"""The bias :math:`b` implied by the KKT conditions for a dual solution ``alpha``.

    With :math:`-y_i G_i = y_i - \sum_j \alpha_j y_j K_{ij}`, every free support vector
    satisfies :math:`y_i f(x_i) = 1`, i.e. :math:`b = -y_i G_i`; the mean over the free
    set is returned. Without free support vectors, the conditions
    :math:`y_i f(x_i) \ge 1` (:math:`\alpha_i = 0`) and :math:`\le 1`
    (:math:`\alpha_i = C`) only bound :math:`b` to an interval, and its midpoint is
    returned (see :func:`bias_from_gradient`). ``tol`` defaults to that of
    :func:`free_and_bounded`.
    """
    alpha, K, y, C = _check(alpha, K, y, C)
    if tol is None:
        tol = bound_tol(alpha, C)
    return bias_from_gradient(y - K @ (alpha * y), alpha, y, C, tol)
