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
