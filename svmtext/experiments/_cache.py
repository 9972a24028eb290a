"""Cached experiments: config hashes, atomic JSON writes, staleness and integrity checks.

A heavy experiment is a script ``python -m svmtext.experiments.<name>`` that writes
``svmtext/experiments/results/<name>.json`` holding ``{"config": ..., "config_hash": ...,
"code": ..., "results": ..., "results_hash": ..., "smoke": ...}``:

* ``config_hash`` hashes the settings that decide the numbers (:data:`RUNTIME_KEYS`
  such as ``n_jobs`` are left out: they change how fast, not what);
* ``code`` is the fingerprint of the ``svmtext`` modules that compute the results
  (:func:`svmtext.experiments._code.code_fingerprint`);
* ``results_hash`` hashes the results themselves, so an edited or truncated file is
  refused instead of read;
* ``smoke`` holds the results of the script's ``SMOKE_CONFIG`` computed by the same
  code: ``python -m svmtext.experiments --recertify`` reruns that configuration when
  the code fingerprint moved and re-stamps the cache if the numbers did not
  (:mod:`svmtext.experiments._recertify`).

Chapters read the cache with :func:`load_cache`, which refuses a cache whose
configuration hash differs from the script's current configuration, whose code
fingerprint differs from the current code, or whose results do not match their hash,
so a chapter can never show numbers from another configuration, other code, or an
edited file.
"""
from __future__ import annotations

from typing import Any
import hashlib
import importlib
import json
import os
import platform
import tempfile
import time
from pathlib import Path

from ..datasets._fetch import replace_atomically
from ._code import changed_modules, code_fingerprint, module_file

RESULTS = Path(__file__).resolve().parent / "results"

# settings that decide how a run is executed, never what it computes: left out of the
# configuration hash at any depth of the configuration
RUNTIME_KEYS = frozenset({"n_jobs", "backend", "verbose", "progress"})

__all__ = ["RESULTS", "RUNTIME_KEYS", "MEASUREMENT_WORDS", "is_measurement", "strip_measurements",
           "config_hash", "results_hash", "write_json_atomic",
           "write_cache", "load_cache", "read_cache", "StaleCacheError", "CorruptCacheError",
           "cache_path", "script_module", "stale_reason", "regenerate_command"]


class StaleCacheError(RuntimeError):
    """The committed cache was produced with another configuration or other code."""


class CorruptCacheError(StaleCacheError):
    """The cache file is not what its script wrote: unreadable, truncated or edited."""


def _to_json(obj):
    """JSON fallback for numpy scalars and arrays."""
    if hasattr(obj, "tolist"):
        return obj.tolist()
    return float(obj)


def _canonical(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), default=_to_json)


def _deciding(config):
    """The configuration without its :data:`RUNTIME_KEYS` (at any depth)."""
    if isinstance(config, dict):
        return {k: _deciding(v) for k, v in config.items() if k not in RUNTIME_KEYS}
    if isinstance(config, (list, tuple)):
        return [_deciding(v) for v in config]
    return config


def config_hash(config: dict) -> str:
    """sha256 (first 16 hex digits) of the canonical JSON of the settings that decide
    the results (the configuration without :data:`RUNTIME_KEYS`)."""
    return hashlib.sha256(_canonical(_deciding(config)).encode()).hexdigest()[:16]


def results_hash(results) -> str:
    """sha256 (first 16 hex digits) of the results' canonical JSON, as read back from
    the file (numpy values become their JSON form first)."""
    return hashlib.sha256(_canonical(json.loads(_canonical(results))).encode()).hexdigest()[:16]


def cache_path(name: str, root: Path | None = None) -> Path:
    """Where the cache of experiment ``name`` lives (``<root>/<name>.json``)."""
    return Path(root or RESULTS) / f"{name}.json"


def regenerate_command(name: str) -> str:
    """The commands that rebuild the cache of ``name``."""
    return (f"`python -m svmtext.experiments --recertify` if only the code moved, else "
            f"`python -m svmtext.experiments.{name}` (`make experiments` reruns every stale cache)")


def write_json_atomic(path, obj) -> Path:
    """Write JSON to a temporary file beside ``path`` and rename it into place
    (:func:`svmtext.datasets._fetch.replace_atomically`)."""
    path = Path(path)
    text = json.dumps(obj, indent=1, sort_keys=True, default=_to_json) + "\n"
    replace_atomically(path, lambda out: out.write(text.encode()))
    return path


def script_module(name: str) -> str | None:
    """``svmtext.experiments.<name>`` when that script exists, else None."""
    module = f"{__package__}.{name}"
    return module if module_file(module) is not None else None


# words of a result key that mark a measurement of the machine, not a computed number
MEASUREMENT_WORDS = frozenset({"seconds", "time", "times", "timing", "cpu", "elapsed",
                               "load", "maxrss", "peak", "ratio", "slopes"})


def is_measurement(key: str, extra: frozenset = frozenset()) -> bool:
    """Whether a result key names a machine measurement (``median_time``, ``peak_mb``,
    ``cpu_ratio``, ...): one of its ``_``-separated words is in :data:`MEASUREMENT_WORDS`,
    or the key is in ``extra``."""
    return key in extra or bool(MEASUREMENT_WORDS & set(str(key).split("_")))


def _extra(mod) -> frozenset:
    return frozenset(getattr(mod, "SMOKE_MEASUREMENTS", ()))


def strip_measurements(results, mod=None) -> Any:
    """``results`` without the entries whose key is a measurement (at any depth)."""
    extra = _extra(mod)
    if isinstance(results, dict):
        return {k: strip_measurements(v, mod) for k, v in results.items()
                if not is_measurement(k, extra)}
    if isinstance(results, list):
        return [strip_measurements(v, mod) for v in results]
    return results


def _script(module: str | None):
    """The imported script ``module``, or None if it cannot be imported."""
    if module is None:
        return None
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def smoke_record(name: str, mod) -> dict:
    """Run ``mod.SMOKE_CONFIG`` into a temporary folder and return what a full cache
    keeps of it: the smoke configuration's hash and results (machine measurements such
    as times left out, :func:`strip_measurements`)."""
    with tempfile.TemporaryDirectory() as tmp:
        mod.run(mod.SMOKE_CONFIG, root=Path(tmp))
        smoke = json.loads(cache_path(name, tmp).read_text())["results"]
    smoke = strip_measurements(smoke, mod)
    return {"config_hash": config_hash(mod.SMOKE_CONFIG), "results": smoke,
            "results_hash": results_hash(smoke)}


def blas_kernels() -> str:
    """The BLAS library and the kernels it runs here (``openblas 0.3.31 SkylakeX``):
    results that go through BLAS can move in the last bits with the kernels, and a
    smoke run's path with them (``OPENBLAS_CORETYPE`` chooses OpenBLAS's kernels)."""
    from threadpoolctl import threadpool_info
    return "; ".join(f"{i['internal_api']} {i['version']} {i.get('architecture')}"
                     for i in threadpool_info() if i.get("user_api") == "blas") or "unknown"


def write_cache(name: str, config: dict, results: dict, root: Path | None = None,
                smoke: dict | None = None) -> Path:
    """Store ``results`` with the ``config`` that produced them, its hash, the hash of
    the results, and the fingerprint of the code of the script
    ``svmtext.experiments.<name>`` (if any).

    When ``config`` is the script's full ``CONFIG``, the script's ``SMOKE_CONFIG`` is
    run too (into a temporary folder) and its results are kept under ``"smoke"``: the
    reference that :func:`svmtext.experiments._recertify.recertify` compares against.
    """
    module = script_module(name)
    mod = _script(module)
    if (smoke is None and mod is not None and hasattr(mod, "SMOKE_CONFIG")
            and hasattr(mod, "CONFIG") and config_hash(config) == config_hash(mod.CONFIG)
            and config_hash(config) != config_hash(mod.SMOKE_CONFIG)):
        smoke = smoke_record(name, mod)
    payload = {
        "name": name,
        "config": config,
        "config_hash": config_hash(config),
        "code": code_fingerprint(module) if module else None,
        "created": time.strftime("%Y-%m-%d %H:%M:%S"),
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                    "blas": blas_kernels()},
        "results": results,
        "results_hash": results_hash(results),
    }
    if smoke is not None:
        payload["smoke"] = smoke
    return write_json_atomic(cache_path(name, root), payload)


def _rerun(name: str) -> str:
    return f"rerun {regenerate_command(name)}"


def read_cache(name: str, root: Path | None = None) -> dict:
    """The cache of ``name`` as stored, after checking that it is whole and unedited.

    Raises
    ------
    FileNotFoundError
        No cache file.
    CorruptCacheError
        The file is not JSON (e.g. truncated), or its results (or recorded smoke
        results) no longer match the hash written beside them.
    """
    path = cache_path(name, root)
    if not path.exists():
        raise FileNotFoundError(
            f"no cached results at {path}; run `python -m svmtext.experiments.{name}`")
    redo = f"regenerate it with `python -m svmtext.experiments.{name}` (or `git checkout {path}`)"
    try:
        payload = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CorruptCacheError(f"{path} is not a whole JSON file ({exc}); {redo}") from None
    if not isinstance(payload, dict) or "results" not in payload:
        raise CorruptCacheError(f"{path} holds no results; {redo}")
    for part, where in ((payload, "results"), (payload.get("smoke"), "smoke results")):
        if part is None:
            continue
        stored = part.get("results_hash")
        if stored is None:
            raise CorruptCacheError(f"{path} records no hash of its {where}; {redo}")
        if stored != results_hash(part.get("results")):
            raise CorruptCacheError(
                f"{path}: the {where} do not match their hash {stored} (the file was edited "
                f"after it was written); {redo}")
    return payload


def stale_reason(name: str, payload: dict, config: dict | None = None) -> str | None:
    """Why the cache ``payload`` no longer matches ``config`` and the current code, or None."""
    if config is not None and payload.get("config_hash") != config_hash(config):
        return (f"{name}.json was produced with config hash {payload.get('config_hash')}, "
                f"but the current configuration hashes to {config_hash(config)}; rerun "
                f"`python -m svmtext.experiments.{name}` (`make experiments` reruns every stale cache)")
    module = script_module(name)
    if module is None:
        return None
    recorded = payload.get("code")
    if not recorded:
        return (f"{name}.json records no fingerprint of the code that produced it; "
                f"{_rerun(name)}")
    current = code_fingerprint(module)
    if recorded.get("hash") != current["hash"]:
        changed = changed_modules(recorded, current)
        return (f"{name}.json was produced by other code: {', '.join(changed)} changed since "
                f"(code hash {recorded.get('hash')}, now {current['hash']}); {_rerun(name)}")
    return None


def load_cache(name: str, config: dict | None = None, root: Path | None = None) -> dict:
    """Read a cache; with ``config``, raise :class:`StaleCacheError` if it is stale.

    Stale means: the stored configuration hash differs from ``config``'s, or the
    script ``svmtext.experiments.<name>`` exists and the ``svmtext`` code that
    computes its results differs from the code that produced the cache (the message
    names the modules). A file that is truncated or whose results were edited raises
    :class:`CorruptCacheError` (a :class:`StaleCacheError`) naming the file and the
    command that regenerates it, with or without ``config``.
    """
    payload = read_cache(name, root)
    if config is not None:
        reason = stale_reason(name, payload, config)
        if reason:
            raise StaleCacheError(reason)
    return payload
