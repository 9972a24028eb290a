"""EcoSVC: the online EcoSVM as a scikit-learn estimator."""
import numpy as np
import pytest

from svmtext.datasets import make_hypercube_linear, make_hypercube_sinusoidal
from svmtext.eco import EcoSVC
from sklearn.svm import SVC


@pytest.mark.parametrize("make,kw", [
    (make_hypercube_linear, {"kernel": "linear", "C": 100.0}),
    (make_hypercube_sinusoidal, {"kernel": "rbf", "gamma": 10.0, "C": 10.0}),
])
def test_close_to_batch_on_toy_data(make, kw):
    gaps = []
    for seed in range(5):
        X, y = make(1200, 2, random_state=seed)
        eco = EcoSVC(**kw).fit(X[:400], y[:400])
        batch = SVC(**kw).fit(X[:400], y[:400])
        gaps.append(batch.score(X[400:], y[400:]) - eco.score(X[400:], y[400:]))
        # only support vectors are kept, and they are all alive
        assert len(eco.support_vectors_) == len(eco.support_) > 0
        assert np.all(eco.alpha_ > 0)
    assert np.mean(gaps) < 0.01


def test_partial_fit_equals_fit():
    X, y = make_hypercube_sinusoidal(300, 2, random_state=0)
    a = EcoSVC(gamma=10.0, C=10.0).fit(X, y)
    b = EcoSVC(gamma=10.0, C=10.0)
    for chunk in np.array_split(np.arange(300), 7):
        b.partial_fit(X[chunk], y[chunk], classes=[-1, 1])
    # the same stream: the same invasions and survivors; the steady states agree
    # to the re-equilibration tolerance (tol = 1e-3 on the KKT gap; storage
    # compaction at different times changes BLAS rounding, hence SMO's path)
    assert a.n_invasions_ == b.n_invasions_
    np.testing.assert_array_equal(a.support_, b.support_)
    np.testing.assert_allclose(a.decision_function(X), b.decision_function(X),
                               atol=5 * a.tol)


def test_invasion_test_is_margin_violation():
    X, y = make_hypercube_sinusoidal(400, 2, random_state=1)
    eco = EcoSVC(gamma=10.0, C=10.0, track_discards=True).fit(X[:300], y[:300])
    # a point invades iff 1 - y f(x) > 0: new margin violators invade
    f = eco.decision_function(X[300:])
    before = eco.n_invasions_
    eco.partial_fit(X[300:301], y[300:301])
    assert (eco.n_invasions_ > before) == (1 - y[300] * f[0] > 0)


def test_one_class_start_waits_for_both_classes():
    X, y = make_hypercube_linear(200, 2, random_state=2)
    order = np.argsort(y, kind="stable")  # all -1 first, then +1
    eco = EcoSVC(kernel="linear", C=10.0, n_start=5).fit(X[order], y[order])
    assert set(np.unique(y[eco.support_])) == {-1, 1}


def test_buffer_rescues_discards():
    X, y = make_hypercube_sinusoidal(600, 2, random_state=3)
    plain = EcoSVC(gamma=10.0, C=10.0).fit(X, y)
    buf = EcoSVC(gamma=10.0, C=10.0, buffer_size=50).fit(X, y)
    # buffered discards that a later community lets in (none without a buffer)
    assert buf.n_rescued_ > 0 and plain.n_rescued_ == 0
    assert buf.fit_info_["n_seen"] == plain.fit_info_["n_seen"] == 600


def test_bad_input():
    X, y = make_hypercube_linear(50, 2, random_state=0)
    with pytest.raises(ValueError, match="C must be"):
        EcoSVC(C=-1).fit(X, y)
    with pytest.raises(ValueError, match="n_start"):
        EcoSVC(n_start=-2).fit(X, y)
    with pytest.raises(ValueError, match="classes"):
        EcoSVC().partial_fit(X, y)
    with pytest.raises(ValueError, match="exactly two"):
        EcoSVC().fit(X, np.ones(50))


def test_hard_margin_stream():
    X, y = make_hypercube_linear(100, 2, random_state=0)
    X[:, 0] -= 0.05 * y                      # a clear gap: separable
    eco = EcoSVC(kernel="linear", C=float("inf")).fit(X, y)
    assert eco.score(X, y) == 1.0 and eco.n_bounded_ == 0


def test_deferred_reequilibration_ends_at_a_steady_state():
    X, y = make_hypercube_sinusoidal(400, 2, random_state=5)
    kw = {"gamma": 10.0, "C": 10.0}
    pure = EcoSVC(**kw).fit(X, y)
    lazy = EcoSVC(reequilibrate_every=16, **kw).fit(X, y)
    assert np.all(lazy.alpha_ > 0)            # extinct species were dropped
    # the stored community is at the optimum of its own dual (SMO tolerance)
    from svmtext.kernels import rbf_kernel
    from svmtext.kkt import kkt_residuals
    K = rbf_kernel(lazy.support_vectors_, gamma=10.0)
    yS = np.sign(lazy.dual_coef_[0])
    assert kkt_residuals(lazy.alpha_, lazy.b_, K, yS, 10.0).max_violation < 1e-2
    assert abs(lazy.score(X, y) - pure.score(X, y)) < 0.02
    with pytest.raises(ValueError, match="reequilibrate_every"):
        EcoSVC(reequilibrate_every=0).fit(X, y)


def _kkt_gap(eco, gamma):
    """SMO's stopping quantity m(alpha) - M(alpha) of the stored community."""
    from svmtext.kernels import rbf_kernel
    from svmtext.kkt import bias_interval
    K = rbf_kernel(eco.support_vectors_, gamma=gamma)
    yS = np.sign(eco.dual_coef_[0])
    m, M = bias_interval(yS - K @ eco.dual_coef_[0], eco.alpha_, yS, eco.C_)
    return m - M


@pytest.mark.parametrize("stream", ["fit", "partial_fit"])
def test_loose_pass_ends_at_tol(stream):
    X, y = make_hypercube_sinusoidal(600, 2, random_state=3)
    kw = {"gamma": 10.0, "C": 10.0, "tol": 1e-3}
    pure = EcoSVC(**kw).fit(X, y)
    loose = EcoSVC(pass_tol=1e-1, **kw)
    if stream == "fit":
        loose.fit(X, y)
    else:
        for part in np.array_split(np.arange(len(y)), 3):
            loose.partial_fit(X[part], y[part], classes=[-1, 1])
    # each call ends with a re-equilibration to tol: SMO's stopping rule holds
    assert _kkt_gap(loose, 10.0) < kw["tol"]
    assert _kkt_gap(pure, 10.0) < kw["tol"]
    assert np.all(loose.alpha_ > 0)
    # the stream's own re-equilibrations stopped earlier
    assert loose.n_reequilibration_steps_ < pure.n_reequilibration_steps_
    assert abs(loose.score(X, y) - pure.score(X, y)) < 0.02
    with pytest.raises(ValueError, match="pass_tol"):
        EcoSVC(pass_tol=0.0).fit(X, y)


def test_counts_do_not_depend_on_the_blas_thread_count():
    # threaded BLAS splits a product differently per thread count (other last bits of
    # the kernel rows); the invasion tests and re-equilibrations amplify such bits into
    # other counts unless the fit runs on one BLAS thread (EcoSVC's Notes)
    from threadpoolctl import threadpool_limits

    from svmtext.datasets import load_mnist_4v9
    X, y = load_mnist_4v9("train")
    X, y = X[:400], y[:400]
    fits = []
    for threads in (1, 2):
        with threadpool_limits(threads, user_api="blas"):
            eco = EcoSVC(C=10.0, gamma=0.02)
            for chunk in np.array_split(np.arange(len(y)), 4):
                eco.partial_fit(X[chunk], y[chunk], classes=[-1, 1])
            fits.append(eco)
    one, two = fits
    assert one.n_reequilibration_steps_ == two.n_reequilibration_steps_
    assert one.n_invasions_ == two.n_invasions_
    np.testing.assert_array_equal(one.support_, two.support_)
    np.testing.assert_array_equal(one.alpha_, two.alpha_)
