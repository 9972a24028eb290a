"""Kernels and Mercer's condition (book: sec-kernels)."""
import numpy as np
import pytest
from sklearn.metrics.pairwise import pairwise_kernels

from svmtext.kernels import (check_psd, get_kernel, gram, kernel_diag,
                             resolve_gamma)


def phi2(x):
    """Homogeneous degree-2 feature map of R^3 into R^6."""
    x1, x2, x3 = x
    r = np.sqrt(2)
    return np.array([x1**2, x2**2, x3**2, r * x1 * x2, r * x1 * x3,
                     r * x2 * x3])


def phi10(x):
    """The inhomogeneous map of R^3 into R^10: phi(x).phi(z) = (1 + x.z)^2."""
    x1, x2, x3 = x
    r = np.sqrt(2)
    return np.array([1, r * x1, r * x2, r * x3, x1**2, x2**2, x3**2,
                     r * x1 * x2, r * x1 * x3, r * x2 * x3])


def test_kernel_trick_feature_maps():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(6, 3))
    F6 = np.array([phi2(x) for x in X])
    F10 = np.array([phi10(x) for x in X])
    np.testing.assert_allclose(F6 @ F6.T, (X @ X.T) ** 2, atol=1e-12)
    np.testing.assert_allclose(
        F10 @ F10.T, gram(X, kernel="poly", degree=2, gamma=1.0, coef0=1.0),
        atol=1e-12)


@pytest.mark.parametrize("kernel,params", [
    ("linear", {}), ("rbf", {"gamma": 0.3}),
    ("poly", {"gamma": 0.5, "degree": 3, "coef0": 1.0})])
def test_matches_sklearn_and_diag(kernel, params):
    rng = np.random.default_rng(1)
    X, Y = rng.normal(size=(8, 4)), rng.normal(size=(5, 4))
    K = gram(X, Y, kernel=kernel, **params)
    np.testing.assert_allclose(K, pairwise_kernels(X, Y, metric=kernel,
                                                   **params), atol=1e-12)
    np.testing.assert_allclose(kernel_diag(X, kernel, **params),
                               np.diag(gram(X, kernel=kernel, **params)),
                               atol=1e-12)
    check_psd(gram(X, kernel=kernel, **params))


def test_mercer_condition_violations_raise():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(10, 2))
    D = ((X[:, None] - X[None]) ** 2).sum(-1)
    with pytest.raises(ValueError, match="positive semi-definite"):
        check_psd(-D)                       # k(x, z) = -||x - z||^2
    with pytest.raises(ValueError, match="positive semi-definite"):
        check_psd(np.tanh(2.0 * X @ X.T - 1.0))     # a sigmoid "kernel"
    with pytest.raises(ValueError, match="symmetric"):
        check_psd(np.triu(np.ones((3, 3))))
    with pytest.raises(ValueError, match="square"):
        check_psd(np.ones((3, 2)))
    with pytest.raises(ValueError, match="NaN"):
        check_psd(np.full((2, 2), np.nan))


def test_bad_parameters_raise():
    X = np.ones((3, 2))
    with pytest.raises(ValueError, match="gamma"):
        resolve_gamma(-1.0, X)
    with pytest.raises(ValueError, match="gamma"):
        resolve_gamma("wide", X)
    with pytest.raises(ValueError, match="unknown kernel"):
        get_kernel("sigmoid")
    with pytest.raises(ValueError, match="features"):
        gram(X, np.ones((3, 3)), kernel="linear")
    assert resolve_gamma("auto", X) == 0.5
