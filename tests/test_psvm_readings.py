"""The readings behind the prototype-SVM chapter: SHIFT's two rules, the striated
family, Weka's comparators, and the readings experiment's smoke run."""
import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.svm import SVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from svmtext.datasets import make_striated
from svmtext.experiments import psvm_readings as pr
from svmtext.experiments._cache import load_cache
from svmtext.psvm import PrototypeSVC, shift
from svmtext.psvm._baselines import (COMPARATORS, EXTRAS, AdaBoostM1, fit_comparator,
                                     weka_comparator)


def test_nearest_other_moves_a_point_to_another_firing_model():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [5.0, 0.0]])
    y = np.array([0, 0, 1])
    F = np.array([[1.0, 1.0, -1.0], [1.0, 1.0, -1.0], [-1.0, -1.0, 1.0]])
    cls = np.array([0, 0, 1])
    owner = np.arange(3)
    rng = np.random.RandomState(0)
    own, keep = shift(X, y, F, cls, X.copy(), np.zeros((3, 3), bool), 0.0, rng)
    assert own.tolist() == [0, 1, 2] and keep.all()
    other, keep = shift(X, y, F, cls, X.copy(), np.zeros((3, 3), bool), 0.0, rng,
                        owner=owner, rule="nearest_other")
    # points 0 and 1 swap models; point 2 has no other model and stays
    assert other.tolist() == [1, 0, 2] and keep.all()
    with pytest.raises(ValueError, match="rule must be one of"):
        shift(X, y, F, cls, X, np.zeros((3, 3), bool), 0.0, rng, owner=owner, rule="x")


def test_shift_rule_is_a_validated_parameter():
    X, y = make_striated(120, random_state=0, n_stripes=2)
    a = PrototypeSVC(k=5, n_iter=2, shift_rule="nearest_other", random_state=0).fit(X, y)
    b = PrototypeSVC(k=5, n_iter=2, random_state=0).fit(X, y)
    assert a.history_[1]["n_models"] < b.history_[1]["n_models"]
    with pytest.raises(ValueError, match="shift_rule"):
        PrototypeSVC(shift_rule="farthest").fit(X, y)


def test_striated_angle_45_keeps_the_diagonal_bands():
    X, y = make_striated(2000, random_state=3, n_stripes=8)
    band = np.minimum(np.floor(8 * X.sum(axis=1) / 2.0), 7).astype(int)
    inside = np.abs(8 * X.sum(axis=1) / 2.0 - np.round(8 * X.sum(axis=1) / 2.0)) > 1e-9
    assert np.array_equal(y[inside], np.where(band % 2 == 0, 1, -1)[inside])
    Xv, yv = make_striated(2000, random_state=3, n_stripes=4, angle=0.0)
    assert np.array_equal(yv, np.where(np.floor(4 * Xv[:, 0]) % 2 == 0, 1, -1))


def test_comparators_follow_weka_defaults():
    poly = weka_comparator("poly_svm", 4, 2)
    assert (poly.degree, poly.gamma, poly.coef0, poly.C) == (3, 0.25, 0.0, 1.0)
    with pytest.raises(ValueError, match="unknown comparator"):
        weka_comparator("rbf_svm", 2, 2)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2)) * [1.0, 100.0]
    y = (X[:, 0] > 0).astype(int)
    for m in (*COMPARATORS, *EXTRAS):
        pred, _ = fit_comparator(m, X[:40], y[:40], X[40:], mlp_epochs=20)
        assert pred.shape == (20,) and set(pred) <= {0, 1}


def test_readings_smoke_run(tmp_path):
    res = pr.run(pr.SMOKE_CONFIG, root=tmp_path, backend="sequential")
    load_cache(pr.NAME, pr.SMOKE_CONFIG, root=tmp_path)
    assert set(res["rms"]) == {"45.0/2", "45.0/6"}
    assert res["chosen"]["rms"] == min(res["rms"].values())
    sizes = res["shift"]["iris/nearest/1000.0"]["sizes"]
    assert sizes[0] >= sizes[-1] and len(sizes) == pr.SMOKE_CONFIG["psvm"]["n_iter"] + 1
    assert set(res["cap"]) == {"0/2000", "0/100000"}


def test_libsvm_cap_and_its_count_of_subproblems_without_a_free_point():
    from svmtext.psvm._baselines import WeightedSVC, capped_pairs, libsvm_max_iter

    assert libsvm_max_iter(2_079) == 10_000_000 and libsvm_max_iter(200_000) == 20_000_000
    assert weka_comparator("poly_svm", 4, 3, n_samples=500).max_iter == 10_000_000
    rng = np.random.RandomState(0)
    X = rng.randn(90, 2)
    y = np.repeat([0, 1, 2], 30)
    X[y == 1] += 0.5
    X[y == 2] += 1.0
    assert capped_pairs(WeightedSVC(kernel="linear").fit(X, y)) == (0, 0)
    for C in (1e-3, 1e3):      # one step: both points at C (no free one), or both free
        clf = WeightedSVC(kernel="linear", C=C, max_iter=1).fit(X, y)
        n_capped, no_free = capped_pairs(clf)
        # each pair's subproblem alone, its points grouped by class as LIBSVM does
        alone = []
        for a, c in [(0, 1), (0, 2), (1, 2)]:
            idx = np.flatnonzero((y == a) | (y == c))
            idx = idx[np.argsort(y[idx], kind="stable")]
            b = WeightedSVC(kernel="linear", C=C, max_iter=1).fit(X[idx], y[idx])
            coef = np.abs(b.dual_coef_[0])
            alone.append(not ((coef > 0) & (coef < C)).any())
        assert n_capped == 3 and no_free == sum(alone)
        assert no_free == (3 if C < 1 else 0)


@parametrize_with_checks([AdaBoostM1(SVC(kernel="linear"), n_estimators=3),
                          AdaBoostM1(SVC(kernel="linear"), n_estimators=3, resample=True)])
def test_adaboost_m1_estimator_checks(estimator, check):
    check(estimator)


_SCRIPT = {"wrong": [], "weights": []}


class _Scripted(ClassifierMixin, BaseEstimator):
    """Fits nothing: round t predicts the labels except at _SCRIPT["wrong"][t]."""

    def fit(self, X, y, sample_weight=None):
        self.round_ = len(_SCRIPT["weights"])
        _SCRIPT["weights"].append(sample_weight)
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        pred = (X[:, 0] >= 5).astype(int)
        for i in _SCRIPT["wrong"][self.round_]:
            pred[i] = 1 - pred[i]
        return pred


@pytest.mark.parametrize("wrong, betas", [
    # eps 0.1, then 2 (0.1/1.8) = 1/9, then 9/32 + 8/32 >= 1/2: stop, the third dropped
    ([[0], [1, 2], [0, 1]], [np.log(9), np.log(8)]),
    # a perfect second round stops boosting and is dropped; the first stays
    ([[0], []], [np.log(9)]),
    # a first round at error 1/2 is kept alone
    ([[0, 1, 2, 5, 6], [0]], [1.0]),
])
def test_adaboost_m1_rounds(wrong, betas):
    X = np.arange(10.0)[:, None]
    y = (X[:, 0] >= 5).astype(int)
    _SCRIPT.update(wrong=wrong, weights=[])
    boost = AdaBoostM1(_Scripted(), n_estimators=5).fit(X, y)
    assert np.allclose(boost.betas_, betas)
    if len(_SCRIPT["weights"]) > 1:     # round 2 saw point 0 at 9 times the others
        w = _SCRIPT["weights"][1]
        assert np.isclose(w.sum(), 10) and np.isclose(w[0] / w[1], 9)


def test_adaboost_m1_resampling_redraws_a_perfect_round():
    X = np.arange(10.0)[:, None]
    y = (X[:, 0] >= 5).astype(int)
    _SCRIPT.update(wrong=[[]] * 10 + [[0]], weights=[])
    boost = AdaBoostM1(_Scripted(), n_estimators=1, resample=True).fit(X, y)
    assert len(_SCRIPT["weights"]) == 10        # ten draws, none with an error
    assert len(boost.estimators_) == 1 and boost.betas_ == [1.0]
