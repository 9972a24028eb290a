"""Heavy experiments whose small JSON results are committed and read by the chapters.

Each experiment is a module runnable as ``python -m svmtext.experiments.<name>``; it
defines ``CONFIG`` (the full configuration), ``SMOKE_CONFIG`` (a reduced one for CI)
and ``run(config, ...)``. A cache records the hash of its configuration and the
fingerprint of the ``svmtext`` code the script imports; a chapter reading it with
:func:`load_cache` fails when either changed. ``python -m svmtext.experiments``
reports which caches are stale, ``--stale`` reruns exactly those, and ``--smoke``
runs every smoke configuration (into a temporary folder).
"""
from ._cache import StaleCacheError, config_hash, load_cache, write_cache

# module names, as they are added
EXPERIMENTS: list[str] = ["mnist_eco", "eco_toys", "smo_benchmark", "eco_svdd", "scaling", "svmguide",
                          "coulomb_table1", "psvm_tables", "psvm_readings", "enumsv_uci",
                          "enumsv_compas", "nested_cv", "cover_sim", "psvm_generators",
                          "smo_iterations"]

__all__ = ["EXPERIMENTS", "StaleCacheError", "config_hash", "load_cache", "write_cache"]
