r"""Prototype SVMs: ensembles of linear SVMs grown from exemplars (book: :ref:`sec-psvm`).

* :mod:`._linear` -- many small linear SVMs, each by the book's SMO, in one compiled loop;
* :mod:`._steps` -- CHOOSENEGATIVES, SHIFT and TEST's vote;
* :mod:`._estimator` -- TRAIN, the weighted-sampling variant and :class:`PrototypeSVC`;
* :mod:`._baselines` -- the source's comparators, Weka's classifiers at their defaults;
* :mod:`._evaluation` -- the source's data, folds, corrected t-test and printed tables.

References
----------
A. Shen, "Prototype support vector machines: supervised classification in complex
datasets", Williams College, 2013 (slides).
"""
from ._estimator import PrototypeSVC, train_prototypes
from ._linear import LinearSVMs, fit_linear_svms
from ._steps import SHIFT_RULES, VOTES, choose_negatives, predict_from_votes, shift, vote

__all__ = ["PrototypeSVC", "train_prototypes", "fit_linear_svms", "LinearSVMs",
           "choose_negatives", "shift", "vote", "predict_from_votes", "VOTES", "SHIFT_RULES"]
