"""``python -m svmtext.experiments [--recertify | --stale | --smoke] [names ...]``.

Without options: report, for every experiment, whether its committed cache is
current (same configuration, same code, results matching their hash); exit status 1
if any is stale. ``--recertify``: for every cache whose code fingerprint moved, rerun
its smoke configuration and re-stamp the cache if the smoke results equal the
recorded ones (:mod:`svmtext.experiments._recertify`); report the others stale and
why. ``--stale``: rerun the full configuration of every stale experiment into the
committed results, with a progress bar. ``--smoke``: also run every experiment's
reduced configuration into a temporary folder. Names restrict any of these to
those experiments.
"""
from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
import time
from pathlib import Path

from tqdm import tqdm

from . import EXPERIMENTS
from ._cache import RESULTS, CorruptCacheError, cache_path, read_cache, stale_reason
from ._recertify import recertify


def staleness(name: str, root: Path | None = None) -> str | None:
    """Why the committed cache of ``name`` must be recomputed, or None when current."""
    mod = importlib.import_module(f"{__package__}.{name}")
    path = cache_path(name, root)
    if not path.exists():
        return f"no cached results at {path}"
    try:
        payload = read_cache(name, root)
    except CorruptCacheError as exc:
        return str(exc)
    return stale_reason(name, payload, mod.CONFIG)


def main(argv: list[str] | None = None) -> int:
    """Report, recertify or rerun the cached experiments; the exit status is 1 if any
    cache is left stale."""
    parser = argparse.ArgumentParser(prog="python -m svmtext.experiments")
    parser.add_argument("names", nargs="*", metavar="name",
                        help=f"experiments to consider (default: all of {', '.join(EXPERIMENTS)})")
    parser.add_argument("--recertify", action="store_true",
                        help="rerun the smoke configuration of every cache whose code moved and "
                             "re-stamp it if the smoke results did not move")
    parser.add_argument("--stale", action="store_true",
                        help="rerun every experiment whose committed cache is stale")
    parser.add_argument("--smoke", action="store_true", help="run the reduced configurations")
    parser.add_argument("--results", type=Path, default=None, metavar="DIR",
                        help="the caches' folder (default: the committed results)")
    args = parser.parse_args(argv)
    root = args.results
    unknown = sorted(set(args.names) - set(EXPERIMENTS))
    if unknown:
        parser.error(f"unknown experiments {', '.join(unknown)}; known: {', '.join(EXPERIMENTS)}")
    names = args.names or EXPERIMENTS
    if args.recertify:
        start = time.perf_counter()
        left = 0
        for name in names:
            try:
                ok, message = recertify(name, root)
            except Exception as exc:         # a smoke run that fails leaves its cache stale
                ok, message = False, f"{name}: STALE, the smoke run failed: {type(exc).__name__}: {exc}"
            print(message, flush=True)
            left += not ok
        print(f"recertification: {len(names) - left} of {len(names)} caches current, "
              f"{left} stale ({time.perf_counter() - start:.0f} s)")
        if not args.stale:
            return 1 if left else 0
    stale = {}
    for name in names:
        reason = staleness(name, root)
        print(f"{name}: {reason or 'committed cache is current'}")
        if reason:
            stale[name] = reason
    failures = 0
    if args.stale and stale:
        for name in tqdm(list(stale), desc="stale experiments", unit="experiment"):
            tqdm.write(f"{name}: rerunning the full configuration")
            mod = importlib.import_module(f"{__package__}.{name}")
            mod.run(mod.CONFIG, root=root or RESULTS)
            reason = staleness(name, root)
            tqdm.write(f"{name}: {reason or 'cache rewritten and current'}")
            failures += bool(reason)
    else:
        failures = len(stale)
    if args.smoke:
        for name in tqdm(names, desc="smoke runs", unit="experiment"):
            mod = importlib.import_module(f"{__package__}.{name}")
            with tempfile.TemporaryDirectory() as tmp:
                mod.run(mod.SMOKE_CONFIG, root=Path(tmp))
            tqdm.write(f"{name}: smoke run finished")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
