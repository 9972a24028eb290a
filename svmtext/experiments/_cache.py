"""Cached experiments: config hashes, atomic JSON writes, staleness checks.

A heavy experiment is a script ``python -m svmtext.experiments.<name>`` that writes
``svmtext/experiments/results/<name>.json`` holding ``{"config": ..., "config_hash": ...,
"results": ...}``. Chapters read the cache with :func:`load_cache`, which refuses a
cache whose stored hash differs from the script's current configuration, so a
chapter can never show numbers from another configuration.
"""
from __future__ import annotations

import hashlib
import json
import os
import platform
import tempfile
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"

__all__ = ["RESULTS", "config_hash", "write_json_atomic", "write_cache", "load_cache",
           "StaleCacheError", "cache_path"]


class StaleCacheError(RuntimeError):
    """The committed cache was produced with another configuration than the script's."""


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
    """Write JSON to a temporary file beside ``path`` and rename it into place."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump(obj, fh, indent=1, sort_keys=True, default=_to_json)
            fh.write("\n")
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def write_cache(name: str, config: dict, results: dict, root: Path | None = None) -> Path:
    """Store ``results`` with the ``config`` that produced them and its hash."""
    payload = {
        "name": name,
        "config": config,
        "config_hash": config_hash(config),
        "created": time.strftime("%Y-%m-%d %H:%M:%S"),
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
        "results": results,
    }
    return write_json_atomic(cache_path(name, root), payload)


def load_cache(name: str, config: dict | None = None, root: Path | None = None) -> dict:
    """Read a cache; with ``config``, raise :class:`StaleCacheError` if its hash differs."""
    path = cache_path(name, root)
    if not path.exists():
        raise FileNotFoundError(
            f"no cached results at {path}; run `python -m svmtext.experiments.{name}`")
    payload = json.loads(path.read_text())
    if config is not None and payload.get("config_hash") != config_hash(config):
        raise StaleCacheError(
            f"{path.name} was produced with config hash {payload.get('config_hash')}, "
            f"but the current configuration hashes to {config_hash(config)}; "
            f"rerun `python -m svmtext.experiments.{name}`")
    return payload
