r"""Kernels from physics: coefficients of potential of charged conductors
(book: :ref:`sec-coulomb-kernels`).

An isotropic kernel :math:`k(a, b) = g(\lVert a - b\rVert^2)` gives the
coefficients of potential :math:`P_{ij} = g(\lVert x_i - x_j\rVert^2)` of conductors
at :math:`x_1, \dots, x_n`; the self-potential of conductor :math:`i` is that of a
sphere of radius :math:`a_i`, :math:`P_{ii} = g(a_i^2)`, with
:math:`\delta_i = \min\{\lVert x_i - x_j\rVert : x_j \ne x_i\}` the distance to its nearest
distinct neighbour (the source's :math:`r_i`; a repeated point is skipped, so two
coincident conductors get the same radius and :math:`P_{ij} = g(a_i^2)`) and

* ``self_potential='nearest'`` (the source's): :math:`a_i = \delta_i`, a sphere that reaches
  its neighbour's centre;
* ``'shell'`` (the book's): :math:`a_i = \delta_i/2`, spheres that at most touch. For the
  Coulomb potential :math:`P` is then the energy matrix of uniformly charged shells
  (shell theorem and mean-value property) and positive definite (for :math:`d \le 2`
  on neutral charges); book: :ref:`sec-coulomb-shell`;
* ``'centre'``: :math:`a_i = 0`, :math:`P_{ii} = g(0)` (finite profiles only).

Inside its sphere the potential of a conductor is constant, so the potential at any
point :math:`x` due to conductor :math:`j` is

.. math::

    k_j(x) = g\bigl(\max(\lVert x - x_j\rVert^2,\ a_j^2)\bigr),

which reproduces :math:`P` on the conductors themselves. Three profiles:

.. math::

    g_{\mathrm{Coulomb}}(z) = z^{1 - d/2}\ (d \ge 3),\quad -\tfrac12\ln z\ (d = 2),
    \quad -\sqrt z\ (d = 1), \qquad
    g_{\mathrm{Plummer}}(z) = (z + \ell^2)^{-\chi/2}, \qquad
    g_{\mathrm{bridge}}(z) = (c - z/2)^{\chi},\ c \ge c_0 = \tfrac12\max_{i,j}\lVert x_i - x_j\rVert^2 .

Each kernel object is a callable ``k(X, Y=None)`` usable as the ``kernel`` of any
scikit-learn estimator: the conductors are the rows of ``Y`` (of ``X`` when ``Y`` is
None), and every data-dependent quantity (the radii :math:`r_j`, the bridge's
:math:`c_0`) is computed from them, so ``SVC(kernel=Plummer())`` sees the same
:math:`P` when it fits and the same potentials when it predicts.

References
----------
Hochreiter, S. and Mozer, M. C. (2001). Coulomb classifiers: reinterpreting SVMs as
electrostatic systems. Technical Report CU-CS-921-01, University of Colorado.
"""
from __future__ import annotations

import warnings
from dataclasses import InitVar, dataclass, replace
from numbers import Integral, Real

import numpy as np
from scipy.spatial.distance import pdist, squareform

from ..kernels import squared_distances

__all__ = ["Coulomb", "Plummer", "Bridge", "nearest_sq_distances", "bridge_c0",
           "potential_matrix", "scale_self_potential", "neutral_min_eigenvalue",
           "neutral_eigenvalues", "SELF_POTENTIALS"]

#: Self-potential rules: conductor radius delta_i (the source's r_i), delta_i/2 (shells), 0.
SELF_POTENTIALS = ("nearest", "shell", "centre")


def nearest_sq_distances(Y) -> np.ndarray:
    r""":math:`\delta_j^2 = \min_{k \ne j,\ x_k \ne x_j}\lVert x_j - x_k\rVert^2`, the squared
    radius of conductor :math:`j` (duplicates are skipped; a lone point gets 1)."""
    # differences, not the Gram identity: a point's distance to itself and to its
    # copies is then exactly 0 (the identity leaves rounding residues ~1e-16 that would
    # make a conductor its own nearest neighbour, P_jj = g(~0))
    Y = np.asarray(Y, dtype=float)
    D = squareform(pdist(Y, "sqeuclidean")) if len(Y) > 1 else np.zeros((len(Y), len(Y)))
    D[D <= 0] = np.inf
    r2 = D.min(axis=1) if len(D) else np.zeros(0)
    return np.where(np.isfinite(r2), r2, 1.0)


def bridge_c0(X) -> float:
    r""":math:`c_0 = \max\{z/2 : z = \lVert x_i - x_j\rVert^2 \text{ or } z = \delta_i^2\}`
    (the source's definition; the maximum is a pairwise distance)."""
    return 0.5 * float(squared_distances(X).max(initial=0.0))


class _PhysicsKernel:
    """Shared machinery: ``g`` applied to ``max(distance^2, a_j^2)``."""

    self_potential: str

    def g(self, z):  # pragma: no cover - abstract
        raise NotImplementedError

    def resolve(self, X):
        """The kernel with its data-dependent parameters fixed from the training set ``X``."""
        return self

    def _check_self_potential(self):
        if self.self_potential not in SELF_POTENTIALS:
            raise ValueError("self_potential must be 'nearest' (P_ii = g(r_i^2)), 'shell' "
                             "(P_ii = g(r_i^2/4), touching spheres) or 'centre' (P_ii = g(0)); "
                             f"got {self.self_potential!r}")

    def radii2(self, Y):
        r"""Squared conductor radii :math:`a_j^2` of the rows of ``Y``: :math:`\delta_j^2`
        (``'nearest'``), :math:`\delta_j^2/4` (``'shell'``) or 0 (``'centre'``)."""
        Y = np.asarray(Y, float)
        if self.self_potential == "centre":
            return np.zeros(len(Y))
        r2 = nearest_sq_distances(Y)
        return r2 / 4 if self.self_potential == "shell" else r2

    def matrix(self, X, Y, r2_Y):
        r""":math:`G_{ij} = g(\max(\lVert x_i - y_j\rVert^2, r_j^2))` for given radii of ``Y``."""
        D = squared_distances(X, Y)
        return self.g(np.maximum(D, np.asarray(r2_Y)[None, :]))

    def __call__(self, X, Y=None):
        k = self.resolve(np.asarray(X, float) if Y is None else np.asarray(Y, float))
        Y = X if Y is None else Y
        return k.matrix(X, Y, k.radii2(Y))


@dataclass(frozen=True)
class Coulomb(_PhysicsKernel):
    r"""The Coulomb potential of a unit charge in :math:`d` dimensions (the fundamental
    solution of Laplace's equation, up to a positive factor):

    .. math::

        g(z) = z^{1 - d/2}\ (d \ge 3), \qquad g(z) = -\tfrac12\ln z = -\ln r\ (d = 2),
        \qquad g(z) = -\sqrt z = -\lvert r\rvert\ (d = 1),

    with :math:`z = r^2`. ``dim=None`` takes :math:`d` = the number of features of the
    conductors (the rows the kernel is fitted on): the potential is harmonic, and the
    shell theorem holds, only in the space's own dimension. The self-potential is
    ``'nearest'`` (the source's, :math:`P_{ii} = g(\delta_i^2)`) or ``'shell'``
    (:math:`P_{ii} = g(\delta_i^2/4)`, touching shells: positive definite, for
    :math:`d \le 2` on neutral charges); :math:`g(0)` is infinite.
    Book: :ref:`sec-coulomb-kernels`, :ref:`sec-coulomb-shell`.
    """

    dim: int | None = None
    self_potential: str = "nearest"

    def __post_init__(self):
        self._check_self_potential()
        if self.self_potential == "centre":
            raise ValueError("the Coulomb potential is infinite at distance 0: its "
                             "self_potential must be 'nearest' or 'shell'")
        if self.dim is not None and (isinstance(self.dim, bool)
                                     or not (isinstance(self.dim, Integral) and self.dim >= 1)):
            raise ValueError(f"dim must be a positive integer or None (the number of "
                             f"features); got {self.dim!r}")

    def resolve(self, X) -> Coulomb:
        if self.dim is not None:
            return self
        if np.ndim(X) != 2 or np.shape(X)[1] < 1:
            raise ValueError("Coulomb(dim=None) takes d from the data, which must be a 2-D "
                             f"array with at least one feature; got shape {np.shape(X)}")
        return replace(self, dim=int(np.shape(X)[1]))

    def g(self, z) -> np.ndarray:
        if self.dim is None:
            raise ValueError("Coulomb(dim=None) has no potential before it is resolved on "
                             "data; pass dim or call it on the conductors")
        z = np.asarray(z, float)
        if self.dim == 1:
            return -np.sqrt(z)
        if self.dim == 2:
            return -0.5 * np.log(z)
        return np.power(z, 1.0 - 0.5 * self.dim)


@dataclass(frozen=True)
class Plummer(_PhysicsKernel):
    r"""The Plummer potential :math:`g(z) = (z + \ell^2)^{-\chi/2}` with the softening length
    :math:`\ell` = ``softening`` > 0 and the exponent :math:`\chi` = ``n`` > 0.

    Completely monotonic in :math:`z`, hence positive definite with the self-potential
    ``'centre'`` (:math:`P_{ii} = g(0) = \ell^{-\chi}`); the source's ``'nearest'``
    (:math:`P_{ii} = g(\delta_i^2)`) lowers the diagonal. ``eps`` is the former name of
    ``softening`` (deprecated: a FutureWarning). Book: :ref:`sec-coulomb-kernels`.
    """

    softening: float = 1.0
    n: float = 1.0
    self_potential: str = "nearest"
    eps: InitVar[float | None] = None

    def __post_init__(self, eps):
        if eps is not None:
            warnings.warn("Plummer(eps=...) is renamed Plummer(softening=...); eps will be "
                          "removed", FutureWarning, stacklevel=3)
            object.__setattr__(self, "softening", eps)
        self._check_self_potential()
        for name in ("softening", "n"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, Real) or not 0 < v < np.inf:
                raise ValueError(f"Plummer's {name} must be a positive number; got {v!r}")

    def g(self, z) -> np.ndarray:
        return np.power(z + self.softening ** 2, -0.5 * self.n)


@dataclass(frozen=True)
class Bridge(_PhysicsKernel):
    r"""The polynomial bridge :math:`g(z) = (c - z/2)^\chi`, a positive integer ``n`` = :math:`\chi`.

    ``c='auto'`` is :math:`c_0` of the conductors (:func:`bridge_c0`), the source's
    choice. On neutral charge distributions (:math:`\sum_i q_i = 0`) the case
    :math:`n = 1` is the linear kernel: :math:`c - \lVert a - b\rVert^2/2 =
    \langle a, b\rangle + c - \lVert a\rVert^2/2 - \lVert b\rVert^2/2`.
    Book: :ref:`sec-coulomb-kernels`.
    """

    n: int = 2
    c: float | str = "auto"
    self_potential: str = "nearest"

    def __post_init__(self):
        self._check_self_potential()
        if isinstance(self.n, bool) or not isinstance(self.n, Integral) or self.n < 1:
            raise ValueError(f"the bridge's n must be a positive integer; got {self.n!r}")
        if not (self.c == "auto" or (isinstance(self.c, Real) and np.isfinite(self.c))):
            raise ValueError(f"the bridge's c must be a finite number or 'auto'; got {self.c!r}")

    def resolve(self, X) -> Bridge:
        return self if self.c != "auto" else replace(self, c=bridge_c0(np.asarray(X, float)))

    def g(self, z) -> np.ndarray:
        return np.power(self.c - 0.5 * z, self.n)


def potential_matrix(X, kernel, *, gamma=1.0, degree=3, coef0=0.0) -> tuple:
    r"""The coefficients of potential :math:`P` of the conductors ``X`` and the resolved kernel.

    ``kernel`` is a physics kernel (:class:`Coulomb`, :class:`Plummer`, :class:`Bridge`),
    one of ``'linear', 'poly', 'rbf'`` (then :math:`P = K`, :math:`P_{ii} = k(x_i, x_i)`)
    or any callable ``k(X, Y)``. Returns ``(P, resolved kernel, r2)`` with ``r2`` the
    squared radii (zeros for the non-physics kernels).
    """
    from ..kernels import get_kernel

    X = np.asarray(X, float)
    if isinstance(kernel, _PhysicsKernel):
        k = kernel.resolve(X)
        r2 = k.radii2(X)
        P = k.matrix(X, X, r2)
    else:
        k = get_kernel(kernel, gamma=gamma, degree=degree, coef0=coef0)
        r2 = np.zeros(len(X))
        P = np.asarray(k(X, X), float)
    if P.shape != (len(X), len(X)):
        raise ValueError(f"the kernel matrix of {len(X)} points must have shape "
                         f"({len(X)}, {len(X)}); the kernel returned shape {P.shape}")
    if not np.all(np.isfinite(P)):
        raise ValueError("the kernel matrix contains NaN or infinite entries")
    return P, k, r2


def scale_self_potential(P, kappa) -> np.ndarray:
    r""":math:`P^{\mathrm{new}}_{ii} = \kappa P_{ii}` (the :math:`\kappa`-SVM), a copy; ``kappa`` >= 0."""
    if isinstance(kappa, bool) or not isinstance(kappa, Real) or not 0 <= kappa < np.inf:
        raise ValueError(f"kappa must be a non-negative number (it scales the "
                         f"self-potentials P_ii); got {kappa!r}")
    P = np.array(P, dtype=float)
    P[np.diag_indices_from(P)] *= kappa
    return P


def neutral_min_eigenvalue(P) -> float:
    r"""Smallest eigenvalue of :math:`P` on neutral charge distributions
    :math:`\{q : \sum_i q_i = 0\}` (the SVM dual only needs :math:`q^\top P q \ge 0` there)."""
    return float(neutral_eigenvalues(P)[0])


def neutral_eigenvalues(P) -> np.ndarray:
    r"""Eigenvalues (ascending) of :math:`P` restricted to the neutral charge
    distributions :math:`\{q : \sum_i q_i = 0\}`, an :math:`(n-1)`-dimensional subspace."""
    P = np.asarray(P, float)
    n = len(P)
    # Householder reflection H (H 1 = -sqrt(n) e_1): rows/columns 2..n of H P H are P
    # in an orthonormal basis of the neutral subspace
    v = np.ones(n)
    v[0] += np.sqrt(n)
    w = v / np.linalg.norm(v)
    S = (P + P.T) / 2
    Sw = S @ w
    HPH = S - 2 * np.outer(w, Sw) - 2 * np.outer(Sw, w) + 4 * (w @ Sw) * np.outer(w, w)
    return np.linalg.eigvalsh(HPH[1:, 1:])
