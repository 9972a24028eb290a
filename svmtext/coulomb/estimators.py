r"""scikit-learn estimators for the Coulomb classifiers (book: :ref:`sec-coulomb`).

Every classifier places conductor :math:`i` at :math:`x_i` with charge
:math:`q_i = y_i\alpha_i` and classifies by the sign of the potential

.. math::

    \varphi(x) = \sum_{i\in\mathcal S} q_i\,G(x_i, x) + b ,

``dual_coef_`` :math:`= (q_i)_{i\in\mathcal S}` and ``intercept_`` :math:`= b`, as
scikit-learn's ``SVC`` stores them. The machines differ in how they charge the
conductors:

============================  =====================================================
:class:`PointChargeClassifier` model 1: fixed charges (nearest neighbour, densities)
:class:`NuCoulombSVC`          model 2: coupled conductors, the :math:`\nu`-SVM
:class:`CoulombSVC`            model 3: batteries, the C-SVM
:class:`KappaSVC`              self-potentials scaled by :math:`\kappa`, :math:`C=\infty`
:class:`PSVC`                  least-squares potential difference (p-, :math:`\kappa`-p-SVM)
:class:`LPSVC`                 :math:`\ell_1` potential difference, a linear programme
:class:`OneEquationSVC`        :math:`Pq = -\phi` with a bisected diagonal :math:`\kappa_0`
:class:`QuickSVC`              :math:`\alpha_i = \beta_i/\mu_i`
:class:`EnergyQuantizer`       energy maximisation: prototypes in dense regions
============================  =====================================================

The kernel is ``'linear'``, ``'poly'``, ``'rbf'`` (parameters as scikit-learn's), a
physics kernel of :mod:`svmtext.coulomb.kernels` (:class:`~.kernels.Coulomb`,
:class:`~.kernels.Plummer`, :class:`~.kernels.Bridge`, with self-potentials
:math:`P_{ii} = g(r_i^2)`) or any callable ``k(X, Y)``.

References
----------
Hochreiter, S. and Mozer, M. C. (2001). Coulomb classifiers: reinterpreting SVMs as
electrostatic systems. Technical Report CU-CS-921-01, University of Colorado.
"""
from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from ..base import KERNEL_CONSTRAINTS, BaseSVC, KernelParamsMixin, labels_to_pm1
from .energy import ChargeSolution, solve_battery, solve_nu
from .equalize import quick_and_dirty, solve_lp, solve_one_equation, solve_p
from .kernels import _PhysicsKernel, potential_matrix, scale_self_potential
from .quantize import maximize_energy

__all__ = ["PointChargeClassifier", "NuCoulombSVC", "CoulombSVC", "KappaSVC", "PSVC",
           "LPSVC", "OneEquationSVC", "QuickSVC", "EnergyQuantizer"]

_KAPPA = [Interval(Real, 0.0, None, closed="left")]
_BETA = [Interval(Real, 0.0, None, closed="neither")]
_TOL = [Interval(Real, 0.0, None, closed="neither")]


class _ConductorMixin(KernelParamsMixin):
    """Coefficients of potential of the training points and potentials at new points."""

    def _potentials(self, X, kappa=1.0):
        """``P`` of the conductors ``X`` with self-potentials scaled by ``kappa``."""
        self._resolve_kernel(X)
        P, self.kernel_, self._r2 = potential_matrix(
            X, self.kernel, gamma=self._gamma, degree=self.degree, coef0=self.coef0)
        return P if kappa == 1.0 else scale_self_potential(P, kappa)

    def _cross(self, X):
        """:math:`G(x_j, x)` for new points ``X`` and the training conductors ``index``."""
        C = self._conductors
        if isinstance(self.kernel_, _PhysicsKernel):
            return self.kernel_.matrix(X, C, self._r2_conductors)
        G = np.asarray(self.kernel_(X, C), float)
        if G.shape != (len(X), len(C)):
            raise ValueError(f"the kernel returned shape {G.shape} for {len(X)} x {len(C)} points")
        return G


class _CoulombClassifier(_ConductorMixin, BaseSVC):
    """Shared fit/predict on :class:`svmtext.base.BaseSVC`; subclasses implement
    ``_solve(X, y) -> ChargeSolution``.

    Attributes (every classifier, as :class:`~svmtext.base.BaseSVC`)
    -----------------------------------------------------------------
    classes_ : (2,) array
        ``classes_[1]`` is :math:`y = +1`.
    alpha_ : (n,) array
        Charge magnitudes :math:`\\alpha_i \\ge 0` of the training points.
    support_, support_vectors_ : arrays
        Charged conductors (:math:`\\alpha_i > 0`) and their positions.
    dual_coef_ : (1, n_SV) array
        Charges :math:`q_i = y_i\\alpha_i` of the charged conductors.
    intercept_ : (1,) array
        Constant potential :math:`b`.
    n_support_ : (2,) int array
        Charged conductors per class.
    C_ : float
        The bound on every charge magnitude (:math:`1/N` for the :math:`\\nu`-SVM,
        ``inf`` where there is none).
    n_iter_ : int
        Iterations of the solver (SMO selections, interior-point or simplex
        iterations, Jacobi sweeps; 0 for charges given in closed form).
    kernel_ : callable
        The kernel with its data-dependent parameters resolved.
    fit_info_ : dict
        ``dual_objective`` :math:`= -E`, the negated energy the machine minimises
        (for :class:`CoulombSVC` with :math:`\\beta = 1` LIBSVM's :math:`W(\\alpha)`;
        NaN for machines that minimise none), ``energy`` :math:`E`, and what the
        solver reports.
    """

    _parameter_constraints = dict(KERNEL_CONSTRAINTS)

    def _solve(self, X, y):  # pragma: no cover - abstract
        raise NotImplementedError

    def fit(self, X, y):
        """Charge the conductors at the training points ``X`` with labels ``y``."""
        self._validate_params()
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.classes_, y_pm = labels_to_pm1(y)
        sol = self._solve(X, y_pm)
        info = dict(sol.info)
        C = float(info.get("C", np.inf))
        self._set_solution(X, y_pm, sol.alpha, sol.b, C, info, Kv=np.zeros(len(y_pm)))
        self._conductors = self.support_vectors_
        self._r2_conductors = self._r2[self.support_]
        self.n_iter_ = int(info.get("n_iter", 0))
        self.fit_info_ = {"dual_objective": -float(sol.energy), "energy": float(sol.energy),
                          **info}
        return self

    def decision_function(self, X):
        """The potential :math:`\\varphi(x) = \\sum_{i\\in S} q_i G(x_i, x) + b`."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        if len(self.support_) == 0:
            return np.full(len(X), self.intercept_[0])
        return self._cross(X) @ self.dual_coef_[0] + self.intercept_[0]


class PointChargeClassifier(_CoulombClassifier):
    r"""Model 1: uncoupled point charges, :math:`\varphi(x) = \sum_i y_i\alpha_i G(x_i, x)`,
    :math:`b = 0` (book: :ref:`sec-coulomb-model1`).

    ``charges='unit'``: :math:`\alpha_i = 1` (a steep :math:`G` gives the nearest
    neighbour); ``'density'``: :math:`\alpha_i = 1/|S^{y_i}|` (a normalised :math:`G` gives
    the difference of the two classes' kernel density estimates).
    """

    _parameter_constraints = {**_CoulombClassifier._parameter_constraints,
                              "charges": [StrOptions({"unit", "density"})]}

    def __init__(self, *, charges="unit", kernel="rbf", degree=3, gamma="scale", coef0=0.0):
        self.charges = charges
        self.kernel, self.degree, self.gamma, self.coef0 = kernel, degree, gamma, coef0

    def _solve(self, X, y):
        self._potentials(X)
        if self.charges == "unit":
            alpha = np.ones(len(y))
        else:
            alpha = np.where(y > 0, 1.0 / np.sum(y > 0), 1.0 / np.sum(y < 0))
        return ChargeSolution(alpha=alpha, b=0.0, energy=float("nan"))


class NuCoulombSVC(_CoulombClassifier):
    r"""Model 2: coupled conductors = the :math:`\nu`-SVM (book: :ref:`sec-coulomb-model2`).

    Minimises :math:`\tfrac12 q^\top Pq` over :math:`0 \le \alpha_i \le 1/N`,
    :math:`\sum_{S^+}\alpha_i = \sum_{S^-}\alpha_i = \nu/2`
    (:func:`svmtext.coulomb.solve_nu`); ``fit_info_`` adds ``rho``, ``phi_plus``,
    ``phi_minus``, ``xi`` and ``mu``.
    """

    _parameter_constraints = {**_CoulombClassifier._parameter_constraints,
                              "nu": [Interval(Real, 0.0, 1.0, closed="right")]}

    def __init__(self, *, nu=0.5, kernel="rbf", degree=3, gamma="scale", coef0=0.0):
        self.nu = nu
        self.kernel, self.degree, self.gamma, self.coef0 = kernel, degree, gamma, coef0

    def _solve(self, X, y):
        return solve_nu(self._potentials(X), y, self.nu)


class CoulombSVC(_CoulombClassifier):
    r"""Model 3: conductors with batteries = the C-SVM for :math:`\beta = 1`
    (book: :ref:`sec-coulomb-model3`).

    Minimises :math:`\tfrac12 q^\top Pq - \beta\sum_i\alpha_i` over
    :math:`\sum_iy_i\alpha_i = 0`, :math:`0 \le \alpha_i \le C` by SMO
    (:func:`svmtext.coulomb.solve_battery`); ``fit_info_["energy"]`` is LIBSVM's
    :math:`-W(\alpha)` for :math:`\beta = 1`.
    """

    _parameter_constraints = {**_CoulombClassifier._parameter_constraints,
                              "C": [Interval(Real, 0.0, None, closed="neither")],
                              "beta": _BETA, "tol": _TOL}

    def __init__(self, *, C=1.0, beta=1.0, tol=1e-3, kernel="rbf", degree=3, gamma="scale",
                 coef0=0.0):
        self.C, self.beta, self.tol = C, beta, tol
        self.kernel, self.degree, self.gamma, self.coef0 = kernel, degree, gamma, coef0

    def _solve(self, X, y):
        return solve_battery(self._potentials(X), y, self.C, self.beta, tol=self.tol)


class KappaSVC(_CoulombClassifier):
    r"""The :math:`\kappa`-SVM: self-potentials :math:`\kappa P_{ii}`, model 3 with
    :math:`C = \infty` (book: :ref:`sec-coulomb-kappa`).

    A finite ``C`` keeps the box as well (SMO); ``C=inf`` uses the interior-point
    reference and raises ``ValueError`` when :math:`\kappa P` is not positive
    semi-definite or the classes cannot be separated.
    """

    _parameter_constraints = {**_CoulombClassifier._parameter_constraints,
                              "kappa": _KAPPA,
                              "C": [Interval(Real, 0.0, np.inf, closed="right")], "tol": _TOL}

    def __init__(self, *, kappa=2.0, C=np.inf, tol=1e-3, kernel="rbf", degree=3,
                 gamma="scale", coef0=0.0):
        self.kappa, self.C, self.tol = kappa, C, tol
        self.kernel, self.degree, self.gamma, self.coef0 = kernel, degree, gamma, coef0

    def _solve(self, X, y):
        return solve_battery(self._potentials(X, self.kappa), y, self.C, 1.0, tol=self.tol)


class PSVC(_CoulombClassifier):
    r"""The p-SVM (``kappa=1``) and the :math:`\kappa`-p-SVM: minimise
    :math:`\tfrac12\lVert Pq + \phi\rVert^2` (book: :ref:`sec-coulomb-psvm`).

    Needs no positive definite kernel (:func:`svmtext.coulomb.solve_p`). ``solver``:
    ``'qp'`` (interior point, the default: :math:`P^\top P` is often so badly
    conditioned that SMO needs very many pair updates) or ``'smo'`` (stopping gap
    ``tol``).
    """

    _parameter_constraints = {**_CoulombClassifier._parameter_constraints,
                              "C": [Interval(Real, 0.0, None, closed="neither")],
                              "kappa": _KAPPA, "beta": _BETA, "tol": _TOL,
                              "solver": [StrOptions({"qp", "smo"})]}

    def __init__(self, *, C=1.0, kappa=1.0, beta=1.0, solver="qp", tol=1e-3, kernel="rbf",
                 degree=3, gamma="scale", coef0=0.0):
        self.C, self.kappa, self.beta, self.solver, self.tol = C, kappa, beta, solver, tol
        self.kernel, self.degree, self.gamma, self.coef0 = kernel, degree, gamma, coef0

    def _solve(self, X, y):
        return solve_p(self._potentials(X, self.kappa), y, self.C, self.beta, tol=self.tol,
                       solver=self.solver)


class LPSVC(_CoulombClassifier):
    r"""The LP-SVM: minimise :math:`\lVert Pq + \phi\rVert_1` by a linear programme
    (book: :ref:`sec-coulomb-lp`; :func:`svmtext.coulomb.solve_lp`)."""

    _parameter_constraints = {**_CoulombClassifier._parameter_constraints,
                              "kappa": _KAPPA, "beta": _BETA}

    def __init__(self, *, kappa=1.0, beta=1.0, kernel="rbf", degree=3, gamma="scale",
                 coef0=0.0):
        self.kappa, self.beta = kappa, beta
        self.kernel, self.degree, self.gamma, self.coef0 = kernel, degree, gamma, coef0

    def _solve(self, X, y):
        return solve_lp(self._potentials(X, self.kappa), y, self.beta)


class OneEquationSVC(_CoulombClassifier):
    r"""The SVM by solving one equation, :math:`Pq = -\phi` with the diagonal
    :math:`\kappa_0` found by bisection unless ``kappa0`` is given (book:
    :ref:`sec-coulomb-fast`; :func:`svmtext.coulomb.solve_one_equation`)."""

    _parameter_constraints = {**_CoulombClassifier._parameter_constraints,
                              "beta": _BETA,
                              "kappa0": [Interval(Real, 0.0, None, closed="neither"), None],
                              "n_bisect": [Interval(Integral, 1, None, closed="left")]}

    def __init__(self, *, beta=1.0, kappa0=None, n_bisect=40, kernel="rbf", degree=3,
                 gamma="scale", coef0=0.0):
        self.beta, self.kappa0, self.n_bisect = beta, kappa0, n_bisect
        self.kernel, self.degree, self.gamma, self.coef0 = kernel, degree, gamma, coef0

    def _solve(self, X, y):
        return solve_one_equation(self._potentials(X), y, self.beta, kappa0=self.kappa0,
                                  n_bisect=self.n_bisect)


class QuickSVC(_CoulombClassifier):
    r"""The quick-and-dirty charges :math:`\alpha_i = \beta/\mu_i`, with "keep
    :math:`\mu_i \ge \mu_{\min}`" read as ``rule='drop'`` (the default: no charge where
    :math:`\mu_i < \mu_{\min}`) or ``'floor'`` (:math:`\max(\mu_i, \mu_{\min})`) (book:
    :ref:`sec-coulomb-fast`; :func:`svmtext.coulomb.quick_and_dirty`). The floor gives a
    conductor surrounded by the other class -- an outlier, or one of two copies of a
    point with opposite labels -- the largest charge :math:`\beta/\mu_{\min}`: worse than
    chance at a small bound, as the book measures, hence not the default. ``eps`` is
    the former name of ``mu_min`` (deprecated)."""

    _parameter_constraints = {**_CoulombClassifier._parameter_constraints,
                              "mu_min": [Interval(Real, 0.0, None, closed="neither")],
                              "eps": [Interval(Real, 0.0, None, closed="neither"),
                                      StrOptions({"deprecated"})],
                              "rule": [StrOptions({"floor", "drop"})],
                              "kappa": _KAPPA, "beta": _BETA}

    def __init__(self, *, mu_min=1e-3, rule="drop", kappa=1.0, beta=1.0, kernel="rbf",
                 degree=3, gamma="scale", coef0=0.0, eps="deprecated"):
        self.mu_min, self.rule, self.kappa, self.beta = mu_min, rule, kappa, beta
        self.kernel, self.degree, self.gamma, self.coef0 = kernel, degree, gamma, coef0
        self.eps = eps

    def _solve(self, X, y):
        mu_min = self.mu_min
        if self.eps != "deprecated":
            warnings.warn("QuickSVC(eps=...) is renamed mu_min=...; eps will be removed",
                          FutureWarning, stacklevel=3)
            mu_min = self.eps
        return quick_and_dirty(self._potentials(X, self.kappa), y, self.beta, mu_min,
                               rule=self.rule)


class EnergyQuantizer(_ConductorMixin, ClusterMixin, BaseEstimator):
    r"""Vector quantisation by energy maximisation (book: :ref:`sec-coulomb-vq`).

    Maximises :math:`\tfrac12\alpha^\top P\alpha` over :math:`\sum_i\alpha_i = 1`,
    :math:`\alpha_{\min} \le \alpha_i \le C` (:func:`svmtext.coulomb.maximize_energy`);
    the ``n_prototypes`` conductors at the cap :math:`C` are the prototypes; a point
    belongs to its nearest prototype. ``eps`` is the former name of ``alpha_min``
    (deprecated).

    Attributes
    ----------
    alpha_ : (n,) array
    prototype_indices_ : (k,) int array
    cluster_centers_ : (k, d) array
    labels_ : (n,) int array
    """

    _parameter_constraints = {**KERNEL_CONSTRAINTS,
                              "n_prototypes": [Interval(Integral, 1, None, closed="left")],
                              "alpha_min": [Interval(Real, 0.0, None, closed="neither")],
                              "eps": [Interval(Real, 0.0, None, closed="neither"),
                                      StrOptions({"deprecated"})]}

    def __init__(self, *, n_prototypes=3, alpha_min=1e-4, kernel="rbf", degree=3,
                 gamma="scale", coef0=0.0, eps="deprecated"):
        self.n_prototypes, self.alpha_min = n_prototypes, alpha_min
        self.kernel, self.degree, self.gamma, self.coef0 = kernel, degree, gamma, coef0
        self.eps = eps

    def fit(self, X, y=None) -> EnergyQuantizer:
        """Find the prototypes among the rows of ``X``."""
        self._validate_params()
        X = validate_data(self, X, dtype=np.float64)
        if self.n_prototypes >= len(X):
            raise ValueError(f"n_prototypes={self.n_prototypes} must be smaller than "
                             f"n_samples={len(X)}")
        alpha_min = self.alpha_min
        if self.eps != "deprecated":
            warnings.warn("EnergyQuantizer(eps=...) is renamed alpha_min=...; eps will be "
                          "removed", FutureWarning, stacklevel=2)
            alpha_min = self.eps
        alpha_min = min(alpha_min, 0.5 / len(X))
        self.alpha_, self.prototype_indices_, _ = maximize_energy(
            self._potentials(X), self.n_prototypes, alpha_min)
        self.cluster_centers_ = X[self.prototype_indices_]
        self.labels_ = self.predict(X)
        return self

    def predict(self, X) -> np.ndarray:
        """Index of the nearest prototype."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        d = ((X[:, None, :] - self.cluster_centers_[None, :, :]) ** 2).sum(-1)
        return d.argmin(axis=1)
