"""Charge flow within each class (book: sec-coulomb-flow): the projection that keeps each
class's charge, the flow down the energy to the nu-SVM's charges, the class potentials."""
import numpy as np
import pytest

from svmtext.coulomb.energy import (ChargeSolution, charge_flow, class_potentials,
                                    coulomb_energy, project_class_charges, solve_nu)
from svmtext.kernels import rbf_kernel
from svmtext.qp import solve_box_qp


def _problem(n=24, seed=0):
    rng = np.random.default_rng(seed)
    X = np.r_[rng.normal(-1, 1, (n // 2, 2)), rng.normal(1, 1, (n // 2, 2))]
    y = np.r_[-np.ones(n // 2), np.ones(n // 2)]
    return rbf_kernel(X, gamma=0.5), y


def test_projection_is_the_euclidean_projection_onto_the_class_charges():
    rng = np.random.default_rng(1)
    y = np.r_[np.ones(7), -np.ones(5)]
    v, C, totals = rng.normal(0.1, 0.3, 12), 0.2, (0.5, 0.3)
    a = project_class_charges(v, y, C, totals)
    assert np.all((a >= 0) & (a <= C))
    # bisection to the last bit: the class totals are met to rounding
    assert a[y > 0].sum() == pytest.approx(0.5, abs=1e-12)
    assert a[y < 0].sum() == pytest.approx(0.3, abs=1e-12)
    # min 1/2 |a - v|^2 over the same set, by the reference QP (cvxopt's tolerance)
    A = np.vstack([(y > 0).astype(float), (y < 0).astype(float)])
    ref = solve_box_qp(np.eye(12), -v, A, np.array(totals), 0.0, C)
    np.testing.assert_allclose(a, ref.x, atol=1e-6)


def test_flow_keeps_each_class_charge_and_runs_down_to_the_nu_svm():
    P, y = _problem()
    nu = 0.5
    alpha, energies = charge_flow(P, y, nu, n_steps=3000)
    n = len(y)
    assert np.all((alpha >= 0) & (alpha <= 1.0 / n + 1e-15))
    assert alpha[y > 0].sum() == pytest.approx(nu / 2, abs=1e-12)
    assert alpha[y < 0].sum() == pytest.approx(nu / 2, abs=1e-12)
    # projected gradient with step 1/lambda_max on a convex quadratic: the energy never
    # rises (to rounding), and it ends at the minimum the nu-SVM's QP finds
    assert np.all(np.diff(energies) <= 1e-12 * np.abs(energies).max())
    best = solve_nu(P, y, nu)
    assert energies[-1] >= best.energy - 1e-9                 # cvxopt's precision
    assert energies[-1] == pytest.approx(best.energy, rel=1e-4)
    assert energies[-1] == pytest.approx(coulomb_energy(alpha, P, y), rel=1e-12)
    # energy_tol stops the flow once a step changes the energy by less than that
    _, short = charge_flow(P, y, nu, n_steps=3000, energy_tol=1e-6)
    assert len(short) < len(energies) and abs(short[-1] - short[-2]) < 1e-6


def test_class_potentials_mean_over_free_else_the_kkt_interval():
    y = np.array([1.0, 1.0, 1.0, -1.0, -1.0])
    v = np.array([0.9, 1.1, 5.0, -2.0, 3.0])
    C = 1.0
    # class +1: two free conductors (mean 1.0); class -1: one at C (y*phi <= s) and one
    # uncharged (y*phi >= s): the middle of [-2, 3]
    alpha = np.array([0.5, 0.3, 0.0, 1.0, 0.0])
    assert class_potentials(v, alpha, y, C) == pytest.approx((1.0, 0.5))
    # class -1 all uncharged: no conductor at C, so the interval is (-inf, min y*phi]
    # and its finite end, -2, is taken
    alpha = np.array([0.5, 0.3, 0.0, 0.0, 0.0])
    assert class_potentials(v, alpha, y, C)[1] == pytest.approx(-2.0)


def test_charged_conductors_are_the_support():
    sol = ChargeSolution(alpha=np.array([0.0, 0.2, 0.0, 1.0]), b=0.0, energy=0.0)
    np.testing.assert_array_equal(sol.support, [1, 3])
