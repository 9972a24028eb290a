r"""Working-set selection: which two multipliers SMO moves next (book: :ref:`sec-smo-wss`).

All rules work with the scaled negative gradient of the dual (the array ``g``)

.. math::

    -y_kG_k = y_k - \sum_j \alpha_j y_j K_{kj},
    \qquad G = \nabla(-W) = Q\alpha - \mathbf 1,

and the index sets :math:`I_{up} = \{k: y_k = +1, \alpha_k < C\} \cup \{k: y_k = -1, \alpha_k > 0\}`
(indices that may move so that :math:`y_k\alpha_k` grows) and
:math:`I_{low} = \{k: y_k = +1, \alpha_k > 0\} \cup \{k: y_k = -1, \alpha_k < C\}`.
The point :math:`\alpha` is optimal iff :math:`m(\alpha) = \max_{I_{up}} -y_kG_k \le
M(\alpha) = \min_{I_{low}} -y_kG_k`; every rule reports the gap :math:`m(\alpha) - M(\alpha)`
and the solver stops when it falls below ``tol``.

* :class:`MaximalViolatingPair` (Keerthi et al. 2001): :math:`i = \arg\max_{I_{up}} -y_kG_k`,
  :math:`j = \arg\min_{I_{low}} -y_kG_k` (first-order).
* :class:`WSS2` (Fan, Chen and Lin 2005; LIBSVM): the same :math:`i`, then
  :math:`j = \arg\min_{k \in I_{low},\, -y_iG_i > -y_kG_k} -b_{ik}^2 / a_{ik}` with
  :math:`b_{ik} = y_kG_k - y_iG_i` and :math:`a_{ik} = K_{ii} + K_{kk} - 2K_{ik}`
  (second-order: the decrease of the objective along the pair's direction).
* :class:`PlattHeuristics` (Platt 1998): an outer loop over all / non-bound examples for
  a KKT violator, the second index by :math:`\max |E_1 - E_2|`, then fall-backs.

A rule is an object with ``select(state) -> (gap, i, j)`` (positions in the active
arrays; ``i = j = -1`` when optimal) and ``feedback(state, i, j, moved)``.
"""
from __future__ import annotations

import numpy as np

__all__ = ["MaximalViolatingPair", "WSS2", "PlattHeuristics", "make_rule", "RULES",
           "extreme_violators"]


def extreme_violators(state) -> tuple:
    r"""``(m, i, M, j)``: :math:`m = \max_{I_{up}} -y_kG_k = -y_iG_i`,
    :math:`M = \min_{I_{low}} -y_kG_k = -y_jG_j`."""
    gu = np.where(state.up, state.g, -np.inf)
    gl = np.where(state.low, state.g, np.inf)
    i, j = int(gu.argmax()), int(gl.argmin())
    return gu[i], i, gl[j], j


class MaximalViolatingPair:
    """Keerthi et al.'s rule: the pair that violates the optimality condition most."""

    name = "mvp"

    def select(self, state) -> tuple:
        m, i, M, j = extreme_violators(state)
        if not m - M >= state.tol:
            return m - M, -1, -1
        return m - M, i, j

    def feedback(self, state, i, j, moved) -> None:
        pass


class WSS2:
    r"""Fan, Chen and Lin's second-order rule, as in LIBSVM.

    ``i`` is the maximal violator in :math:`I_{up}`; ``j`` minimises
    :math:`-b_{ik}^2 / a_{ik}` over :math:`k \in I_{low}` with
    :math:`b_{ik} = y_kG_k - y_iG_i > 0`, where :math:`a_{ik} \le 0` is replaced by ``tau``:
    the compiled scan :func:`svmtext.smo._core.wss2_scan` shared by every SMO.
    """

    name = "wss2"

    def select(self, state) -> tuple:
        core = state.core
        i, m = core.max_up(state.g, state.y, state.status, state.movable, len(state.g))
        if i < 0:
            return -np.inf, -1, -1
        Ki = state.cache.column(state.active[i])
        j, M = core.wss2_scan(i, m, state.g, state.y, state.status, state.movable, state.d,
                              Ki, state.tau, len(state.g))
        if not m - M >= state.tol or j < 0:
            return m - M, -1, -1
        return m - M, i, j

    def feedback(self, state, i, j, moved) -> None:
        pass


class PlattHeuristics:
    r"""Platt's original two loops, driven by a single threshold :math:`b`.

    With :math:`E_k = f(x_k) - y_k = b + y_kG_k`, example :math:`k` violates the KKT
    conditions by more than ``kkt_tol`` when :math:`k \in I_{up}` and
    :math:`-y_kG_k > b + \text{kkt\_tol}` or :math:`k \in I_{low}` and
    :math:`-y_kG_k < b - \text{kkt\_tol}`. The outer loop alternates one pass over all
    examples with passes over the non-bound ones until a pass over all examples changes
    nothing. For a violator :math:`i_2` the partner :math:`i_1` is the non-bound example
    with the largest :math:`|E_1 - E_2| = |y_1G_1 - y_2G_2|`; if that step makes no progress,
    every non-bound example, then every example, is tried from a random start.

    ``kkt_tol = tol / 2`` (slightly less), so that a pass without violators certifies
    the gap :math:`m - M \le` ``tol``. When Platt's loop ends while the gap is still
    larger (its single threshold can be wrong, the flaw Keerthi et al. pointed out),
    :math:`b` is reset to the midpoint :math:`(m + M)/2` and the loop restarts.
    """

    name = "platt"

    def __init__(self, random_state=0):
        self.rng = np.random.default_rng(random_state)
        self.b = 0.0
        self._pairs = None
        self._moved = False
        self.attempts = 0
        self.restarts = 0

    def select(self, state) -> tuple:
        m, i, M, j = extreme_violators(state)
        gap = m - M
        if not gap >= state.tol:
            return gap, -1, -1
        self.kkt_tol = 0.499 * state.tol
        for _ in range(2):
            try:
                if self._pairs is None:
                    self._pairs = self._outer_loop(state)
                    pair = next(self._pairs)
                else:
                    pair = self._pairs.send(self._moved)
                self.attempts += 1
                return gap, int(pair[0]), int(pair[1])
            except StopIteration:
                self._pairs = None
                self.b = 0.5 * (m + M)
                self.restarts += 1
        return gap, i, j       # no step of Platt's loops moves: take the maximal violating pair

    def feedback(self, state, i, j, moved) -> None:
        self._moved = bool(moved)
        if moved:
            g, free = state.g, state.up & state.low
            self.b = g[i] if free[i] else g[j] if free[j] else 0.5 * (g[i] + g[j])

    # -- Platt's loops, written as generators that yield candidate pairs and receive
    #    whether the step made progress --------------------------------------------
    def _outer_loop(self, state):
        examine_all = True
        while True:
            changed = 0
            free = state.up & state.low
            candidates = np.arange(len(state.g)) if examine_all else np.flatnonzero(free)
            for i2 in candidates:
                changed += yield from self._examine(state, i2)
            if examine_all:
                if changed == 0:
                    return
                examine_all = False
            elif changed == 0:
                examine_all = True

    def _examine(self, state, i2):
        g2 = state.g[i2]
        violates = ((state.up[i2] and g2 > self.b + self.kkt_tol)
                    or (state.low[i2] and g2 < self.b - self.kkt_tol))
        if not violates:
            return 0
        free = np.flatnonzero(state.up & state.low)
        if len(free) > 1:
            gf = state.g[free]
            i1 = free[gf.argmax()] if gf.max() - g2 > g2 - gf.min() else free[gf.argmin()]
            if (yield (i1, i2)):
                return 1
        if len(free):
            for i1 in np.roll(free, -self.rng.integers(len(free))):
                if (yield (i1, i2)):
                    return 1
        n = len(state.g)
        for i1 in np.roll(np.arange(n), -self.rng.integers(n)):
            if (yield (i1, i2)):
                return 1
        return 0


RULES = {"mvp": MaximalViolatingPair, "wss2": WSS2, "platt": PlattHeuristics}


def make_rule(selection, random_state=0) -> MaximalViolatingPair | PlattHeuristics | WSS2:
    """The working-set rule named ``selection`` ('platt', 'mvp' or 'wss2')."""
    if selection == "platt":
        return PlattHeuristics(random_state)
    if selection in RULES:
        return RULES[selection]()
    raise ValueError(f"selection must be one of {sorted(RULES)}; got {selection!r}")
