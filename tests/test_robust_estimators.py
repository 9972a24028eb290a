"""Estimators on small or awkward inputs: the right answer, or a message that says what to do."""
import cvxopt
import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

from svmtext import SVDD, QPSVC, SMOSVC, SMOSVR, EcoSVC, EcoSVDD, PrototypeSVC
from svmtext._validation import check_kernel_psd, check_psd, kernel_needs_check
from svmtext.eco import solve_svdd_qp, svdd_smo
from svmtext.eco.svdd_dual import svdd_kkt_gap
from svmtext.kernels import gram


def _four_and_five(seed=0):
    rng = np.random.default_rng(seed)
    X = np.r_[rng.normal(-3, 1, (4, 2)), rng.normal(3, 1, (5, 2))]
    return X, np.r_[np.zeros(4), np.ones(5)]


def _sigmoid(A, B):
    return np.tanh(2.0 * A @ B.T - 1.0)


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_ecosvc_with_fewer_points_than_n_start_solves_them(kernel):
    X, y = _four_and_five()
    eco = EcoSVC(kernel=kernel).fit(X, y)            # n_start = 10 > 9 points
    qp = QPSVC(kernel=kernel).fit(X, y)
    assert len(eco.support_) > 0
    assert np.mean(eco.predict(X) == y) == 1.0
    assert eco.fit_info_["dual_objective"] == pytest.approx(qp.fit_info_["dual_objective"],
                                                            rel=1e-3)
    two = EcoSVC(kernel=kernel).fit(X[[0, 5]], y[[0, 5]])
    assert two.predict(X[[0, 5]]).tolist() == [0.0, 1.0]


def test_ecosvc_partial_fit_below_n_start_waits_for_the_initial_batch():
    # a stream keeps collecting its initial batch of n_start points (the source's
    # EcoSVM); until then there is no model, and predicting says so
    X, y = _four_and_five()
    eco = EcoSVC(kernel="linear")
    eco.partial_fit(X[[0, 5]], y[[0, 5]], classes=[0, 1])
    with pytest.raises(NotFittedError, match="n_start = 10"):
        eco.predict(X[[0, 5]])
    eco.partial_fit(X, y)                            # 11 points: the batch is solved
    assert np.mean(eco.predict(X) == y) == 1.0


def test_ecosvc_partial_fit_does_not_solve_early():
    # blocks of 5 with n_start = 10: the first model is the 10-point batch, exactly
    # as when all points come in one call
    X, y = _four_and_five()
    X, y = np.r_[X, X + 0.1], np.r_[y, y]
    order = np.r_[0, 5, 1, 6, 2, 7, 3, 8, 4, 9, 10, 15, 11, 16]
    blocks = EcoSVC(kernel="linear")
    for lo in range(0, len(order), 5):
        blocks.partial_fit(X[order[lo:lo + 5]], y[order[lo:lo + 5]], classes=[0, 1])
    whole = EcoSVC(kernel="linear").partial_fit(X[order], y[order], classes=[0, 1])
    assert blocks.n_invasions_ == whole.n_invasions_
    assert np.allclose(blocks.decision_function(X), whole.decision_function(X))


def test_ecosvc_one_class_so_far_has_no_model():
    X, y = _four_and_five()
    eco = EcoSVC(kernel="linear")
    eco.partial_fit(X[:3], y[:3], classes=[0, 1])
    with pytest.raises(NotFittedError, match="both classes"):
        eco.predict(X)


def _indefinite_data():
    X = np.random.default_rng(1).normal(size=(30, 3))
    K = _sigmoid(X, X)
    assert np.linalg.eigvalsh(K)[0] < -1.0           # the sigmoid is indefinite here
    return X, K


@pytest.mark.parametrize("Est", [SVDD, EcoSVDD])
def test_svdd_refuses_an_indefinite_kernel(Est):
    X, _ = _indefinite_data()
    with pytest.raises(ValueError, match=r"not positive semi-definite.*SVDD needs a Mercer"):
        Est(kernel=_sigmoid).fit(X)


@pytest.mark.parametrize("solver", [solve_svdd_qp, svdd_smo])
def test_svdd_solvers_refuse_an_indefinite_matrix(solver):
    _, K = _indefinite_data()
    with pytest.raises(ValueError, match="not positive semi-definite"):
        solver(K, 1.0)


@pytest.mark.parametrize("Est", [QPSVC, SMOSVC, EcoSVC, SMOSVR])
def test_svms_refuse_an_indefinite_kernel(Est):
    X, _ = _indefinite_data()
    y = np.r_[np.zeros(15), np.ones(15)]
    with pytest.raises(ValueError, match="not positive semi-definite"):
        Est(kernel=_sigmoid).fit(X, y)


def test_solve_svdd_qp_reads_the_solver_status(monkeypatch):
    X = np.random.default_rng(2).normal(size=(12, 2))
    K = gram(X, kernel="rbf", gamma=0.5)
    real = cvxopt.solvers.qp

    def stalled(*args, **kw):
        res = real(*args, **kw)
        res["status"] = "unknown"
        res["x"] = cvxopt.matrix(np.full(12, 1.0 / 12))   # feasible, far from optimal
        return res

    monkeypatch.setattr(cvxopt.solvers, "qp", stalled)
    with pytest.raises(ValueError, match=r"did not reach an optimum \(cvxopt status 'unknown'"):
        solve_svdd_qp(K, 1.0)

    def broken(*args, **kw):
        raise ValueError("Rank(A) < p or Rank([P; A; G]) < n")

    monkeypatch.setattr(cvxopt.solvers, "qp", broken)
    with pytest.raises(ValueError, match=r"SVDD quadratic programme could not be solved.*Rank"):
        solve_svdd_qp(K, 1.0)


def test_solve_svdd_qp_optimum_has_zero_gap():
    X = np.random.default_rng(3).normal(size=(20, 2))
    K = gram(X, kernel="rbf", gamma=0.5)
    assert svdd_kkt_gap(solve_svdd_qp(K, 0.2), K, 0.2) < 1e-6
    assert svdd_kkt_gap(np.full(20, 1 / 20), K, 0.2) > 1e-2


def test_check_psd_on_the_neutral_subspace():
    D = np.subtract.outer(np.arange(6.0), np.arange(6.0)) ** 2
    check_psd(-D, orthogonal_to=np.ones(6))          # -|x - z|^2: conditionally PSD
    with pytest.raises(ValueError, match="not positive semi-definite"):
        check_psd(-D)
    with pytest.raises(ValueError, match="orthogonal to the constraint"):
        check_psd(D, orthogonal_to=np.ones(6))


def test_check_kernel_psd_reads_a_principal_block():
    X, K = _indefinite_data()
    with pytest.raises(ValueError, match="first 30 training points"):
        check_kernel_psd(_sigmoid, X, needed_by="x")
    with pytest.raises(ValueError, match="first 10 training points"):
        check_kernel_psd(K, needed_by="x", max_rows=10)
    check_kernel_psd(gram(X, kernel="rbf", gamma=1.0), needed_by="x")
    assert [kernel_needs_check(k, c) for k, c in [("rbf", 0), ("linear", 0), ("poly", 1),
                                                  ("poly", -1), (_sigmoid, 0)]] == [
        False, False, False, True, True]


def test_smosvc_refuses_infinite_C_in_its_parameters():
    X, y = _four_and_five()
    with pytest.raises(ValueError, match="'C' parameter of SMOSVC"):
        SMOSVC(C=np.inf).fit(X, y)


def test_prototype_svc_on_constant_X_says_so():
    X = np.ones((10, 2))
    y = np.r_[np.zeros(5), np.ones(5)]
    with pytest.raises(ValueError, match="every row of X is the same point"):
        PrototypeSVC(k=2, n_iter=2, random_state=0).fit(X, y)


def test_smosvr_one_sample_message():
    with pytest.raises(ValueError) as info:
        SMOSVR().fit(np.ones((1, 2)), [1.0])
    assert str(info.value) == "SMOSVR needs at least 2 samples to fit; got n_samples = 1"


def test_qp_on_features_of_scale_1e6_is_solved_rescaled():
    """K_ii ~ 1e13, multipliers ~ 1e-14: below cvxopt's absolute tolerances unless the
    problem is rescaled (K/s, box sC); the same solution as on the unit-scale data."""
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(-3.0, 0.5, (10, 2)), rng.normal(3.0, 0.5, (10, 2))])
    y = np.r_[np.zeros(10), np.ones(10)]
    unit = QPSVC(kernel="linear", C=1.0).fit(X, y)
    big = QPSVC(kernel="linear", C=1e-12).fit(X * 1e6, y)  # the same problem: K 1e12, C 1e-12
    assert np.mean(big.predict(X * 1e6) == y) == 1.0
    assert big.intercept_[0] == pytest.approx(unit.intercept_[0], abs=1e-6)
    np.testing.assert_allclose(big.alpha_ * 1e12, unit.alpha_, atol=1e-6)
    huge_box = QPSVC(kernel="linear", C=1.0).fit(X * 1e6, y)  # the box far above alpha
    assert np.mean(huge_box.predict(X * 1e6) == y) == 1.0 and len(huge_box.support_) > 0
    assert huge_box.fit_info_["dual_objective"] == pytest.approx(
        SMOSVC(kernel="linear", C=1.0, tol=1e-8).fit(X * 1e6, y).fit_info_["dual_objective"],
        rel=1e-6)


def _rbf_problem(n=30, seed=3):
    """A positive definite P (RBF) on two overlapping clouds, labels -1/+1."""
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = rng.normal(size=(n, 2)) + 0.8 * y[:, None]
    return gram(X, kernel="rbf", gamma=0.5), y


def test_coulomb_solvers_on_a_potential_matrix_of_scale_1e12():
    """P and s P with s = 1e12 (features of scale 1e6, linear kernel) are the same
    problems: the nu-SVM has the same charges and s times the multipliers; the p-SVM with
    the box C/s has the charges alpha/s; the LP-SVM has the same optimal value. The
    answers are unique (P and P^T P positive definite; an LP's value) and the solvers'
    accuracy is the interior point's, 1e-6 relative."""
    from svmtext.coulomb import solve_lp, solve_nu
    from svmtext.coulomb.equalize import solve_p

    P, y = _rbf_problem()
    s = 1e12
    nu1, nus = solve_nu(P, y, 0.4), solve_nu(s * P, y, 0.4)
    assert nus.info["status"] == "optimal"
    np.testing.assert_allclose(nus.alpha, nu1.alpha, atol=1e-6 / len(y))
    assert nus.b == pytest.approx(s * nu1.b, rel=1e-5, abs=1e-6 * s)
    assert nus.info["rho"] == pytest.approx(s * nu1.info["rho"], rel=1e-5)
    p1, ps = solve_p(P, y, 1.0, solver="qp"), solve_p(s * P, y, 1.0 / s, solver="qp")
    np.testing.assert_allclose(s * ps.alpha, p1.alpha, atol=1e-6)
    assert ps.energy == pytest.approx(p1.energy, rel=1e-6)
    lp1, lps = solve_lp(P, y), solve_lp(s * P, y)
    assert lps.energy == pytest.approx(lp1.energy, rel=1e-9)
    r = s * P @ (y * lps.alpha) - y                  # ||P q + phi||_1 at the answer
    assert np.abs(r).sum() == pytest.approx(lps.energy, rel=1e-9)


def test_energy_maximisation_refuses_an_indefinite_matrix():
    from svmtext.coulomb import EnergyQuantizer, maximize_energy

    P, _ = _rbf_problem()
    with pytest.raises(ValueError, match="not positive semi-definite"):
        maximize_energy(-P, 3)
    X = np.random.default_rng(0).normal(size=(20, 2))
    with pytest.raises(ValueError, match="energy maximisation"):
        EnergyQuantizer(kernel=lambda A, B: -(A @ B.T)).fit(X)


def test_quick_svc_drops_the_conductors_inside_the_other_class_by_default():
    """Two copies of a point with opposite labels: the floor charges the copy inside the
    other class with beta/mu_min and it decides everywhere; the default drop reading
    leaves it uncharged (book: sec-coulomb-fast)."""
    from svmtext.coulomb import QuickSVC

    rng = np.random.default_rng(0)
    X = np.r_[rng.normal(-3, 0.5, (10, 2)), rng.normal(3, 0.5, (10, 2))]
    y = np.r_[np.zeros(10), np.ones(10)]
    Xd, yd = np.r_[X, X[:1], X[-1:]], np.r_[y, 1.0, 0.0]
    drop = QuickSVC().fit(Xd, yd)
    assert drop.rule == "drop" and np.mean(drop.predict(X) == y) == 1.0
    assert drop.alpha_[-2:].tolist() == [0.0, 0.0]
    floor = QuickSVC(rule="floor").fit(Xd, yd)
    assert np.mean(floor.predict(X) == y) < 0.5
