r"""Brute force over all index subsets: the reference the enumeration is checked against
(book: :ref:`sec-enumsv-exactness`).

Solve the constrained dual (:mod:`svmtext.enumsv._subproblem`) for every one of the
:math:`2^n` subsets :math:`I \subseteq [n]`, each from :math:`\alpha = 0`, and keep
one model per distinct support, sorted by :math:`W` (largest first). Exponential:
only for small :math:`n`.
"""
from __future__ import annotations

import numbers

import numpy as np

from .._validation import check_C, check_tol
from ._enumerate import EnumeratedModel, prepare_problem
from ._subproblem import Subproblems, objective_error

__all__ = ["brute_force_models", "MAX_BRUTE_FORCE_N"]

#: Largest n the brute force accepts by default (2^16 = 65,536 subproblems).
MAX_BRUTE_FORCE_N = 16


def brute_force_models(X, y, *, C=1.0, kernel="linear", gamma="scale", degree=3, coef0=0.0,
                       tol=1e-6, max_n=MAX_BRUTE_FORCE_N) -> list:
    r"""Every distinct model :math:`A(I)`, :math:`I \subseteq [n]`, sorted by :math:`W` descending.

    Same parameters as :func:`~svmtext.enumsv.enumerate_models` (``max_n``: the largest
    :math:`n` accepted). Models of equal :math:`W` are sorted by their support
    (lexicographically). ``ValueError`` when ``n > max_n``.

    Returns
    -------
    list of EnumeratedModel
        ``time``, ``elapsed``, ``n_candidates`` and ``n_solves`` refer to the whole
        brute force (``n_solves`` :math:`= 2^n`).
    """
    C = check_C(C, finite=True)
    tol = check_tol(tol)
    if isinstance(max_n, bool) or not isinstance(max_n, numbers.Integral) or max_n < 1:
        raise ValueError(f"max_n must be a positive integer; got {max_n!r}")
    n = len(np.asarray(y))
    if n > max_n:
        raise ValueError(f"the brute force solves all 2^n = 2^{n} subproblems; n = {n} "
                         f"exceeds max_n = {max_n} (use enumerate_models, or raise max_n)")
    K, y_pm, _ = prepare_problem(X, y, kernel, gamma, degree, coef0)
    sub = Subproblems(K, y_pm, C, tol)
    bits = 1 << np.arange(n)
    found = {}
    for mask in range(1 << n):
        active = (mask & bits) > 0
        alpha, g, gap = sub.solve_cold(active)
        support = np.flatnonzero(alpha > 0)
        key = support.tobytes()
        if key in found:
            continue
        W = sub.objective(alpha, g)
        found[key] = (W, alpha, g, gap, active)
    models = []
    ordered = sorted(found.items(), key=lambda kv: (-kv[1][0], tuple(np.frombuffer(kv[0], int))))
    for rank, (key, (W, alpha, g, gap, active)) in enumerate(ordered, start=1):
        support = np.frombuffer(key, dtype=np.int64).copy()
        models.append(EnumeratedModel(
            rank=rank, support=support, alpha=alpha, dual_coef=alpha[support] * y_pm[support],
            b=sub.bias(alpha, g, active), objective=W,
            objective_error=objective_error(gap, alpha.sum(), W), gap=gap,
            subset_size=int(active.sum()), time=0.0, elapsed=0.0,
            n_candidates=1 << n, n_solves=sub.n_solves))
    return models
