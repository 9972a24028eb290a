"""The 2-D pictures (book: sec-margin-figures)."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from svmtext.plotting import grid_2d, plot_data, plot_svm  # noqa: E402
from svmtext.qp import QPSVC  # noqa: E402


def test_plot_svm_draws_margins_and_rings_support_vectors():
    rng = np.random.default_rng(0)
    y = np.where(np.arange(40) % 2 == 0, 1, -1)
    X = rng.normal(size=(40, 2)) + 0.8 * y[:, None]
    clf = QPSVC(kernel="linear", C=0.5).fit(X, y)
    fig, ax = plt.subplots()
    plot_svm(clf, X, y, ax=ax, title="t", resolution=30)
    labels = [c.get_label() for c in ax.collections]
    assert "free SV" in labels and "bounded SV" in labels
    free = next(c for c in ax.collections if c.get_label() == "free SV")
    bounded = next(c for c in ax.collections if c.get_label() == "bounded SV")
    n_bounded = int(np.sum(np.abs(clf.dual_coef_) >= 0.5 * (1 - 1e-6)))
    assert len(bounded.get_offsets()) == n_bounded
    assert len(free.get_offsets()) == len(clf.support_) - n_bounded
    assert ax.get_title() == "t"
    plt.close(fig)


def test_grid_and_data():
    X = np.array([[0.0, 0.0], [1.0, 2.0]])
    xx, yy = grid_2d(X, resolution=5, pad=0.0)
    assert xx.shape == (5, 5) and xx.min() == 0 and yy.max() == 2
    fig, ax = plt.subplots()
    plot_data(X, np.array([-1, 1]), ax=ax)
    assert len(ax.collections) == 2
    plt.close(fig)
    with pytest.raises(ValueError, match="2-D"):
        grid_2d(np.ones((3, 3)))


def test_book_style_is_legible_at_column_width():
    import matplotlib as mpl

    from svmtext.plotting import BOOK_RC, COLUMN_WIDTH_IN, column_subplots, use_book_style

    use_book_style()
    w, h = mpl.rcParams["figure.figsize"]
    assert w <= 7 and mpl.rcParams["figure.dpi"] == 100
    for key in ("font.size", "xtick.labelsize", "ytick.labelsize", "legend.fontsize",
                "axes.labelsize", "axes.titlesize"):
        assert float(mpl.rcParams[key]) >= 9, key
    assert BOOK_RC["font.size"] >= 9
    fig, axes = column_subplots(3, nrows=2, sharey=True)
    assert axes.shape == (2, 3)
    assert fig.get_figwidth() == COLUMN_WIDTH_IN and fig.get_figwidth() * fig.dpi <= 700
    plt.close(fig)
    with pytest.raises(ValueError, match="ncols"):
        column_subplots(0)


def test_loglog_fit_recovers_a_power_law_and_draws_it():
    from svmtext.plotting import column_subplots, loglog_fit, plot_loglog_fit
    n = np.array([1e3, 2e3, 4e3, 8e3, 16e3])
    v = 3e-7 * n ** 1.8
    s, c = loglog_fit(n, v)
    assert s == pytest.approx(1.8) and np.exp(c) == pytest.approx(3e-7)
    fig, ax = column_subplots(1, 1)
    fit = n >= 4e3
    v_noisy = v * np.array([5.0, 2.0, 1.0, 1.0, 1.0])   # only the fitted points count
    assert plot_loglog_fit(ax, n, v_noisy, fit, "o", "t: {slope:.2f}") == pytest.approx(1.8)
    points, line = ax.get_lines()
    assert points.get_label() == "t: 1.80" and len(line.get_xdata()) == 3
    assert np.allclose(line.get_ydata(), v[fit])
    plt.close(fig)
