"""Invasion growth rate = 1 - y f(x) of the current model."""
import numpy as np

from svmtext.eco import (bias_from_active, invasion_growth,
                         invasion_growth_active, lv_rhs)
from svmtext.kernels import gram


def test_identity_on_random_states():
    rng = np.random.default_rng(0)
    for _ in range(50):
        m, d, C = rng.integers(3, 20), rng.integers(1, 6), rng.uniform(0.5, 5)
        X = rng.normal(size=(m, d))
        y = rng.choice([-1.0, 1.0], m)
        alpha = rng.uniform(0, C, m)         # any state, not only steady ones
        gamma = rng.uniform(0.1, 2)
        K = gram(X, kernel="rbf", gamma=gamma)
        Xn = rng.normal(size=(7, d))
        yn = rng.choice([-1.0, 1.0], 7)
        k = gram(Xn, X, kernel="rbf", gamma=gamma)
        s = int(rng.integers(m))
        b = bias_from_active(K, alpha, y, s)
        f = k @ (alpha * y) + b
        np.testing.assert_allclose(invasion_growth(k, yn, alpha, y, b),
                                   1 - yn * f, atol=1e-12)
        np.testing.assert_allclose(invasion_growth_active(k, yn, alpha, y, K, s),
                                   1 - yn * f, atol=1e-12)


def test_growth_is_the_lv_rate_of_a_newcomer():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(12, 3))
    y = rng.choice([-1.0, 1.0], 12)
    alpha = rng.uniform(0, 1, 12)
    x = rng.normal(size=(1, 3))
    Xa, ya = np.vstack([X, x]), np.append(y, 1.0)
    Ka = gram(Xa, kernel="linear")
    b = 0.3
    eps = 1e-7  # a newcomer at tiny abundance: per-capita rate
    a = np.append(alpha, eps)
    rate = lv_rhs(a, Ka, ya, C=None, b=b)[-1] / eps
    g = invasion_growth(Ka[-1, :-1], 1.0, alpha, y, b)
    assert abs(rate - g) < 1e-5


def test_dropping_alpha_changes_the_test():
    """The reference code's soft-margin test without alpha_j is not 1 - y f."""
    rng = np.random.default_rng(2)
    X = rng.normal(size=(15, 2))
    y = rng.choice([-1.0, 1.0], 15)
    alpha = rng.uniform(0, 10, 15)
    K = gram(X, kernel="rbf", gamma=1.0)
    k = gram(rng.normal(size=(200, 2)), X, kernel="rbf", gamma=1.0)
    yn = rng.choice([-1.0, 1.0], 200)
    right = invasion_growth_active(k, yn, alpha, y, K, 0) > 0
    wrong = invasion_growth_active(k, yn, np.ones(15), y, K, 0) > 0
    assert np.mean(right != wrong) > 0.05
