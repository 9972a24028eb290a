"""The scaling benchmark (svmtext.experiments.scaling): smoke run, resuming an
interrupted run, and the committed cache refused when stale."""
import json

import pytest

from svmtext.experiments import scaling
from svmtext.experiments._cache import StaleCacheError, load_cache
from svmtext.experiments._tasks import Interrupted

TINY = dict(scaling.SMOKE_CONFIG, sizes=[200, 400], n_test=300, repeats=2,
            cv={"n": 200, "folds": 2, "seed": 0, "grid": {"gamma": [0.02], "C": [10.0]}},
            mnist_4v9={"n_train": 300, "gamma": 0.04, "C": 10.0, "repeats": 1})


def test_smoke_run_measures_every_learner(tmp_path):
    res = scaling.run(TINY, root=tmp_path)
    assert [r["n"] for r in res["rows"]] == TINY["sizes"]
    for row in res["rows"]:
        lib = row["libsvm"]
        assert set(row) == {"n", *TINY["learners"]}
        for key in TINY["learners"]:
            r = row[key]
            assert len(r["times"]) == TINY["repeats"] and r["median_time"] > 0
            assert r["peak_mb"] is None or r["peak_mb"] >= 0
            assert r["maxrss_mb"] > 0 and len(r["load"]) == TINY["repeats"]
            assert 0.5 < r["test_accuracy"] <= 1 and r["n_support"] > 0
        # SMO solves the same dual as LIBSVM: W(alpha) agrees to the gap's order
        for key in ("smo_float32", "smo_float64"):
            assert row[key]["objective_rel_diff"] < 1e-4
            assert row[key]["n_kernel_evals"] > 0
        # the online learner holds its support vectors and nothing else
        for key in scaling.ECO:
            assert row[key]["points_held"] == row[key]["n_support"]
            assert row[key]["n_kernel_evals"] > 0
        assert lib["n_kernel_evals"] is None
        # the loose pass stops its stream's re-equilibrations earlier
        assert row["eco_pass"]["n_iter"] < row["eco"]["n_iter"]
    assert set(res["slopes_all_n"]) == set(TINY["learners"])
    m49 = res["mnist_4v9"]
    assert m49["n"] == 300 and all(m49[k]["time_ratio"] > 0 for k in scaling.ECO)
    # each pass's community solves the dual on a subset of the points: W at most the batch's
    assert all(m49[k]["dual_objective"] <= m49["batch"]["dual_objective"] * (1 + 1e-6)
               for k in scaling.ECO)
    assert {f"{k}_4v9_ratio" for k in scaling.ECO} <= set(res["targets"])
    assert (tmp_path / "scaling.json").exists()
    assert not scaling.partial_dir(TINY, tmp_path).exists()     # removed once written


def test_interrupted_run_resumes_from_finished_fits(tmp_path):
    cfg = dict(TINY, sizes=[200], repeats=1)
    with pytest.raises(Interrupted):
        scaling.run(cfg, root=tmp_path, stop_after=5)      # cv + four fits
    done = {json.dumps(t, sort_keys=True): t for t in
            (json.loads(p.read_text())["task"]
             for p in scaling.partial_dir(cfg, tmp_path).glob("*.json"))}
    assert len(done) == 5 and {"kind": "cv"} in done.values()
    # the three MNIST 4 vs 9 fits first, then n = 200 from LIBSVM on
    fits = [(t["learner"], t["n"]) for t in done.values() if t["kind"] == "fit"]
    assert ("libsvm", 300) in fits and ("libsvm", 200) in fits and len(fits) == 4
    first, = [json.loads(p.read_text())["result"]
              for p in scaling.partial_dir(cfg, tmp_path).glob("*.json")
              if json.loads(p.read_text())["task"].get("n") == 200]
    res = scaling.run(cfg, root=tmp_path)
    # the finished fit was reused, not rerun (its wall time is the stored one)
    assert res["rows"][0]["libsvm"]["times"] == [first["seconds"]]
    # a run with another list of sizes reuses the fits of the sizes it shares
    more = dict(cfg, sizes=[200, 300])
    assert scaling.partial_dir(more, tmp_path) == scaling.partial_dir(cfg, tmp_path)


def test_committed_cache_is_current_and_refuses_another_configuration(tmp_path):
    try:
        payload = load_cache(scaling.NAME, scaling.CONFIG)
    except FileNotFoundError:
        pytest.skip("scaling.json not produced yet")
    (tmp_path / "scaling.json").write_text(json.dumps(payload))
    with pytest.raises(StaleCacheError):
        load_cache(scaling.NAME, dict(scaling.CONFIG, repeats=-1), root=tmp_path)



def _cpu_rate_after_quiet(config, _):
    import time
    from threadpoolctl import threadpool_limits
    with threadpool_limits(limits=1, user_api="blas"):     # as smo_solve does
        pass
    scaling._quiet_blas(config)
    t, c = time.perf_counter(), time.process_time()
    time.sleep(0.05)
    return (time.process_time() - c) / (time.perf_counter() - t)


def test_forked_fit_starts_its_clock_on_a_quiet_process():
    """BLAS worker threads started in the forked process sleep before the clock starts
    (threads spinning beside a fit would take the other core and its CPU time)."""
    from threadpoolctl import threadpool_limits
    with threadpool_limits(1):
        assert scaling._forked(_cpu_rate_after_quiet, TINY, None) < 0.5
