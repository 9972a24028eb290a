"""The fitted attributes that BaseSVC publishes, in scikit-learn's conventions."""
import numpy as np
import pytest
from sklearn.svm import SVC

from svmtext.base import _plain_fit_data, labels_to_pm1, validate_params
from svmtext.smo import SMOSVC


def _interleaved(n=60, seed=0):
    """Two overlapping classes whose labels alternate along the index."""
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 3 == 0, "b", "a")
    X = rng.normal(size=(n, 2)) + np.where(y == "b", 0.8, -0.8)[:, None]
    return X, y


def test_support_is_grouped_by_class_as_scikit_learn_orders_it():
    X, y = _interleaved()
    ours = SMOSVC(C=1.0, kernel="rbf", gamma=0.5, tol=1e-8).fit(X, y)
    ref = SVC(C=1.0, kernel="rbf", gamma=0.5, tol=1e-8).fit(X, y)
    np.testing.assert_array_equal(ours.support_, ref.support_)
    np.testing.assert_array_equal(ours.n_support_, ref.n_support_)
    labels = y[ours.support_]
    n_neg = ours.n_support_[0]
    assert set(labels[:n_neg]) == {"a"} and set(labels[n_neg:]) == {"b"}
    assert np.all(np.diff(ours.support_[:n_neg]) > 0) and np.all(np.diff(ours.support_[n_neg:]) > 0)
    np.testing.assert_allclose(ours.support_vectors_, X[ours.support_])
    # same order, so the coefficients line up (both solvers stop at a gap of 1e-8)
    np.testing.assert_allclose(ours.dual_coef_, ref.dual_coef_, atol=1e-4)
    np.testing.assert_allclose(ours.dual_coef_[0], ours.alpha_[ours.support_]
                               * np.where(y[ours.support_] == "b", 1, -1))


@pytest.mark.parametrize("y", [np.array([3, 7, 7, 3, 7]), np.array([0.0, 1.0, 1.0, 0.0, 1.0]),
                               np.array([-2.0, 5.0, 5.0, -2.0, 5.0], dtype=np.float32),
                               np.array([2**40, 1, 1, 2**40, 1], dtype=np.uint64)])
def test_labels_to_pm1_one_pass_agrees_with_scikit_learns_checks(y):
    """Two integral labels take the one-pass route; its classes and signs are those
    of the checked route (a list of the same labels takes it)."""
    classes, y_pm = labels_to_pm1(y)
    ref_classes, ref = labels_to_pm1(y.tolist())
    np.testing.assert_array_equal(classes, ref_classes)
    np.testing.assert_array_equal(y_pm, ref)
    assert y_pm.dtype == np.float64


@pytest.mark.parametrize("y", [np.array([0.5, 1.5, 0.5]), np.array([0.0, np.nan, 1.0]),
                               np.array([1, 2, 3])])
def test_labels_to_pm1_refuses_what_scikit_learn_refuses(y):
    with pytest.raises(ValueError):
        labels_to_pm1(y)


def test_plain_fit_data_as_validate_data():
    """The plain route sets what validate_data sets; anything else goes through it."""
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(12, 3)), np.arange(12) % 2
    est = SMOSVC()
    est.feature_names_in_ = np.array(["a", "b", "c"], dtype=object)   # from an earlier fit
    Xv, yv = _plain_fit_data(est, X, y)
    assert Xv is X and yv is y and est.n_features_in_ == 3
    assert not hasattr(est, "feature_names_in_")
    for X_bad, y_bad in ((X.astype(np.float32), y), (X, y[:, None]), (X, y[:-1]),
                         (np.where(X > 1, np.inf, X), y), (X, np.where(y, np.nan, 0.0)),
                         (X.tolist(), y)):
        assert _plain_fit_data(SMOSVC(), X_bad, y_bad) is None


def test_validate_params_refuses_as_scikit_learn_does():
    with pytest.raises(ValueError, match="'C' parameter of SMOSVC"):
        validate_params(SMOSVC(C=-1.0))
    with pytest.raises(ValueError, match="'kernel' parameter of SMOSVC"):
        SMOSVC(kernel="sigmoid").fit(np.eye(2), [0, 1])
