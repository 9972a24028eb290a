r"""Property-based tests: every solver family against cvxopt on random problems.

Problems are drawn by hypothesis (derandomised, so CI sees the same examples every
run): 4 to 36 points in 1 to 4 dimensions, features scaled by :math:`10^{-3}` to
:math:`10^{3}` each, duplicated rows (some with the opposite label), box constants from
:math:`10^{-3}` to :math:`10^{3}`, linear and RBF kernels.

The reference solves LIBSVM's form of each dual,
:math:`\min_\alpha \tfrac12\alpha^\top Q\alpha - p^\top\alpha` s.t. :math:`y^\top\alpha =
\Delta`, :math:`0 \le \alpha \le C`, with cvxopt directly (independently of
:mod:`svmtext.qp`). Bound on the objective: at a feasible point whose SMO gap is
:math:`m(\alpha) - M(\alpha) < \text{tol}`, convexity gives for the optimum
:math:`\alpha^*` and any :math:`b \in [M, m]`

.. math::

    F(\alpha) - F(\alpha^*) \le \sum_k (-y_kG_k - b)\, y_k(\alpha^*_k - \alpha_k)
    \le \tfrac{\text{tol}}{2} \lVert \alpha^* - \alpha\rVert_1 \le \tfrac{\text{tol}}{2}\,
    \min(C\, n_{\text{var}},\ 2\lvert\Delta\rvert + \ldots) ,

i.e. :math:`\tfrac12\,\text{tol}\; C\, n_{\text{var}}` for the SVM and SVR
(:math:`n_{\text{var}} = n`, :math:`2n`) and :math:`\text{tol}` for SVDD
(:math:`\sum_k\alpha_k = 1`, so :math:`\lVert\alpha^* - \alpha\rVert_1 \le 2`), plus
cvxopt's own error (:math:`10^{-7}` of the objective's scale).

Iteration budget: SMO must stop within :func:`budget` pair updates (a solver that
cycles exceeds it).
"""
from __future__ import annotations

import os

import cvxopt
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from svmtext import QPSVC, SMOSVC, SMOSVR
from svmtext.eco import solve_svdd_qp, svdd_objective, svdd_smo
from svmtext.eco.svdd_dual import svdd_kkt_gap
from svmtext.kernels import gram

SETTINGS = settings(max_examples=25, derandomize=True, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


def budget(n_var, CK):
    r"""Pair updates an SMO may make: :math:`10^3\, n_{\text{var}}^2 \max(1, \sqrt{C \max_k
    K_{kk}})`. SMO's linear rate degrades with the conditioning of the box-scaled
    problem: over these examples the largest count is 11 times
    :math:`n_{\text{var}}^2\sqrt{C\max_k K_{kk}}`, over a wider draw of 30 examples per
    family about 190 (SMOSVR, a linear kernel on features of scale :math:`10^3`); the
    budget leaves a factor 5 over that."""
    return int(1000 * n_var * n_var * max(1.0, np.sqrt(CK)))


@st.composite
def problems(draw, classes=True):
    """``(X, y)``: random points, badly scaled features, duplicated rows."""
    n = draw(st.integers(4, 30))
    d = draw(st.integers(1, 4))
    seed = draw(st.integers(0, 2**32 - 1))
    scales = 10.0 ** np.array(draw(st.lists(st.integers(-3, 3), min_size=d, max_size=d)))
    n_dup = draw(st.integers(0, min(6, n // 2)))
    flip = draw(st.booleans())
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    y[:2] = [1.0, -1.0]                                  # both classes
    X = (rng.normal(size=(n, d)) + 0.8 * y[:, None]) * scales
    if n_dup:
        rows = rng.choice(n, n_dup)
        X = np.vstack([X, X[rows]])
        y = np.r_[y, -y[rows] if flip else y[rows]]
    if not classes:
        y = X @ rng.normal(size=d) / scales.mean() + rng.normal(scale=0.1, size=len(X))
    return X, y


kernels = st.sampled_from(["linear", "rbf"])
Cs = st.sampled_from([1e-3, 1e-1, 1.0, 1e2, 1e3])


def _kernel(X, kernel):
    """The Gram matrix with gamma = 1 / (d Var X) (scikit-learn's 'scale')."""
    gamma = 1.0 / (X.shape[1] * X.var()) if X.var() > 0 else 1.0
    return gram(X, kernel=kernel, gamma=gamma), gamma


def cvxopt_dual(Q, p, y, delta, C):
    """``min 1/2 a'Qa - p'a  s.t.  y'a = delta, 0 <= a <= C`` by cvxopt; ``(a, F*)``."""
    n = len(p)
    m = cvxopt.matrix
    G = np.vstack([-np.eye(n), np.eye(n)])
    h = np.r_[np.zeros(n), np.full(n, C)]
    res = cvxopt.solvers.qp(m(Q), m(-p), m(G), m(h), m(y[None, :].astype(float)), m(float(delta)),
                            options={"show_progress": False, "abstol": 1e-11, "reltol": 1e-11,
                                     "feastol": 1e-11, "maxiters": 300})
    a = np.clip(np.array(res["x"]).ravel(), 0.0, C)
    assert res["status"] in ("optimal", "unknown")
    return a, float(0.5 * a @ Q @ a - p @ a)


def _scale(Q, p, C):
    """Size of the objective's terms, for cvxopt's own relative error."""
    return max(1.0, float(np.abs(p).sum()) * C, float(np.abs(Q).max()) * C * C * len(p))


# Some drawn problems (C * max K_ii up to 1e9) take SMO minutes of iterations: the SMO
# families run on request (SVMTEXT_SLOW_PROPERTIES=1), not in make test.
SLOW = pytest.mark.skipif(not os.environ.get("SVMTEXT_SLOW_PROPERTIES"),
                          reason="set SVMTEXT_SLOW_PROPERTIES=1 (minutes of SMO iterations)")


@SLOW
@SETTINGS
@given(problems(), kernels, Cs)
def test_smosvc_against_cvxopt(problem, kernel, C):
    X, y = problem
    K, gamma = _kernel(X, kernel)
    tol = 1e-3
    n_max = budget(len(y), C * np.diag(K).max())
    est = SMOSVC(C=C, kernel=kernel, gamma=gamma, tol=tol, max_iter=n_max).fit(X, y)
    assert est.fit_info_["converged"] and est.n_iter_ <= n_max
    Q = np.outer(y, y) * K
    _, f_opt = cvxopt_dual(Q, np.ones(len(y)), y, 0.0, C)
    w_est, w_opt = est.fit_info_["dual_objective"], -f_opt
    slack = 0.5 * tol * C * len(y) + 1e-7 * _scale(Q, np.ones(len(y)), C)
    assert w_opt - w_est <= slack                        # W >= W* - bound
    assert w_est <= w_opt + 1e-7 * _scale(Q, np.ones(len(y)), C)


@SETTINGS
@given(problems(), kernels, Cs)
def test_qpsvc_against_cvxopt(problem, kernel, C):
    X, y = problem
    K, gamma = _kernel(X, kernel)
    est = QPSVC(C=C, kernel=kernel, gamma=gamma).fit(X, y)
    assert est.fit_info_["status"] in ("optimal", "unknown") and est.fit_info_["iterations"] <= 200
    Q = np.outer(y, y) * K
    _, F = cvxopt_dual(Q, np.ones(len(y)), y, 0.0, C)
    assert abs(est.fit_info_["dual_objective"] + F) <= 1e-6 * _scale(Q, np.ones(len(y)), C)


@SLOW
@SETTINGS
@given(problems(classes=False), kernels, Cs, st.sampled_from([0.0, 0.1, 1.0]))
def test_smosvr_against_cvxopt(problem, kernel, C, epsilon):
    X, z = problem
    n = len(z)
    K, gamma = _kernel(X, kernel)
    tol = 1e-3
    n_max = budget(2 * n, C * np.diag(K).max())
    est = SMOSVR(C=C, epsilon=epsilon, kernel=kernel, gamma=gamma, tol=tol,
                 max_iter=n_max).fit(X, z)
    assert est.fit_info_["converged"] and est.fit_info_["n_iter"] <= n_max
    # LIBSVM's SVR dual on (alpha, alpha*): y = (1, -1), p = (z - eps, -z - eps)
    y2 = np.r_[np.ones(n), -np.ones(n)]
    Q = np.outer(y2, y2) * np.block([[K, K], [K, K]])
    p = np.r_[z - epsilon, -z - epsilon]
    _, F = cvxopt_dual(Q, p, y2, 0.0, C)
    F_est = -est.fit_info_["dual_objective"]
    slack = 0.5 * tol * C * 2 * n + 1e-7 * _scale(Q, p, C)
    assert F_est - F <= slack and F - F_est <= 1e-7 * _scale(Q, p, C)


@SETTINGS
@given(problems(), kernels, st.sampled_from([0.05, 0.2, 0.5, 1.0]))
def test_svdd_against_cvxopt(problem, kernel, C):
    X, _ = problem
    n = len(X)
    C = max(C, 1.0 / n)                                   # C n >= 1: feasible
    K, _ = _kernel(X, kernel)
    tol = 1e-6
    a = svdd_smo(K, C, tol=tol, max_iter=budget(n, C * np.diag(K).max()))
    assert svdd_kkt_gap(a, K, C) < tol + 1e-12 * np.abs(K).max()   # stopped by the rule
    Q, p = 2 * K, np.diag(K).copy()
    _, f_opt = cvxopt_dual(Q, p, np.ones(n), 1.0, C)
    l_smo, l_opt = svdd_objective(a, K), -f_opt
    assert l_opt - l_smo <= tol + 1e-7 * _scale(Q, p, C)
    assert l_smo <= l_opt + 1e-7 * _scale(Q, p, C)
    L_qp = svdd_objective(solve_svdd_qp(K, C), K)
    assert abs(L_qp - l_opt) <= 1e-6 * _scale(Q, p, C)


def test_budget_is_stated():
    assert budget(10, 0.5) == 100_000 and budget(10, 400.0) == 2_000_000


if __name__ == "__main__":                                 # pragma: no cover
    pytest.main([__file__, "-q", "-n", "0"])
