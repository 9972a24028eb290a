"""Independent tasks of a cached experiment: parallel, resumable, on any joblib backend.

A grid experiment (data set x model x realisation x fold ...) is a list of *tasks*,
each a JSON-able dict of keyword arguments of one function. :func:`run_tasks` runs
the tasks that have no result yet through joblib and writes each result, as soon as
it arrives, to its own file under ``<root>/.partial/<name>-<config hash>-<code hash>/``
(atomic rename), so an interrupted run resumes where it stopped: a rerun reads the finished
results and computes only the rest. The experiment ends with :func:`finish`: its cache is
written, then the finished tasks are removed (:func:`clear_partial`).

Backends: joblib's ``'loky'`` (processes, the default), ``'threading'`` and
``'sequential'``, and ``'dask'``: the tasks go to a Dask cluster through
``joblib.parallel_backend('dask')`` -- a ``distributed.LocalCluster`` of ``n_jobs``
single-threaded workers started for the run, or an existing scheduler named as
``'dask://host:port'`` (or ``'tcp://host:port'``). The same script therefore runs on
one machine or on a cluster without change, and gives the same results: every task
is seeded by its own arguments, never by the order in which tasks finish.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import shutil
from pathlib import Path

import joblib
from tqdm.auto import tqdm

from ._cache import RESULTS, _canonical, config_hash, script_module, write_cache, write_json_atomic
from ._code import code_fingerprint

__all__ = ["run_tasks", "task_key", "partial_dir", "clear_partial", "finish", "Interrupted",
           "BACKENDS"]

BACKENDS = ("loky", "threading", "sequential", "dask")


class Interrupted(RuntimeError):
    """Raised by :func:`run_tasks` after ``stop_after`` new tasks (to test resuming)."""


def task_key(task: dict) -> str:
    """sha256 (first 20 hex digits) of the task's canonical JSON: its file name."""
    return hashlib.sha256(_canonical(task).encode()).hexdigest()[:20]


def partial_dir(name: str, config: dict, root: Path | None = None) -> Path:
    """Where the finished tasks of ``name`` under ``config`` are kept until the cache is written.

    The folder is named by the configuration hash and, for an experiment script
    ``svmtext.experiments.<name>``, by the fingerprint of the code it imports: a run
    resumes only from results of the same configuration *and* the same code.
    """
    module = script_module(name)
    code = f"-{code_fingerprint(module)['hash']}" if module else ""
    return Path(root or RESULTS) / ".partial" / f"{name}-{config_hash(config)}{code}"


def clear_partial(name: str, config: dict, root: Path | None = None) -> None:
    """Remove the per-task results once the experiment's cache has been written."""
    folder = partial_dir(name, config, root)
    shutil.rmtree(folder, ignore_errors=True)
    with contextlib.suppress(OSError):
        folder.parent.rmdir()          # only if no other experiment has partial results


def finish(name: str, config: dict, results: dict, root: Path | None = None, *,
           partial_config: dict | None = None) -> dict:
    """The end of a task-grid experiment: write its cache, then remove its finished tasks.

    In that order: a run stopped while the cache is written keeps the finished tasks,
    and its rerun only reads them back. ``partial_config`` is the configuration that
    keys the finished tasks when it is not ``config`` (:func:`partial_dir`). Returns
    ``results``.
    """
    write_cache(name, config, results, root=root)
    clear_partial(name, config if partial_config is None else partial_config, root)
    return results


def _check_backend(backend):
    if backend is None:
        return "loky", None
    if not isinstance(backend, str):
        raise ValueError(f"backend must be a string; got {backend!r}")
    for prefix in ("dask://", "tcp://"):
        if backend.startswith(prefix):
            return "dask", "tcp://" + backend[len(prefix):]
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; use one of {', '.join(BACKENDS)} "
                         "or 'dask://host:port' for a running Dask scheduler")
    return backend, None


@contextlib.contextmanager
def _backend(kind, address, n_jobs):
    """joblib's backend for the run; for Dask, a client (and a local cluster if no address)."""
    if kind != "dask":
        with joblib.parallel_config(backend=kind, n_jobs=n_jobs):
            yield
        return
    from distributed import Client, LocalCluster   # optional dependency: only for Dask runs
    if address is None:
        workers = n_jobs if n_jobs and n_jobs > 0 else joblib.cpu_count()
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client, \
                joblib.parallel_config(backend="dask", n_jobs=n_jobs):
            yield client
    else:
        with Client(address) as client, joblib.parallel_config(backend="dask", n_jobs=n_jobs):
            yield client


def _call(fn, key, task):
    return key, fn(**task)


def run_tasks(name: str, config: dict, tasks: list[dict], fn, *, root: Path | None = None,
              backend: str | None = None, n_jobs: int | None = None, desc: str | None = None,
              stop_after: int | None = None) -> list:
    """Run ``fn(**task)`` for every task not finished yet; return all results in task order.

    Parameters
    ----------
    name, config : str, dict
        The experiment and its configuration: finished results are kept under
        :func:`partial_dir` ``(name, config, root)``, so a change of configuration
        never reuses results of another.
    tasks : list of dict
        JSON-able keyword arguments; two equal tasks are one task.
    fn : callable
        A module-level function (picklable) returning a JSON-able result.
    root : path, optional
        The results folder (default: the committed results).
    backend : {'loky', 'threading', 'sequential', 'dask'} or 'dask://host:port', optional
        joblib backend (default ``'loky'``).
    n_jobs : int, optional
        Parallel workers (joblib's meaning; default: all cores).
    desc : str, optional
        Label of the progress bar.
    stop_after : int, optional
        Run at most this many new tasks and raise :class:`Interrupted` if others are left
        (the finished results are kept): a run cut off midway, for testing that a rerun
        resumes.

    Returns
    -------
    list
        ``fn(**tasks[i])`` for every ``i``, read back from the per-task files (so a
        resumed run returns exactly what an uninterrupted one returns).
    """
    kind, address = _check_backend(backend)
    keys = [task_key(t) for t in tasks]
    folder = partial_dir(name, config, root)
    folder.mkdir(parents=True, exist_ok=True)
    todo = {}
    for key, task in zip(keys, tasks):
        if key not in todo and not (folder / f"{key}.json").exists():
            todo[key] = task
    n_done = len(set(keys)) - len(todo)
    cut = stop_after is not None and stop_after < len(todo)
    if cut:
        todo = dict(list(todo.items())[:stop_after])
    with tqdm(total=len(set(keys)), initial=n_done, desc=desc or name, unit="task") as bar, \
            _backend(kind, address, -1 if n_jobs is None else n_jobs):
        if todo:
            parallel = joblib.Parallel(return_as="generator_unordered")
            for key, result in parallel(joblib.delayed(_call)(fn, key, task)
                                        for key, task in todo.items()):
                write_json_atomic(folder / f"{key}.json", {"task": todo[key], "result": result})
                bar.update()
    if cut:
        raise Interrupted(f"{name}: stopped after {len(todo)} new tasks "
                          f"(finished results kept in {folder})")
    # every result read back from its JSON file: the same values whether computed
    # now or in an earlier, interrupted run
    return [json.loads((folder / f"{key}.json").read_text())["result"] for key in keys]
