"""The ecological reading of the SVM dual (book: :ref:`sec-eco`).

Generalised Lotka--Volterra dynamics whose steady state is the dual optimum
(:mod:`~svmtext.eco.lv`), invasion (:mod:`~svmtext.eco.invasion`), the online
EcoSVM (:mod:`~svmtext.eco.ecosvc`) and SVDD / EcoSVDD (:mod:`~svmtext.eco.svdd`).
"""
from .community import Community
from .ecosvc import EcoSVC, reequilibrate
from .invasion import bias_from_active, invasion_growth, invasion_growth_active
from .svdd import (SVDD, EcoSVDD, center_similarity, fisvdd_new_weight,
                   integrate_svdd_lv, solve_svdd_qp, svdd_growth, svdd_objective,
                   svdd_radius2, svdd_smo)
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
