"""Recertification of the committed caches, on a copy of the package.

A pure refactor (a local variable of the SMO core renamed) moves the code fingerprint
of every cache; ``python -m svmtext.experiments --recertify`` must rerun the smoke
configurations, find the same numbers and re-stamp every cache, within 3 minutes of
CPU on this machine. A numerical change (the solver's stopping tolerance doubled)
moves the smoke numbers, and recertification must refuse it.

Both run in a subprocess on a copy of ``svmtext`` (first on ``PYTHONPATH``) and of the
committed results, so the working tree and its caches are never touched.
"""
from __future__ import annotations

import ast
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from svmtext.experiments._cache import RESULTS
from svmtext.experiments._code import PACKAGE_DIR

TIME_LIMIT = 180.0        # seconds of CPU for recertifying every cache


def _copy(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "tree"
    shutil.copytree(PACKAGE_DIR, root / "svmtext",
                    ignore=shutil.ignore_patterns("__pycache__", "results", "*.nbi", "*.nbc"))
    results = tmp_path / "results"
    shutil.copytree(RESULTS, results, ignore=shutil.ignore_patterns(".partial"))
    return root, results


def _cli(root: Path, results: Path, *args: str, one_blas_thread: bool = False
         ) -> tuple[int, str, float, float]:
    """Run ``python -m svmtext.experiments --results <results> *args`` on the copy: exit
    status, what it printed (its report; progress bars go to stderr), wall and CPU
    seconds of the child. ``one_blas_thread``: the child's BLAS starts with one thread."""
    env = dict(os.environ, PYTHONPATH=str(root), NUMBA_CACHE_DIR=str(root / ".numba"))
    if one_blas_thread:
        env.update(OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1", OMP_NUM_THREADS="1")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "svmtext.experiments", "--results",
                           str(results), *args], cwd=root, env=env, capture_output=True,
                          text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode not in (0, 1):
        raise AssertionError(proc.stdout + proc.stderr[-3000:])
    return proc.returncode, proc.stdout, wall, cpu


def _states(out: str) -> dict[str, str]:
    """Experiment -> 'current', 'recertified' or 'stale', from a report of the command."""
    states = {}
    for name, message in re.findall(r"^(\w+): (.*)$", out, flags=re.M):
        if name == "recertification":
            continue
        if message.startswith("recertified"):
            states[name] = "recertified"
        elif message in ("current", "committed cache is current"):
            states[name] = "current"
        else:
            states[name] = "stale"
    return states


def rename_a_local(path: Path) -> str:
    """Rename one local variable of one function of ``path`` (whole words within that
    function's lines): a pure refactor. Returns the old name."""
    source = path.read_text()
    lines = source.splitlines(keepends=True)
    for fn in ast.walk(ast.parse(source)):
        if not isinstance(fn, ast.FunctionDef):
            continue
        params = {a.arg for a in fn.args.args + fn.args.kwonlyargs}
        stored = [n.id for n in ast.walk(fn) if isinstance(n, ast.Name)
                  and isinstance(n.ctx, ast.Store) and n.id not in params and len(n.id) > 1]
        if not stored:
            continue
        old, new = stored[0], f"{stored[0]}_renamed"
        assert new not in source
        first, last = fn.lineno - 1, fn.end_lineno
        body = re.sub(rf"\b{old}\b", new, "".join(lines[first:last]))
        path.write_text("".join(lines[:first]) + body + "".join(lines[last:]))
        return old
    raise AssertionError(f"no local variable to rename in {path}")


@pytest.mark.skipif(bool(os.environ.get("OPENBLAS_CORETYPE")),
                    reason="the smoke results were recorded under this machine's default "
                           "OpenBLAS kernels; under another kernel set their last bits differ "
                           "(make test-portable leaves this test out for the same reason)")
def test_a_refactor_is_recertified_and_a_numerical_change_refused(tmp_path):
    root, results = _copy(tmp_path)
    # the caches that are current for the unchanged copy (all of them once the committed
    # caches are current; test_committed_cache_is_current reports the others)
    status, out, _, _ = _cli(root, results)
    if status:
        _, out, _, _ = _cli(root, results, "--recertify")
    before = _states(out)
    current = sorted(n for n, state in before.items() if state != "stale")
    if not current:
        pytest.skip("no committed cache is current:\n" + out[-2000:])
    core = root / "svmtext" / "smo" / "_core.py"
    old = rename_a_local(core)
    # on one BLAS thread, whatever the thread count the caches were recorded with: a
    # smoke number that depends on how BLAS splits its work across threads is refused
    # here (as the EcoSVM's counts once were, before it ran on one thread)
    status, out, wall, cpu = _cli(root, results, "--recertify", *current, one_blas_thread=True)
    after = _states(out)
    assert status == 0 and sorted(after) == current, out
    assert set(after.values()) <= {"current", "recertified"}, out
    # every cache that the SMO core computes was rerun and re-stamped
    uses_core = [n for n in current if "svmtext.smo._core" in json.loads(
        (results / f"{n}.json").read_text())["code"]["modules"]]
    assert uses_core and all(after[n] == "recertified" for n in uses_core), out
    print(f"renamed {old} in smo/_core.py: {len(uses_core)} caches recertified in {wall:.0f} s "
          f"wall, {cpu:.0f} s CPU; not current before: {sorted(set(before) - set(current))}")
    assert cpu < TIME_LIMIT, f"recertifying every cache took {cpu:.0f} s of CPU ({wall:.0f} s wall)"

    # a numerical change: the SMO solver stops at twice its tolerance
    solver = root / "svmtext" / "smo" / "_solver.py"
    text = solver.read_text()
    assert text.count("tol = check_tol(tol)") == 1, "update the numerical change of this test"
    solver.write_text(text.replace("tol = check_tol(tol)", "tol = 2 * check_tol(tol)"))
    names = [n for n in ("smo_benchmark", "svmguide") if n in uses_core]
    status, out, _, _ = _cli(root, results, "--recertify", *names)
    assert status == 1, out
    for name in names:
        assert re.search(rf"^{name}: STALE, the smoke results moved after .*svmtext\.smo\._solver",
                         out, flags=re.M), out
    status, out, _, _ = _cli(root, results, *names)       # and they stay stale
    assert status == 1 and "smo._solver changed" in out
