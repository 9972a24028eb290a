"""Heavy experiments whose small JSON results are committed and read by the chapters.

Each experiment is a module runnable as ``python -m svmtext.experiments.<name>``; it
defines ``CONFIG`` (the full configuration), ``SMOKE_CONFIG`` (a reduced one for CI)
and ``run(config, ...)``. ``python -m svmtext.experiments --smoke`` runs every smoke
configuration (into a temporary folder) and checks every committed cache is current.
"""
from ._cache import StaleCacheError, config_hash, load_cache, write_cache

EXPERIMENTS: list[str] = ["mnist_eco", "eco_toys", "smo_benchmark"]  # module names, as they are added

__all__ = ["EXPERIMENTS", "StaleCacheError", "config_hash", "load_cache", "write_cache"]
