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
    assert res["n_cv_tasks"] == sum(res["cv_rounds"]) > len(SMOKE["datasets"]) * 4 * 5
    for ds in SMOKE["datasets"]:
        for ker in SMOKE["kernels"]:
            for m in SMOKE["machines"]:
                e = res["table"][ds][ker][m]
                if e["chosen"] is None:          # no setting could be trained
                    assert "mean" not in e
                    continue
                assert len(e["errors"]) + e["n_failed"] == SMOKE["n_realisations"]
                assert 0 <= e["mean"] <= 60, (ds, ker, m, e["mean"])
                assert isinstance(e["neutral_min"], float)
    # the IDA-size variant: only the sets whose benchmark size is below 200
    assert set(res["ida_sizes"]) == set(SMOKE["ida_sizes"])
    ts = res["task_seconds"]
    assert ts["total"]["cpu"] == pytest.approx(
        ts["cv"]["cpu"] + ts["test"]["cpu"] + ts["ida"]["cpu"])
    payload = load_cache(T.NAME, SMOKE, root=root)
    assert payload["results"]["table"] == json.loads(json.dumps(res["table"]))
    assert not partial_dir(T.NAME, SMOKE, root).exists()      # per-task results cleared


def test_lattice_search_stops_at_a_local_minimum():
    axes = [("m", "C", [0.1, 1.0, 10.0, 100.0])]
    nb, ends = T._neighbours(axes, (0,))
    assert nb == [(1,)] and ends == [("C", "low")]
    nb, ends = T._neighbours(axes, (2,))
    assert nb == [(1,), (3,)] and ends == []
    results = {(1,): {"cv_error": 5.0}, (2,): {"cv_error": 4.0}, (3,): {"cv_error": 4.0},
               (0,): {"cv_error": None}}
    assert T._best(results) == (2,)          # ties go to the smallest index


def test_dask_local_cluster_gives_the_default_backends_results(smoke, tmp_path):
    pytest.importorskip("distributed")
    _, res = smoke
    again = T.run(SMOKE, root=tmp_path, backend="dask", n_jobs=2)
    assert again["table"] == res["table"] and again["ida_sizes"] == res["ida_sizes"]


def test_interrupted_run_resumes_to_the_same_results(smoke, tmp_path):
    _, res = smoke
    with pytest.raises(Interrupted):
        T.run(SMOKE, root=tmp_path, n_jobs=2, stop_after=7)
    assert len(list(partial_dir(T.NAME, SMOKE, tmp_path).iterdir())) == 7
    again = T.run(SMOKE, root=tmp_path, n_jobs=2)
    assert again["table"] == res["table"] and again["ida_sizes"] == res["ida_sizes"]


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
                if e["chosen"] is None:
                    continue
                assert len(e["errors"]) + e["n_failed"] == T.CONFIG["n_realisations"]
                assert np.isfinite(e["mean"])
                for edge in e["chosen"]["edges"]:
                    assert edge["reason"] in ("lattice ends", "round limit")
    assert res["task_seconds"]["total"]["cpu"] > 0


def test_kappa_p_lattice_contains_the_p_svm():
    """The chapter flags a local minimum when the kappa-p-SVM's search ends above the
    p-SVM's CV error: that needs kappa = 1 on the kappa-p lattice, the same C lattice,
    and the kappa-p-SVM at kappa = 1 to be the p-SVM (same charges, same CV error)."""
    axes = T.CONFIG["axes"]
    assert 1.0 in axes["kappa-p"]["kappa"] and axes["kappa-p"]["C"] == axes["p"]["C"]
    X, y, Xte, yte = T.realisation("heart", 0, 60, T.CONFIG["seed"])
    P, G = T.kernel_pair("RBF", {"s": 1.0}, X, Xte)
    kw = {"tol": T.CONFIG["smo_tol"], "max_iter": T.CONFIG["smo_max_iter"]}
    a_p, b_p = T.fit_machine("p", {"C": 1.0}, P, y, **kw)
    a_kp, b_kp = T.fit_machine("kappa-p", {"kappa": 1.0, "C": 1.0}, P, y, **kw)
    np.testing.assert_array_equal(a_p, a_kp)
    assert b_p == b_kp
    assert T.test_error((a_p, b_p), G, y, yte) == T.test_error((a_kp, b_kp), G, y, yte)
