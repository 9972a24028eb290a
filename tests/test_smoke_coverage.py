"""Each experiment's smoke configuration exercises the code paths of its full run.

Recertification (``python -m svmtext.experiments --recertify``) trusts a cache whose
code moved when the smoke run's numbers did not: that is only sound if the smoke run
passes through every function the full run uses. Here both run in this process under
:func:`sys.setprofile`, which records every ``svmtext`` function entered (compiled
numba kernels do not enter Python; their Python callers are recorded): the smoke run
whole, the full run until its first task has finished. Every function of the full
run's first task must also be called by the smoke run. Runtime settings are set to
one in-process worker (they leave the configuration hash, and the results, alone).

The full runs load the full data sets and run their first task at full size; the
test takes a few minutes, so it runs only with ``SVMTEXT_SMOKE_COVERAGE=1``
(``make smoke-coverage``).
"""
from __future__ import annotations

import importlib
import inspect
import os
import sys
from pathlib import Path

import pytest

from svmtext.experiments import EXPERIMENTS
from svmtext.experiments._code import MACHINERY, PACKAGE_DIR

pytestmark = pytest.mark.skipif(os.environ.get("SVMTEXT_SMOKE_COVERAGE") != "1",
                                reason="full-run profiles take minutes: "
                                       "SVMTEXT_SMOKE_COVERAGE=1 (make smoke-coverage)")

# the function each script maps over its tasks (or, for a single pipeline, the first
# step after the set-up that every later step repeats): the full run stops when its
# first call returns (a generator: when it has yielded once)
TASK_FUNCTION = {
    "coulomb_table1": "cv_task",
    "cover_sim": "fraction",
    "eco_svdd": "_one",
    "eco_toys": "_fig4_one",
    "enumsv_compas": "run_one",
    "enumsv_uci": "enumerate_subproblems",     # one task is a whole top-100 enumeration:
                                                # its first model
    "mnist_eco": "_online_pass",
    "nested_cv": "inner_point",
    "psvm_readings": "run_task",
    "psvm_generators": "run_task",
    "psvm_tables": "run_task",
    "scaling": "fit_one",
    "smo_benchmark": "_timed_fit",
    "svmguide": "cv_point",
}


class _FirstTaskDone(Exception):
    pass


FIRST_TASK_DONE = "(the first task finished)"


def _module_of(filename: str) -> str | None:
    path = Path(filename)
    try:
        rel = path.resolve().relative_to(PACKAGE_DIR)
    except ValueError:
        return None
    parts = list(rel.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["svmtext", *parts])


def _in_process(mod, config: dict) -> tuple[dict, dict]:
    """``config`` and ``run`` keywords for one in-process worker."""
    config = dict(config)
    if "n_jobs" in config:
        config["n_jobs"] = 1
    if "isolate" in config:
        config["isolate"] = False           # a forked child is not profiled
    params = inspect.signature(mod.run).parameters
    kwargs = {k: v for k, v in (("backend", "sequential"), ("n_jobs", 1)) if k in params}
    return config, kwargs


def called_functions(mod, config: dict, root: Path, stop_after: str | None = None) -> set[str]:
    """``module:qualname`` of every svmtext function (machinery aside) that
    ``mod.run(config)`` enters; with ``stop_after``, until that function first returns."""
    seen: set[str] = set()
    modules: dict[str, str | None] = {}

    def profile(frame, event, arg):
        if event != "call":
            return
        code = frame.f_code
        name = modules.get(code.co_filename, "")
        if name == "":
            name = modules[code.co_filename] = _module_of(code.co_filename)
        if name and name not in MACHINERY:
            seen.add(f"{name}:{code.co_qualname}")

    config, kwargs = _in_process(mod, config)
    patched = None
    if stop_after:
        original = getattr(mod, stop_after)

        if inspect.isgeneratorfunction(original):
            def first(*args, **kw):
                yield next(iter(original(*args, **kw)))
                seen.add(FIRST_TASK_DONE)
                raise _FirstTaskDone
        else:
            def first(*args, **kw):
                original(*args, **kw)
                seen.add(FIRST_TASK_DONE)
                raise _FirstTaskDone

        patched = (stop_after, original)
        setattr(mod, stop_after, first)
    sys.setprofile(profile)
    try:
        mod.run(config, root=root, **kwargs)
    except _FirstTaskDone:
        pass
    finally:
        sys.setprofile(None)
        if patched:
            setattr(mod, *patched)
    return seen


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_smoke_run_calls_every_function_of_a_full_runs_first_task(name, tmp_path):
    assert name in TASK_FUNCTION, f"name the function {name} maps over its tasks in TASK_FUNCTION"
    mod = importlib.import_module(f"svmtext.experiments.{name}")
    smoke = called_functions(mod, mod.SMOKE_CONFIG, tmp_path / "smoke")
    full = called_functions(mod, mod.CONFIG, tmp_path / "full", stop_after=TASK_FUNCTION[name])
    assert FIRST_TASK_DONE in full, f"{name}: the full run never finished a first task"
    missing = sorted(full - smoke - {FIRST_TASK_DONE})
    assert not missing, (f"{name}: SMOKE_CONFIG misses {len(missing)} functions of the full "
                         f"run's first task: {missing}")
