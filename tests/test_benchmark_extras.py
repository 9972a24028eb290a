"""oneDAL (the benchmark extras, requirements-bench.txt) in the scaling and SMO
benchmarks: a run that lists it raises a clear ImportError when the extras are absent,
the smoke configurations (recertification, CI) do not need them, and when they are
installed oneDAL is measured beside LIBSVM and SMOSVC and solves the same dual."""
import sys

import pytest

from svmtext.experiments import scaling, smo_benchmark

TINY = dict(scaling.SMOKE_CONFIG, sizes=[200], n_test=300, repeats=1,
            cv={"n": 200, "folds": 2, "seed": 0, "grid": {"gamma": [0.02], "C": [10.0]}},
            mnist_4v9={"n_train": 300, "gamma": 0.04, "C": 10.0, "repeats": 1})


@pytest.fixture
def without_onedal(monkeypatch):
    """``import sklearnex`` and ``import daal4py`` fail, as on a clone without the extras."""
    for name in ("sklearnex", "sklearnex.svm", "daal4py"):
        monkeypatch.setitem(sys.modules, name, None)


def test_smoke_configurations_do_not_need_onedal(without_onedal):
    assert "onedal" in scaling.CONFIG["learners"] and smo_benchmark.CONFIG["onedal"]
    assert "onedal" not in scaling._learners(scaling.SMOKE_CONFIG)
    assert smo_benchmark._onedal_svc(smo_benchmark.SMOKE_CONFIG) is None


def test_a_run_with_onedal_names_make_bench_when_it_is_missing(without_onedal, tmp_path):
    with pytest.raises(ImportError, match=r"make bench.*requirements-bench\.txt"):
        scaling.run(dict(TINY, learners=list(scaling.LEARNERS)), root=tmp_path)
    with pytest.raises(ImportError, match=r"make bench.*requirements-bench\.txt"):
        smo_benchmark.run(dict(smo_benchmark.SMOKE_CONFIG, onedal=True), root=tmp_path)
    assert not list(tmp_path.iterdir())          # nothing measured, nothing written


@pytest.mark.parametrize("learners", [["onedal", "libsvm"], ["libsvm", "thundersvm"]])
def test_unknown_or_misordered_learners_are_refused(learners):
    with pytest.raises(ValueError, match=r"config\['learners'\]"):
        scaling._learners(dict(TINY, learners=learners))


def test_onedal_beside_libsvm_and_smo_in_the_scaling_run(tmp_path):
    pytest.importorskip("sklearnex", exc_type=ImportError)    # extras absent: skip
    cfg = dict(TINY, learners=list(scaling.LEARNERS))
    res = scaling.run(cfg, root=tmp_path)
    row, = res["rows"]
    dal = row["onedal"]
    assert dal["n_iter"] > 0 and dal["n_kernel_evals"] is None and dal["median_time"] > 0
    # the same dual (tol 1e-3): W agrees to the gap's order, and so do the predictions
    assert dal["objective_rel_diff"] < 1e-4 and abs(dal["accuracy_gap_pp"]) < 1
    for key in scaling.SMO:
        s = row[key]
        assert s["time_ratio_onedal"] == pytest.approx(s["median_time"] / dal["median_time"])
        assert s["objective_rel_diff_onedal"] < 1e-4
    assert set(res["slopes_all_n"]) == set(scaling.LEARNERS)


def test_onedal_beside_libsvm_and_smo_in_the_smo_benchmark(tmp_path):
    pytest.importorskip("sklearnex", exc_type=ImportError)    # extras absent: skip
    res = smo_benchmark.run(dict(smo_benchmark.SMOKE_CONFIG, onedal=True), root=tmp_path)
    row, = res["rows"]
    dal, lib = row["onedal"], row["libsvm"]
    assert len(dal["times"]) == 1 and dal["n_iter"] > 0
    assert abs(dal["dual_objective"] - lib["dual_objective"]) < 1e-4 * lib["dual_objective"]
    for name in smo_benchmark.CONFIG["variants"]:
        assert row[name]["onedal_ratio"] == pytest.approx(
            row[name]["median_time"] / dal["median_time"])
    assert dal["median_cpu"] > 0 and row["libsvm"]["median_cpu"] > 0
