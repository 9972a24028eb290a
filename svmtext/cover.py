r"""Cover's function counting theorem (book: :ref:`sec-practice-kernels`).

Of the :math:`2^n` labellings of :math:`n` points in general position in
:math:`\mathbb R^d`, the number separable by a hyperplane through the origin is

.. math::

    N(n, d) = 2\sum_{j=0}^{d-1}\binom{n-1}{j},

and with a bias (an affine hyperplane) :math:`N(n, d+1)`. The probability that
random labels are separable with a bias is :math:`p(n, d) = N(n, d + 1)/2^n`: 1 for
:math:`n \le d + 1`, exactly :math:`1/2` at :math:`n = 2(d + 1)`, and falling fast
beyond (without a bias, :math:`N(n, d)/2^n`).

References
----------
Cover, T. M. (1965). Geometrical and statistical properties of systems of linear
inequalities with applications in pattern recognition. *IEEE Transactions on
Electronic Computers* EC-14(3), 326--334.
"""
from __future__ import annotations

from math import comb

import numpy as np
from scipy.optimize import linprog

__all__ = ["cover_count", "separable_probability", "is_linearly_separable",
           "simulate_separable_fraction"]


def cover_count(n: int, d: int) -> int:
    r""":math:`N(n, d) = 2\sum_{j=0}^{d-1}\binom{n-1}{j}` (exact integer)."""
    if n < 1 or d < 1:
        raise ValueError(f"n and d must be positive; got n={n}, d={d}")
    return 2 * sum(comb(n - 1, j) for j in range(d))


def separable_probability(n: int, d: int, bias: bool = True) -> float:
    r""":math:`p(n, d) = N(n, d + 1)/2^n` with a bias, :math:`N(n, d)/2^n` without."""
    return cover_count(n, d + 1 if bias else d) / 2.0 ** n


def is_linearly_separable(X, y, bias: bool = True) -> bool:
    r"""Whether some :math:`(w, b)` has :math:`y_i(w^\top x_i + b) \ge 1` for all
    :math:`i` (a linear feasibility programme, scipy's HiGHS)."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    A = -(y[:, None] * (np.hstack([X, np.ones((len(X), 1))]) if bias else X))
    res = linprog(np.zeros(A.shape[1]), A_ub=A, b_ub=-np.ones(len(y)),
                  bounds=[(None, None)] * A.shape[1], method="highs")
    return res.status == 0


def simulate_separable_fraction(n: int, d: int, trials: int, seed: int = 0,
                                bias: bool = True, feature_map=None) -> float:
    """Fraction of ``trials`` draws (Gaussian points in general position, fair random
    labels) that are linearly separable, after ``feature_map`` (a function of the
    ``(n, d)`` points) if given."""
    rng = np.random.default_rng([seed, n, d])
    hits = 0
    for _ in range(trials):
        X = rng.normal(size=(n, d))
        y = rng.choice([-1.0, 1.0], size=n)
        hits += is_linearly_separable(X if feature_map is None else feature_map(X), y, bias)
    return hits / trials
