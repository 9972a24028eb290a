"""EnumSV (svmtext.enumsv): exactness against the brute force over all index subsets,
order, distinctness, the first model, warm against cold starts, bad input, EnumSVC."""
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from svmtext.enumsv import (MAX_BRUTE_FORCE_N, EnumSVC, Subproblems, brute_force_models,
                            enumerate_models, prepare_problem)

TOL = 1e-10
U = np.finfo(float).eps


def problem(seed, n, d=2):
    """Gaussian points, labels from a noisy linear rule, both classes present."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(X[:, 0] + 0.7 * rng.normal(size=n) > 0, 1, -1)
    y[:2] = (1, -1)
    return X, y


def same_value(a, b, n):
    """Objectives equal within both error bounds and the rounding of W (n terms)."""
    scale = max(1.0, abs(a.objective), abs(b.objective))
    return abs(a.objective - b.objective) <= (a.objective_error + b.objective_error
                                              + 8 * n * U * scale)


def distinct_values(models, n):
    """The objective values, merging neighbours that are equal within the error bounds."""
    out = []
    for m in models:
        if not out or not same_value(out[-1], m, n):
            out.append(m)
    return out


settings.register_profile("enumsv", max_examples=12, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])


@settings(settings.get_profile("enumsv"))
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(3, 10),
       C=st.sampled_from([0.1, 1.0, 10.0]), gamma=st.sampled_from([0.3, 1.0, 3.0]))
def test_rbf_enumeration_equals_brute_force(seed, n, C, gamma):
    """A strictly positive definite kernel: the solution of every subproblem is unique,
    Assumption 1 holds, and the enumeration is exactly the brute force."""
    X, y = problem(seed, n)
    kw = dict(C=C, kernel="rbf", gamma=gamma, tol=TOL)
    E = list(enumerate_models(X, y, **kw))
    B = brute_force_models(X, y, **kw)
    assert {tuple(m.support) for m in E} == {tuple(m.support) for m in B}
    assert len(E) == len(B)
    for e, b in zip(E, B):     # the same objective sequence
        assert same_value(e, b, n)


@settings(settings.get_profile("enumsv"))
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(3, 10),
       C=st.sampled_from([0.1, 1.0, 10.0]))
def test_linear_enumeration_reaches_every_objective_value(seed, n, C):
    """Linear kernel in 2-D: Q is singular and solutions need not be unique, so supports
    may differ from the brute force's; the objective values may not (Proposition 1)."""
    X, y = problem(seed, n)
    kw = dict(C=C, kernel="linear", tol=TOL)
    E = distinct_values(list(enumerate_models(X, y, **kw)), n)
    B = distinct_values(brute_force_models(X, y, **kw), n)
    assert len(E) == len(B)
    assert all(same_value(e, b, n) for e, b in zip(E, B))


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_order_distinct_first_model(kernel, seed):
    X, y = problem(seed, 40, d=3)
    C = 1.0
    models = list(enumerate_models(X, y, C=C, kernel=kernel, gamma=0.5, k=25, tol=1e-8))
    assert [m.rank for m in models] == list(range(1, 26))
    for a, b in zip(models, models[1:]):     # Lemma 4, up to the error bounds
        assert b.objective <= a.objective + a.objective_error + b.objective_error \
            + 8 * len(y) * U * a.objective
        assert b.elapsed >= a.elapsed and b.n_candidates > a.n_candidates
    assert len({tuple(m.support) for m in models}) == len(models)
    # the first model is the ordinary SVM
    svc = SVC(C=C, kernel=kernel, gamma=0.5, tol=1e-8).fit(X, y)
    first = models[0]
    assert np.array_equal(np.sort(svc.support_), first.support)
    K, _, _ = prepare_problem(X, y, kernel, gamma=0.5)
    v = svc.dual_coef_[0]
    W_svc = np.abs(v).sum() - 0.5 * v @ K[np.ix_(svc.support_, svc.support_)] @ v
    # LIBSVM stopped at gap 1e-8 (book: prop-smo-gap-bound), ours is exact to its error
    assert abs(first.objective - W_svc) <= 0.5 * 1e-8 * (2 * np.abs(v).sum()) \
        + first.objective_error + 8 * len(y) * U * W_svc
    f_svc = svc.decision_function(X)
    assert np.allclose(first.decision_function(K), f_svc, atol=1e-6 * np.abs(f_svc).max())


def test_warm_and_cold_starts_give_the_same_models():
    X, y = problem(3, 60, d=3)
    kw = dict(C=1.0, kernel="rbf", gamma=0.5, k=15, tol=1e-9)
    warm = list(enumerate_models(X, y, warm_start=True, **kw))
    cold = list(enumerate_models(X, y, warm_start=False, **kw))
    assert [tuple(m.support) for m in warm] == [tuple(m.support) for m in cold]
    assert all(same_value(a, b, len(y)) for a, b in zip(warm, cold))


def test_warm_start_is_feasible_and_keeps_the_gradient():
    X, y = problem(4, 30)
    K, y_pm, _ = prepare_problem(X, y, "rbf", gamma=1.0)
    C = 1.0
    sub = Subproblems(K, y_pm, C, 1e-9)
    alpha, g, _ = sub.solve_cold(np.ones(30, dtype=bool))
    for i in np.flatnonzero(alpha > 0):
        active = np.ones(30, dtype=bool)
        active[i] = False
        a0, g0 = sub.warm_start(alpha, g, active, i)
        assert a0[i] == 0 and np.all((a0 >= 0) & (a0 <= C))
        assert abs(a0 @ y_pm) <= 30 * U * C
        assert np.allclose(g0, sub.gradient(a0), atol=1e-12 * 30 * C)


def test_duplicate_point_gives_equal_objectives_distinct_supports():
    """Non-unique solutions (Burges and Crisp): a free support vector and its copy can
    share their multiplier; removing either leaves the objective unchanged."""
    X, y = problem(5, 12)
    C = 10.0
    first = next(enumerate_models(X, y, C=C, kernel="rbf", gamma=1.0, tol=TOL))
    j = int(next(i for i in first.support if first.alpha[i] < C))      # a free SV
    X2, y2 = np.vstack([X, X[j]]), np.append(y, y[j])
    models = list(enumerate_models(X2, y2, C=C, kernel="rbf", gamma=1.0, k=3, tol=TOL))
    # the optimal supports: S with x_j, with its copy, or with both (sharing alpha_j,
    # found only if the solver returns such a split); all have the same W, so the order
    # they come out in is rounding's
    S = set(first.support.tolist())
    top = [set(m.support.tolist()) for m in models if same_value(m, first, 13)]
    assert S in top and S - {j} | {12} in top
    for sup in top:
        assert sup - {j, 12} == S - {j} and sup & {j, 12}


def test_the_enumeration_stops_when_every_model_is_out():
    X, y = problem(6, 5)
    models = list(enumerate_models(X, y, C=1.0, tol=TOL))
    assert models[-1].objective <= 8 * 5 * U and len(models[-1].support) == 0
    assert len(list(enumerate_models(X, y, C=1.0, tol=TOL, k=1000))) == len(models)


@pytest.mark.parametrize("kwargs, match", [
    ({"k": 0}, "k must be a positive integer"),
    ({"k": -3}, "k must be a positive integer"),
    ({"k": 2.5}, "k must be a positive integer"),
    ({"k": True}, "k must be a positive integer"),
    ({"C": 0.0}, "C must be a positive number"),
    ({"C": -1.0}, "C must be a positive number"),
    ({"C": np.inf}, "finite positive C"),
    ({"tol": 0.0}, "tol must be a positive number"),
])
def test_bad_input(kwargs, match):
    X, y = problem(0, 8)
    with pytest.raises(ValueError, match=match):
        enumerate_models(X, y, **kwargs)


def test_bad_input_brute_force_and_labels():
    X, y = problem(0, MAX_BRUTE_FORCE_N + 1)
    with pytest.raises(ValueError, match="exceeds max_n"):
        brute_force_models(X, y)
    with pytest.raises(ValueError, match="exceeds max_n = 4"):
        brute_force_models(X[:5], y[:5], max_n=4)
    with pytest.raises(ValueError, match="C must be a positive number"):
        brute_force_models(X[:5], y[:5], C=0)
    with pytest.raises(ValueError, match="exactly two classes"):
        enumerate_models(X, np.ones(len(y)))
    with pytest.raises(ValueError, match="Gram matrix"):
        enumerate_models(X, y, kernel="precomputed")


def test_enumsvc_selects_models():
    X, y = problem(7, 50, d=3)
    clf = EnumSVC(C=1.0, kernel="rbf", gamma=0.5, k=5).fit(X, y)
    assert len(clf.models_) == 5 and clf.rank_ == 1
    f1 = clf.decision_function(X)
    K, _, _ = prepare_problem(X, y, "rbf", gamma=0.5)
    assert np.allclose(f1, clf.models_[0].decision_function(K))
    clf.select(3)
    assert np.array_equal(np.sort(clf.support_), clf.models_[2].support)   # class-grouped
    assert np.allclose(clf.decision_function(X), clf.models_[2].decision_function(K))
    with pytest.raises(ValueError, match="rank must lie in 1..5"):
        clf.select(6)
    with pytest.raises(ValueError, match="exceeds k"):
        EnumSVC(k=2, rank=3).fit(X, y)


@parametrize_with_checks([EnumSVC(k=3), EnumSVC(kernel="rbf", k=2, rank=2, C=10.0)])
def test_enumsvc_sklearn_compatible(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)
