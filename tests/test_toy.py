"""Tests for the seeded toy generators in svmtext.datasets.toy."""
from __future__ import annotations

import numpy as np
import pytest

import svmtext.datasets as D
from svmtext.datasets import toy

LABELLED = [
    (toy.make_hypercube_linear, {"n": 300, "d": 3}, (300, 3)),
    (toy.make_hypercube_sinusoidal, {"n": 300, "d": 4}, (300, 4)),
    (toy.make_isolated, {"n": 400}, (400, 2)),
    (toy.make_striated, {"n": 400}, (400, 2)),
    (toy.make_spirals, {"n": 201}, (201, 2)),
]
IDS = [f.__name__ for f, _, _ in LABELLED]


def test_reexported():
    for name in toy.__all__:
        assert getattr(D, name) is getattr(toy, name)


@pytest.mark.parametrize("make,kw,shape", LABELLED, ids=IDS)
def test_shape_labels_determinism(make, kw, shape):
    X, y = make(random_state=7, **kw)
    assert X.shape == shape and X.dtype == np.float64
    assert y.shape == (shape[0],) and y.dtype == np.int64
    assert set(np.unique(y)) == {-1, 1}
    X2, y2 = make(random_state=7, **kw)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)
    X3, _ = make(random_state=8, **kw)
    assert not np.array_equal(X, X3)
    # a Generator is accepted and gives the same data as its seed
    X4, y4 = make(random_state=np.random.default_rng(7), **kw)
    np.testing.assert_array_equal(X, X4)
    np.testing.assert_array_equal(y, y4)


def test_hypercube_linear_rule():
    X, y = D.make_hypercube_linear(2000, d=5, random_state=0)
    assert X.min() >= 0.0 and X.max() <= 1.0
    np.testing.assert_array_equal(y, np.where(X[:, 0] <= 0.5, 1, -1))
    assert 0.45 < (y == 1).mean() < 0.55
    X, _ = D.make_hypercube_linear(random_state=0)
    assert X.shape == (200, 2)


def test_hypercube_sinusoidal_rule():
    X, y = D.make_hypercube_sinusoidal(2000, d=3, random_state=1)
    assert X.min() >= 0.0 and X.max() <= 1.0
    b = 0.5 + 0.1 * np.sin(2 * np.pi * X[:, 1]) * np.sin(2 * np.pi * X[:, 2])
    np.testing.assert_array_equal(y, np.where(X[:, 0] < b, 1, -1))
    assert 0.45 < (y == 1).mean() < 0.55
    X, y = D.make_hypercube_sinusoidal(2000, random_state=2)
    np.testing.assert_array_equal(y, np.where(X[:, 0] < 0.5 + 0.1 * np.sin(2 * np.pi * X[:, 1]), 1, -1))
    # the boundary really bends: the linear rule disagrees on some points
    assert (y != np.where(X[:, 0] <= 0.5, 1, -1)).sum() > 50
    with pytest.raises(ValueError):
        D.make_hypercube_sinusoidal(10, d=1)


def test_svdd_cloud():
    X = D.make_svdd_cloud(random_state=0)
    assert X.shape == (500, 2)
    np.testing.assert_allclose(X.mean(axis=0), 0.5, atol=0.02)
    np.testing.assert_allclose(X.var(axis=0), 0.01, rtol=0.2)
    np.testing.assert_array_equal(X, D.make_svdd_cloud(random_state=0))
    assert D.make_svdd_cloud(600, d=100, random_state=1).shape == (600, 100)


def test_isolated_structure():
    X, y = D.make_isolated(800, random_state=3)
    assert (y == 1).sum() == 300                        # 37.5 % positives
    assert X.min() >= -0.1 and X.max() <= 1.1
    # negatives stay off the positive clusters
    pos, neg = X[y == 1], X[y == -1]
    d_pn = np.linalg.norm(pos[:, None] - neg[None], axis=2).min()
    assert d_pn > 0.05


def test_striated_rule():
    X, y = D.make_striated(1000, n_stripes=6, random_state=4)
    band = np.minimum(np.floor(6 * X.sum(axis=1) / 2), 5).astype(int)
    np.testing.assert_array_equal(y, np.where(band % 2 == 0, 1, -1))
    assert 0.4 < (y == 1).mean() < 0.6


def test_spirals_balance():
    X, y = D.make_spirals(200, random_state=5)
    assert (y == 1).sum() == 100 and (y == -1).sum() == 100
    assert np.abs(X).max() <= 1.0
    Xj, _ = D.make_spirals(200, jitter=0.05, random_state=5)
    assert not np.array_equal(X, Xj)


def test_spirals_lang_witbrock_points_and_orders():
    """The benchmark's 194 points: point i of class +1 at angle i pi / 16 and radius
    6.5 (104 - i) / 104, its reflection through the origin in class -1; the three row
    orders hold the same points."""
    X, y = D.make_spirals(194, points="lang_witbrock", order="arms")
    i = np.arange(97)
    r = 6.5 * (104 - i) / 104
    arm = np.c_[r * np.sin(i * np.pi / 16), r * np.cos(i * np.pi / 16)]
    np.testing.assert_allclose(X, np.r_[arm, -arm], rtol=0, atol=1e-12)
    np.testing.assert_array_equal(y, np.repeat([1, -1], 97))
    Xi, yi = D.make_spirals(194, points="lang_witbrock", order="interleaved")
    np.testing.assert_array_equal(Xi[0::2], X[:97])
    np.testing.assert_array_equal(Xi[1::2], X[97:])
    np.testing.assert_array_equal(yi, np.tile([1, -1], 97))
    Xs, ys = D.make_spirals(194, points="lang_witbrock", random_state=0)
    key = np.lexsort((X[:, 1], X[:, 0]))
    keys = np.lexsort((Xs[:, 1], Xs[:, 0]))
    np.testing.assert_array_equal(Xs[keys], X[key])
    np.testing.assert_array_equal(ys[keys], y[key])
    # random points along their arms: the radius grows along each arm
    Xa, ya = D.make_spirals(101, order="arms", random_state=2)
    np.testing.assert_array_equal(ya, np.r_[np.ones(51), -np.ones(50)])
    for c in (1, -1):
        assert np.all(np.diff(np.hypot(*Xa[ya == c].T)) >= 0)
    with pytest.raises(ValueError, match="even n"):
        D.make_spirals(195, points="lang_witbrock")
    with pytest.raises(ValueError, match="points must be"):
        D.make_spirals(194, points="cmu")
    with pytest.raises(ValueError, match="order must be"):
        D.make_spirals(194, order="sorted")


@pytest.mark.parametrize("make", [D.make_isolated, D.make_striated, D.make_spirals])
def test_label_noise(make):
    X0, y0 = make(400, noise=0.0, random_state=6)
    X1, y1 = make(400, noise=0.1, random_state=6)
    np.testing.assert_array_equal(X0, X1)             # points unchanged
    assert (y0 != y1).sum() == 40                      # exactly 10 % of labels flipped
    with pytest.raises(ValueError):
        make(400, noise=1.5, random_state=6)


@pytest.mark.parametrize("make", [D.make_hypercube_linear, D.make_isolated, D.make_spirals])
def test_bad_n(make):
    with pytest.raises(ValueError):
        make(0)
