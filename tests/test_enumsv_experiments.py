"""The enumeration chapter's cached experiments: smoke runs, and a cache from another
configuration or other code refused."""
import json

import numpy as np
import pytest

from svmtext.experiments import enumsv_compas, enumsv_uci
from svmtext.experiments._cache import StaleCacheError, load_cache


def test_uci_smoke_run(tmp_path):
    res = enumsv_uci.run(enumsv_uci.SMOKE_CONFIG, root=tmp_path, backend="sequential")
    cfg = enumsv_uci.SMOKE_CONFIG
    assert set(res) == set(cfg["datasets"])
    for r in res.values():
        warm, cold = r["warm"]["models"], r["cold"]["models"]
        assert [m["rank"] for m in warm] == list(range(1, cfg["k"] + 1))
        assert len(cold) == cfg["cold_k"]
        assert r["C"] in cfg["C_grid"]
        eager = r["eager"]["models"]
        assert [(m["objective"], m["support_sha"]) for m in eager] == [
            (m["objective"], m["support_sha"]) for m in warm]    # lazy = eager, bit for bit
        assert r["warm"]["n_solves"] <= r["eager"]["n_solves"]
        for a, b in zip(warm, cold):        # warm and cold starts, same models
            assert abs(a["objective"] - b["objective"]) <= (
                a["objective_error"] + b["objective_error"] + 1e-12 * a["objective"])
        for a, b in zip(warm, warm[1:]):
            assert b["objective"] <= a["objective"] + a["objective_error"] \
                + b["objective_error"] + 1e-12 * a["objective"]
            assert b["elapsed"] >= a["elapsed"]
        assert all(m["test_hinge"] >= 0 and 0 <= m["test_error"] <= 1 for m in warm)
    assert (tmp_path / "enumsv_uci.json").exists()
    assert not (tmp_path / ".partial").exists()


def test_compas_smoke_run(tmp_path):
    res = enumsv_compas.run(enumsv_compas.SMOKE_CONFIG, root=tmp_path)
    cfg = enumsv_compas.SMOKE_CONFIG
    assert res["n_flipped"] == cfg["n_flip"] and res["n_train"] == cfg["n_train"]
    assert res["features"] == "fairml" and res["n_features"] == 11
    assert [m["rank"] for m in res["models"]] == list(range(1, cfg["k"] + 1))
    for m in [res["reference"], *res["models"]]:
        assert 0 <= m["dp"] <= 1 and 0 <= m["test_error"] <= 1
    assert [(r["features"], r["seed"], r["n_flip"]) for r in res["sweep"]] == [
        ("fairml", cfg["seed"], cfg["n_flip"]), ("fairml", 0, 6)]
    assert (tmp_path / "enumsv_compas.json").exists()


def test_fairml_copy_and_the_flip():
    """FairML's eleven columns; the injected labels: only s = 1, y = -1 flipped, to +1."""
    from svmtext.datasets import COMPAS_FAIRML_FEATURES, load_compas, load_compas_fairml
    d = load_compas_fairml()
    assert d.X.shape == (6172, 11) and list(d.feature_names) == list(COMPAS_FAIRML_FEATURES)
    assert np.bincount(d.y).tolist() == [3363, 2809] and d.sensitive.sum() == 3175
    assert np.array_equal(d.y, load_compas().y)     # the same defendants, same order
    Xtr, y_clean, y_inj, flipped, Xte, yte, ste = enumsv_compas.make_sets(
        enumsv_compas.CONFIG, "fairml", 1, 20)
    s_tr = Xtr[:, COMPAS_FAIRML_FEATURES.index("African_American")] > 0
    assert len(flipped) == 20 and np.array_equal(np.flatnonzero(y_inj != y_clean), flipped)
    assert np.all(y_clean[flipped] == -1) and np.all(y_inj[flipped] == 1) and s_tr[flipped].all()
    assert Xtr.shape[1] == 11 and enumsv_compas.make_sets(
        enumsv_compas.CONFIG, "book", 1, 20)[0].shape[1] == 8


def test_demographic_parity():
    assert enumsv_compas.demographic_parity([1, -1, 1, 1], [1, 1, 0, 0]) == 0.5
    assert enumsv_compas.demographic_parity([1, 1, 1, 1], [1, 0, 1, 0]) == 0.0


@pytest.mark.parametrize("mod", [enumsv_uci, enumsv_compas])
def test_committed_cache_is_current(mod):
    load_cache(mod.NAME, mod.CONFIG)


@pytest.mark.parametrize("mod", [enumsv_uci, enumsv_compas])
def test_cache_from_another_configuration_fails(mod, tmp_path):
    payload = load_cache(mod.NAME)
    (tmp_path / f"{mod.NAME}.json").write_text(json.dumps(payload))
    with pytest.raises(StaleCacheError):
        load_cache(mod.NAME, dict(mod.CONFIG, k=-1), root=tmp_path)
    payload["code"]["hash"] = "0" * 16       # produced by other code
    (tmp_path / f"{mod.NAME}.json").write_text(json.dumps(payload))
    with pytest.raises(StaleCacheError, match="other code"):
        load_cache(mod.NAME, mod.CONFIG, root=tmp_path)
