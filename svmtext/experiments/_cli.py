"""The command line shared by every experiment.

``python -m svmtext.experiments.<name> [--smoke] [--backend B] [--n-jobs N]``
"""
from __future__ import annotations

import argparse
import inspect
import tempfile
from pathlib import Path
from typing import Any

from ._cache import RESULTS
from ._tasks import BACKENDS


def run_from_command_line(module, argv=None) -> Any:
    """Run ``module.CONFIG`` into the committed results, or ``--smoke`` into a temporary folder.

    ``--backend`` and ``--n-jobs`` are passed to experiments whose ``run`` accepts them
    (those that run a grid of tasks through :func:`svmtext.experiments._tasks.run_tasks`).
    """
    parser = argparse.ArgumentParser(prog=f"python -m svmtext.experiments.{module.NAME}")
    parser.add_argument("--smoke", action="store_true",
                        help="the reduced configuration, written to a temporary folder")
    parser.add_argument("--backend", default=None,
                        help=f"joblib backend: {', '.join(BACKENDS)} (a local Dask cluster), "
                             "or dask://host:port for a running Dask scheduler")
    parser.add_argument("--n-jobs", type=int, default=None, help="parallel workers")
    args = parser.parse_args(argv)
    accepted = inspect.signature(module.run).parameters
    options = {key: value for key, value in (("backend", args.backend), ("n_jobs", args.n_jobs))
               if value is not None}
    for key in options:
        if key not in accepted:
            parser.error(f"{module.NAME} runs no task grid: --{key.replace('_', '-')} "
                         "does not apply")
    if args.smoke:
        with tempfile.TemporaryDirectory() as tmp:
            return module.run(module.SMOKE_CONFIG, root=Path(tmp), **options)
    return module.run(module.CONFIG, root=RESULTS, **options)
