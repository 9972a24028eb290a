r"""Pictures of 2-D classifiers: decision function, margins and support vectors.

Used by every chapter (book: :ref:`sec-margin-figures`). The decision function
:math:`f(x)` is drawn as filled contours, the boundary :math:`f = 0` as a solid
line, the margins :math:`f = \pm 1` as dashed lines, and support vectors are
ringed (free ones solid, bounded ones :math:`\alpha_i = C` dotted).

Importing this module applies :func:`use_book_style`: figures that fit the book's text
column (about 676 px at a 1280 px window; matplotlib's inline dpi is 100, so at most
:data:`COLUMN_WIDTH_IN` inches) with text of 9-10 pt, i.e. about 13 px on the page.
:func:`column_subplots` sizes a grid of panels to the column.

For the scaling figures, :func:`loglog_fit` fits a power law :math:`v \propto n^s` and
:func:`plot_loglog_fit` draws the measurements with that line.
"""
from __future__ import annotations

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np

__all__ = ["BOOK_RC", "COLUMN_WIDTH_IN", "FULL_WIDTH_IN", "column_subplots", "grid_2d",
           "loglog_fit", "plot_data", "plot_loglog_fit", "plot_decision_function", "plot_svm",
           "use_book_style"]

CLASS_COLORS = ("tab:blue", "tab:red")   # y = -1, y = +1

#: Width (inches at dpi 100) of a figure shown at full size in the text column.
COLUMN_WIDTH_IN = 6.7
#: Width of a figure in a cell tagged ``full-width`` (text column plus margin).
FULL_WIDTH_IN = 10.0

#: matplotlib settings of the book's figures: column-width default size, dpi 100,
#: fonts of at least 9 pt.
BOOK_RC = {
    "figure.figsize": (6.4, 4.0),
    "figure.dpi": 100,
    "savefig.dpi": 100,
    "font.size": 10,
    "axes.titlesize": 10,
    "axes.labelsize": 10,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "legend.fontsize": 9,
    "legend.title_fontsize": 9,
    "figure.titlesize": 11,
    "lines.linewidth": 1.5,
    "lines.markersize": 5,
}


def use_book_style() -> None:
    """Apply :data:`BOOK_RC` to matplotlib (done once on import of this module)."""
    mpl.rcParams.update(BOOK_RC)


def column_subplots(ncols=1, nrows=1, height=None, full_width=False, **kwargs) -> tuple:
    """``plt.subplots`` sized to the text column (or, deliberately, full width).

    Parameters
    ----------
    ncols, nrows : int
        Grid of panels.
    height : float, optional
        Figure height in inches; default ``0.75 * width / ncols`` per row, at most 9 in.
    full_width : bool
        Use :data:`FULL_WIDTH_IN` instead of :data:`COLUMN_WIDTH_IN`; tag the cell
        ``full-width`` so the page shows it at that width.
    **kwargs
        Passed to :func:`matplotlib.pyplot.subplots` (``sharey``, ...).
    """
    if int(ncols) < 1 or int(nrows) < 1:
        raise ValueError(f"ncols and nrows must be >= 1; got ncols={ncols}, nrows={nrows}")
    width = FULL_WIDTH_IN if full_width else COLUMN_WIDTH_IN
    if height is None:
        height = min(9.0, nrows * 0.75 * width / ncols)
    if height <= 0:
        raise ValueError(f"height must be positive; got {height}")
    return plt.subplots(int(nrows), int(ncols), figsize=(width, height), **kwargs)


def loglog_fit(n, v) -> tuple:
    r"""The least-squares line through :math:`(\log n, \log v)`,

    .. math::

        \log v \approx s \log n + c ,

    so that :math:`v \propto n^s` (book: :ref:`sec-smo-scaling`,
    :ref:`sec-eco-scaling`).

    Returns
    -------
    s, c : float
        Slope and intercept.
    """
    s, c = np.polyfit(np.log(n), np.log(v), 1)
    return float(s), float(c)


def plot_loglog_fit(ax, n, v, fit, fmt, label) -> float:
    r"""Points :math:`(n, v)` on log-log axes and the line of :func:`loglog_fit`
    over the points selected by the boolean mask ``fit``, drawn across them in the
    points' colour.

    ``label`` is formatted with ``slope=s`` (e.g. ``"LIBSVM: {slope:.2f}"``).
    Returns the slope :math:`s`.
    """
    n, v = np.asarray(n, dtype=float), np.asarray(v, dtype=float)
    s, c = loglog_fit(n[fit], v[fit])
    points, = ax.loglog(n, v, fmt, label=label.format(slope=s))
    ax.loglog(n[fit], np.exp(c) * n[fit] ** s, "-", color=points.get_color(), lw=0.8)
    return s


use_book_style()


def grid_2d(X, resolution=200, pad=0.1) -> tuple:
    """A ``resolution`` x ``resolution`` grid covering ``X`` (2-D) plus a margin."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"plotting needs 2-D data (n, 2); got shape {X.shape}")
    lo, hi = X.min(0), X.max(0)
    span = np.where(hi > lo, hi - lo, 1.0)
    lo, hi = lo - pad * span, hi + pad * span
    xx, yy = np.meshgrid(np.linspace(lo[0], hi[0], resolution),
                         np.linspace(lo[1], hi[1], resolution))
    return xx, yy


def plot_data(X, y, ax=None, s=20, **kwargs) -> mpl.axes.Axes:
    """Scatter the two classes (``y`` <= 0 blue, > 0 red)."""
    ax = ax or plt.gca()
    y = np.asarray(y)
    pos = y == np.max(y) if len(np.unique(y)) == 2 else y > 0
    for mask, color, label in ((~pos, CLASS_COLORS[0], "y = -1"), (pos, CLASS_COLORS[1], "y = +1")):
        ax.scatter(X[mask, 0], X[mask, 1], s=s, c=color, label=label, edgecolors="k",
                   linewidths=0.3, **kwargs)
    return ax


def plot_decision_function(f, X, ax=None, resolution=200, margins=True, fill=True,
                           levels=(-1.0, 0.0, 1.0), color="k") -> mpl.axes.Axes:
    """Contours of ``f`` (a callable or an estimator with ``decision_function``) over ``X``'s box."""
    ax = ax or plt.gca()
    f = getattr(f, "decision_function", f)
    xx, yy = grid_2d(X, resolution)
    Z = np.asarray(f(np.c_[xx.ravel(), yy.ravel()])).reshape(xx.shape)
    if fill:
        m = np.max(np.abs(Z)) or 1.0
        ax.contourf(xx, yy, Z, levels=np.linspace(-m, m, 21), cmap="RdBu_r", alpha=0.25)
    lv = list(levels) if margins else [0.0]
    styles = ["--" if v != 0 else "-" for v in lv]
    ax.contour(xx, yy, Z, levels=lv, colors=color, linestyles=styles, linewidths=1.2)
    return ax


def plot_svm(clf, X, y, ax=None, title=None, margins=True, resolution=200, C=None) -> mpl.axes.Axes:
    """Data, decision function, margins and ringed support vectors of a fitted 2-D SVM.

    ``clf`` needs ``decision_function`` and ``support_``; with ``dual_coef_`` and a
    finite ``C`` (argument, or ``clf.C``) the bounded support vectors
    (:math:`\\alpha_i = C`) are drawn dotted.
    """
    ax = ax or plt.gca()
    X = np.asarray(X, dtype=float)
    plot_decision_function(clf, X, ax=ax, resolution=resolution, margins=margins)
    plot_data(X, y, ax=ax)
    sv = np.asarray(getattr(clf, "support_", []), dtype=int)
    if len(sv):
        C = getattr(clf, "C", None) if C is None else C
        bounded = np.zeros(len(sv), bool)
        if C is not None and np.isfinite(C) and hasattr(clf, "dual_coef_"):
            bounded = np.abs(np.asarray(clf.dual_coef_)).ravel() >= C * (1 - 1e-6)
        for mask, ls, lab in ((~bounded, "-", "free SV"), (bounded, ":", "bounded SV")):
            if mask.any():
                ax.scatter(X[sv[mask], 0], X[sv[mask], 1], s=110, facecolors="none",
                           edgecolors="k", linewidths=1.2, linestyles=ls, label=lab)
    if title:
        ax.set_title(title)
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    return ax
