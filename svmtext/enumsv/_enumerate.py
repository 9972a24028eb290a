r"""EnumSV: the SVM models of a data set with distinct supports, best first
(book: :ref:`sec-enumsv-algorithm`).

Lawler's framework (Lawler 1972) as Kanamori et al. (2019) apply it to the SVM dual:
a max-heap holds triples :math:`(\alpha, I, F)` -- a solution of the constrained
problem on the index subset :math:`I` and a *forbidden* set :math:`F \subseteq I`
of indices that the triple's descendants keep -- keyed by :math:`W(\alpha)`. It
starts from :math:`(\alpha^{(1)}, [n], \emptyset)`, the ordinary SVM. Repeatedly:

1. extract the triple with the largest :math:`W`; output :math:`\alpha` unless a model
   with the same support was output before (duplicate check);
2. for each support vector :math:`i \in \operatorname{supp}(\alpha) \setminus F` in
   increasing order, insert the child :math:`(A(I\setminus\{i\}), I \setminus\{i\}, F)`
   and then add :math:`i` to :math:`F`.

The outputs come in non-increasing :math:`W` (Lemma 4) and every support that any
:math:`I` yields is output once (Lemma 3), provided the solver :math:`A` satisfies
Assumption 1 (:ref:`sec-enumsv-assumption`).

Storage: an extracted triple keeps its dense :math:`\alpha`; a child in the heap
keeps only the multipliers in which it differs from its parent, the removed index,
and the length of its forbidden set within the parent's list
:math:`F \,\|\, (\text{branched indices})`.

References
----------
E. L. Lawler, "A procedure for computing the K best solutions to discrete optimization
problems and its application to the shortest path problem", Management Science 18(7),
1972. T. Kanamori, S. Hara, M. Ishihata, H. Arimura, "Enumeration of distinct support
vectors for interactive decision making", arXiv:1906.01876 (2019).
"""
from __future__ import annotations

from collections.abc import Iterator

import heapq
import itertools
import numbers
import time
import warnings
from dataclasses import dataclass, field, replace

import numpy as np

from .._validation import check_C, check_kernel_psd, check_tol, kernel_needs_check
from ..base import labels_to_pm1
from ..kernels import get_kernel, resolve_gamma
from ._subproblem import Subproblems, objective_error

__all__ = ["EnumeratedModel", "enumerate_models", "enumerate_gram", "enumerate_subproblems",
           "prepare_problem", "check_k", "child_bounds"]


@dataclass
class EnumeratedModel:
    r"""One model of the enumeration.

    Attributes
    ----------
    rank : int
        1 for the ordinary SVM, then 2, 3, ... in the order of output.
    support : (n_SV,) int array
        :math:`\operatorname{supp}(\alpha) = \{i : \alpha_i > 0\}` (SMO leaves exact zeros).
    alpha : (n,) array
        The dual solution on the index subset it was found for.
    dual_coef : (n_SV,) array
        :math:`\alpha_i y_i` on the support.
    b : float
        Bias of :math:`f(x) = \sum_{i} \alpha_i y_i k(x_i, x) + b`, from the points of
        the subset only.
    objective : float
        :math:`W(\alpha)`, the book's maximised dual objective.
    objective_error : float
        :math:`\varepsilon(\alpha)`: :math:`W` is within this of the exact optimum of
        its subproblem (:func:`~svmtext.enumsv.objective_error`, from the SMO gap).
    gap : float
        SMO's final gap :math:`m(\alpha) - M(\alpha)` on its subset.
    subset_size : int
        :math:`|I|` of the triple that first produced the model.
    time : float
        Seconds spent by the enumeration since the previous output (the generator's
        own time; time the caller spends between models is not counted).
    elapsed : float
        Seconds spent by the enumeration up to this output (the Gram matrix excluded).
    cpu_time, cpu_elapsed : float
        The same two in CPU seconds of the process (:func:`time.process_time`): on a
        busy machine they measure the work, where wall time also measures the waiting.
    n_candidates : int
        Triples extracted from the heap so far (duplicates included).
    n_solves : int
        Constrained SVM problems solved so far.
    """

    rank: int
    support: np.ndarray
    alpha: np.ndarray = field(repr=False)
    dual_coef: np.ndarray = field(repr=False)
    b: float
    objective: float
    objective_error: float
    gap: float
    subset_size: int
    time: float
    elapsed: float
    n_candidates: int
    n_solves: int
    cpu_time: float = 0.0
    cpu_elapsed: float = 0.0

    def decision_function(self, K_test) -> np.ndarray:
        r""":math:`f(x) = \sum_{i \in S} \alpha_i y_i k(x_i, x) + b` from ``K_test`` of shape
        ``(m, n)``: the kernel between the ``m`` points and the ``n`` training points."""
        K_test = np.asarray(K_test, dtype=float)
        return K_test[:, self.support] @ self.dual_coef + self.b


@dataclass(order=True)
class _Entry:
    """A heap entry: ordered by ``(-W, counter)`` (ties: first inserted first)."""

    key: float
    counter: int
    node: object = field(compare=False)


@dataclass
class _Child:
    """A child, stored as its difference from the parent once solved; before that
    (lazy enumeration) ``W`` is an upper bound on its optimal value."""

    parent: _Expanded
    position: int           # index in the parent's branching order
    diff_idx: np.ndarray
    diff_val: np.ndarray
    W: float
    gap: float
    solved: bool = True


@dataclass
class _Expanded:
    """An extracted triple whose children have been created."""

    alpha: np.ndarray
    g: np.ndarray            # its gradient, for warm-starting the children
    removed: tuple           # [n] minus I
    forbidden_base: np.ndarray   # F followed by the branching order
    n_forbidden: int         # len(F)


def check_k(k) -> int | None:
    """``None`` (all models) or an integer >= 1."""
    if k is None:
        return None
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 1:
        raise ValueError(f"k must be a positive integer (the number of models) or None "
                         f"for all of them; got {k!r}")
    return int(k)


def prepare_problem(X, y, kernel="linear", gamma="scale", degree=3, coef0=0.0
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(K, y in {-1, +1}, classes)``: the Gram matrix (``kernel='precomputed'``: ``X`` is it)."""
    classes, y_pm = labels_to_pm1(np.asarray(y))
    if isinstance(kernel, str) and kernel == "precomputed":
        K = np.asarray(X, dtype=np.float64)
        if K.ndim != 2 or K.shape != (len(y_pm), len(y_pm)):
            raise ValueError(f"with kernel='precomputed' X must be the {len(y_pm)} x "
                             f"{len(y_pm)} Gram matrix; got shape {K.shape}")
    else:
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or len(X) != len(y_pm):
            raise ValueError(f"X must be 2-D with one row per label; got shape {X.shape} "
                             f"for {len(y_pm)} labels")
        g = resolve_gamma(gamma, X) if kernel in ("rbf", "poly") else 1.0
        K = get_kernel(kernel, gamma=g, degree=degree, coef0=coef0)(X, X)
    if not np.all(np.isfinite(K)):
        raise ValueError("the Gram matrix contains NaN or infinite entries")
    return np.ascontiguousarray(K, dtype=np.float64), y_pm, classes


def enumerate_models(X, y, *, C=1.0, kernel="linear", k=None, gamma="scale", degree=3,
                     coef0=0.0, tol=1e-6, warm_start=True, lazy=True, max_iter=10_000_000
                     ) -> Iterator[EnumeratedModel]:
    r"""Yield the SVM models of ``(X, y)`` with distinct supports, in non-increasing :math:`W`.

    Kanamori et al.'s EnumSV (book: :ref:`sec-enumsv-algorithm`). The models are the
    solutions :math:`A(I)` of the constrained dual

    .. math::

        \max_\alpha W(\alpha) = \mathbf 1^\top\alpha - \tfrac12\alpha^\top Q\alpha
        \quad\text{s.t.}\quad y^\top\alpha = 0,\ 0 \le \alpha_i \le C,\
        \alpha_i = 0\ (i \notin I)

    over index subsets :math:`I`; two models are the same when their supports are
    equal. The first model is the ordinary SVM (:math:`I = [n]`).

    Parameters
    ----------
    X : (n, d) array, or (n, n) Gram matrix with ``kernel='precomputed'``
    y : (n,) array with two classes (``classes[1]`` is :math:`+1`, as scikit-learn)
    C : float
        Box constant (finite, positive).
    kernel : {'linear', 'rbf', 'poly', 'precomputed'} or callable
        A callable, a precomputed matrix or a polynomial with ``coef0 < 0`` must be
        positive semi-definite (checked on the first 300 points: ``ValueError``).
    k : int or None
        Stop after ``k`` models (top-:math:`k`); ``None``: every model.
    gamma, degree, coef0 : kernel parameters (as :class:`sklearn.svm.SVC`)
    tol : float, default 1e-6
        SMO's tolerance on the gap :math:`m - M` of every subproblem.
        Objectives are exact to :attr:`EnumeratedModel.objective_error`, and the order is
        non-increasing up to these errors: :math:`W_{r+1} \le W_r + \varepsilon_r +
        \varepsilon_{r+1}`.
    warm_start : bool, default True
        Start each child from its parent's solution with the removed multiplier
        redistributed (:meth:`Subproblems.warm_start`); ``False``: from zero.
    lazy : bool, default True
        Solve a child only when it reaches the top of the heap, where it waits keyed by
        the weak-duality bound :math:`W_{\text{parent}} - C\xi_i` (:func:`child_bounds`);
        the same models in the same order as ``False`` (every child solved when its
        parent is expanded), with fewer solves.
    max_iter : int
        SMO's iteration limit per subproblem.

    Yields
    ------
    EnumeratedModel
    """
    k = check_k(k)
    C = check_C(C, finite=True)
    tol = check_tol(tol)
    K, y_pm, _ = prepare_problem(X, y, kernel, gamma, degree, coef0)
    if kernel_needs_check(kernel, coef0):
        check_kernel_psd(K, needed_by=_NEEDED_BY)
    return enumerate_gram(K, y_pm, C, k, tol=tol, warm_start=warm_start, lazy=lazy,
                          max_iter=max_iter)


_NEEDED_BY = "EnumSV (the SVM dual on every subset, book: sec-enumsv-assumption)"

#: Largest kernel scale :math:`\max_i K_{ii}` enumerated as it is (as ``svmtext.qp``'s).
_MAX_SCALE = 1e3


def enumerate_gram(K, y, C, k=None, *, tol=1e-6, warm_start=True, lazy=True,
                   max_iter=10_000_000) -> Iterator[EnumeratedModel]:
    r""":func:`enumerate_models` on a checked Gram matrix ``K`` and labels ``y`` in
    :math:`\{-1, +1\}` (``C``, ``k`` and ``tol`` already validated).

    A kernel of scale :math:`s = \max_i K_{ii} > 10^3` (features of scale
    :math:`10^6` with a linear kernel: :math:`s \sim 10^{12}`, multipliers
    :math:`\sim 10^{-12}`, below the bound test :math:`10^{-12}C`) is enumerated as
    the same problem at unit scale, :math:`K/s` with the box :math:`sC` and
    :math:`\alpha' = s\alpha` (:math:`W' = sW`: the same supports in the same order),
    with the bound test :math:`10^{-12}\min(sC, 1)`; every model is mapped back
    (:math:`\alpha = \alpha'/s`, :math:`W = W'/s`, the same :math:`b` and gap).
    """
    s = float(np.max(np.diag(K), initial=0.0))
    if not s > _MAX_SCALE:
        return enumerate_subproblems(Subproblems(K, y, C, tol, max_iter), k, warm_start,
                                     lazy)
    sub = Subproblems(K / s, y, C * s, tol, max_iter, bound_eps=1e-12 * min(C * s, 1.0))
    return (replace(m, alpha=m.alpha / s, dual_coef=m.dual_coef / s,
                    objective=m.objective / s, objective_error=m.objective_error / s)
            for m in enumerate_subproblems(sub, k, warm_start, lazy))


def child_bounds(sub, alpha, g, active, order) -> np.ndarray:
    r"""Upper bounds on the optimal values of the children ``I \ {i}``, ``i`` in ``order``.

    Weak duality (book: :prf:ref:`prop-enumsv-lazy-bound`): the parent's
    :math:`(\vec w, b)` is feasible in the child's primal, so the child's optimum is at
    most the child's primal objective there,

    .. math::

        \mathrm{OPT}(I \setminus \{i\}) \le P_I(\vec w, b) - C\xi_i, \qquad
        P_I(\vec w, b) = \tfrac12\|\vec w\|^2 + C\sum_{j \in I} \xi_j,\quad
        \xi_j = \max(0, 1 - y_jf(\mathbf x_j)),

    which is :math:`W_{\text{parent}} - C\xi_i` when the parent is exactly optimal
    (strong duality). ``g`` is :math:`-y_kG_k = y_k - \sum_j \alpha_jy_jK_{kj}`, so
    :math:`\xi_k = \max(0, y_k(g_k - b))`. A relative margin of :math:`10^{-12}` plus
    the rounding of a sum of :math:`n` terms keeps the bound above the computed
    :math:`W` of the child.
    """
    y, C = sub.y, sub.C
    b = sub.bias(alpha, g, active)
    xi = np.maximum(0.0, y * (g - b))
    half_ww = 0.5 * float(alpha.sum() - (alpha * y) @ g)
    P = half_ww + C * float(xi[active].sum())
    slack = (1e-12 + 8 * sub.n * np.finfo(float).eps) * max(1.0, abs(P))
    return P - C * xi[order] + slack


def enumerate_subproblems(sub, k=None, warm_start=True, lazy=True) -> Iterator[EnumeratedModel]:
    """EnumSV on the constrained problems of ``sub`` (a :class:`~svmtext.enumsv.Subproblems`):
    the generator behind :func:`enumerate_models`, for callers that set the solver up.

    ``lazy=True``: a child enters the heap unsolved, keyed by the upper bound of
    :func:`child_bounds`, and is solved only when it reaches the top (then re-inserted
    with its :math:`W` and its original insertion counter); the models come out in
    exactly the order of ``lazy=False``, where every child is solved when its parent
    is expanded (book: :ref:`sec-enumsv-lazy`).
    """
    n, y = sub.n, sub.y
    # time inside the generator (wall, CPU): totals up to the last yield, last resume
    clock = [0.0, time.perf_counter()]
    cpu = [0.0, time.process_time()]

    def elapsed():
        return clock[0] + time.perf_counter() - clock[1]

    def cpu_elapsed():
        return cpu[0] + time.process_time() - cpu[1]

    def solve_child(p, pos):
        """Solve the child ``pos`` of the expanded ``p``: ``(diff_idx, diff_val, W, gap)``."""
        i = int(p.forbidden_base[p.n_forbidden + pos])
        child_active = np.ones(n, dtype=bool)
        child_active[list(p.removed)] = False
        child_active[i] = False
        if warm_start:
            a_c, g_c, gap_c = sub.solve_warm(p.alpha, p.g, child_active, i)
        else:
            a_c, g_c, gap_c = sub.solve_cold(child_active)
        W_c = sub.objective(a_c, g_c)
        diff = np.flatnonzero(a_c != p.alpha)
        return diff, a_c[diff], W_c, gap_c

    counter = itertools.count()
    heap = []
    root_active = np.ones(n, dtype=bool)
    alpha, g, gap = sub.solve_cold(root_active)
    W = sub.objective(alpha, g)
    root = _Child(parent=None, position=-1, diff_idx=np.arange(n), diff_val=alpha,
                  W=W, gap=gap)
    heapq.heappush(heap, _Entry(-W, next(counter), root))
    seen = set()
    n_out = n_candidates = 0
    last = last_cpu = 0.0
    while heap:
        entry = heapq.heappop(heap)
        node = entry.node
        if not node.solved:
            # a bound reached the top: solve the child, put it back with its W
            node.diff_idx, node.diff_val, W_c, node.gap = solve_child(node.parent, node.position)
            if W_c > node.W:
                warnings.warn(f"a child's W = {W_c!r} exceeds its upper bound {node.W!r}: "
                              "the order may differ from the eager enumeration",
                              RuntimeWarning, stacklevel=2)
            node.W, node.solved = W_c, True
            heapq.heappush(heap, _Entry(-W_c, entry.counter, node))
            continue
        n_candidates += 1
        # materialise the triple (alpha, I, F)
        if node.parent is None:
            alpha = node.diff_val.copy()
            removed, forbidden = (), np.zeros(0, dtype=np.int64)
        else:
            p = node.parent
            alpha = p.alpha.copy()
            alpha[node.diff_idx] = node.diff_val
            removed = p.removed + (int(p.forbidden_base[p.n_forbidden + node.position]),)
            forbidden = p.forbidden_base[:p.n_forbidden + node.position]
        active = np.ones(n, dtype=bool)
        active[list(removed)] = False
        g = sub.gradient(alpha)
        support = np.flatnonzero(alpha > 0)
        key = support.tobytes()
        if key not in seen:
            seen.add(key)
            n_out += 1
            now, now_cpu = elapsed(), cpu_elapsed()
            model = EnumeratedModel(
                rank=n_out, support=support, alpha=alpha, dual_coef=alpha[support] * y[support],
                b=sub.bias(alpha, g, active), objective=sub.objective(alpha, g),
                objective_error=objective_error(node.gap, alpha.sum(), node.W), gap=node.gap,
                subset_size=int(n - len(removed)), time=now - last, elapsed=now,
                n_candidates=n_candidates, n_solves=sub.n_solves,
                cpu_time=now_cpu - last_cpu, cpu_elapsed=now_cpu)
            last, last_cpu = now, now_cpu
            clock[0], cpu[0] = now, now_cpu
            yield model
            clock[1], cpu[1] = time.perf_counter(), time.process_time()
            if k is not None and n_out >= k:
                return
        # branch on every support vector not forbidden, in increasing order
        order = np.setdiff1d(support, forbidden, assume_unique=True)
        if not len(order):
            continue
        parent = _Expanded(alpha=alpha, g=g, removed=removed,
                           forbidden_base=np.concatenate([forbidden, order]).astype(np.int64),
                           n_forbidden=len(forbidden))
        bounds = child_bounds(sub, alpha, g, active, order) if lazy else None
        for pos in range(len(order)):
            if lazy:
                child = _Child(parent=parent, position=pos, diff_idx=None, diff_val=None,
                               W=float(bounds[pos]), gap=np.inf, solved=False)
            else:
                diff, val, W_c, gap_c = solve_child(parent, pos)
                child = _Child(parent=parent, position=pos, diff_idx=diff, diff_val=val,
                               W=W_c, gap=gap_c)
            heapq.heappush(heap, _Entry(-child.W, next(counter), child))
