r"""The null-space step: SMO's way out of a flat face (book: :ref:`sec-smo-null-steps`).

On a face of the box where the free multipliers :math:`F` have a singular matrix
:math:`Q_{FF}` (a linear kernel with fewer features than free multipliers, duplicated
points), the dual objective can fall *linearly* along a direction :math:`v` with

.. math::

    Q_{FF} v = 0, \qquad y_F^\top v = 0 .

Along :math:`v` the gradient :math:`G = Q\alpha - p` does not change (:math:`Q_{kF}v = 0`
for every row :math:`k`, since :math:`v^\top Q_{FF} v = \|\sum_l v_l y_l\phi(x_l)\|^2 = 0`),
so the violating pairs stay the same while the objective falls by a fixed amount per
unit step; SMO's two-variable steps, each of which stops at its pair's own optimum,
crawl along such a direction in many small steps until a multiplier reaches its bound.
The null-space step goes there at once: with :math:`u = y_F \circ v` (so that
:math:`Q_{FF}v = 0 \Leftrightarrow S_{FF}u = 0` for the stored values
:math:`S_{kl} = y_ky_lQ_{kl}`, the kernel for the SVM, and :math:`\mathbf 1^\top u = 0`),

.. math::

    u = \text{the right singular vector of }
        \begin{pmatrix} S_{FF} \\ \mathbf 1^\top \end{pmatrix}
        \text{ of the smallest singular value } \sigma_{\min}
        \quad(\text{taken when } \sigma_{\min} \le 10^{-8}\,\sigma_{\max}),

signed so that the slope :math:`G_F^\top v = -g_F^\top u` is negative
(:math:`g = -y\circ G`), and the step length is the exact line search of the quadratic
on the box,

.. math::

    \eta = \min\Bigl(\eta_{\max},\ \frac{g_F^\top u}{u^\top S_{FF}u}\Bigr)
    \ (\eta = \eta_{\max} \text{ when } u^\top S_{FF} u \le 0),
    \qquad \eta_{\max} = \max\{\eta : 0 \le \alpha_F + \eta\,v \le C_F\},

the multiplier that stops it landing exactly on its bound. The objective does not
increase (up to rounding), the equality constraint holds, and the gradient is brought
up to date with the columns of :math:`F`: :math:`g \mathrel{-}= S_{:,F}\,\Delta u`.
(The device of active-set methods for quadratic programmes, a step along a direction
of zero curvature to the nearest bound, added to SMO; LIBSVM does not make it.) In
the book's notation :math:`F = I_0`, :math:`v = \mathbf d` and :math:`u = \mathbf s`.
"""
from __future__ import annotations

import numpy as np

from ..kkt import FREE, UPPER, alpha_status

__all__ = ["null_step", "MAX_FREE", "RTOL"]

MAX_FREE = 64       # faces with more free multipliers are left to SMO
RTOL = 1e-8         # sigma_min / sigma_max below which the face is taken as flat


def null_step(g, alpha, status, y, Cv, rows, na, block) -> list | None:
    r"""One null-space step on the free multipliers among the first ``na`` positions.

    Parameters
    ----------
    g, alpha, status, y, Cv : arrays over positions
        :math:`-y_kG_k`, the multipliers, their status, labels and upper bounds
        (the active buffers of :func:`svmtext.smo.smo_solve`); ``g``, ``alpha`` and
        ``status`` are updated in place.
    rows : int array
        The global index of each position (for ``block``).
    na : int
    block : callable
        ``block(rows, cols)``: the stored values :math:`S` (the kernel for the SVM).

    Returns
    -------
    list of (int, float) or None
        None when there is no flat direction of descent (nothing moved); else, for
        each multiplier that reached its upper bound, its global index and the
        coefficient :math:`c = C_ky_k` of :math:`\bar g \mathrel{-}= c\,S_{:,k}` (the
        update of LIBSVM's :math:`\bar G`, as the two-variable step makes it).
    """
    F = np.flatnonzero(status[:na] == FREE)
    if not 2 <= len(F) <= MAX_FREE:
        return None
    S = block(rows[F], rows[F])
    _, s, Vt = np.linalg.svd(np.vstack([S, np.ones(len(F))]))
    if not s[-1] <= RTOL * s[0]:
        return None
    u = Vt[-1] - Vt[-1].mean()
    slope = -(g[F] @ u)
    if slope > 0:
        u, slope = -u, -slope
    if not slope < 0:
        return None
    v = y[F] * u
    a, C = alpha[F], Cv[F]
    with np.errstate(divide="ignore", invalid="ignore"):
        room = np.where(v > 0, (C - a) / v, np.where(v < 0, a / -v, np.inf))
    k = int(np.argmin(room))
    eta_max, curv = room[k], u @ S @ u
    eta = eta_max if not curv > 0 else min(eta_max, -slope / curv)
    if not 0 < eta < np.inf:
        return None
    new = np.clip(a + eta * v, 0.0, C)
    if eta == eta_max:
        new[k] = C[k] if v[k] > 0 else 0.0
    new_status = alpha_status(new, C, 0.0)        # (clipped: exactly 0 or C at a bound)
    du = y[F] * (new - a)
    g[:na] -= block(rows[:na], rows[F]) @ du
    # the free multipliers that reach C (none leaves it: all were free)
    changed = [(int(rows[k]), Cv[k] * y[k]) for k in F[new_status == UPPER]]
    alpha[F], status[F] = new, new_status
    return changed
