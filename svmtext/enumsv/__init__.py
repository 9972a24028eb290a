r"""Enumeration of the SVM models of a data set with distinct support vectors (book: :ref:`sec-enumsv`).

* :mod:`._subproblem` -- the constrained dual on an index subset, solved cold or
  warm-started from a parent's solution;
* :mod:`._enumerate` -- EnumSV (Lawler's framework): :func:`enumerate_models`;
* :mod:`._brute` -- the brute force over all subsets, for checking;
* :mod:`._estimator` -- :class:`EnumSVC`, a scikit-learn classifier over the top-k models.

References
----------
T. Kanamori, S. Hara, M. Ishihata, H. Arimura, "Enumeration of distinct support
vectors for interactive decision making", arXiv:1906.01876 (2019).
"""
from ._brute import MAX_BRUTE_FORCE_N, brute_force_models
from ._enumerate import (EnumeratedModel, enumerate_models, enumerate_subproblems,
                         prepare_problem)
from ._estimator import EnumSVC
from ._subproblem import Subproblems, objective_error

__all__ = ["enumerate_models", "enumerate_subproblems", "EnumeratedModel",
           "brute_force_models", "MAX_BRUTE_FORCE_N", "EnumSVC", "Subproblems",
           "objective_error", "prepare_problem"]
