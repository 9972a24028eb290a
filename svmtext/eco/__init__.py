"""The ecological reading of the SVM dual (book: :ref:`sec-eco`).

Generalised Lotka--Volterra dynamics whose steady state is the dual optimum
(:mod:`~svmtext.eco.lv`), invasion (:mod:`~svmtext.eco.invasion`), the online
EcoSVM (:mod:`~svmtext.eco.ecosvc`) and SVDD: its dual and solvers
(:mod:`~svmtext.eco.svdd_dual`), the sphere and invasion (:mod:`~svmtext.eco.svdd_sphere`),
the flow (:mod:`~svmtext.eco.svdd_flow`) and the estimators SVDD / EcoSVDD
(:mod:`~svmtext.eco.svdd_estimators`).
"""
from .community import Community
from .ecosvc import EcoSVC, reequilibrate
from .invasion import bias_from_active, invasion_growth, invasion_growth_active
from .svdd_dual import solve_svdd_qp, svdd_objective, svdd_smo
from .svdd_estimators import SVDD, EcoSVDD
from .svdd_flow import integrate_svdd_lv
from .svdd_sphere import center_similarity, fisvdd_new_weight, svdd_growth, svdd_radius2
from .lv import (LVSolution, capacity_factor, growth_rates, integrate_lv,
                 interaction_matrix, lv_rhs, positive_start, quasi_steady_bias)

__all__ = [
    "Community", "EcoSVC", "reequilibrate", "bias_from_active",
    "invasion_growth", "invasion_growth_active", "LVSolution",
    "capacity_factor", "growth_rates", "integrate_lv", "interaction_matrix",
    "lv_rhs", "positive_start", "quasi_steady_bias", "SVDD", "EcoSVDD",
    "center_similarity", "fisvdd_new_weight", "integrate_svdd_lv",
    "solve_svdd_qp", "svdd_growth", "svdd_objective", "svdd_radius2",
    "svdd_smo",
]
