"""SVDD batch and EcoSVDD online; the invasion test; FISVDD's identity."""
import numpy as np
import pytest

from svmtext.datasets import make_svdd_cloud
from svmtext.eco import (SVDD, EcoSVDD, center_similarity, fisvdd_new_weight,
                         integrate_svdd_lv, solve_svdd_qp, svdd_growth,
                         svdd_objective, svdd_radius2, svdd_smo)
from svmtext.kernels import gram

KERNELS = [("rbf", {"gamma": 10.0}), ("linear", {}),
           ("poly", {"gamma": 1.0, "degree": 2, "coef0": 1.0})]


@pytest.mark.parametrize("kernel,kw", KERNELS)
@pytest.mark.parametrize("C", [1.0, 0.05])
def test_ecosvdd_radius_matches_batch(kernel, kw, C):
    X = make_svdd_cloud(300, 2, random_state=0)
    b = SVDD(C=C, kernel=kernel, **kw).fit(X)
    e = EcoSVDD(C=C, kernel=kernel, **kw).fit(X)
    # C = 1 (the source's setting, no outliers): within 1e-3; with bounded
    # SVs (C = 0.05) historical contingency costs more, within 1e-2
    assert abs(b.radius_ - e.radius_) < (1e-3 if C == 1.0 else 1e-2)
    K12 = gram(e.support_vectors_, b.support_vectors_, kernel=kernel, **kw)
    S = center_similarity(e.alpha_, b.alpha_, K12, e.support_gram_, b.support_gram_)
    assert S > 1 - 1e-3
    # inliers of the batch model are inliers of the online one (almost all)
    assert np.mean(b.predict(X) == e.predict(X)) >= 0.98


def test_smo_matches_qp_and_radius_is_distance_of_free_svs():
    X = make_svdd_cloud(200, 3, random_state=1)
    K = gram(X, kernel="linear")
    a_qp = solve_svdd_qp(K, 0.1)
    a_smo = svdd_smo(K, 0.1, tol=1e-10)
    assert abs(svdd_objective(a_qp, K) - svdd_objective(a_smo, K)) < 1e-8
    R2 = svdd_radius2(a_smo, K, 0.1)
    d2 = np.diag(K) - 2 * K @ a_smo + a_smo @ K @ a_smo
    free = (a_smo > 1e-9) & (a_smo < 0.1 - 1e-9)
    np.testing.assert_allclose(d2[free], R2, atol=1e-6)
    assert np.all(d2[a_smo == 0] <= R2 + 1e-6)


@pytest.mark.parametrize("kernel,kw", KERNELS)
def test_invasion_is_distance_beyond_radius(kernel, kw):
    X = make_svdd_cloud(150, 2, random_state=2)
    Xn = make_svdd_cloud(100, 2, random_state=3) * 1.2
    K = gram(X, kernel=kernel, **kw)
    a = svdd_smo(K, 1.0, tol=1e-12)
    s = int(np.flatnonzero(a > 0)[0])
    k = gram(Xn, X, kernel=kernel, **kw)
    kxx = np.diag(gram(Xn, kernel=kernel, **kw))
    g = svdd_growth(k, kxx, a, K, s)
    d2 = kxx - 2 * k @ a + a @ K @ a
    np.testing.assert_allclose(g, d2 - svdd_radius2(a, K, 1.0), atol=1e-8)
    # the reference code's test (factor 2 dropped on the cross terms)
    wrong = kxx - k @ a - K[s, s] + K[s] @ a
    if kernel == "rbf":
        assert np.array_equal(wrong > 0, g > 0)
    else:
        assert np.any((wrong > 0) != (g > 0))


def test_identity_with_fisvdd():
    X = make_svdd_cloud(200, 2, random_state=4)
    Xn = make_svdd_cloud(300, 2, random_state=5) * 1.3 - 0.15
    K = gram(X, kernel="rbf", gamma=10.0)
    a = svdd_smo(K, 1.0, tol=1e-13)
    S = np.flatnonzero(a > 0)
    A = K[np.ix_(S, S)]
    k = gram(Xn, X[S], kernel="rbf", gamma=10.0)
    g = svdd_growth(k, 1.0, a[S], A, 0)
    beta = np.array([fisvdd_new_weight(A, kk, 1.0) for kk in k])
    far = np.abs(g) > 1e-8
    assert np.array_equal(beta[far] > 0, g[far] > 0)


def test_svdd_lv_steady_state():
    X = make_svdd_cloud(60, 2, random_state=6)
    K = gram(X, kernel="rbf", gamma=10.0)
    t, alphas = integrate_svdd_lv(K, 0.2, t_end=1e5)
    assert np.abs(alphas[-1] - solve_svdd_qp(K, 0.2)).max() < 1e-4
    assert abs(alphas[-1].sum() - 1) < 1e-8


def test_bad_input():
    X = make_svdd_cloud(20, 2, random_state=0)
    with pytest.raises(ValueError, match="infeasible"):
        SVDD(C=0.01).fit(X)
    with pytest.raises(ValueError):
        SVDD().fit(np.full((5, 2), np.nan))
    with pytest.raises(ValueError, match="'C' parameter"):
        EcoSVDD(C=-1.0).fit(X)
