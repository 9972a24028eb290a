"""Cached experiments: config hashes, atomic JSON writes, staleness checks.

A heavy experiment is a script ``python -m svmtext.experiments.<name>`` that writes
``svmtext/experiments/results/<name>.json`` holding ``{"config": ..., "config_hash": ...,
"code": ..., "results": ...}``; ``code`` is the fingerprint of the ``svmtext`` modules
the script imports (:func:`svmtext.experiments._code.code_fingerprint`). Chapters
read the cache with :func:`load_cache`, which refuses a cache whose configuration
hash differs from the script's current configuration or whose code fingerprint
differs from the current code, so a chapter can never show numbers from another
configuration or from other code than the committed one.
"""
from __future__ import annotations

import hashlib
import json
import os
import platform
import time
from pathlib import Path

from ..datasets._fetch import replace_atomically
from ._code import changed_modules, code_fingerprint, module_file

RESULTS = Path(__file__).resolve().parent / "results"

__all__ = ["RESULTS", "config_hash", "write_json_atomic", "write_cache", "load_cache",
           "StaleCacheError", "cache_path", "script_module", "stale_reason"]


class StaleCacheError(RuntimeError):
    """The committed cache was produced with another configuration or other code."""


def _to_json(obj):
    """JSON fallback for numpy scalars and arrays."""
    if hasattr(obj, "tolist"):
        return obj.tolist()
    return float(obj)


def _canonical(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), default=_to_json)


def config_hash(config: dict) -> str:
    """sha256 (first 16 hex digits) of the configuration's canonical JSON."""
    return hashlib.sha256(_canonical(config).encode()).hexdigest()[:16]


def cache_path(name: str, root: Path | None = None) -> Path:
    return Path(root or RESULTS) / f"{name}.json"


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


def write_cache(name: str, config: dict, results: dict, root: Path | None = None) -> Path:
    """Store ``results`` with the ``config`` that produced them, its hash, and the
    fingerprint of the code of the script ``svmtext.experiments.<name>`` (if any)."""
    module = script_module(name)
    payload = {
        "name": name,
        "config": config,
        "config_hash": config_hash(config),
        "code": code_fingerprint(module) if module else None,
        "created": time.strftime("%Y-%m-%d %H:%M:%S"),
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
        "results": results,
    }
    return write_json_atomic(cache_path(name, root), payload)


def _rerun(name: str) -> str:
    return (f"rerun `python -m svmtext.experiments.{name}` "
            f"(`make experiments` reruns every stale cache)")


def stale_reason(name: str, payload: dict, config: dict | None = None) -> str | None:
    """Why the cache ``payload`` no longer matches ``config`` and the current code, or None."""
    if config is not None and payload.get("config_hash") != config_hash(config):
        return (f"{name}.json was produced with config hash {payload.get('config_hash')}, "
                f"but the current configuration hashes to {config_hash(config)}; {_rerun(name)}")
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
    script ``svmtext.experiments.<name>`` exists and the ``svmtext`` code it imports
    differs from the code that produced the cache (the message names the modules).
    """
    path = cache_path(name, root)
    if not path.exists():
        raise FileNotFoundError(
            f"no cached results at {path}; run `python -m svmtext.experiments.{name}`")
    payload = json.loads(path.read_text())
    if config is not None:
        reason = stale_reason(name, payload, config)
        if reason:
            raise StaleCacheError(reason)
    return payload
