"""The prototype-SVM table script: a smoke run on 2 folds, an interrupted smoke run
resumed to the same results, the corrected t-test, and a stale cache refused."""
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


def test_smoke_run_on_two_folds(smoke):
    res, root = smoke
    cfg = pt.SMOKE_CONFIG
    assert len(cfg["folds"]) == 2
    payload = load_cache(pt.NAME, cfg, root=root)
    assert not partial_dir(pt.NAME, cfg, root).exists()
    for ds in cfg["datasets"]:
        for m in cfg["methods"]:
            row = res["table"][f"0.0/{ds}/{m}"]
            assert len(row["accuracy"]) == 2 and 0 <= row["mean"] <= 100
        k = res["table"][f"0.0/{ds}/psvm"]["k"]
        assert set(k) <= set(cfg["psvm"]["grid"]["k"])
    w, l_, t = payload["results"]["win_lose_tie"]["0.0/psvm"]
    assert w + l_ + t == len(cfg["datasets"]) * len(pt.BASELINES)


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
