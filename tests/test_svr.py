"""epsilon-SVR on the SMO solver (book: sec-practice-svr), and the solver's linear term p."""
import numpy as np
import pytest

from svmtext.kernels import rbf_kernel
from svmtext.smo import smo_solve


def _toy(n=60, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    z = np.sin(X[:, 0]) + 0.1 * rng.normal(size=n)
    return X, z


def test_default_p_is_the_svm_dual():
    X, z = _toy()
    y = np.where(z > 0, 1.0, -1.0)
    K = rbf_kernel(X, X, gamma=0.5)
    a = smo_solve(K, y, 1.0)
    b = smo_solve(K, y, 1.0, p=np.ones(len(y)))
    assert np.array_equal(a.alpha, b.alpha) and a.b == b.b
    assert a.objective == b.objective


def test_p_term_objective_and_gradient():
    """objective = 1/2 a'Qa - p'a and gradient = y p - K(a y) at the returned alpha."""
    X, z = _toy()
    n, eps, C = len(z), 0.1, 2.0
    K = rbf_kernel(X, X, gamma=0.5)
    K2 = np.block([[K, K], [K, K]])
    y2 = np.r_[np.ones(n), -np.ones(n)]
    p = np.r_[z - eps, -z - eps]
    r = smo_solve(K2, y2, C, p=p, tol=1e-6)
    a = r.alpha
    Q = np.outer(y2, y2) * K2
    assert r.objective == pytest.approx(0.5 * a @ Q @ a - p @ a, rel=1e-12, abs=1e-12)
    assert np.allclose(r.gradient, y2 * p - K2 @ (a * y2), atol=1e-10)
    assert r.gap < 1e-6


def test_p_validated():
    K = np.eye(2)
    with pytest.raises(ValueError, match="p must be"):
        smo_solve(K, np.array([1.0, -1.0]), 1.0, p=np.ones(3))


# --------------------------------------------------------------------------- SMOSVR
import warnings  # noqa: E402

from sklearn.datasets import load_diabetes  # noqa: E402
from sklearn.exceptions import ConvergenceWarning  # noqa: E402
from sklearn.preprocessing import MinMaxScaler  # noqa: E402
from sklearn.svm import SVR  # noqa: E402
from sklearn.utils.estimator_checks import parametrize_with_checks  # noqa: E402

from svmtext.kernels import gram  # noqa: E402
from svmtext.nusvr import NuSMOSVR  # noqa: E402
from svmtext.svr import SMOSVR, StackedColumns  # noqa: E402
from svmtext.smo import KernelColumns  # noqa: E402

#: the three (C, epsilon, kernel) settings of the chapter's comparison
SETTINGS = [
    dict(C=1.0, epsilon=0.1, kernel="rbf", gamma=0.5),
    dict(C=10.0, epsilon=0.5, kernel="linear"),
    dict(C=1.0, epsilon=0.2, kernel="poly", degree=2, gamma=0.5, coef0=1.0),
]


def _diabetes():
    X, z = load_diabetes(return_X_y=True)
    return MinMaxScaler((-1, 1)).fit_transform(X), (z - z.mean()) / z.std()


def _W(beta, K, z, eps):
    return -0.5 * beta @ K @ beta - eps * np.abs(beta).sum() + z @ beta


@pytest.mark.parametrize("kw", SETTINGS, ids=["rbf", "linear", "poly"])
def test_svr_equals_libsvm(kw):
    """Dual objective to 1e-5 relative, same support set, predictions to 1e-4 (= 10 tol)."""
    X, z = _diabetes()
    tol = 1e-5
    ours = SMOSVR(tol=tol, **kw).fit(X, z)
    ref = SVR(tol=tol, **kw).fit(X, z)
    params = {k: v for k, v in kw.items() if k in ("gamma", "degree", "coef0")}
    K = gram(X, X, kw["kernel"], **params)
    beta = np.zeros(len(z))
    beta[ref.support_] = ref.dual_coef_[0]
    W_ref = _W(beta, K, z, kw["epsilon"])
    assert abs(ours.fit_info_["dual_objective"] - W_ref) <= 1e-5 * abs(W_ref)
    beta_ours = ours.alpha_ - ours.alpha_star_
    assert ours.fit_info_["dual_objective"] == pytest.approx(
        _W(beta_ours, K, z, kw["epsilon"]), rel=1e-10)
    assert np.array_equal(ours.support_, ref.support_)
    assert np.max(np.abs(ours.predict(X) - ref.predict(X))) <= 10 * tol
    assert ours.fit_info_["gap"] < tol
    assert np.all(ours.alpha_ * ours.alpha_star_ == 0)     # never both sides of the tube


def test_stacked_columns_is_the_doubled_kernel():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(7, 2))
    K = gram(X, X, "rbf", gamma=0.7)
    K2 = np.block([[K, K], [K, K]])
    S = StackedColumns(KernelColumns(X, "rbf", gamma=0.7))
    assert np.allclose(S.active_columns([1, 9]), K2[:, [1, 9]], atol=1e-14)
    S.set_active(np.array([0, 3, 7, 10]))
    assert np.allclose(S.active_columns([2, 12]), K2[np.ix_([0, 3, 7, 10], [2, 12])])
    assert np.allclose(S.block([13, 1, 8], [4, 11]), K2[np.ix_([13, 1, 8], [4, 11])])
    assert np.allclose(S.diag(), np.diag(K2))


@pytest.mark.parametrize("bad, match", [
    (dict(epsilon=-0.1), "epsilon"),
    (dict(C=0.0), "'C' parameter"),
])
def test_bad_parameters(bad, match):
    X, z = _diabetes()
    with pytest.raises(ValueError, match=match):
        SMOSVR(**bad).fit(X[:20], z[:20])


def test_bad_targets():
    X, _ = _diabetes()
    with pytest.raises(ValueError, match="target y must be numeric"):
        SMOSVR().fit(X[:3], np.array(["a", "b", "c"], dtype=object))
    with pytest.raises(ValueError, match="at least 2 samples"):
        SMOSVR().fit(X[:1], [0.5])


@parametrize_with_checks([SMOSVR(), SMOSVR(kernel="linear", C=10.0, epsilon=0.0),
                          SMOSVR(selection="mvp", shrinking=False),
                          SMOSVR(kernel="precomputed"), NuSMOSVR(),
                          NuSMOSVR(kernel="linear", nu=0.2),
                          NuSMOSVR(kernel="precomputed")])
def test_sklearn_compatible(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)
