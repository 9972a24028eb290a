"""Prototype SVMs (svmtext.psvm): the batched linear SVMs, CHOOSENEGATIVES, SHIFT,
the estimator's checks, determinism, bad input, and the margin over one linear SVM."""
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import MinMaxScaler
from sklearn.svm import SVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from svmtext.datasets import make_isolated, make_striated
from svmtext.kernels import squared_distances
from svmtext.psvm import PrototypeSVC, choose_negatives, fit_linear_svms, shift


def primal(w, b, X, y, C):
    return 0.5 * w @ w + C * np.maximum(0, 1 - y * (X @ w + b)).sum()


def test_batched_svms_match_libsvm():
    """Each problem's primal objective matches LIBSVM's within the gap's bound."""
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(300, 4))
    sets = []
    for _ in range(20):
        idx = rng.choice(300, 40, replace=False)
        sets.append((idx[:6], idx[6:]))
    C, tol, tol_ref = 1.0, 1e-4, 1e-6
    svms = fit_linear_svms(X, sets, C=C, tol=tol)
    assert np.all(svms.gap_ < tol)
    for m, (pos, neg) in enumerate(sets):
        Xm = X[np.r_[pos, neg]]
        y = np.r_[np.ones(len(pos)), -np.ones(len(neg))]
        ref = SVC(kernel="linear", C=C, tol=tol_ref).fit(Xm, y)
        ours = primal(svms.coef_[m], svms.intercept_[m], Xm, y, C)
        theirs = primal(ref.coef_[0], ref.intercept_[0], Xm, y, C)
        # at SMO's stopping rule the duality gap is at most n C (m - M):
        # both primal values lie within that of the optimum
        assert abs(ours - theirs) <= len(y) * C * (tol + tol_ref)


def test_stalled_pair_is_released():
    """A multiplier that lands on C through a free step does not stall SMO."""
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(500, 5))
    sets = [(rng.choice(500, 5, replace=False), rng.choice(500, 40, replace=False))
            for _ in range(300)]
    sets = [(p, np.setdiff1d(q, p)) for p, q in sets]
    svms = fit_linear_svms(X, sets, C=1.0, tol=1e-3)
    assert np.all(svms.gap_ < 1e-3) and svms.n_iter_.max() < 10_000


def test_choose_negatives_geometry():
    X, y = make_isolated(200, random_state=1)
    k = 7
    negs = choose_negatives(X, y, k)
    D2 = squared_distances(X)
    for i in range(0, 200, 13):
        other = np.flatnonzero(y != y[i])
        nearest = other[np.argmin(D2[i, other])]
        n = X[nearest] - X[i]
        N = negs[i]
        assert 1 <= len(N) <= k and N[0] == nearest
        assert np.all(y[N] != y[i]) and np.all((X[N] - X[i]) @ n > 0)
        assert np.all(np.diff(D2[i, N]) >= 0)            # nearest first
        beyond = other[(X[other] - X[i]) @ n > 0]
        if len(N) < k:
            assert len(N) == len(beyond)


def test_shift_rules():
    """Reassignment to the nearest firing model of the class, mining with p = 1,
    dropping a model that fires on nothing."""
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [5.0, 5.0]])
    y = np.array([0, 0, 1, 1])
    model_class = np.array([0, 0, 1])
    exemplars = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    F = np.array([[1.0, 1.0, -1.0],       # point 0: both class-0 models fire
                  [1.0, 1.0, -1.0],       # point 1
                  [1.0, -1.0, -1.0],      # point 2 (class 1): model 0 misfires
                  [-1.0, -1.0, -1.0]])    # model 2 fires on nothing
    negatives = np.zeros((3, 4), dtype=bool)
    owner, keep = shift(X, y, F, model_class, exemplars, negatives, 1.0,
                        np.random.RandomState(0))
    assert owner[0] == 0 and owner[1] == 1          # nearest exemplar
    assert negatives[0, 2] and negatives.sum() == 1
    assert keep.tolist() == [True, True, False]
    assert owner[2] == -1 and owner[3] == -1        # class 1 has no model left


@parametrize_with_checks([PrototypeSVC(n_iter=2), PrototypeSVC(n_iter=2, sampling=True,
                                                                n_rounds=3, vote="size")])
def test_sklearn_compatible(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)


@pytest.mark.parametrize("params, message", [
    ({"k": 0}, "'k' parameter"), ({"p": 1.5}, "'p' parameter"), ({"p": -0.1}, "'p' parameter"),
])
def test_bad_parameters(params, message):
    X, y = make_isolated(60, random_state=0)
    with pytest.raises(ValueError, match=message):
        PrototypeSVC(**params).fit(X, y)


def test_one_class_is_refused():
    X, _ = make_isolated(60, random_state=0)
    with pytest.raises(ValueError, match="at least 2 classes.*got 1 class"):
        PrototypeSVC().fit(X, np.ones(60))


@pytest.mark.parametrize("sampling", [False, True])
def test_deterministic_under_random_state(sampling):
    X, y = make_striated(300, random_state=0)
    a = PrototypeSVC(n_iter=3, sampling=sampling, random_state=5).fit(X, y)
    b = PrototypeSVC(n_iter=3, sampling=sampling, random_state=5).fit(X, y)
    assert np.array_equal(a.coef_, b.coef_) and np.array_equal(a.intercept_, b.intercept_)
    assert a.history_ == b.history_


@pytest.mark.parametrize("make", [make_isolated, make_striated])
def test_beats_one_linear_svm_by_a_wide_margin(make):
    X, y = make(800, random_state=0)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.25, random_state=0, stratify=y)
    psvm = PrototypeSVC(k=30, p=0.1, random_state=0).fit(Xtr, ytr).score(Xte, yte)
    sc = MinMaxScaler().fit(Xtr)
    linear = SVC(kernel="linear", C=1.0).fit(sc.transform(Xtr), ytr).score(
        sc.transform(Xte), yte)
    assert psvm > linear + 0.15, (psvm, linear)


def test_coef_in_input_units():
    """coef_ and intercept_ give the same firing pattern on raw inputs as the
    ensemble computes on scaled ones."""
    X, y = make_isolated(200, random_state=0)
    X = 10 * X + 3
    clf = PrototypeSVC(n_iter=2, random_state=0).fit(X, y)
    F = clf.model_decision_function(X)
    assert F.shape == (200, clf.n_models_)
    votes = clf.votes(X)
    assert votes.shape == (200, 2) and np.all(votes >= 0)
    assert clf.score(X, y) > 0.8


def test_copies_with_another_label():
    """A point duplicated with another label (noisy data) is left out of the
    copy's negatives: CHOOSENEGATIVES stays defined and training goes through."""
    X, y = make_isolated(120, random_state=0)
    X = np.vstack([X, X[:3]])
    y = np.r_[y, -y[:3]]
    negs = choose_negatives(X, y, 5)
    assert all(len(n) > 0 for n in negs)
    assert all(not np.any(np.all(X[n] == X[i], axis=1)) for i, n in enumerate(negs))
    PrototypeSVC(n_iter=2, random_state=0).fit(X, y)
