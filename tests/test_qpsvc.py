"""QPSVC, the scikit-learn classifier on the reference QP (book: sec-qp)."""
import numpy as np
import pytest
from sklearn.svm import SVC

from svmtext.qp import QPSVC


def data(n=60, sep=1.5, seed=0):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, "b", "a")
    s = np.where(y == "b", 1.0, -1.0)
    return rng.normal(size=(n, 2)) + sep / 2 * s[:, None], y


@pytest.mark.parametrize("kernel", ["linear", "rbf", "poly"])
def test_same_fit_as_libsvm(kernel):
    X, y = data()
    ours = QPSVC(kernel=kernel, C=2.0, coef0=1.0).fit(X, y)
    ref = SVC(kernel=kernel, C=2.0, coef0=1.0, tol=1e-10).fit(X, y)
    np.testing.assert_array_equal(ours.classes_, ref.classes_)
    # both list the support vectors class by class, by index within a class
    np.testing.assert_array_equal(ours.support_, ref.support_)
    v, v_ref = np.zeros(len(y)), np.zeros(len(y))
    v[ours.support_] = ours.dual_coef_[0]
    v_ref[ref.support_] = ref.dual_coef_[0]
    # LIBSVM keeps the kernel matrix in single precision: agreement ~1e-6
    np.testing.assert_allclose(v, v_ref, atol=1e-5 * 2.0)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=1e-5)
    f, f_ref = ours.decision_function(X), ref.decision_function(X)
    assert np.max(np.abs(f - f_ref)) <= 1e-4 * np.max(np.abs(f_ref))
    assert np.array_equal(ours.predict(X), ref.predict(X))
    assert ours.fit_info_["kkt_violation"] < 1e-6


def test_hard_margin():
    X, y = data(sep=6.0)
    clf = QPSVC(kernel="linear", C=float("inf")).fit(X, y)
    f = clf.decision_function(X[clf.support_])
    np.testing.assert_allclose(np.abs(f), 1.0, atol=1e-7)
    with pytest.raises(ValueError, match="not separable"):
        QPSVC(kernel="linear", C=float("inf")).fit(*data(sep=0.3))


def test_bad_input():
    X, y = data()
    with pytest.raises(ValueError, match="NaN"):
        QPSVC().fit(np.where(X > 1, np.nan, X), y)
    with pytest.raises(ValueError, match="two classes"):
        QPSVC().fit(X, np.full(len(y), "a"))
    with pytest.raises(ValueError, match="inconsistent"):
        QPSVC().fit(X[:-1], y)
    with pytest.raises(ValueError, match="C must be"):
        QPSVC(C=0).fit(X, y)
    with pytest.raises(ValueError, match="positive semi-definite"):
        QPSVC(kernel=lambda A, B: -(A @ B.T)).fit(X, y)
    with pytest.raises(ValueError, match="Only binary"):
        QPSVC().fit(X, np.arange(len(y)) % 3)
