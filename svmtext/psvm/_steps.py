r"""The steps of prototype-SVM training: CHOOSENEGATIVES, SHIFT and TEST (book: :ref:`sec-psvm-algorithms`).

Shen (2013) writes the algorithm as four procedures; these are three of them, on
arrays, with the details the slides leave open fixed as the book states:

* :func:`choose_negatives` -- the seed negative set of an exemplar :math:`d_i`: with
  :math:`x` the nearest point of another class and :math:`n = (x - d_i)/\lVert x - d_i\rVert`,
  the ``k`` nearest points :math:`d_j` of other classes with
  :math:`n\cdot(d_j - d_i) > 0` (the half-space beyond the nearest negative);
* :func:`shift` -- each point moves to the positive set of the nearest model of its
  class that fires on it (:math:`f_m(x) > 0`); a model that fires on a point of
  another class adds it to its negative set with probability :math:`p`; models that
  fire on nothing, and models left with no positive point, are dropped;
* :func:`vote` -- a model that fires on :math:`x` votes for its class with weight
  :math:`v_m(x)`; the class with the largest total wins.

TRAIN, which iterates them, and the weighted-sampling variant are in
:mod:`svmtext.psvm._estimator`.

References
----------
A. Shen, "Prototype support vector machines: supervised classification in complex
datasets", Williams College, 2013 (slides).
T. Malisiewicz, A. Gupta, A. A. Efros, "Ensemble of exemplar-SVMs for object
detection and beyond", ICCV 2011.
"""
from __future__ import annotations

import numpy as np

from ..kernels import squared_distances

__all__ = ["choose_negatives", "shift", "vote", "VOTES", "SHIFT_RULES", "exemplar_positions"]

#: The vote weights :math:`v_m(x)` of a model :math:`m` that fires on :math:`x`.
VOTES = ("count", "margin", "size")


def choose_negatives(X, y, k, D2=None) -> list:
    r"""CHOOSENEGATIVES for every point: the seed negative set of each exemplar.

    For exemplar :math:`d_i` let :math:`D_i` be the points of the other classes sorted
    by distance to :math:`d_i` (ties: lower index first), :math:`x` the first of them
    and :math:`n = (x - d_i)/\lVert x - d_i\rVert`. The negative set is the first
    ``k`` points :math:`d_j \in D_i` with :math:`n\cdot(d_j - d_i) > 0`, fewer if the
    half-space holds fewer. :math:`x` itself is always among them. Points of
    another class at distance 0 (copies of :math:`d_i` with another label) are
    left out: no hyperplane separates them from :math:`d_i`, and they would leave
    :math:`n` undefined; if nothing else is left, the set is empty.

    Parameters
    ----------
    X : ndarray (n, d)
    y : ndarray (n,) of class indices
    k : int >= 1
    D2 : ndarray (n, n), optional
        Squared distances of ``X`` (computed if not given).

    Returns
    -------
    list of n int arrays
        ``negatives[i]`` indexes the rows of ``X`` in the negative set of ``X[i]``.
    """
    X = np.asarray(X, dtype=float)
    if D2 is None:
        D2 = squared_distances(X)
    out = []
    for i in range(len(X)):
        other = np.flatnonzero(y != y[i])
        other = other[np.any(X[other] != X[i], axis=1)]   # copies of d_i
        if len(other) == 0:                  # cannot be separated from it
            out.append(np.zeros(0, dtype=int))
            continue
        order = other[np.argsort(D2[i, other], kind="stable")]
        n_dir = X[order[0]] - X[i]
        beyond = order[(X[order] - X[i]) @ n_dir > 0]
        out.append(beyond[:k])
    return out


def exemplar_positions(X, owner, seeds, n_models, exemplar) -> np.ndarray:
    r"""Where each model's exemplar is: its seed point, or the mean of its positive set.

    ``owner[j]`` is the model whose positive set holds point ``j`` (-1: none);
    ``exemplar`` is ``"seed"`` (the point the model started from) or ``"mean"``
    (the prototype: the centroid of the positive set).
    """
    if exemplar == "seed":
        return X[seeds]
    sums = np.zeros((n_models, X.shape[1]))
    held = owner >= 0
    np.add.at(sums, owner[held], X[held])
    counts = np.bincount(owner[held], minlength=n_models)
    return sums / np.maximum(counts, 1)[:, None]


#: The readings of SHIFT's "add d_i to the positive set of the closest candidate model".
SHIFT_RULES = ("nearest", "nearest_other")


def shift(X, y, F, model_class, exemplars, negatives, p, rng, owner=None, rule="nearest") -> tuple:
    r"""SHIFT: reassign positive sets, mine negatives, drop idle models.

    Parameters
    ----------
    X : ndarray (n, d)
        Training points :math:`D`.
    y : ndarray (n,) of class indices
    F : ndarray (n, M)
        :math:`f_m(x_j)` of every model on every point; model :math:`m` *fires* on
        :math:`x_j` when :math:`f_m(x_j) > 0`.
    model_class : ndarray (M,)
        The class each model votes for.
    exemplars : ndarray (M, d)
        Exemplar position of each model (:func:`exemplar_positions`).
    negatives : ndarray (M, n) of bool
        Negative sets; updated in place (mined points added).
    p : float in [0, 1]
        Probability that a point of another class on which a model fires joins that
        model's negative set.
    rng : numpy.random.RandomState
    owner : ndarray (n,) of int, optional
        The model holding each point before the shift (-1: none); needed by
        ``rule="nearest_other"``.
    rule : {"nearest", "nearest_other"}, default "nearest"
        ``"nearest"``: the candidates are all models of the point's class that fire
        on it, its own model included (at the first SHIFT its own exemplar is the
        point itself, at distance 0, so a point leaves its model only when that
        model does not fire on it). ``"nearest_other"``: the point's own model is
        a candidate only when no other model of its class fires on it.

    Returns
    -------
    owner : ndarray (n,) of int
        The model whose positive set now holds each point (-1: no model of its class
        is left).
    keep : ndarray (M,) of bool
        Models that survive: they fired on some point and hold a positive point.

    Notes
    -----
    Choices where the slides are silent (book: :ref:`sec-psvm-choices`): a point on
    which no model of its class fires goes to the nearest surviving model of its
    class; ties go to the lower model index; models that fire on nothing are dropped
    *before* the points are reassigned, models that end with an empty positive set
    after.
    """
    fires = F > 0
    same = model_class[None, :] == y[:, None]
    mined = fires & ~same & (rng.random_sample(F.shape) < p)
    negatives |= mined.T
    keep = fires.any(axis=0)
    dist = squared_distances(X, exemplars)
    cand = fires & same & keep[None, :]
    if rule == "nearest_other":
        held = np.flatnonzero(owner >= 0)
        others = cand.copy()
        others[held, owner[held]] = False
        cand = np.where(others.any(axis=1, keepdims=True), others, cand)
    elif rule != "nearest":
        raise ValueError(f"rule must be one of {SHIFT_RULES}; got {rule!r}")
    fallback = same & keep[None, :]
    use = np.where(cand.any(axis=1, keepdims=True), cand, fallback)
    dist = np.where(use, dist, np.inf)
    owner = np.argmin(dist, axis=1)
    owner[~use.any(axis=1)] = -1
    keep &= np.bincount(owner[owner >= 0], minlength=F.shape[1]) > 0
    return owner, keep


def vote(F, model_class, n_classes, weights="count", sizes=None) -> tuple:
    r"""TEST's votes: :math:`V_c(x) = \sum_{m:\, c_m = c,\ f_m(x) > 0} v_m(x)`.

    ``weights`` gives :math:`v_m(x)`: ``"count"`` 1, ``"margin"`` :math:`f_m(x)`,
    ``"size"`` the size :math:`|P_m|` of the model's positive set (``sizes``).

    Returns
    -------
    votes : ndarray (n, n_classes)
    best : ndarray (n, n_classes)
        :math:`\max_{m: c_m = c} f_m(x)`, the tie-breaker (``-inf`` for a class without
        models): among classes with equal votes -- also when no model fires at all --
        the one whose most confident model is closest to firing wins.
    """
    fires = F > 0
    if weights == "count":
        v = fires.astype(float)
    elif weights == "margin":
        v = np.where(fires, F, 0.0)
    elif weights == "size":
        v = fires * np.asarray(sizes, dtype=float)[None, :]
    else:
        raise ValueError(f"weights must be one of {VOTES}; got {weights!r}")
    onehot = np.zeros((len(model_class), n_classes))
    onehot[np.arange(len(model_class)), model_class] = 1.0
    votes = v @ onehot
    best = np.full((F.shape[0], n_classes), -np.inf)
    for c in range(n_classes):
        cols = model_class == c
        if cols.any():
            best[:, c] = F[:, cols].max(axis=1)
    return votes, best


def predict_from_votes(votes, best) -> np.ndarray:
    """The winning class index: most votes; ties by ``best``, then the lower index."""
    top = votes == votes.max(axis=1, keepdims=True)
    score = np.where(top, best, -np.inf)
    tied = np.all(np.isneginf(score), axis=1)
    out = np.argmax(score, axis=1)
    out[tied] = np.argmax(top[tied], axis=1)
    return out
