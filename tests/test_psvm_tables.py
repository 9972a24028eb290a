"""The prototype-SVM table script: a smoke run of one 10-fold run, an interrupted smoke
run resumed to the same results, a cache written from a run cut short, the corrected
t-test, the source's tables, and a stale cache refused."""
import json

import numpy as np
import pytest

from svmtext.experiments import psvm_tables as pt
from svmtext.experiments._cache import StaleCacheError, load_cache
from svmtext.experiments._tasks import Interrupted, partial_dir

TIMING = ("seconds", "task_seconds")


def without_timing(results):
    return {k: v for k, v in results.items() if k not in TIMING}


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    root = tmp_path_factory.mktemp("smoke")
    return pt.run(pt.SMOKE_CONFIG, root=root, backend="sequential"), root


def test_smoke_run_on_one_run_of_ten_folds(smoke):
    res, root = smoke
    cfg = pt.SMOKE_CONFIG
    assert cfg["runs"] == [1] and cfg["n_folds"] == 10
    payload = load_cache(pt.NAME, cfg, root=root)
    assert not partial_dir(pt.NAME, cfg, root).exists()
    for ds in cfg["datasets"]:
        for m in cfg["methods"]:
            row = res["table"][f"0.0/{ds}/{m}"]
            assert len(row["accuracy"]) == 10 and 0 <= row["mean"] <= 100
        k = res["table"][f"0.0/{ds}/psvm"]["k"]
        assert set(k) <= set(cfg["psvm"]["grid"]["k"])
    wlt = payload["results"]["win_lose_tie"]["0.0/psvm"]
    assert sum(wlt["counts"]) == len(cfg["datasets"]) * len(pt.BASELINES)
    assert wlt["datasets"] == cfg["datasets"] and res["missing"] == []


def test_cache_from_a_run_cut_short_lists_the_missing_cells(tmp_path):
    cfg = dict(pt.SMOKE_CONFIG, datasets=["iris"])
    n_cheap = 10 * len(pt.BASELINES)        # the comparators come first
    with pytest.raises(Interrupted):
        pt.run(cfg, root=tmp_path, backend="sequential", stop_after=n_cheap)
    res = pt.run_from_partial(partial_dir(pt.NAME, cfg, tmp_path), cfg, root=tmp_path)
    assert sorted(res["missing"]) == sorted(
        f"0.0/iris/{m}" for m in ("psvm", "psvm_sampling", *pt.EXTRAS))
    assert res["win_lose_tie"]["0.0/psvm"] == {"counts": [0, 0, 0], "datasets": []}
    assert "0.0/iris/tree" in res["table"]


def test_source_tables_reproduce_the_source_counts():
    """The transcribed marks give the source's own win-lose-tie counts."""
    for noise in (0.0, 0.1):
        src = pt.SOURCE[noise]
        signs = [src[m][d][2] if len(src[m][d]) == 3 else ""
                 for d in src["psvm"] for m in pt.BASELINES]
        assert (signs.count("-"), signs.count("+"), signs.count("")) == \
            pt.SOURCE_WLT["psvm"][noise]


def test_tasks_run_the_costliest_cells_last():
    tasks = pt.make_tasks(pt.CONFIG)
    cells = list(dict.fromkeys((t["noise"], t["dataset"], t["method"]) for t in tasks))
    assert cells[-1] == (0.1, "segment", "boosted_linear_svm")
    assert cells.index((0.0, "vehicle", "psvm")) < cells.index((0.0, "segment", "psvm"))
    assert len(tasks) == sum(r * 10 * 7 * (len(pt.METHODS) - 1) for r in pt.CONFIG["runs"])


def test_interrupted_run_resumes_to_the_same_results(smoke, tmp_path):
    full, _ = smoke
    with pytest.raises(Interrupted):
        pt.run(pt.SMOKE_CONFIG, root=tmp_path, backend="sequential", stop_after=5)
    assert len(list(partial_dir(pt.NAME, pt.SMOKE_CONFIG, tmp_path).iterdir())) == 5
    resumed = pt.run(pt.SMOKE_CONFIG, root=tmp_path, backend="threading", n_jobs=2)
    assert without_timing(resumed) == without_timing(full)


def test_corrected_t_test():
    rng = np.random.default_rng(0)
    a = 0.9 + 0.01 * rng.normal(size=10)
    t, p, sign = pt.corrected_t_test(a, a - 0.05, 1 / 9)
    assert sign == 1 and p < 0.05
    # the correction: the same differences are less significant than the plain t-test
    d = a - (a - 0.005 + 0.01 * rng.normal(size=10))
    t_plain = d.mean() / np.sqrt(d.var(ddof=1) / 10)
    t_corr = pt.corrected_t_test(d, np.zeros(10), 1 / 9)[0]
    assert np.isclose(t_corr, t_plain / np.sqrt(1 + 10 / 9))
    assert pt.corrected_t_test(a, a, 1 / 9) == (0.0, 1.0, 0)


def test_cache_from_another_configuration_fails(tmp_path):
    payload = load_cache(pt.NAME)
    (tmp_path / f"{pt.NAME}.json").write_text(json.dumps(payload))
    load_cache(pt.NAME, pt.CONFIG, root=tmp_path)
    with pytest.raises(StaleCacheError):
        load_cache(pt.NAME, dict(pt.CONFIG, n_folds=5), root=tmp_path)


def test_fold_indices_and_loader_refuse_bad_input():
    from svmtext.psvm._evaluation import fold_indices, load_dataset

    with pytest.raises(ValueError, match="fold 10 out of range"):
        fold_indices(np.arange(20) % 2, 10, 10, 1)
    with pytest.raises(ValueError, match="unknown data set"):
        load_dataset("twitter")


def test_marks_for_every_pair_of_cells_but_counts_over_complete_rows():
    """A row with a comparator missing still gets its marks; it is left out of the
    win-lose-tie counts."""
    cfg = dict(pt.SMOKE_CONFIG, datasets=["iris"], noise=[0.0], runs=[1])
    rng = np.random.default_rng(0)
    psvm_keys = dict(n_models=3, n_exemplar_svms=5, k=3, p=0.5, best_iteration=1,
                     n_stopped_at_max_iter=0)
    tasks, out = [], []
    for m in ("psvm", "tree"):
        for f in range(cfg["n_folds"]):
            tasks.append({"dataset": "iris", "noise": 0.0, "run": 0, "fold": f,
                          "method": m, "config": cfg})
            acc = float(rng.uniform(0.5, 1.0))
            out.append({"psvm": dict(psvm_keys, accuracy=acc),
                        "psvm_sampling": dict(psvm_keys, accuracy=acc / 2), "seconds": 0.0}
                       if m == "psvm" else {"accuracy": acc, "seconds": 0.0})
    res = pt.summarise(cfg, tasks, out)
    assert "0.0/iris/tree/psvm" in res["tests"]
    assert "0.0/iris/linear_svm" in res["missing"]
    assert res["win_lose_tie"]["0.0/psvm"] == {"counts": [0, 0, 0], "datasets": []}
