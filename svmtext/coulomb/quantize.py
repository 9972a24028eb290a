r"""Vector quantisation by energy *maximisation* (book: :ref:`sec-coulomb-vq`).

One kind of charge, total 1, every conductor holding at least :math:`\alpha_{\min}` and at
most :math:`C`:

.. math::

    \max_\alpha\ E(\alpha) = \tfrac12\alpha^\top P\alpha
    \quad\text{s.t.}\quad \sum_i\alpha_i = 1,\ \ \alpha_{\min} \le \alpha_i \le C .

The gradient :math:`P\alpha` is the potential, a kernel density estimate weighted by
the charges: charge flows *up* the potential into dense regions (the SVM's minimum
pushes it to the class boundaries). A convex function is maximised at a vertex of
the feasible polytope, so all but at most one conductor end at :math:`\alpha_{\min}` or
:math:`C`; with :math:`C = (1 - (N - k)\alpha_{\min})/k` the :math:`k` conductors at
:math:`C` are the prototypes.
"""
from __future__ import annotations

import warnings

import numpy as np

from .._validation import check_psd

__all__ = ["maximize_energy", "project_box_simplex"]


def project_box_simplex(v, lower, upper, total=1.0, iters=80) -> np.ndarray:
    r"""Euclidean projection onto :math:`\{\ell \le a_i \le u,\ \sum_i a_i = t\}` (bisection
    on the shift :math:`\tau` of :math:`a = \mathrm{clip}(v - \tau, \ell, u)`)."""
    lo, hi = v.min() - upper, v.max() - lower
    for _ in range(iters):
        tau = 0.5 * (lo + hi)
        if np.clip(v - tau, lower, upper).sum() > total:
            lo = tau
        else:
            hi = tau
    return np.clip(v - 0.5 * (lo + hi), lower, upper)


def maximize_energy(P, n_prototypes, alpha_min=1e-4, *, n_steps=2000, eta=None,
                    eps=None) -> tuple:
    r"""Projected gradient *ascent* of :math:`\tfrac12\alpha^\top P\alpha` from the uniform
    charge; returns ``(alpha, prototype indices, energies)``.

    ``alpha_min`` > 0 is the floor :math:`\alpha_{\min}` of every charge; the cap is
    :math:`C = (1 - (N - k)\alpha_{\min})/k` for ``k = n_prototypes``. The ascent reaches a
    local maximum (the problem is not concave): a vertex, read off as the conductors
    at the cap. ``eps`` is the former name of ``alpha_min`` (deprecated).
    """
    if eps is not None:
        warnings.warn("maximize_energy(eps=...) is renamed alpha_min=...; eps will be "
                      "removed", FutureWarning, stacklevel=2)
        alpha_min = eps
    P = np.asarray(P, float)
    n = len(P)
    if P.shape != (n, n):
        raise ValueError(f"P must be a square n x n matrix; got shape {P.shape}")
    if isinstance(alpha_min, bool) or not (0 < float(alpha_min) < 1.0 / n):
        raise ValueError(f"alpha_min must lie in (0, 1/N) = (0, {1.0 / n:.3g}); "
                         f"got {alpha_min!r}")
    k = int(n_prototypes)
    if not 1 <= k < n:
        raise ValueError(f"n_prototypes must lie in [1, N) = [1, {n}); got {n_prototypes!r}")
    # the vertex property (prototypes = the conductors at the cap) and the step
    # 1/lambda_max need a convex energy: P positive semi-definite on every charge
    check_psd(P, name="P (the coefficients of potential)",
              needed_by="energy maximisation (its maximum lies at a vertex, the prototypes, "
              "only when the energy is convex)")
    cap = (1.0 - (n - k) * alpha_min) / k
    if eta is None:
        eta = 1.0 / float(np.linalg.eigvalsh((P + P.T) / 2)[-1])
    alpha = np.full(n, 1.0 / n)
    energies = [0.5 * alpha @ P @ alpha]
    for _ in range(n_steps):
        new = project_box_simplex(alpha + eta * (P @ alpha), alpha_min, cap)
        energies.append(0.5 * new @ P @ new)
        if np.abs(new - alpha).max() < 1e-14:
            alpha = new
            break
        alpha = new
    proto = np.argsort(-alpha)[:k]
    return alpha, np.sort(proto), np.array(energies)
