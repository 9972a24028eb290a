"""Table 1 experiment of the Coulomb chapter: smoke run, Dask cluster = default backend,
an interrupted run resumes to the same results, a cache of another configuration is
refused, and the committed cache is current."""
import json

import numpy as np
import pytest

from svmtext.experiments import coulomb_table1 as T
from svmtext.experiments._cache import StaleCacheError, load_cache
from svmtext.experiments._tasks import Interrupted, partial_dir

SMOKE = T.SMOKE_CONFIG


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    root = tmp_path_factory.mktemp("default")
    return root, T.run(SMOKE, root=root, n_jobs=2)


def test_smoke_run_fills_the_table(smoke):
    root, res = smoke
    assert res["n_cv_tasks"] == len(SMOKE["datasets"]) * 3 * 5
    for ds in SMOKE["datasets"]:
        for ker in SMOKE["kernels"]:
            for m in SMOKE["machines"]:
                e = res["table"][ds][ker][m]
                assert e["n_failed"] == 0, (ds, ker, m)
                assert len(e["errors"]) == SMOKE["n_realisations"]
                assert 0 <= e["mean"] <= 50, (ds, ker, m, e["mean"])   # better than chance
    payload = load_cache(T.NAME, SMOKE, root=root)
    assert payload["results"]["table"] == json.loads(json.dumps(res["table"]))
    assert not partial_dir(T.NAME, SMOKE, root).exists()      # per-task results cleared


def test_dask_local_cluster_gives_the_default_backends_results(smoke, tmp_path):
    pytest.importorskip("distributed")
    _, res = smoke
    assert T.run(SMOKE, root=tmp_path, backend="dask", n_jobs=2) == res


def test_interrupted_run_resumes_to_the_same_results(smoke, tmp_path):
    _, res = smoke
    with pytest.raises(Interrupted):
        T.run(SMOKE, root=tmp_path, n_jobs=2, stop_after=7)
    assert len(list(partial_dir(T.NAME, SMOKE, tmp_path).iterdir())) == 7
    assert T.run(SMOKE, root=tmp_path, n_jobs=2) == res


def test_cache_from_another_configuration_is_refused(smoke):
    root, _ = smoke
    for other in (dict(SMOKE, n_realisations=3), dict(SMOKE, seed=SMOKE["seed"] + 1)):
        with pytest.raises(StaleCacheError, match="config hash"):
            load_cache(T.NAME, other, root=root)


def test_committed_cache_is_current_and_complete():
    res = load_cache(T.NAME, T.CONFIG)["results"]
    table = res["table"]
    for ds in T.CONFIG["datasets"]:
        for ker in T.CONFIG["kernels"]:
            for m in T.CONFIG["machines"]:
                e = table[ds][ker][m]
                assert e["chosen"] is not None, (ds, ker, m)
                assert len(e["errors"]) + e["n_failed"] == T.CONFIG["n_realisations"]
                assert np.isfinite(e["mean"])
