"""Chapter 4 (SVMs in practice): decomposition, hulls, feature map, Cover, LIBSVM's vote."""
import os

import numpy as np
import pytest
from sklearn.multiclass import OneVsOneClassifier
from sklearn.preprocessing import MinMaxScaler
from sklearn.svm import SVC

from svmtext.cover import (cover_count, is_linearly_separable, separable_probability,
                           simulate_separable_fraction)
from svmtext.decomposition import decomposition_solve, select_working_set
from svmtext.feature_map import poly2_feature_map, poly2_feature_names
from svmtext.hulls import nearest_hull_points
from svmtext.kernels import linear_kernel, rbf_kernel
from svmtext.kkt import alpha_status
from svmtext.multiclass import libsvm_vote, ovo_decisions, ovo_pair_decisions, ovo_pairs
from svmtext.qp import solve_dual
from svmtext.smo import SMOSVC, smo_solve

needs_data = pytest.mark.skipif(
    not os.path.isdir(os.path.join(os.environ.get("SVMTEXT_DATA", ""), "svmguide")),
    reason="SVMTEXT_DATA has no svmguide folder")


def _blobs(n=40, shift=1.0, seed=0):
    rng = np.random.default_rng(seed)
    X = np.r_[rng.normal(size=(n, 2)) + shift, rng.normal(size=(n, 2)) - shift]
    return X, np.r_[np.ones(n), -np.ones(n)]


# ----------------------------------------------------------------------- decomposition
def test_q2_is_smo_with_the_maximal_violating_pair():
    X, y = _blobs(60, 0.7)
    K = rbf_kernel(X, X, gamma=0.5)
    tol = 1e-3
    smo = smo_solve(K, y, 1.0, selection="mvp", shrinking=False, tol=tol)
    dec = decomposition_solve(K, y, 1.0, q=2, tol=tol)
    # the same steps; a near-tie between violators may be broken either way
    assert abs(dec.n_iter - smo.n_iter) <= max(1, 0.01 * smo.n_iter)
    assert np.max(np.abs(dec.alpha - smo.alpha)) < 1e-6
    ref = solve_dual(K, y, 1.0).objective
    for q in (2, 8, 32):
        r = decomposition_solve(K, y, 1.0, q=q, tol=tol)
        assert r.converged and r.gap < tol
        assert r.n_kernel_evals == r.n_iter * q * len(y)
        # gap < tol bounds W* - W by tol times the l1 norm of a feasible step (<= 2 n C)
        assert 0 <= ref - r.dual_objective <= tol * 2 * len(y) * 1.0
        assert abs(r.alpha @ y) < 1e-9 * len(y)


def test_gap_is_that_of_the_returned_multipliers():
    X, y = _blobs(60, 0.7)
    K = rbf_kernel(X, X, gamma=0.5)
    for it in (1, 5, 20):
        r = decomposition_solve(K, y, 1.0, q=2, tol=1e-3, max_iter=it)
        minus_yG = y - K @ (r.alpha * y)
        status = alpha_status(r.alpha, 1.0, 0.0)
        assert not r.converged and r.n_iter == it
        assert r.gap == pytest.approx(select_working_set(minus_yG, y, status, 2)[1],
                                      abs=1e-12)


def test_working_set_and_arguments():
    y = np.array([1.0, 1.0, -1.0, -1.0])
    g = np.array([3.0, 1.0, 2.0, -1.0])
    status = alpha_status(np.zeros(4), 1.0, 0.0)
    B, gap = select_working_set(g, y, status, 2)
    # I_up = {y=+1} at alpha=0, I_low = {y=-1}: max -yG over I_up is 3, min over I_low -1
    assert list(B) == [0, 3] and gap == 4.0
    with pytest.raises(ValueError, match="even integer"):
        decomposition_solve(np.eye(4), y, 1.0, q=3)


# ----------------------------------------------------------------------------- hulls
def test_hard_margin_w_is_the_hull_difference():
    X, y = _blobs(20, 2.5)
    K = linear_kernel(X, X)
    hp = nearest_hull_points(K, y, X=X)
    sv = solve_dual(K, y, None, X=X)
    u = (hp.c - hp.d) / np.linalg.norm(hp.c - hp.d)
    assert np.max(np.abs(sv.w / np.linalg.norm(sv.w) - u)) < 1e-6
    assert hp.distance / 2 == pytest.approx(1 / np.linalg.norm(sv.w), rel=1e-6)
    assert np.allclose(np.ones(2), [hp.lam[y > 0].sum(), hp.lam[y < 0].sum()])


def test_soft_margin_is_the_reduced_hull():
    X, y = _blobs(30, 1.0)
    K = linear_kernel(X, X)
    C = 0.5
    sv = solve_dual(K, y, C, X=X)
    s = sv.alpha[y > 0].sum()
    hp = nearest_hull_points(K, y, mu=C / s, X=X)
    u = (hp.c - hp.d) / np.linalg.norm(hp.c - hp.d)
    assert np.max(np.abs(sv.w / np.linalg.norm(sv.w) - u)) < 1e-6
    with pytest.raises(ValueError, match="reduced hulls are empty"):
        nearest_hull_points(K, y, mu=0.01)


# ------------------------------------------------------------------- kernels, Cover
def test_feature_map_of_the_quadratic_kernel():
    rng = np.random.default_rng(0)
    A, B = rng.normal(size=(6, 3)), rng.normal(size=(5, 3))
    Phi = poly2_feature_map(A)
    assert Phi.shape == (6, 10) and len(poly2_feature_names(3)) == 10
    assert np.max(np.abs(Phi @ poly2_feature_map(B).T - (1 + A @ B.T) ** 2)) < 1e-12


def test_cover_counts():
    assert [cover_count(n, 1) for n in (1, 2, 5)] == [2, 2, 2]
    assert all(cover_count(n, d) == 2 ** n for d in range(1, 6) for n in range(1, d + 1))
    assert separable_probability(8, 3) == 0.5            # n = 2(d + 1) with a bias
    assert not is_linearly_separable([[0.0], [1.0], [2.0]], [1, -1, 1])
    assert is_linearly_separable([[0.0], [1.0], [2.0]], [1, 1, -1])
    trials = 300
    for n in (6, 10):
        p = separable_probability(n, 2)
        f = simulate_separable_fraction(n, 2, trials, seed=1)
        assert abs(f - p) <= 4 * np.sqrt(p * (1 - p) / trials) + 1 / trials


# ---------------------------------------------------------------------- multi-class
@needs_data
@pytest.mark.parametrize("name", ["vehicle", "svmguide2"])
def test_libsvm_vote_is_svc_predict(name):
    from svmtext.datasets import load_svmguide, load_vehicle
    X, y = load_vehicle() if name == "vehicle" else load_svmguide("svmguide2")
    X = MinMaxScaler((-1, 1)).fit_transform(X)
    tol = 1e-3
    ovo = OneVsOneClassifier(SMOSVC(C=2.0, gamma=0.5, tol=tol)).fit(X, y)
    svc = SVC(C=2.0, gamma=0.5, tol=tol, decision_function_shape="ovo").fit(X, y)
    F = ovo_pair_decisions(ovo, X)
    winner, votes, tie = libsvm_vote(F, len(ovo.classes_))
    assert np.array_equal(ovo.classes_[winner], svc.predict(X))
    differ = ovo.predict(X) != svc.predict(X)
    assert np.all(tie[differ])          # scikit-learn's OvO differs only on ties
    k = len(ovo.classes_)
    assert votes.sum(axis=1).tolist() == [k * (k - 1) // 2] * len(X)
    assert np.abs(F - svc.decision_function(X)).max() < 10 * tol


@needs_data
def test_smosvc_one_vs_one_is_libsvms():
    """SMOSVC's own one-vs-one: SVC's pairs, sign, layout and vote."""
    from svmtext.datasets import load_vehicle
    X, y = load_vehicle()
    X = MinMaxScaler((-1, 1)).fit_transform(X)
    tol = 1e-3
    ours = SMOSVC(C=2.0, gamma=0.5, tol=tol, decision_function_shape="ovo").fit(X, y)
    svc = SVC(C=2.0, gamma=0.5, tol=tol, decision_function_shape="ovo").fit(X, y)
    F = ours.decision_function(X)
    assert F.shape == (len(X), 6) and ours.dual_coef_.shape[0] == 3
    assert np.abs(F - svc.decision_function(X)).max() < 10 * tol
    # the same pairs as OneVsOneClassifier around the binary SMOSVC (its sign flipped)
    ovo = OneVsOneClassifier(SMOSVC(C=2.0, gamma=0.5, tol=tol)).fit(X, y)
    assert np.abs(F - ovo_pair_decisions(ovo, X)).max() < 10 * tol
    # W of each pair: at SMO's stopping rule the duality gap is at most n C (m - M),
    # so both are within n C tol of the pair's optimum
    C = ours.C
    for p, est in enumerate(ovo.estimators_):
        W = est.fit_info_["dual_objective"]
        assert abs(ours.fit_info_["dual_objective"][p] - W) <= len(est.alpha_) * C * tol
    # LIBSVM's vote on these f_ij is SVC's prediction; 'ovr' scores are SVC's and rank
    # the prediction first where the vote has no tie
    assert np.array_equal(ours.predict(X), svc.predict(X))
    ovr = ours.set_params(decision_function_shape="ovr").decision_function(X)
    svc_ovr = svc.set_params(decision_function_shape="ovr").decision_function(X)
    assert ovr.shape == (len(X), 4) and np.abs(ovr - svc_ovr).max() < 10 * tol
    tied = libsvm_vote(F, 4)[2]
    assert np.array_equal(ours.classes_[ovr.argmax(axis=1)][~tied], ours.predict(X)[~tied])


def test_one_vs_one_layout_reads_as_libsvm_stores_it():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 2)) + np.repeat([[0, 0], [3, 0], [0, 3]], 20, axis=0)
    y = np.repeat(np.array(["b", "a", "c"]), 20)           # classes_ sorted: a, b, c
    svc = SVC(kernel="linear", C=0.5, decision_function_shape="ovo").fit(X, y)
    # SVC's own layout, read by ovo_decisions, gives SVC's decision values
    K = linear_kernel(X, svc.support_vectors_)
    assert np.allclose(ovo_decisions(K, svc.n_support_, svc.dual_coef_, svc.intercept_),
                       svc.decision_function(X), atol=1e-10)
    ours = SMOSVC(kernel="linear", C=0.5, decision_function_shape="ovo").fit(X, y)
    # the layout from alpha_ gives each pair's sum_s alpha_s y_s k(x_s, x) + b_ij
    codes = np.searchsorted(ours.classes_, y)
    for p, (i, j) in enumerate(ovo_pairs(3)):
        yp = np.where(codes == i, 1.0, np.where(codes == j, -1.0, 0.0))
        f = linear_kernel(X, X) @ (ours.alpha_[p] * yp) + ours.intercept_[p]
        assert np.allclose(ours.decision_function(X)[:, p], f, atol=1e-10)
        assert np.all(ours.alpha_[p][yp == 0] == 0)
    assert list(ours.classes_) == ["a", "b", "c"]
    # SVC's support vectors and layout (a point on the margin may be a support vector of
    # one solver only: their alpha differ by about tol)
    assert len(np.setxor1d(ours.support_, svc.support_)) <= 1
    shared = np.isin(ours.support_, svc.support_)
    order = np.argsort(svc.support_)                 # (support_ is grouped by class)
    theirs = order[np.searchsorted(svc.support_[order], ours.support_[shared])]
    assert np.abs(ours.dual_coef_[:, shared] - svc.dual_coef_[:, theirs]).max() < 1e-2
    with pytest.raises(ValueError, match="ovo_predict_proba"):
        SMOSVC(probability=True).fit(X, y)
    with pytest.raises(ValueError, match="not in class_weight"):
        SMOSVC(class_weight={"z": 2.0}).fit(X, y)


def test_vote_ties_go_to_the_first_class():
    # three classes, each pair won by a different class: 1 vote each
    F = np.array([[1.0, -1.0, 1.0]])      # (0,1) -> 0, (0,2) -> 2, (1,2) -> 1
    winner, votes, tie = libsvm_vote(F, 3)
    assert winner[0] == 0 and votes.tolist() == [[1, 1, 1]] and tie[0]


def test_mdm_nearest_points_match_the_qp():
    """MDM (kernel rows only) and the cvxopt QP find the same nearest points."""
    from svmtext.hulls import mdm_nearest_points, nearest_hull_points
    from svmtext.kernels import linear_kernel, rbf_kernel
    rng = np.random.default_rng(1)
    X = np.r_[rng.normal(size=(30, 2)) + 1.0, rng.normal(size=(30, 2)) - 1.0]
    y = np.r_[np.ones(30), -np.ones(30)]
    for K, mu in ((linear_kernel(X + 3 * y[:, None]), 1.0), (linear_kernel(X), 0.2),
                  (rbf_kernel(X, X, gamma=0.5), 0.1)):
        a, b = mdm_nearest_points(K, y, mu, tol=1e-9), nearest_hull_points(K, y, mu)
        assert a.gap < 1e-9 and np.allclose(a.lam[y > 0].sum(), 1) and a.lam.max() <= mu
        # 1/2 |z|^2 - 1/2 |z*|^2 <= Delta_+ + Delta_- <= 2 tol
        assert 0.5 * a.distance**2 - 0.5 * b.distance**2 <= 2e-9 + 1e-9
        assert abs(a.distance - b.distance) < 1e-6
    with pytest.raises(ValueError, match="reduced hulls are empty"):
        mdm_nearest_points(linear_kernel(X), y, mu=0.01)


def test_reduced_hull_extreme_minimises_over_the_reduced_hull():
    from scipy.spatial import ConvexHull

    from svmtext.hulls import reduced_hull_extreme, reduced_hull_vertices

    rng = np.random.default_rng(3)
    P = rng.normal(size=(25, 2))
    for mu in (1.0, 0.25, 0.162):
        for u in rng.normal(size=(5, 2)):
            best = u @ reduced_hull_extreme(P, u, mu)
            # random feasible weights (sum 1, each <= mu) never do better
            for _ in range(200):
                lam = rng.dirichlet(np.ones(len(P)))
                if lam.max() <= mu:
                    assert u @ (lam @ P) >= best - 1e-12
    hull = reduced_hull_vertices(P, 1.0)
    assert np.allclose(np.sort(hull, axis=0), np.sort(P[ConvexHull(P).vertices], axis=0))
    assert len(reduced_hull_vertices(P, 0.162)) >= 3
