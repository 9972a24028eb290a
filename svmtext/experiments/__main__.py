"""``python -m svmtext.experiments [--stale | --smoke]``.

Without options: report, for every experiment, whether its committed cache is
current (same configuration, same code); exit status 1 if any is stale.
``--stale``: rerun the full configuration of every stale experiment into the
committed results, with a progress bar. ``--smoke``: also run every experiment's
reduced configuration into a temporary folder.
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys
import tempfile
from pathlib import Path

from tqdm import tqdm

from . import EXPERIMENTS
from ._cache import RESULTS, cache_path, stale_reason


def staleness(name: str, root: Path | None = None) -> str | None:
    """Why the committed cache of ``name`` must be recomputed, or None when current."""
    mod = importlib.import_module(f"{__package__}.{name}")
    path = cache_path(name, root)
    if not path.exists():
        return f"no cached results at {path}"
    return stale_reason(name, json.loads(path.read_text()), mod.CONFIG)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m svmtext.experiments")
    parser.add_argument("--stale", action="store_true",
                        help="rerun every experiment whose committed cache is stale")
    parser.add_argument("--smoke", action="store_true", help="run the reduced configurations")
    args = parser.parse_args(argv)
    stale = {}
    for name in EXPERIMENTS:
        reason = staleness(name)
        print(f"{name}: {reason or 'committed cache is current'}")
        if reason:
            stale[name] = reason
    failures = 0
    if args.stale and stale:
        for name in tqdm(list(stale), desc="stale experiments", unit="experiment"):
            tqdm.write(f"{name}: rerunning the full configuration")
            mod = importlib.import_module(f"{__package__}.{name}")
            mod.run(mod.CONFIG, root=RESULTS)
            reason = staleness(name)
            tqdm.write(f"{name}: {reason or 'cache rewritten and current'}")
            failures += bool(reason)
    else:
        failures = len(stale)
    if args.smoke:
        for name in tqdm(EXPERIMENTS, desc="smoke runs", unit="experiment"):
            mod = importlib.import_module(f"{__package__}.{name}")
            with tempfile.TemporaryDirectory() as tmp:
                mod.run(mod.SMOKE_CONFIG, root=Path(tmp))
            tqdm.write(f"{name}: smoke run finished")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
