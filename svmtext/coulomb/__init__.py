r"""The electrostatic reading of the SVM: Coulomb classifiers (book: :ref:`sec-coulomb`).

One concept per module:

* :mod:`.kernels` -- coefficients of potential from physics: Coulomb, Plummer and the
  polynomial bridge, with self-potentials :math:`P_{ii} = g(r_i^2)`;
* :mod:`.energy` -- the Coulomb energy of models 2 and 3 (the :math:`\nu`- and the
  C-SVM) and the charge flow that minimises it;
* :mod:`.equalize` -- machines that equalise potentials: p-SVM, LP-SVM, the
  one-equation SVM and the quick-and-dirty charges;
* :mod:`.quantize` -- vector quantisation by energy maximisation;
* :mod:`.estimators` -- scikit-learn estimators for every machine;
* :mod:`.field` -- the picture: potential, equipotentials and charged conductors.

Charges are written :math:`q_i = y_i\alpha_i` (the source's :math:`Q_i`; the book
keeps :math:`Q` for the matrix :math:`y_iy_jK_{ij}`).

References
----------
Hochreiter, S. and Mozer, M. C. (2001). Coulomb classifiers: reinterpreting SVMs as
electrostatic systems. Technical Report CU-CS-921-01, University of Colorado.
"""
from .energy import (ChargeSolution, NonConvexWarning, charge_flow, class_potentials,
                     coulomb_energy, project_class_charges, solve_battery, solve_nu)
from .equalize import (jacobi, lp_certificate, mu_coefficients, quick_and_dirty, solve_lp,
                       solve_one_equation, solve_p)
from .estimators import (PSVC, CoulombSVC, EnergyQuantizer, KappaSVC, LPSVC, NuCoulombSVC,
                         OneEquationSVC, PointChargeClassifier, QuickSVC)
from .kernels import (Bridge, Coulomb, Plummer, bridge_c0, nearest_sq_distances,
                      neutral_eigenvalues, neutral_min_eigenvalue, potential_matrix,
                      scale_self_potential)
from .quantize import maximize_energy, project_box_simplex

__all__ = [
    "Coulomb", "Plummer", "Bridge", "nearest_sq_distances", "bridge_c0", "potential_matrix",
    "scale_self_potential", "neutral_min_eigenvalue", "neutral_eigenvalues",
    "ChargeSolution", "NonConvexWarning", "coulomb_energy", "solve_nu", "solve_battery", "charge_flow",
    "project_class_charges", "class_potentials",
    "solve_p", "solve_lp", "lp_certificate", "jacobi", "solve_one_equation",
    "quick_and_dirty", "mu_coefficients",
    "maximize_energy", "project_box_simplex",
    "PointChargeClassifier", "NuCoulombSVC", "CoulombSVC", "KappaSVC", "PSVC", "LPSVC",
    "OneEquationSVC", "QuickSVC", "EnergyQuantizer",
]
