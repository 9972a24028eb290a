r"""Sequential minimal optimisation for the SVM dual (book: :ref:`sec-smo`).

One concept per module:

* :mod:`._columns` -- kernel columns on demand (a Gram matrix or the data);
* :mod:`._cache` -- the LRU kernel-column cache, bounded in MB;
* :mod:`._wss` -- working-set selection: Platt's heuristics, the maximal violating
  pair, second-order WSS2;
* :mod:`._solver` -- the SMO loop: two-variable step, gradient update, shrinking,
  stopping rule, bias;
* :mod:`._loop` -- the same loop for WSS2, compiled (the production path);
* :mod:`._emulator` -- a small SMO with LIBSVM's choices as switches, written apart
  from :mod:`._loop` to check its iteration counts;
* :mod:`._estimator` -- :class:`SMOSVC`, the scikit-learn estimator.
"""
from ._cache import ColumnCache
from ._columns import GramColumns, KernelColumns
from ._estimator import SMOSVC
from ._solver import SMOResult, bias_from_gradient, smo_solve
from ._wss import RULES, WSS2, MaximalViolatingPair, PlattHeuristics, make_rule

__all__ = ["smo_solve", "SMOResult", "SMOSVC", "ColumnCache", "GramColumns",
           "KernelColumns", "bias_from_gradient", "WSS2", "MaximalViolatingPair",
           "PlattHeuristics", "make_rule", "RULES"]
from ._dense import smo_dense  # noqa: E402

__all__ += ["smo_dense"]
