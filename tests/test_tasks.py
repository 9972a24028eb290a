"""The task runner of the cached experiments: order, resuming, backends."""
import numpy as np
import pytest

from svmtext.experiments._tasks import (Interrupted, clear_partial, finish, partial_dir,
                                        run_tasks, task_key)

CONFIG = {"experiment": "demo", "n": 12}
TASKS = [{"a": a, "seed": s} for a in range(3) for s in range(4)]


def draw(a, seed):
    """A seeded task: its result depends on its arguments only."""
    return {"a": a, "x": float(np.random.default_rng(seed).normal() + a)}


def test_results_in_task_order_and_partial_cleared(tmp_path):
    out = run_tasks("demo", CONFIG, TASKS, draw, root=tmp_path, backend="sequential")
    assert out == [draw(**t) for t in TASKS]
    assert len(list(partial_dir("demo", CONFIG, tmp_path).iterdir())) == len(TASKS)
    clear_partial("demo", CONFIG, tmp_path)
    assert not (tmp_path / ".partial").exists()


def test_interrupted_run_resumes_to_the_same_results(tmp_path):
    full = run_tasks("demo", CONFIG, TASKS, draw, root=tmp_path / "a", n_jobs=2)
    with pytest.raises(Interrupted, match="stopped after 5 new tasks"):
        run_tasks("demo", CONFIG, TASKS, draw, root=tmp_path / "b", n_jobs=2, stop_after=5)
    assert len(list(partial_dir("demo", CONFIG, tmp_path / "b").iterdir())) == 5
    calls = []

    def counted(a, seed):
        calls.append((a, seed))
        return draw(a, seed)

    resumed = run_tasks("demo", CONFIG, TASKS, counted, root=tmp_path / "b",
                        backend="sequential")
    assert resumed == full
    assert len(calls) == len(TASKS) - 5          # only the unfinished tasks ran


def test_other_configuration_does_not_reuse_results(tmp_path):
    run_tasks("demo", CONFIG, TASKS[:2], draw, root=tmp_path, backend="sequential")
    other = {**CONFIG, "n": 13}
    assert partial_dir("demo", other, tmp_path) != partial_dir("demo", CONFIG, tmp_path)
    assert task_key({"a": 1, "seed": 2}) == task_key({"seed": 2, "a": 1})


def test_unknown_backend_is_named(tmp_path):
    with pytest.raises(ValueError, match="unknown backend 'spark'"):
        run_tasks("demo", CONFIG, TASKS, draw, root=tmp_path, backend="spark")


def test_dask_local_cluster_gives_the_default_backends_results(tmp_path):
    pytest.importorskip("distributed")
    local = run_tasks("demo", CONFIG, TASKS, draw, root=tmp_path / "loky", n_jobs=2)
    dask = run_tasks("demo", CONFIG, TASKS, draw, root=tmp_path / "dask", n_jobs=2,
                     backend="dask")
    assert dask == local


def test_partial_folder_follows_the_cache_key(tmp_path):
    """Runtime settings leave the folder alone (a run resumes with another n_jobs); a
    setting that decides the numbers moves it."""
    base = partial_dir("demo", CONFIG, tmp_path)
    assert partial_dir("demo", dict(CONFIG, n_jobs=4, backend="dask"), tmp_path) == base
    assert partial_dir("demo", dict(CONFIG, n=13), tmp_path) != base


def test_finish_writes_the_cache_then_clears_the_finished_tasks(tmp_path, monkeypatch):
    from svmtext.experiments import _tasks
    from svmtext.experiments._cache import load_cache
    out = run_tasks("demo", CONFIG, TASKS[:3], draw, root=tmp_path, backend="sequential")
    results = {"x": [o["x"] for o in out]}
    # a failed write keeps the finished tasks for the rerun
    def broken(*args, **kwargs):
        raise OSError("disk full")
    monkeypatch.setattr(_tasks, "write_cache", broken)
    with pytest.raises(OSError, match="disk full"):
        finish("demo", CONFIG, results, tmp_path)
    assert len(list(partial_dir("demo", CONFIG, tmp_path).iterdir())) == 3
    monkeypatch.undo()
    assert finish("demo", CONFIG, results, tmp_path) is results
    assert not (tmp_path / ".partial").exists()
    assert load_cache("demo", CONFIG, root=tmp_path)["results"] == results


def test_stop_after_with_nothing_left_does_not_interrupt(tmp_path):
    out = run_tasks("demo", CONFIG, TASKS[:3], draw, root=tmp_path, backend="sequential",
                    stop_after=3)
    assert out == [draw(**t) for t in TASKS[:3]]
    with pytest.raises(Interrupted, match="stopped after 0 new tasks"):
        run_tasks("demo", CONFIG, TASKS[:4], draw, root=tmp_path, backend="sequential",
                  stop_after=0)
