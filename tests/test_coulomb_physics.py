"""Physics of the Coulomb chapter: the potentials of R^1 and R^2, touching shells,
convexity checks of the solvers, the one-equation and quick-and-dirty edge cases,
and the estimators' BaseSVC attributes."""
import warnings

import numpy as np
import pytest

from svmtext.coulomb import (PSVC, Coulomb, CoulombSVC, EnergyQuantizer, KappaSVC, LPSVC,
                             NuCoulombSVC, OneEquationSVC, Plummer, QuickSVC,
                             maximize_energy, neutral_min_eigenvalue, potential_matrix,
                             quick_and_dirty, solve_battery, solve_nu)
from svmtext.coulomb.energy import NonConvexWarning


def _data(n=20, seed=0):
    rng = np.random.default_rng(seed)
    X = np.r_[rng.normal(size=(n, 2)) + 1, rng.normal(size=(n, 2)) - 1]
    return X, np.r_[np.ones(n), -np.ones(n)]


@pytest.mark.parametrize("dim, g", [(1, lambda r: -r), (2, lambda r: -np.log(r)),
                                    (3, lambda r: 1 / r), (5, lambda r: r ** -3.0)])
def test_coulomb_potential_of_each_dimension(dim, g):
    r = np.array([0.5, 1.0, 2.0, 3.0])
    np.testing.assert_allclose(Coulomb(dim=dim).g(r ** 2), g(r), rtol=1e-12)


@pytest.mark.parametrize("dim", [1, 2, 3, 4])
def test_touching_shells_are_positive_definite_on_neutral_charges(dim):
    X = np.random.default_rng(dim).normal(size=(60, dim))
    shell = potential_matrix(X, Coulomb(self_potential="shell"))[0]
    nearest = potential_matrix(X, Coulomb(self_potential="nearest"))[0]
    top = np.linalg.eigvalsh(shell)[-1]
    assert neutral_min_eigenvalue(shell) > 1e-9 * top
    assert neutral_min_eigenvalue(nearest) < 0
    if dim >= 3:
        assert np.linalg.eigvalsh(shell)[0] > 0
    # off the diagonal the two rules agree; on it the shell's radius is r_i / 2
    off = ~np.eye(len(X), dtype=bool)
    np.testing.assert_allclose(shell[off], nearest[off], rtol=1e-12)
    k = Coulomb(dim=dim, self_potential="shell")
    np.testing.assert_allclose(k.radii2(X) * 4, Coulomb(dim=dim).radii2(X))


@pytest.mark.parametrize("dim", [2, 3])
def test_repeated_points_get_coincident_shells(dim):
    """delta_i is over distinct points: a repeated point keeps a positive radius, and
    two coincident shells have mutual coefficient g(a_i^2) = their self-potential;
    the matrix is then singular (two equal rows), still PSD on neutral charges."""
    X = np.random.default_rng(dim).normal(size=(30, dim))
    Xd = np.vstack([X, X[:1]])
    k = Coulomb(self_potential="shell")
    P = potential_matrix(Xd, k)[0]
    r2 = k.radii2(Xd)
    assert np.all(np.isfinite(P)) and np.all(r2 > 0)
    assert r2[0] == r2[-1]
    np.testing.assert_allclose(P[0, -1], P[0, 0], rtol=1e-12)
    np.testing.assert_allclose(P[0], P[-1], rtol=1e-12)
    top = np.linalg.eigvalsh(P)[-1]
    assert neutral_min_eigenvalue(P) >= -1e-12 * top
    # the distinct points' block is the matrix without the repeat
    np.testing.assert_allclose(P[:-1, :-1], potential_matrix(X, k)[0], rtol=1e-12)


def test_p_svm_charges_conductors_inside_the_other_class():
    """Against the source's "outliers get a small alpha_i": with beta = 1 the
    conductors with psi_i < 0 get more charge on average than the others."""
    X, y = _data(20, seed=3)
    X[:3] -= 2.5                    # three + points deep inside the - class
    clf = PSVC(kernel="rbf", gamma=0.5, C=10.0).fit(X, y)
    P = np.exp(-0.5 * ((X[:, None] - X[None]) ** 2).sum(-1))
    psi = y * (P @ y)
    assert np.any(psi < 0)
    assert clf.alpha_[psi < 0].mean() > clf.alpha_[psi > 0].mean()


def test_coulomb_dim_is_taken_from_the_data_or_refused():
    X, y = _data()
    P = potential_matrix(X, Coulomb(self_potential="shell"))[0]
    assert np.ptp(P) > 0                       # not the constant z^0 = 1
    clf = CoulombSVC(kernel=Coulomb(self_potential="shell"), C=10.0).fit(X, y)
    assert clf.kernel_.dim == 2 and clf.score(X, y) > 0.9
    with pytest.raises(ValueError, match="dim"):
        Coulomb().g(np.ones(3))
    with pytest.raises(ValueError, match="dim"):
        Coulomb(dim=0)
    with pytest.raises(ValueError, match="self_potential"):
        Coulomb(self_potential="centre")
    with pytest.raises(ValueError, match="self_potential"):
        Plummer(self_potential="sphere")


def test_solve_nu_refuses_a_non_convex_energy():
    _, y = _data()
    with pytest.raises(ValueError, match="not positive semi-definite"):
        solve_nu(-np.eye(len(y)), y, 0.3)
    X, y = _data()
    with pytest.raises(ValueError, match="not positive semi-definite"):
        NuCoulombSVC(nu=0.3, kernel=Coulomb(dim=3)).fit(X, y)


def test_indefinite_c_svm_warns_and_reports_a_stationary_point():
    X, y = _data()
    P = potential_matrix(X, Plummer(softening=1.0, n=2))[0]
    lam = neutral_min_eigenvalue(P)
    assert lam < 0
    with pytest.warns(NonConvexWarning, match="stationary point"):
        sol = solve_battery(P, y, 1.0)
    assert sol.info["convex"] is False
    assert sol.info["neutral_min_eigenvalue"] == pytest.approx(lam, rel=1e-9)
    with pytest.raises(ValueError, match="not positive semi-definite"):
        solve_battery(P, y, 1.0, solver="qp")
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # a PSD kernel: no warning
        assert solve_battery(P + 10 * np.eye(len(y)), y, 1.0).info["convex"] is True


def test_one_equation_on_two_points_says_what_to_do():
    X, y = np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([0, 1])
    with pytest.raises(ValueError, match="pass a larger kappa0"):
        OneEquationSVC().fit(X, y)
    clf = OneEquationSVC(kappa0=2.0).fit(X, y)
    assert clf.score(X, y) == 1.0


def test_quick_and_dirty_two_readings():
    X, y = _data()
    P = potential_matrix(X, "rbf", gamma=2.0)[0]
    mu = y * (P @ y)
    mu_min = np.sort(mu[mu > 0])[2] + 1e-12    # three positive mu_i below the bound
    floor = quick_and_dirty(P, y, mu_min=mu_min, rule="floor")
    drop = quick_and_dirty(P, y, mu_min=mu_min, rule="drop")
    low = mu < mu_min
    assert low.sum() >= 3 and floor.info["n_below_mu_min"] == low.sum()
    np.testing.assert_allclose(floor.alpha[low], 1 / mu_min)
    np.testing.assert_array_equal(drop.alpha[low], 0.0)
    np.testing.assert_allclose(drop.alpha[~low], floor.alpha[~low])
    with pytest.raises(ValueError, match="rule"):
        quick_and_dirty(P, y, mu_min=mu_min, rule="clip")
    clf = QuickSVC(rule="drop", mu_min=mu_min, gamma=2.0).fit(X, y)
    np.testing.assert_array_equal(np.sort(clf.support_), np.flatnonzero(~low))


def test_softening_and_charge_floor_have_their_own_names():
    """Plummer's softening length is ``softening`` and the quantiser's charge floor is
    ``alpha_min``; the former name ``eps`` of both still works, with a FutureWarning."""
    X, _ = _data()
    new = Plummer(softening=0.7, n=2)
    with pytest.warns(FutureWarning, match="softening"):
        old = Plummer(eps=0.7, n=2)
    assert old == new and new.softening == 0.7
    np.testing.assert_array_equal(old(X), new(X))
    P = potential_matrix(X, "rbf", gamma=2.0)[0]
    a_new, p_new, _ = maximize_energy(P, 3, alpha_min=1e-3)
    with pytest.warns(FutureWarning, match="alpha_min"):
        a_old, p_old, _ = maximize_energy(P, 3, eps=1e-3)
    np.testing.assert_array_equal(a_old, a_new)
    assert a_new.min() >= 1e-3 - 1e-12       # the floor is the floor
    with pytest.raises(ValueError, match="alpha_min"):
        maximize_energy(P, 3, alpha_min=1.0)
    q_new = EnergyQuantizer(alpha_min=1e-3, gamma=2.0).fit(X)
    with pytest.warns(FutureWarning, match="alpha_min"):
        q_old = EnergyQuantizer(eps=1e-3, gamma=2.0).fit(X)
    np.testing.assert_array_equal(q_old.prototype_indices_, q_new.prototype_indices_)


@pytest.mark.parametrize("clf", [CoulombSVC(C=1.0), NuCoulombSVC(nu=0.3), KappaSVC(),
                                 PSVC(), PSVC(solver="smo"), LPSVC()])
def test_estimators_report_dual_objective_and_iterations(clf):
    X, y = _data()
    clf.fit(X, y)
    info = clf.fit_info_
    assert info["dual_objective"] == -info["energy"]
    assert isinstance(clf.n_iter_, int) and clf.n_iter_ > 0
    assert clf.C_ > 0


def test_c_svm_dual_objective_is_libsvm_w():
    X, y = _data()
    clf = CoulombSVC(C=1.0, tol=1e-8).fit(X, y)
    P = potential_matrix(X, "rbf", gamma=1.0 / (2 * X.var()))[0]
    q = np.zeros(len(y))
    q[clf.support_] = clf.dual_coef_[0]
    W = np.abs(q).sum() - 0.5 * q @ P @ q
    assert clf.fit_info_["dual_objective"] == pytest.approx(W, rel=1e-9)
