"""Intel's oneDAL ``SVC`` for the timing experiments (``scaling``, ``smo_benchmark``).

It comes with the benchmark extras (``requirements-bench.txt``, installed by
``make bench``); the book and ``make test`` do without them.
"""
from __future__ import annotations

__all__ = ["onedal_svc"]


def onedal_svc(n_threads: int, run: str, instead: str) -> type:
    """oneDAL's ``SVC`` class (``sklearnex.svm.SVC``), its threads set to ``n_threads``
    through ``daal4py.daalinit``.

    Raises ImportError when the benchmark extras are not installed, naming the ``run``
    that needs them, ``make bench``, and what to change ``instead`` to do without."""
    try:
        import daal4py
        from sklearnex.svm import SVC
    except ImportError as exc:
        raise ImportError(
            f"{run} needs Intel's oneDAL (scikit-learn-intelex): install the benchmark "
            "extras with `make bench` (pip install -r requirements-bench.txt), or "
            f"{instead} ({exc})") from exc
    daal4py.daalinit(int(n_threads))
    return SVC
