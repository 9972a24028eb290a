"""The fitted attributes that BaseSVC publishes, in scikit-learn's conventions."""
import numpy as np
from sklearn.svm import SVC

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
