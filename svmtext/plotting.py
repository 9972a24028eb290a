r"""Pictures of 2-D classifiers: decision function, margins and support vectors.

Used by every chapter (book: :ref:`sec-margin-figures`). The decision function
:math:`f(x)` is drawn as filled contours, the boundary :math:`f = 0` as a solid
line, the margins :math:`f = \pm 1` as dashed lines, and support vectors are
ringed (free ones solid, bounded ones :math:`\alpha_i = C` dotted).
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

__all__ = ["grid_2d", "plot_data", "plot_decision_function", "plot_svm"]

CLASS_COLORS = ("tab:blue", "tab:red")   # y = -1, y = +1


def grid_2d(X, resolution=200, pad=0.1):
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


def plot_data(X, y, ax=None, s=20, **kwargs):
    """Scatter the two classes (``y`` <= 0 blue, > 0 red)."""
    ax = ax or plt.gca()
    y = np.asarray(y)
    pos = y == np.max(y) if len(np.unique(y)) == 2 else y > 0
    for mask, color, label in ((~pos, CLASS_COLORS[0], "y = -1"), (pos, CLASS_COLORS[1], "y = +1")):
        ax.scatter(X[mask, 0], X[mask, 1], s=s, c=color, label=label, edgecolors="k",
                   linewidths=0.3, **kwargs)
    return ax


def plot_decision_function(f, X, ax=None, resolution=200, margins=True, fill=True,
                           levels=(-1.0, 0.0, 1.0), color="k"):
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


def plot_svm(clf, X, y, ax=None, title=None, margins=True, resolution=200, C=None):
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
