r"""Prototype SVMs: ensembles of linear SVMs grown from exemplars (book: :ref:`sec-psvm`).

* :mod:`._linear` -- many small linear SVMs, each by the book's SMO, in one compiled loop;
* :mod:`._steps` -- CHOOSENEGATIVES, SHIFT and TEST's vote;
* :mod:`._estimator` -- TRAIN, the weighted-sampling variant and :class:`PrototypeSVC`.

References
----------
A. Shen, "Prototype support vector machines: supervised classification in complex
datasets", Williams College, 2013 (slides).
"""
from ._estimator import PrototypeSVC, train_prototypes
from ._linear import LinearSVMs, fit_linear_svms
from ._steps import VOTES, choose_negatives, predict_from_votes, shift, vote

__all__ = ["PrototypeSVC", "train_prototypes", "fit_linear_svms", "LinearSVMs",
           "choose_negatives", "shift", "vote", "predict_from_votes", "VOTES"]
