"""``python -m svmtext.experiments --smoke``: run every experiment's smoke configuration
into a temporary folder, and check every committed cache matches its script's CONFIG."""
from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
from pathlib import Path

from . import EXPERIMENTS
from ._cache import load_cache


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m svmtext.experiments")
    parser.add_argument("--smoke", action="store_true", help="run the reduced configurations")
    args = parser.parse_args(argv)
    failures = 0
    for name in EXPERIMENTS:
        mod = importlib.import_module(f"svmtext.experiments.{name}")
        try:
            load_cache(name, mod.CONFIG)
            print(f"{name}: committed cache is current")
        except Exception as exc:  # noqa: BLE001 - report every problem, then fail
            print(f"{name}: {exc}")
            failures += 1
        if args.smoke:
            with tempfile.TemporaryDirectory() as tmp:
                mod.run(mod.SMOKE_CONFIG, root=Path(tmp))
                print(f"{name}: smoke run finished")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
