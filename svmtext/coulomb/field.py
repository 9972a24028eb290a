r"""The electrostatic picture of a fitted 2-D Coulomb classifier (book: :ref:`sec-coulomb-field`).

The potential :math:`\varphi(x) + b` of the charged conductors is drawn as a heat map
(red positive, blue negative) with its equipotentials at 0 (solid) and :math:`\pm 1`
(dashed); every conductor is a disc whose area is proportional to its charge
:math:`\alpha_i`, filled with its class's colour; uncharged conductors are small
hollow circles in the same colour, so no point loses its class.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..plotting import CLASS_COLORS, grid_2d

__all__ = ["plot_field", "conductor_sizes"]


def conductor_sizes(alpha, smax=160.0, smin=14.0) -> np.ndarray:
    r"""Marker areas proportional to :math:`\alpha_i`, from ``smin`` (the smallest
    positive charge may be tiny) to ``smax`` for the largest; 0 for uncharged."""
    alpha = np.asarray(alpha, float)
    top = alpha.max(initial=0.0)
    if top <= 0:
        return np.zeros_like(alpha)
    return np.where(alpha > 0, np.maximum(smax * alpha / top, smin), 0.0)


def plot_field(potential, X, y, alpha, ax=None, *, resolution=160, vmax=2.0,
               levels=(-1.0, 0.0, 1.0), title=None) -> plt.Artist:
    r"""Heat map of ``potential`` (a callable :math:`x \mapsto \varphi(x) + b`, or a fitted
    estimator with ``decision_function``) over the box of ``X``, equipotentials at
    ``levels``, and the conductors ``X`` with charges ``alpha`` and labels ``y``
    (:math:`\pm 1`). Colours saturate at :math:`\pm` ``vmax``. Returns the image."""
    ax = ax or plt.gca()
    X, y, alpha = np.asarray(X, float), np.asarray(y, float), np.asarray(alpha, float)
    f = getattr(potential, "decision_function", potential)
    xx, yy = grid_2d(X, resolution)
    Z = np.asarray(f(np.c_[xx.ravel(), yy.ravel()]), float).reshape(xx.shape)
    im = ax.imshow(np.clip(Z, -vmax, vmax), origin="lower", cmap="RdBu_r", vmin=-vmax,
                   vmax=vmax, extent=(xx.min(), xx.max(), yy.min(), yy.max()),
                   aspect="auto", alpha=0.8)
    ax.contour(xx, yy, Z, levels=list(levels), colors="k",
               linestyles=["--" if v else "-" for v in levels], linewidths=1.0)
    size = conductor_sizes(alpha)
    for cls, colour in ((-1.0, CLASS_COLORS[0]), (1.0, CLASS_COLORS[1])):
        m = y == cls
        on = m & (alpha > 0)
        ax.scatter(X[on, 0], X[on, 1], s=size[on], c=colour, edgecolors="k",
                   linewidths=0.6, zorder=3)
        off = m & ~(alpha > 0)
        ax.scatter(X[off, 0], X[off, 1], s=12, facecolors="none", edgecolors=colour,
                   linewidths=1.0, zorder=3)
    ax.set(xticks=[], yticks=[], xlim=(xx.min(), xx.max()), ylim=(yy.min(), yy.max()))
    if title:
        ax.set_title(title)
    return im
