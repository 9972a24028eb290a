"""Recertification: a cache whose code moved stays current if its smoke run did not.

A committed cache records, beside its results, the results of its script's
``SMOKE_CONFIG`` computed by the same code (``"smoke"``, see
:func:`svmtext.experiments._cache.write_cache`). When the fingerprint of the code moves
-- a refactor, a helper moved, a docstring turned into a comment -- the full run need
not be repeated: :func:`recertify` reruns the smoke configuration with the current
code and compares it with the recorded smoke results,

* integers, booleans, strings (support sets, iteration counts, labels) exactly,
* floats to the tolerance the script states in ``SMOKE_TOLERANCE``
  (``{"rtol": ..., "atol": ..., "why": ...}``; :data:`DEFAULT_TOLERANCE` otherwise),
* machine measurements (times, memory, CPU load, ratios and slopes of times: the
  keys :func:`is_measurement` recognises, plus the script's ``SMOKE_MEASUREMENTS``)
  not at all.

If they agree, the cache's code fingerprint is re-stamped (and the re-stamp logged
under ``"recertified"``); if not, the cache stays stale and the report says which
numbers moved. The smoke configuration exercises every code path of the full run
(tests/test_experiments.py checks the functions called), so equal smoke results mean
that the change did not touch the arithmetic of the full run either -- up to the
tolerance.
"""
from __future__ import annotations

import importlib
import json
import math
import tempfile
import time
from pathlib import Path

from ._cache import (MEASUREMENT_WORDS, blas_kernels, cache_path, config_hash, is_measurement,
                     read_cache, script_module, strip_measurements, write_json_atomic)
from ._code import changed_modules, code_fingerprint

__all__ = ["DEFAULT_TOLERANCE", "MEASUREMENT_WORDS", "is_measurement", "strip_measurements",
           "tolerance", "compare", "recertify"]

# a refactor changes floats only through the order of floating-point operations:
# relative changes of a few ulps per operation, far below 1e-9 after the few thousand
# operations a smoke result passes through; a numerical change of a solver (its
# stopping tolerance, a step) moves objectives and accuracies by 1e-4 or more
DEFAULT_TOLERANCE = {"rtol": 1e-9, "atol": 1e-12,
                     "why": "summation order moves floats by ulps; a numerical change by >= 1e-4"}

def tolerance(mod) -> dict:
    """The script's ``SMOKE_TOLERANCE``, or :data:`DEFAULT_TOLERANCE`."""
    return dict(DEFAULT_TOLERANCE, **getattr(mod, "SMOKE_TOLERANCE", {}))


def compare(recorded, current, rtol: float, atol: float, path: str = "") -> list[str]:
    """Where ``current`` differs from ``recorded``: integers, booleans, strings, None and
    the structure exactly, floats to ``rtol``/``atol`` (NaN equals NaN). One line per
    difference, naming its place (``rows[0]/smo/n_iter``)."""
    where = path or "results"
    if isinstance(recorded, dict) and isinstance(current, dict):
        out = []
        for key in sorted(set(recorded) | set(current), key=str):
            sub = f"{path}/{key}" if path else str(key)
            if key not in current:
                out.append(f"{sub}: recorded, no longer produced")
            elif key not in recorded:
                out.append(f"{sub}: new, not in the record")
            else:
                out += compare(recorded[key], current[key], rtol, atol, sub)
        return out
    if isinstance(recorded, list) and isinstance(current, list):
        if len(recorded) != len(current):
            return [f"{where}: {len(current)} entries, recorded {len(recorded)}"]
        out = []
        for i, (r, c) in enumerate(zip(recorded, current)):
            out += compare(r, c, rtol, atol, f"{path}[{i}]")
        return out
    both_float = (isinstance(recorded, float) and isinstance(current, (int, float))
                  and not isinstance(current, bool))
    if both_float:
        if math.isnan(recorded) and math.isnan(current):
            return []
        if math.isclose(recorded, current, rel_tol=rtol, abs_tol=atol):
            return []
        return [f"{where}: {current!r}, recorded {recorded!r} (beyond rtol={rtol:g}, atol={atol:g})"]
    if type(recorded) is not type(current) or recorded != current:
        return [f"{where}: {current!r}, recorded {recorded!r}"]
    return []


def _smoke_results(name: str, mod) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        mod.run(mod.SMOKE_CONFIG, root=Path(tmp))
        results = json.loads(cache_path(name, tmp).read_text())["results"]
    return strip_measurements(results, mod)


def _recorded_blas(payload: dict) -> str:
    """The BLAS kernels of the last recertification, or of the cache's run."""
    for entry in reversed(payload.get("recertified") or []):
        if entry.get("blas"):
            return entry["blas"]
    return (payload.get("machine") or {}).get("blas", "not recorded")


def recertify(name: str, root: Path | None = None, *, max_lines: int = 8) -> tuple[bool, str]:
    """Recertify the cache of ``name``: ``(current, message)``.

    Current already (same configuration, same code): nothing is run. Code moved: the
    smoke configuration is rerun and, if its results equal the recorded ones, the code
    fingerprint is re-stamped. Anything else (configuration changed, no smoke record,
    another smoke configuration, numbers moved) leaves the cache stale and says why.
    """
    mod = importlib.import_module(f"{__package__}.{name}")
    payload = read_cache(name, root)
    if payload.get("config_hash") != config_hash(mod.CONFIG):
        return False, (f"{name}: the configuration changed (config hash {payload.get('config_hash')}"
                       f", now {config_hash(mod.CONFIG)}); a full rerun is needed: "
                       f"`python -m svmtext.experiments.{name}`")
    module = script_module(name)
    current = code_fingerprint(module)
    recorded = payload.get("code") or {}
    if recorded.get("hash") == current["hash"]:
        return True, f"{name}: current"
    smoke = payload.get("smoke")
    if not smoke:
        return False, (f"{name}: no smoke results recorded, cannot recertify; "
                       f"`python -m svmtext.experiments.{name}`")
    if smoke.get("config_hash") != config_hash(mod.SMOKE_CONFIG):
        return False, (f"{name}: SMOKE_CONFIG changed since its results were recorded; "
                       f"a full rerun records them again: `python -m svmtext.experiments.{name}`")
    changed = changed_modules(recorded, current)
    start = time.perf_counter()
    now = _smoke_results(name, mod)
    seconds = time.perf_counter() - start
    tol = tolerance(mod)
    diffs = compare(smoke["results"], now, tol["rtol"], tol["atol"])
    if diffs:
        shown = "\n    ".join(diffs[:max_lines])
        more = f"\n    ... and {len(diffs) - max_lines} more" if len(diffs) > max_lines else ""
        recorded_blas = _recorded_blas(payload)
        return False, (f"{name}: STALE, the smoke results moved after {', '.join(changed)} changed "
                       f"({len(diffs)} differences):\n    {shown}{more}\n  "
                       f"BLAS kernels here: {blas_kernels()}; recorded: {recorded_blas} (the "
                       f"smoke runs follow them: OPENBLAS_CORETYPE=<kernels> runs the recorded "
                       f"ones where the CPU can)\n  "
                       f"rerun the full configuration: `python -m svmtext.experiments.{name}`")
    payload.setdefault("recertified", []).append({
        "date": time.strftime("%Y-%m-%d %H:%M:%S"), "from": recorded.get("hash"),
        "to": current["hash"], "changed": changed, "smoke_seconds": round(seconds, 1),
        "blas": blas_kernels()})
    payload["code"] = current
    write_json_atomic(cache_path(name, root), payload)
    return True, (f"{name}: recertified ({len(changed)} modules changed: {', '.join(changed)}; "
                  f"smoke run {seconds:.1f} s equal to the record within "
                  f"rtol={tol['rtol']:g}, atol={tol['atol']:g})")
