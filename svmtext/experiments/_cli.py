"""The command line shared by every experiment: ``python -m svmtext.experiments.<name> [--smoke]``."""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from ._cache import RESULTS


def run_from_command_line(module, argv=None):
    """Run ``module.CONFIG`` into the committed results, or ``--smoke`` into a temporary folder."""
    parser = argparse.ArgumentParser(prog=f"python -m svmtext.experiments.{module.NAME}")
    parser.add_argument("--smoke", action="store_true",
                        help="the reduced configuration, written to a temporary folder")
    args = parser.parse_args(argv)
    if args.smoke:
        with tempfile.TemporaryDirectory() as tmp:
            return module.run(module.SMOKE_CONFIG, root=Path(tmp))
    return module.run(module.CONFIG, root=RESULTS)
