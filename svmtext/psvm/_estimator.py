r"""Prototype SVMs: an ensemble of linear SVMs grown from exemplars (book: :ref:`sec-psvm`).

:class:`PrototypeSVC` implements Shen's (2013) TRAIN and, with ``sampling=True``,
the weighted-sampling variant (SAMPLE, TRAIN, TEST, REWEIGHT). Every model
:math:`m` is a linear SVM :math:`f_m(x) = \langle w_m, x\rangle + b_m` trained on a
positive set :math:`P_m` (points of its class :math:`c_m`) against a negative set
:math:`N_m` (points of other classes); it *fires* on :math:`x` when
:math:`f_m(x) > 0`, and the prediction is the class with the largest vote

.. math::

    \hat y(x) = \arg\max_c \sum_{m:\ c_m = c,\ f_m(x) > 0} v_m(x).

References
----------
A. Shen, "Prototype support vector machines: supervised classification in complex
datasets", Williams College, 2013 (slides).
T. Malisiewicz, A. Gupta, A. A. Efros, "Ensemble of exemplar-SVMs for object
detection and beyond", ICCV 2011.
"""
from __future__ import annotations

import math
from numbers import Integral, Real
from typing import Self

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ..kernels import squared_distances
from ._linear import fit_linear_svms
from ._steps import (SHIFT_RULES, VOTES, choose_negatives, exemplar_positions,
                     predict_from_votes, shift, vote)

__all__ = ["PrototypeSVC", "train_prototypes"]


class _Ensemble:
    """One iteration's ensemble in the scaled input space."""

    def __init__(self, coef, intercept, model_class, sizes, exemplars):
        self.coef, self.intercept = coef, intercept
        self.model_class, self.sizes, self.exemplars = model_class, sizes, exemplars

    def F(self, Z):
        return Z @ self.coef.T + self.intercept

    def predict(self, Z, n_classes, weights):
        votes, best = vote(self.F(Z), self.model_class, n_classes, weights, self.sizes)
        return predict_from_votes(votes, best)


def _split(y, fraction, rng):
    """Stratified split of the indices into training ``D`` and validation ``V``:
    ``floor(fraction * n_c)`` points of each class ``c`` go to ``V``."""
    D, V = [], []
    for c in np.unique(y):
        idx = rng.permutation(np.flatnonzero(y == c))
        n_val = int(math.floor(fraction * len(idx)))
        V.append(idx[:n_val])
        D.append(idx[n_val:])
    D, V = np.sort(np.concatenate(D)), np.sort(np.concatenate(V))
    return D, V


def train_prototypes(Z, y, n_classes, *, k, p, n_iter, C, weights, exemplar,
                     validation_fraction, tol, max_iter, rng, shift_rule="nearest") -> tuple:
    r"""TRAIN: grow the ensemble for ``n_iter`` SHIFT steps, keep the best on validation.

    ``Z`` (scaled inputs) and ``y`` (class indices) are split into ``D`` and ``V``
    (:func:`_split`; ``V = D`` when the split leaves ``V`` empty). Iteration 0 is
    the exemplar-SVM ensemble: one model per point of ``D``, positive set the point,
    negative set :func:`~svmtext.psvm._steps.choose_negatives`. Each iteration trains
    every model, scores the ensemble on ``V`` and shifts. Returns the ensemble with
    the highest validation accuracy (ties: the earlier iteration) and the history.
    """
    D, V = _split(y, validation_fraction, rng)
    if len(V) == 0:
        V = D
    X, yD = Z[D], y[D]
    n = len(D)
    seeds = np.arange(n)
    negatives = np.zeros((n, n), dtype=bool)
    for i, neg in enumerate(choose_negatives(X, yD, k, squared_distances(X))):
        negatives[i, neg] = True
    owner = np.arange(n)
    model_class = yD.copy()
    history, best, best_acc = [], None, -1.0
    for it in range(n_iter + 1):
        M = len(model_class)
        sets = [(np.flatnonzero(owner == m), np.flatnonzero(negatives[m])) for m in range(M)]
        svms = fit_linear_svms(X, sets, C=C, tol=tol, max_iter=max_iter)
        sizes = np.array([len(s[0]) for s in sets])
        ens = _Ensemble(svms.coef_, svms.intercept_, model_class, sizes,
                        exemplar_positions(X, owner, seeds, M, exemplar))
        acc = float(np.mean(ens.predict(Z[V], n_classes, weights) == y[V]))
        history.append({"iteration": it, "n_models": int(M), "validation_accuracy": acc,
                        "smo_iterations": int(svms.n_iter_.sum()),
                        "n_stopped_at_max_iter": int(np.sum(svms.n_iter_ >= max_iter))})
        if acc > best_acc:
            best, best_acc, best_it = ens, acc, it
        if it == n_iter:
            break
        F = ens.F(X)
        owner, keep = shift(X, yD, F, model_class, ens.exemplars, negatives, p, rng,
                            owner=owner, rule=shift_rule)
        # renumber the surviving models 0..M'-1
        new_id = np.full(M, -1)
        new_id[keep] = np.arange(keep.sum())
        owner = np.where(owner >= 0, new_id[np.maximum(owner, 0)], -1)
        model_class, seeds, negatives = model_class[keep], seeds[keep], negatives[keep]
        if keep.sum() == 0:
            break
    return best, {"history": history, "best_iteration": best_it,
                  "validation_accuracy": best_acc, "n_exemplar_svms": n}


class PrototypeSVC(ClassifierMixin, BaseEstimator):
    r"""Prototype SVM classifier: an ensemble of linear SVMs that vote (book: :ref:`sec-psvm`).

    Training (TRAIN): every point of a training split :math:`D` starts a model, a
    linear SVM of the point against its ``k`` seed negatives (CHOOSENEGATIVES);
    then ``n_iter`` times: train every model, score the ensemble on the validation
    split :math:`V`, SHIFT (each point joins the nearest model of its class that fires
    on it; a model that fires on a point of another class takes it as a negative
    with probability ``p``; idle models are dropped). The ensemble with the best
    validation accuracy is kept. Prediction (TEST): a model :math:`m` that fires
    (:math:`f_m(x) > 0`) gives its class the vote :math:`v_m(x)`; the largest total
    wins,

    .. math::

        \hat y(x) = \arg\max_c \sum_{m:\ c_m = c,\ f_m(x) > 0} v_m(x),

    ties (and points on which no model fires) going to the class whose best model has
    the largest :math:`f_m(x)`.

    With ``sampling=True`` (the weighted-sampling variant): start from a stratified
    sample of ``sample_fraction`` of the points; for ``n_rounds`` rounds TRAIN on the
    sample, TEST on all training points, REWEIGHT (correct points get weight 0,
    misclassified ones :math:`w_i e^{\alpha}/z` with
    :math:`\alpha = \tfrac12\ln\frac{1-\varepsilon}{\varepsilon}`, :math:`\varepsilon`
    the error) and add a new weighted sample; the last round's ensemble is kept.

    Inputs are scaled to :math:`[0, 1]` per feature (training minimum and range)
    before distances and SVMs are computed; ``coef_`` and ``intercept_`` are
    given back in the original units.

    Parameters
    ----------
    k : int >= 1, default 10
        Size of each seed negative set.
    p : float in [0, 1], default 0.5
        Probability that SHIFT mines a misfired point into a negative set.
    n_iter : int >= 0, default 10
        SHIFT iterations (Shen's :math:`s`); TRAIN keeps the best of the
        ``n_iter + 1`` ensembles on the validation split.
    C : float > 0, default 1000
        Box constraint of every linear SVM (on inputs scaled to [0, 1]).
    vote : {"count", "margin", "size"}, default "count"
        Vote weight :math:`v_m(x)`: 1, :math:`f_m(x)`, or :math:`|P_m|`.
    exemplar : {"mean", "seed"}, default "mean"
        A model's exemplar for SHIFT's distances: the mean of its positive set
        (the prototype) or the point it started from.
    validation_fraction : float in [0, 1), default 0.2
        Share of each class held out as :math:`V`.
    sampling : bool, default False
        Use the weighted-sampling variant.
    n_rounds : int >= 1, default 5
        Rounds :math:`r` of the sampling variant.
    sample_fraction : float in (0, 1], default 0.2
        Size of each sample, as a share of the training points.
    tol : float > 0, default 1e-3
        SMO's stopping gap for each linear SVM.
    smo_max_iter : int >= 1, default 20000
        SMO's iteration limit for each linear SVM (a solver stopped there keeps its
        last iterate; ``history_`` counts such stops).
    shift_rule : {"nearest", "nearest_other"}, default "nearest"
        Which models a point may join at SHIFT
        (:func:`svmtext.psvm._steps.shift`; book: :ref:`sec-psvm-choices`).
    random_state : None, int or RandomState
        Seeds the splits, SHIFT's mining and the samples.

    Attributes
    ----------
    classes_ : ndarray (n_classes,)
    coef_ : ndarray (n_models, n_features)
        :math:`w_m` of the kept ensemble, in input units.
    intercept_ : ndarray (n_models,)
        :math:`b_m`.
    model_class_ : ndarray (n_models,)
        Index into ``classes_`` of the class each model votes for.
    model_size_ : ndarray (n_models,)
        :math:`|P_m|`.
    n_models_ : int
    n_exemplar_svms_ : int
        Models at iteration 0 (one per point of the training split; for the
        sampling variant, of the last round's sample).
    best_iteration_ : int
    validation_score_ : float
        Validation accuracy of the kept ensemble.
    history_ : list of dict
        Per iteration (and, sampling, per round): models and validation accuracy.
    n_features_in_ : int
    """

    _parameter_constraints = {
        "k": [Interval(Integral, 1, None, closed="left")],
        "p": [Interval(Real, 0.0, 1.0, closed="both")],
        "n_iter": [Interval(Integral, 0, None, closed="left")],
        "C": [Interval(Real, 0.0, None, closed="neither")],
        "vote": [StrOptions(set(VOTES))],
        "exemplar": [StrOptions({"mean", "seed"})],
        "validation_fraction": [Interval(Real, 0.0, 1.0, closed="left")],
        "sampling": ["boolean"],
        "n_rounds": [Interval(Integral, 1, None, closed="left")],
        "sample_fraction": [Interval(Real, 0.0, 1.0, closed="right")],
        "tol": [Interval(Real, 0.0, None, closed="neither")],
        "smo_max_iter": [Interval(Integral, 1, None, closed="left")],
        "shift_rule": [StrOptions(set(SHIFT_RULES))],
        "random_state": ["random_state"],
    }

    def __init__(self, *, k=10, p=0.5, n_iter=10, C=1000.0, vote="count", exemplar="mean",
                 validation_fraction=0.2, sampling=False, n_rounds=5, sample_fraction=0.2,
                 tol=1e-3, smo_max_iter=20_000, shift_rule="nearest", random_state=None):
        self.k = k
        self.p = p
        self.n_iter = n_iter
        self.C = C
        self.vote = vote
        self.exemplar = exemplar
        self.validation_fraction = validation_fraction
        self.sampling = sampling
        self.n_rounds = n_rounds
        self.sample_fraction = sample_fraction
        self.tol = tol
        self.smo_max_iter = smo_max_iter
        self.shift_rule = shift_rule
        self.random_state = random_state

    # -- training -----------------------------------------------------------
    def fit(self, X, y) -> Self:
        """Train the ensemble (TRAIN, or the sampling variant)."""
        self._validate_params()
        X, y = validate_data(self, X, y)
        check_classification_targets(y)
        self.classes_, yi = np.unique(y, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError(
                "PrototypeSVC needs at least 2 classes in y (each model is a linear SVM "
                f"of one class against the others); got 1 class: {self.classes_.tolist()}")
        rng = check_random_state(self.random_state)
        self._lo = X.min(axis=0)
        span = X.max(axis=0) - self._lo
        if not np.any(span > 0):
            raise ValueError(
                "every row of X is the same point (each feature is constant), so no linear "
                "model can tell the classes apart; PrototypeSVC needs X with at least two "
                "distinct rows")
        self._span = np.where(span > 0, span, 1.0)
        Z = (X - self._lo) / self._span
        if self.sampling:
            ens, info = self._fit_sampling(Z, yi, rng)
        else:
            ens, info = self._train(Z, yi, rng)
        self.coef_ = ens.coef / self._span
        self.intercept_ = ens.intercept - ens.coef @ (self._lo / self._span)
        self.model_class_ = ens.model_class
        self.model_size_ = ens.sizes
        self.n_models_ = int(len(ens.model_class))
        self.n_exemplar_svms_ = info["n_exemplar_svms"]
        self.best_iteration_ = info["best_iteration"]
        self.validation_score_ = info["validation_accuracy"]
        self.history_ = info["history"]
        return self

    def _train(self, Z, yi, rng):
        return train_prototypes(
            Z, yi, len(self.classes_), k=self.k, p=self.p, n_iter=self.n_iter, C=self.C,
            weights=self.vote, exemplar=self.exemplar,
            validation_fraction=self.validation_fraction, tol=self.tol,
            max_iter=self.smo_max_iter, rng=rng, shift_rule=self.shift_rule)

    def _fit_sampling(self, Z, yi, rng):
        """SAMPLE, then rounds of TRAIN on the sample, TEST on all points, REWEIGHT."""
        n = len(yi)
        size = max(1, int(math.ceil(self.sample_fraction * n)))
        # first sample: stratified, so that every class is in it
        S = np.concatenate([
            rng.choice(np.flatnonzero(yi == c),
                       max(1, int(math.ceil(self.sample_fraction * np.sum(yi == c)))),
                       replace=False)
            for c in range(len(self.classes_))])
        weights = np.full(n, 1.0 / n)
        history = []
        for r in range(self.n_rounds):
            S = np.unique(S)
            ens, info = self._train(Z[S], yi[S], rng)
            correct = ens.predict(Z, len(self.classes_), self.vote) == yi
            acc = float(correct.mean())
            history.append({"round": r, "sample_size": int(len(S)), "train_accuracy": acc,
                            "n_models": int(len(ens.model_class)),
                            "iterations": info["history"]})
            # REWEIGHT: correct points leave the pool; the factor e^alpha is common
            # to all misclassified points and cancels in the normalisation
            eps = 1.0 - acc
            if r == self.n_rounds - 1 or eps == 0.0:
                break
            alpha = 0.5 * math.log((1.0 - eps) / eps) if eps < 1 else 0.0
            weights = np.where(correct, 0.0, weights * math.exp(alpha))
            if weights.sum() == 0:
                break
            weights /= weights.sum()
            pool = np.flatnonzero(weights > 0)
            take = pool if len(pool) <= size else rng.choice(
                n, size, replace=False, p=weights)
            S = np.concatenate([S, take])
        info = dict(info, history=history)
        return ens, info

    # -- prediction ---------------------------------------------------------
    def model_decision_function(self, X) -> np.ndarray:
        r""":math:`f_m(x)` of every model (columns) on every point (rows)."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        return X @ self.coef_.T + self.intercept_

    def votes(self, X) -> np.ndarray:
        r"""TEST's class totals :math:`\sum_{m: c_m = c, f_m(x) > 0} v_m(x)`, shape (n, n_classes)."""
        return vote(self.model_decision_function(X), self.model_class_, len(self.classes_),
                    self.vote, self.model_size_)[0]

    def predict(self, X) -> np.ndarray:
        """The class with the most votes (ties: the class whose best model is closest to firing)."""
        votes, best = vote(self.model_decision_function(X), self.model_class_,
                           len(self.classes_), self.vote, self.model_size_)
        return self.classes_[predict_from_votes(votes, best)]
