r"""Kernels and Gram matrices (book: :ref:`sec-kernels`).

Every kernel here is a function ``k(X, Y) -> K`` with ``K[i, j] = k(x_i, y_j)``:

.. math::

    k_{\mathrm{lin}}(x, z) = \langle x, z\rangle, \qquad
    k_{\mathrm{poly}}(x, z) = (\gamma \langle x, z\rangle + c_0)^{d}, \qquad
    k_{\mathrm{rbf}}(x, z) = \exp(-\gamma \lVert x - z\rVert^2).

The parameter names (``gamma``, ``degree``, ``coef0``) and the ``gamma='scale'``
default are scikit-learn's, so ``SVC(kernel='rbf', gamma=g)`` and ours agree.
"""
from __future__ import annotations

from functools import partial
from collections.abc import Callable

import numpy as np

__all__ = [
    "linear_kernel", "polynomial_kernel", "rbf_kernel", "resolve_gamma",
    "squared_distances", "get_kernel", "gram", "kernel_diag", "check_psd", "KERNELS",
]


def _as_float(X):
    """``X`` as a float array (float32 kept: SMO's single-precision columns)."""
    X = np.asarray(X)
    return X if X.dtype in (np.float32, np.float64) else X.astype(float)


def _as_pair(X, Y):
    X = _as_float(X)
    Y = X if Y is None else _as_float(Y)
    if X.ndim != 2 or Y.ndim != 2:
        raise ValueError(f"kernel inputs must be 2-D arrays; got shapes {X.shape} and {Y.shape}")
    if X.shape[1] != Y.shape[1]:
        raise ValueError(
            f"kernel inputs have different numbers of features: {X.shape[1]} and {Y.shape[1]}")
    return X, Y


def linear_kernel(X, Y=None) -> np.ndarray:
    r"""Linear kernel :math:`K_{ij} = \langle x_i, y_j \rangle`."""
    X, Y = _as_pair(X, Y)
    return X @ Y.T


def polynomial_kernel(X, Y=None, degree=3, gamma=1.0, coef0=0.0) -> np.ndarray:
    r"""Polynomial kernel :math:`K_{ij} = (\gamma \langle x_i, y_j\rangle + c_0)^d`.

    Defaults as scikit-learn's and :func:`get_kernel`'s (``coef0=0``: homogeneous).

    With ``degree=2, gamma=1, coef0=0`` this is the inner product of the degree-2
    feature map :math:`\phi(x) = (x_1^2, x_2^2, x_3^2, \sqrt2 x_1x_2, \sqrt2 x_1x_3,
    \sqrt2 x_2x_3)` of the book's kernel-trick example on :math:`\mathbb R^3`.
    """
    X, Y = _as_pair(X, Y)
    return (gamma * (X @ Y.T) + coef0) ** degree


def squared_distances(X, Y=None, Y_sq=None, X_sq=None) -> np.ndarray:
    r""":math:`D_{ij} = \lVert x_i - y_j \rVert^2`, computed with one matrix product.

    ``X_sq``, ``Y_sq`` may hold the squared norms :math:`\lVert x_i \rVert^2`,
    :math:`\lVert y_j \rVert^2` when they are already known (a learner that keeps its
    support vectors keeps their norms). One row of ``Y`` is a matrix-vector product.
    """
    X, Y = _as_pair(X, Y)
    if X_sq is None:
        X_sq = (X * X).sum(1)
    if Y_sq is None:
        Y_sq = (Y * Y).sum(1)
    D = (X @ Y[0])[:, None] if len(Y) == 1 < len(X) else X @ Y.T   # one column: gemv
    D *= -2.0
    D += X_sq[:, None] + Y_sq[None, :]
    return np.maximum(D, 0.0, out=D)


def rbf_kernel(X, Y=None, gamma=1.0, Y_sq=None, X_sq=None) -> np.ndarray:
    r"""Gaussian (RBF) kernel :math:`K_{ij} = \exp(-\gamma \lVert x_i - y_j \rVert^2)`."""
    D = squared_distances(X, Y, Y_sq, X_sq)
    return np.exp(-gamma * D, out=D)


KERNELS = {"linear": linear_kernel, "poly": polynomial_kernel, "rbf": rbf_kernel}


def resolve_gamma(gamma, X) -> float:
    r"""Turn scikit-learn's ``'scale'`` / ``'auto'`` into a number.

    ``'scale'`` is :math:`1 / (p \operatorname{Var}(X))`, ``'auto'`` is :math:`1/p`
    for :math:`p` features.
    """
    X = np.asarray(X, dtype=float)
    if isinstance(gamma, str):
        if gamma == "scale":
            var = X.var()
            return 1.0 / (X.shape[1] * var) if var > 0 else 1.0
        if gamma == "auto":
            return 1.0 / X.shape[1]
        raise ValueError(f"gamma must be a positive number, 'scale' or 'auto'; got {gamma!r}")
    gamma = float(gamma)
    if not gamma > 0:
        raise ValueError(f"gamma must be positive; got {gamma}")
    return gamma


def get_kernel(kernel="rbf", *, gamma=1.0, degree=3, coef0=0.0) -> Callable:
    """Return ``k(X, Y=None) -> K`` for a kernel name or a callable.

    Parameters
    ----------
    kernel : {'linear', 'poly', 'rbf'} or callable
        A callable is returned unchanged; it must map ``(X, Y)`` to the Gram matrix.
    gamma, degree, coef0 : float
        Kernel parameters (``gamma`` already resolved, see :func:`resolve_gamma`).
    """
    if callable(kernel):
        return kernel
    if kernel == "linear":
        return linear_kernel
    if kernel == "rbf":
        return partial(rbf_kernel, gamma=gamma)
    if kernel == "poly":
        return partial(polynomial_kernel, degree=degree, gamma=gamma, coef0=coef0)
    raise ValueError(f"unknown kernel {kernel!r}; expected one of {sorted(KERNELS)} or a callable")


def gram(X, Y=None, kernel="rbf", **params) -> np.ndarray:
    """Gram matrix ``K[i, j] = k(x_i, y_j)`` for a named kernel or a callable."""
    return get_kernel(kernel, **params)(X, Y)


def kernel_diag(X, kernel="rbf", **params) -> np.ndarray:
    r"""The diagonal :math:`k(x_i, x_i)` without forming the full Gram matrix."""
    X = np.asarray(X, dtype=float)
    if kernel == "rbf":
        return np.ones(len(X))
    if kernel == "linear":
        return np.einsum("ij,ij->i", X, X)
    if kernel == "poly":
        p = {"degree": 3, "gamma": 1.0, "coef0": 0.0} | params
        return (p["gamma"] * np.einsum("ij,ij->i", X, X) + p["coef0"]) ** p["degree"]
    k = get_kernel(kernel, **params)
    return np.array([k(x[None, :], x[None, :])[0, 0] for x in X])


def check_psd(K, tol=1e-8, name="kernel matrix", *, orthogonal_to=None, needed_by="the SVM dual") -> None:
    r"""Raise ``ValueError`` unless ``K`` is symmetric positive semi-definite; return ``None``.

    Mercer's condition for a finite sample: every Gram matrix of a valid kernel
    satisfies :math:`c^\top K c \ge 0` for all :math:`c`. The test allows a smallest
    eigenvalue as low as ``-tol * max(1, |lambda_max|)`` for rounding (and an asymmetry
    of :math:`10^{-10}\max(1, \max_{ij}|K_{ij}|)`).

    The one helper of every solver whose problem must be convex (book: :ref:`sec-qp`).
    With ``orthogonal_to`` (a vector :math:`a`, or rows :math:`A`) only *conditional*
    positive semi-definiteness is required: :math:`c^\top K c \ge 0` for every
    :math:`c` with :math:`A c = 0` (e.g. neutral charges, :math:`\sum_i c_i = 0`), the
    eigenvalues of :math:`Z^\top K Z` for an orthonormal basis :math:`Z` of that
    subspace. ``needed_by`` names the problem in the message.
    """
    K = np.asarray(K, dtype=float)
    if K.ndim != 2 or K.shape[0] != K.shape[1]:
        raise ValueError(f"{name} must be square; got shape {K.shape}")
    if not np.all(np.isfinite(K)):
        raise ValueError(f"{name} contains NaN or infinite entries")
    if not np.allclose(K, K.T, atol=1e-10 * max(1.0, np.abs(K).max(initial=0.0))):
        raise ValueError(f"{name} is not symmetric")
    S = (K + K.T) / 2
    where = ""
    if orthogonal_to is not None:
        A = np.atleast_2d(np.asarray(orthogonal_to, dtype=float))
        Q, _ = np.linalg.qr(np.hstack([A.T, np.eye(len(K))]))   # first rows(A) columns span A^T
        Z = Q[:, np.linalg.matrix_rank(A):]
        S = Z.T @ S @ Z
        where = " on the subspace orthogonal to the constraint"
    lam = np.linalg.eigvalsh(S) if len(S) else np.zeros(1)
    if lam[0] < -tol * max(1.0, abs(lam[-1])):
        raise ValueError(
            f"{name} is not positive semi-definite{where} (smallest eigenvalue {lam[0]:.3g}, "
            f"largest {lam[-1]:.3g}); {needed_by} needs a Mercer (PSD) kernel to be convex: "
            "use 'linear', 'poly' or 'rbf', or a callable kernel whose Gram matrices are PSD")
