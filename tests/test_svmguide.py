"""The guide's grid-search experiment (book: sec-practice-guide): smoke run, stale cache."""
import json
import os

import pytest

from svmtext.experiments import svmguide
from svmtext.experiments._cache import StaleCacheError, cache_path, load_cache

needs_data = pytest.mark.skipif(
    not os.path.isdir(os.path.join(os.environ.get("SVMTEXT_DATA", ""), "svmguide")),
    reason="SVMTEXT_DATA has no svmguide folder")


@needs_data
def test_smoke_run(tmp_path):
    cfg = svmguide.SMOKE_CONFIG
    res = svmguide.run(cfg, root=tmp_path, backend="sequential")
    assert (tmp_path / "svmguide.json").exists()
    assert not (tmp_path / ".partial").exists()          # per-task results cleared
    assert load_cache("svmguide", cfg, root=tmp_path)["results"] == json.loads(
        json.dumps(res))
    n_fine = len(range(-1, 2))
    assert res["n_tasks"] == len(cfg["sets"]) * (len(cfg["log2C"]) * len(cfg["log2gamma"])
                                                 + n_fine ** 2)
    for r in res["sets"].values():
        acc = r["coarse"]["cv_accuracy"]
        assert len(acc) == len(cfg["log2C"]) and len(acc[0]) == len(cfg["log2gamma"])
        best = r["coarse"]["best"]
        assert best["cv_accuracy"] == max(max(row) for row in acc)
        assert r["fine"]["best"]["cv_accuracy"] >= best["cv_accuracy"]
        assert set(r["accuracy"]) == {"smo", "libsvm"}
    # svmguide3's test file: the guide's three numbers, with SMO and with LIBSVM
    acc3 = res["sets"]["svmguide3"]["accuracy"]
    for solver in ("smo", "libsvm"):
        assert acc3[solver]["default"] == 1 / 41
        assert acc3[solver]["scaled"] == 5 / 41
        assert acc3[solver]["guide_point"] == 36 / 41
    # svmguide2's default model predicts the majority class on every fold
    assert res["sets"]["svmguide2"]["accuracy"]["smo"]["default"] == 221 / 391


def test_best_point_tie_rule():
    acc = [[0.5, 0.9], [0.9, 0.9]]
    # ties: smaller C first, then smaller gamma
    assert svmguide.best_point([1, 3], [3, 1], acc) == (0, 1)
    assert svmguide.best_point([1, 3], [1, 3], [[0.9, 0.9], [0.9, 0.5]]) == (0, 0)


def test_stale_cache_fails(tmp_path):
    path = cache_path("svmguide")
    if not path.exists():
        pytest.skip("no committed svmguide cache yet")
    payload = json.loads(path.read_text())
    (tmp_path / "svmguide.json").write_text(json.dumps(payload))
    other = dict(svmguide.CONFIG, seed=svmguide.CONFIG["seed"] + 1)
    with pytest.raises(StaleCacheError):
        load_cache("svmguide", other, root=tmp_path)


def test_committed_cache_is_current():
    if not cache_path("svmguide").exists():
        pytest.skip("no committed svmguide cache yet")
    load_cache("svmguide", svmguide.CONFIG)      # raises StaleCacheError if stale


def test_bad_solver():
    with pytest.raises(ValueError, match="solver must be"):
        svmguide.make_model("svmguide1", solver="liblinear")
