"""Cached experiments: every committed cache matches its script's configuration,
every script's smoke configuration runs, and the cache machinery itself works."""
import importlib
import json

import pytest

from svmtext.experiments import EXPERIMENTS
from svmtext.experiments._cache import (
    StaleCacheError, config_hash, load_cache, write_cache, write_json_atomic,
)


def test_config_hash_is_order_independent_and_sensitive():
    assert config_hash({"a": 1, "b": [1, 2]}) == config_hash({"b": [1, 2], "a": 1})
    assert config_hash({"a": 1}) != config_hash({"a": 2})


def test_stale_cache_is_refused(tmp_path):
    write_cache("demo", {"n": 10}, {"accuracy": 0.9}, root=tmp_path)
    assert load_cache("demo", {"n": 10}, root=tmp_path)["results"]["accuracy"] == 0.9
    with pytest.raises(StaleCacheError, match="config hash"):
        load_cache("demo", {"n": 11}, root=tmp_path)
    with pytest.raises(FileNotFoundError, match="python -m svmtext.experiments.other"):
        load_cache("other", root=tmp_path)


def test_atomic_write_leaves_no_partial_file(tmp_path):
    target = tmp_path / "x.json"
    write_json_atomic(target, {"ok": 1})

    class Unserialisable:
        def __float__(self):
            raise TypeError("boom")

    with pytest.raises(TypeError):
        write_json_atomic(target, {"bad": Unserialisable()})
    assert json.loads(target.read_text()) == {"ok": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["x.json"]


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_committed_cache_is_current(name):
    mod = importlib.import_module(f"svmtext.experiments.{name}")
    load_cache(name, mod.CONFIG)


# experiments whose smoke run has a test of its own, with more checks
DEDICATED_SMOKE_TESTS = {"mnist_eco": "tests/test_eco_experiments.py"}


@pytest.mark.parametrize("name", [n for n in EXPERIMENTS if n not in DEDICATED_SMOKE_TESTS])
def test_smoke_run(name, tmp_path):
    mod = importlib.import_module(f"svmtext.experiments.{name}")
    mod.run(mod.SMOKE_CONFIG, root=tmp_path)
    payload = load_cache(name, mod.SMOKE_CONFIG, root=tmp_path)
    assert payload["results"]
