r"""Checks of the inputs every solver shares: one place for each rule.

A bad input raises ``ValueError`` naming what was wrong. The dual problems are
those of the SVM (book: :ref:`sec-qp`),
:math:`\max_\alpha W(\alpha)` s.t. :math:`y^\top\alpha = 0,\ 0 \le \alpha_k \le C`,
and of SVDD (:math:`\sum_k \alpha_k = 1`).
"""
from __future__ import annotations

import numbers

import numpy as np

from .kernels import check_psd
from .kkt import LOWER, UPPER, alpha_status

__all__ = ["check_C", "check_tol", "check_labels", "check_gram", "check_dual_problem",
           "check_warm_start", "check_psd", "check_kernel_psd", "kernel_needs_check"]


def check_C(C, *, finite=False) -> float:
    """The box constant: a positive number, or ``inf``/``None`` (hard margin) unless ``finite``."""
    if C is None:
        C = np.inf
    if not isinstance(C, numbers.Real) or isinstance(C, bool) or np.isnan(C) or C <= 0:
        raise ValueError(f"C must be a positive number (or inf for the hard margin); got {C!r}")
    if finite and not np.isfinite(C):
        raise ValueError(f"this solver needs a finite positive C; got {C!r}")
    return float(C)


def check_tol(tol, name="tol") -> float:
    """A positive finite tolerance."""
    if isinstance(tol, bool) or not isinstance(tol, numbers.Real) or not 0 < tol < np.inf:
        raise ValueError(f"{name} must be a positive number; got {tol!r}")
    return float(tol)


def check_labels(y, n=None) -> np.ndarray:
    """Labels of a binary dual problem: finite, only -1 and +1, both present, ``n`` of them."""
    y = np.asarray(y, dtype=float).ravel()
    if n is not None and len(y) != n:
        raise ValueError(f"y has {len(y)} labels but the kernel has {n} rows "
                         f"(shape ({n}, {n}))")
    if not np.all((y == 1.0) | (y == -1.0)):
        raise ValueError("y must contain only the labels -1 and +1")
    if not ((y > 0).any() and (y < 0).any()):
        raise ValueError("y contains only one class; an SVM needs both -1 and +1")
    return y


def check_gram(K, name="K", dtype=float) -> np.ndarray:
    """A square, finite Gram matrix."""
    K = np.asarray(K, dtype=dtype)
    if K.ndim != 2 or K.shape[0] != K.shape[1]:
        raise ValueError(f"{name} must be a square n x n Gram matrix; got shape {K.shape}")
    if not np.all(np.isfinite(K)):
        raise ValueError(f"{name} contains NaN or infinite entries")
    return K


def check_dual_problem(K, y) -> tuple:
    """``K`` n x n and finite, ``y`` of -1/+1 with both classes and ``len(y) = n``."""
    K = check_gram(K)
    return K, check_labels(y, len(K))


def check_warm_start(alpha0, y, C, total=0.0) -> np.ndarray:
    r"""A feasible start: :math:`0 \le \alpha_k \le C`, :math:`y^\top\alpha =` ``total``.

    Values within :math:`10^{-12} C` of a bound are put on it (the solvers' steps land
    exactly on bounds, and their status is read from the values).
    """
    n = len(y)
    alpha = np.array(alpha0, dtype=float).ravel()
    if alpha.shape != (n,) or not np.all(np.isfinite(alpha)):
        raise ValueError(f"alpha0 must be a finite array of length {n}")
    eps = 1e-12 * C
    if np.any(alpha < -eps) or np.any(alpha > C + eps):
        raise ValueError("alpha0 is not feasible: every alpha_i must lie in [0, C]")
    status = alpha_status(alpha, C, eps)
    alpha = np.where(status == LOWER, 0.0, np.where(status == UPPER, C, alpha))
    if abs(alpha @ y - total) > 1e-9 * max(1.0, float(np.max(C)) * n):
        raise ValueError(f"alpha0 is not feasible: y^T alpha0 = {alpha @ y:.3g} != {total:g}")
    return alpha


def kernel_needs_check(kernel, coef0=0.0) -> bool:
    """True unless ``kernel`` is a built-in Mercer kernel ('linear', 'rbf', 'poly' with
    ``coef0 >= 0``): callables, 'precomputed' and a polynomial with ``coef0 < 0`` may be
    indefinite."""
    return not (kernel in ("linear", "rbf") or (kernel == "poly" and coef0 >= 0))


def check_kernel_psd(K_or_kernel, X=None, *, needed_by, max_rows=300) -> None:
    """:func:`check_psd` on the Gram matrix of the first ``max_rows`` training points.

    ``K_or_kernel`` is a kernel function (then ``X`` is the data) or a precomputed Gram
    matrix. A principal submatrix of a positive semi-definite matrix is positive
    semi-definite, so a negative eigenvalue here proves the kernel indefinite, for the
    cost of one ``max_rows`` x ``max_rows`` eigen-decomposition whatever ``n``. The
    tolerance, :math:`10^{-6}` of the largest eigenvalue, admits a Gram matrix computed
    from single-precision data.
    """
    if callable(K_or_kernel):
        Xm = X[:max_rows]
        K, m = K_or_kernel(Xm, Xm), len(Xm)
    else:
        m = min(max_rows, len(K_or_kernel))
        K = np.asarray(K_or_kernel)[:m, :m]
    check_psd(K, tol=1e-6, name=f"the kernel's Gram matrix on the first {m} training points",
              needed_by=needed_by)
