"""Tests for svmtext.datasets: loaders against the data folder, and the download path
against a local HTTP server (no internet is ever used)."""
from __future__ import annotations

import functools
import hashlib
import http.server
import os
import re
import socket
import threading
import urllib.parse
from pathlib import Path

import numpy as np
import pytest

import svmtext.datasets as D
from svmtext.datasets import _registry
from svmtext.datasets import _fetch, _ida
from svmtext.datasets._registry import Entry

SHARED = os.environ.get("SVMTEXT_DATA")
needs_data = pytest.mark.skipif(
    not SHARED or not Path(SHARED).is_dir(),
    reason="SVMTEXT_DATA is not set to a data folder (layout of the book's shared data)")


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(autouse=True)
def _no_internet(monkeypatch):
    """Redirect every download to a closed local port, so no test can reach the internet."""
    monkeypatch.setenv("SVMTEXT_DOWNLOAD_MIRROR", f"http://127.0.0.1:{_closed_port()}")


@pytest.fixture
def home(tmp_path, monkeypatch):
    """An empty data home."""
    d = tmp_path / "data"
    d.mkdir()
    monkeypatch.setenv("SVMTEXT_DATA", str(d))
    return d


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep test output clean
        pass


@pytest.fixture
def server(tmp_path):
    """Serve tmp_path/'www' on 127.0.0.1 (ephemeral port); yields (folder, base URL)."""
    www = tmp_path / "www"
    www.mkdir()
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(www)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield www, f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)


def _register(monkeypatch, relpath, sha, url, skip_lines=0):
    monkeypatch.setitem(_registry.REGISTRY, relpath, Entry(sha, url, skip_lines))


def _publish(www: Path, url: str, payload: bytes) -> None:
    """Put ``payload`` where the mirror serves ``url`` (``<www>/<host>/<path>``)."""
    parts = urllib.parse.urlsplit(url)
    dst = www / parts.netloc / parts.path.lstrip("/")
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_bytes(payload)


@pytest.fixture
def mirror(server, monkeypatch):
    """The local server as the download mirror; yields its folder."""
    www, base = server
    monkeypatch.setenv("SVMTEXT_DOWNLOAD_MIRROR", base)
    return www


def _listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


# ----------------------------------------------------------------------------- data home

def test_data_home_env(monkeypatch, tmp_path):
    monkeypatch.setenv("SVMTEXT_DATA", str(tmp_path))
    assert D.data_home() == tmp_path


def test_data_home_cache(monkeypatch, tmp_path):
    monkeypatch.delenv("SVMTEXT_DATA", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert D.data_home() == tmp_path / "svmtext"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert D.data_home() == Path.home() / ".cache" / "svmtext"


def test_registry_hashes_well_formed():
    for key, entry in _registry.REGISTRY.items():
        assert re.fullmatch("[0-9a-f]{64}", entry.sha256), key
        assert "/" in key


@needs_data
def test_registry_matches_shared_files():
    """Small registered files in the data folder have exactly the registered sha256."""
    for key, entry in _registry.REGISTRY.items():
        p = Path(SHARED) / key
        if p.is_file() and p.stat().st_size < 3_000_000 and not key.startswith("mnist/"):
            assert D.sha256sum(p) == entry.sha256, key


# ----------------------------------------------------------------------------- download path

def test_download_success(home, server, monkeypatch):
    www, base = server
    payload = np.random.default_rng(0).bytes(200_000)
    (www / "small.bin").write_bytes(payload)
    sha = hashlib.sha256(payload).hexdigest()
    _register(monkeypatch, "toy/small.bin", sha, base + "small.bin")
    path = D.fetch("toy/small.bin")
    assert path == home / "toy" / "small.bin"
    assert path.read_bytes() == payload and D.sha256sum(path) == sha
    assert _listing(home) == ["toy/small.bin"]          # no temporary file left
    # present now: a second call does not download (the server copy is gone)
    (www / "small.bin").unlink()
    assert D.fetch("toy/small.bin") == path


@needs_data
def test_download_real_file_then_load(home, mirror):
    key = "ionosphere/ionosphere.data"
    entry = _registry.REGISTRY[key]
    _publish(mirror, entry.url, (Path(SHARED) / key).read_bytes())
    X, y = D.load_ionosphere()
    assert X.shape == (351, 34)
    assert D.sha256sum(home / key) == entry.sha256
    assert _listing(home) == [key]


def test_mirror_maps_https_urls(monkeypatch):
    url = "https://raw.githubusercontent.com/owner/repo/0123abcd/dir/file.asc"
    monkeypatch.delenv("SVMTEXT_DOWNLOAD_MIRROR")
    assert _fetch.source_url(url) == url
    monkeypatch.setenv("SVMTEXT_DOWNLOAD_MIRROR", "http://127.0.0.1:9/")
    assert _fetch.source_url(url) == ("http://127.0.0.1:9/raw.githubusercontent.com/"
                                      "owner/repo/0123abcd/dir/file.asc")
    assert _fetch.source_url("http://127.0.0.1:5/x") == "http://127.0.0.1:5/x"


def test_every_source_is_pinned():
    """Each URL is a file at a fixed commit (40 hex digits) in a public GitHub repository."""
    urls = [e.url for e in _registry.REGISTRY.values()]
    urls += [u for e in _registry.ASSEMBLED.values() for u in _ida.split_urls(e).values()]
    assert len(urls) == len(_registry.REGISTRY) + 8 * 40
    for url in urls:
        parts = urllib.parse.urlsplit(url).path.split("/")
        assert url.startswith("https://raw.githubusercontent.com/"), url
        assert re.fullmatch("[0-9a-f]{40}", parts[3]), url       # a pinned commit


def test_skip_lines_drops_header(home, mirror, monkeypatch):
    body = b"1 2 3\n4 5 6\n"
    url = "https://example.org/v1/table.dat"
    _publish(mirror, url, b"a b c\n" + body)
    _register(monkeypatch, "toy/table.dat", hashlib.sha256(body).hexdigest(), url, skip_lines=1)
    assert D.fetch("toy/table.dat").read_bytes() == body


def _publish_splits(www: Path, name: str, shared: Path) -> None:
    entry = _registry.ASSEMBLED[f"raetsch/{name}.npz"]
    with np.load(shared / "raetsch" / f"{name}.npz") as d:
        for (part, kind, r), url in _ida.split_urls(entry).items():
            rows = d[f"{part}_idx"][r - 1]
            _publish(www, url, _ida.asc_bytes(d["X"][rows] if kind == "data" else d["y"][rows]))
    if entry.pool is not None:
        _publish(www, _registry.REGISTRY[entry.pool].url, (shared / entry.pool).read_bytes())


@needs_data
@pytest.mark.parametrize("name", ["heart", "titanic", "thyroid"])
def test_raetsch_assembled_from_split_files(home, mirror, name):
    """Split files (+ .mat pool) in, the canonical .npz arrays out: values and dtypes."""
    _publish_splits(mirror, name, Path(SHARED))
    path = D.fetch(f"raetsch/{name}.npz")
    with np.load(path) as got, np.load(Path(SHARED) / "raetsch" / f"{name}.npz") as ref:
        assert sorted(got.files) == sorted(ref.files)
        for k in ref.files:
            assert got[k].dtype == ref[k].dtype and np.array_equal(got[k], ref[k]), k
    expected = [f"raetsch/{name}.npz"]
    if _registry.ASSEMBLED[expected[0]].pool:
        expected.append(_registry.ASSEMBLED[expected[0]].pool)
    assert _listing(home) == sorted(expected)         # split files and temporaries removed


@needs_data
@pytest.mark.parametrize("name,key,why", [
    ("heart", ("test", "data", 7), "not in the pattern pool"),      # a pattern of r = 7 changed
    ("thyroid", None, "differs from the registered digests in array"),  # the pool itself changed
])
def test_raetsch_assembly_detects_a_changed_value(home, mirror, monkeypatch, name, key, why):
    _publish_splits(mirror, name, Path(SHARED))
    entry = _registry.ASSEMBLED[f"raetsch/{name}.npz"]
    if key is not None:
        url = _ida.split_urls(entry)[key]
        path = mirror / urllib.parse.urlsplit(url).netloc / urllib.parse.urlsplit(url).path.lstrip("/")
        A = np.loadtxt(path)
        A[3, 2] += 1e-7
        path.write_bytes(_ida.asc_bytes(A))
    else:   # a pool whose sha256 is registered as it is served, but whose values are not canonical
        from scipy.io import loadmat, savemat
        url = _registry.REGISTRY[entry.pool].url
        path = mirror / urllib.parse.urlsplit(url).netloc / urllib.parse.urlsplit(url).path.lstrip("/")
        m = loadmat(path)
        m["data"][0, 0] += 1.0
        savemat(path, {"data": m["data"], "target": m["target"]})
        _register(monkeypatch, entry.pool, D.sha256sum(path), url)
    with pytest.raises(D.ChecksumError, match=rf"raetsch/{name}\.npz.*{why}.*not saved"):
        D.fetch(f"raetsch/{name}.npz")
    assert not (home / "raetsch" / f"{name}.npz").exists()
    assert not [p for p in (home / "raetsch").iterdir() if p.name.startswith(".")]


def test_array_digest_sees_dtype_shape_and_bits():
    a = np.arange(6, dtype=np.int16)
    d = _ida.array_digest(a)
    assert d == _ida.array_digest(a.astype(">i2"))              # byte order is normalised
    assert d != _ida.array_digest(a.astype(np.int32))
    assert d != _ida.array_digest(a.reshape(2, 3))
    assert _ida.array_digest(np.zeros(1)) != _ida.array_digest(-np.zeros(1))


@needs_data
def test_registered_digests_match_shared_npz():
    for relpath, entry in _registry.ASSEMBLED.items():
        with np.load(Path(SHARED) / relpath) as d:
            assert {k: _ida.array_digest(d[k]) for k in d.files} == entry.digests, relpath


@needs_data
def test_asc_format_reproduces_public_files():
    """The .asc writer gives the public bytes of realisation 1 (sha256 in the data folder)."""
    folder = Path(SHARED) / "raetsch" / "asc_r1"
    if not folder.is_dir():
        pytest.skip("asc_r1/ not in the data folder")
    with np.load(Path(SHARED) / "raetsch" / "heart.npz") as d:
        for part in ("train", "test"):
            rows = d[f"{part}_idx"][0]
            assert _ida.asc_bytes(d["X"][rows]) == (folder / f"heart_{part}_data_1.asc").read_bytes()
            assert _ida.asc_bytes(d["y"][rows]) == (folder / f"heart_{part}_labels_1.asc").read_bytes()


def test_checksum_mismatch_leaves_nothing(home, server, monkeypatch):
    www, base = server
    (www / "bad.bin").write_bytes(b"corrupt" * 1000)
    expected = hashlib.sha256(b"the right bytes").hexdigest()
    actual = hashlib.sha256(b"corrupt" * 1000).hexdigest()
    _register(monkeypatch, "toy/bad.bin", expected, base + "bad.bin")
    with pytest.raises(D.ChecksumError) as info:
        D.fetch("toy/bad.bin")
    msg = str(info.value)
    assert "bad.bin" in msg and expected in msg and actual in msg and base + "bad.bin" in msg
    assert _listing(home) == []                          # neither the file nor a temp file


def test_http_error_is_missing_file(home, server, monkeypatch):
    _, base = server
    _register(monkeypatch, "toy/absent.bin", "0" * 64, base + "absent.bin")   # 404
    with pytest.raises(D.DataNotFoundError, match="404"):
        D.fetch("toy/absent.bin")
    assert _listing(home) == []


def test_offline_error_names_file_url_and_env(home, monkeypatch):
    url = f"http://127.0.0.1:{_closed_port()}/x.bin"
    _register(monkeypatch, "toy/x.bin", "0" * 64, url)
    with pytest.raises(FileNotFoundError) as info:
        D.fetch("toy/x.bin")
    msg = str(info.value)
    assert isinstance(info.value, D.DataNotFoundError)
    assert "toy/x.bin" in msg and url in msg and f"SVMTEXT_DATA={home}" in msg
    assert "fetch --all" in msg
    assert "no verifiable" not in msg and _listing(home) == []


def test_offline_error_in_the_cache(tmp_path, monkeypatch):
    monkeypatch.delenv("SVMTEXT_DATA", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    with pytest.raises(D.DataNotFoundError) as info:
        D.fetch("glass/glass.data")
    msg = str(info.value)
    assert str(tmp_path / "svmtext") in msg and "SVMTEXT_DATA is not set" in msg
    assert _registry.REGISTRY["glass/glass.data"].url in msg and "SVMTEXT_DOWNLOAD_MIRROR" in msg


def test_offline_loader(home):
    with pytest.raises(D.DataNotFoundError, match="sonar.all-data.*SVMTEXT_DATA"):
        D.load_sonar()
    with pytest.raises(D.DataNotFoundError, match="SVMTEXT_DATA"):
        D.load_mnist("test")


def test_offline_raetsch_names_its_sources(home):
    with pytest.raises(D.DataNotFoundError) as info:
        D.load_raetsch("banana")
    msg = str(info.value)
    assert "raetsch/banana.npz" in msg and "SVMTEXT_DATA" in msg
    assert "fernando2393/Relevance-Vector-Machine/4692830b" in msg and "banana.mat" in msg
    assert _listing(home) == []
    with pytest.raises(D.DataNotFoundError, match=r"raetsch/heart\.npz.*povelfk"):
        D.load_raetsch_pool("heart")


def test_download_disabled(home, monkeypatch):
    with pytest.raises(D.DataNotFoundError, match="glass/glass.data.*disabled"):
        D.fetch("glass/glass.data", download=False)
    with pytest.raises(D.DataNotFoundError, match="raetsch/german.npz.*disabled"):
        D.fetch("raetsch/german.npz", download=False)


def test_unknown_file():
    with pytest.raises(KeyError):
        D.fetch("nope/nothing.txt")


@needs_data
def test_command_line_fetch_and_list(home, mirror, capsys):
    from svmtext.datasets.__main__ import main

    for key in ("glass/glass.data", "sonar/sonar.all-data"):
        _publish(mirror, _registry.REGISTRY[key].url, (Path(SHARED) / key).read_bytes())
    assert main(["fetch", "glass", "sonar"]) == 0
    assert "2 fetched, 0 already present, 0 failed" in capsys.readouterr().out
    assert _listing(home) == ["glass/glass.data", "sonar/sonar.all-data"]
    assert main(["fetch", "ionosphere"]) == 1                       # not on the mirror
    assert "FAILED ionosphere/ionosphere.data" in capsys.readouterr().err
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "glass" in out and "present" in out and str(home) in out
    with pytest.raises(SystemExit):
        main(["fetch", "nope"])


# ----------------------------------------------------------------------------- argument checks

def test_raetsch_argument_errors():
    with pytest.raises(ValueError, match="banana"):
        D.load_raetsch("diabetis")
    for name in ("thyroid", "flare_solar", "splice"):
        with pytest.raises(ValueError, match="load_raetsch_pool"):
            D.load_raetsch(name)
    with pytest.raises(ValueError, match="valid names"):
        D.load_raetsch_pool("twonorm")


@needs_data
def test_raetsch_realisation_range():
    with pytest.raises(ValueError, match="realisation"):
        D.load_raetsch("heart", 10)
    with pytest.raises(ValueError, match="realisation"):
        D.load_raetsch("heart", -1)


def test_mnist_bad_split():
    with pytest.raises(ValueError, match="split"):
        D.load_mnist("valid")


# ----------------------------------------------------------------------------- loaders vs README

@needs_data
@pytest.mark.parametrize("split,n,n4,n9", [("train", 60000, 5842, 5949), ("test", 10000, 982, 1009)])
def test_mnist(split, n, n4, n9):
    X, y = D.load_mnist(split)
    assert X.shape == (n, 784) and X.dtype == np.uint8 and y.dtype == np.uint8
    assert y.shape == (n,) and X.max() == 255
    assert (y == 4).sum() == n4 and (y == 9).sum() == n9
    X49, y49 = D.load_mnist_4v9(split)
    assert X49.shape == (n4 + n9, 784) and X49.dtype == np.float64
    assert X49.min() >= 0.0 and X49.max() == 1.0
    assert (y49 == -1).sum() == n4 and (y49 == 1).sum() == n9
    np.testing.assert_array_equal(X49, X[(y == 4) | (y == 9)] / 255.0)
    np.testing.assert_array_equal(y49, np.where(y[(y == 4) | (y == 9)] == 9, 1, -1))
    Xraw, _ = D.load_mnist_4v9(split, scale=False)
    assert Xraw.dtype == np.uint8


RAETSCH = {  # name: (n, d, n_neg, n_pos, n_train, n_test)
    "banana": (5300, 2, 2924, 2376, 400, 4900),
    "breast_cancer": (277, 9, 196, 81, 200, 77),
    "german": (1000, 20, 700, 300, 700, 300),
    "heart": (270, 13, 150, 120, 170, 100),
    "image": (2310, 18, 990, 1320, 1300, 1010),
    "ringnorm": (7400, 20, 3736, 3664, 400, 7000),
    "titanic": (2201, 3, 1490, 711, 150, 2051),
    "waveform": (5000, 21, 3353, 1647, 400, 4600),
    "thyroid": (215, 5, 150, 65, None, None),
    "flare_solar": (1066, 9, 477, 589, None, None),
    "splice": (3175, 60, 1648, 1527, None, None),
}


@needs_data
@pytest.mark.parametrize("name", sorted(RAETSCH))
def test_raetsch(name):
    n, d, n_neg, n_pos, n_tr, n_te = RAETSCH[name]
    X, y = D.load_raetsch_pool(name)
    assert X.shape == (n, d) and X.dtype == np.float64
    assert (y == -1).sum() == n_neg and (y == 1).sum() == n_pos
    if n_tr is None:
        return
    for r in (0, 9):
        Xtr, ytr, Xte, yte = D.load_raetsch(name, r)
        assert Xtr.shape == (n_tr, d) and Xte.shape == (n_te, d)
        assert ytr.shape == (n_tr,) and yte.shape == (n_te,)
        assert set(np.unique(np.r_[ytr, yte])) == {-1, 1}


@needs_data
def test_raetsch_matches_asc_realisation_1():
    folder = Path(SHARED) / "raetsch" / "asc_r1"
    if not folder.is_dir():
        pytest.skip("asc_r1/ not in the data folder")
    Xtr, ytr, Xte, yte = D.load_raetsch("heart", 0)
    np.testing.assert_array_equal(Xtr, np.loadtxt(folder / "heart_train_data_1.asc"))
    np.testing.assert_array_equal(ytr, np.loadtxt(folder / "heart_train_labels_1.asc"))
    np.testing.assert_array_equal(Xte, np.loadtxt(folder / "heart_test_data_1.asc"))
    np.testing.assert_array_equal(yte, np.loadtxt(folder / "heart_test_labels_1.asc"))


def _counts(y):
    return dict(zip(*(v.tolist() for v in np.unique(y, return_counts=True))))


@needs_data
@pytest.mark.parametrize("loader,shape,counts", [
    ("load_ionosphere", (351, 34), {1: 225, -1: 126}),
    ("load_sonar", (208, 60), {1: 111, -1: 97}),
    ("load_german_numeric", (1000, 24), {1: 700, -1: 300}),
    ("load_glass", (214, 9), {1: 70, 2: 76, 3: 17, 5: 13, 6: 9, 7: 29}),
    ("load_vehicle", (846, 18), {"bus": 218, "saab": 217, "opel": 212, "van": 199}),
    ("load_segment", (2310, 19), {c: 330 for c in range(1, 8)}),
])
def test_uci(loader, shape, counts):
    X, y = getattr(D, loader)()
    assert X.shape == shape and X.dtype == np.float64 and y.shape == (shape[0],)
    assert _counts(y) == counts
    assert np.isfinite(X).all()


@needs_data
def test_vehicle_parts_equal_concatenation():
    path = Path(SHARED) / "vehicle" / "vehicle.dat"
    if not path.is_file():
        pytest.skip("vehicle.dat not in the data folder")
    raw = np.loadtxt(path, dtype=str)
    X, y = D.load_vehicle()
    np.testing.assert_array_equal(X, raw[:, :18].astype(float))
    np.testing.assert_array_equal(y, raw[:, 18])


@needs_data
def test_compas():
    b = D.load_compas()
    assert b.X.shape == (6172, len(D.COMPAS_FEATURES)) and b.X.dtype == np.float64
    assert list(b.feature_names) == list(D.COMPAS_FEATURES)
    assert _counts(b.y) == {0: 3363, 1: 2809}
    assert b.race.shape == b.sensitive.shape == (6172,)
    assert set(np.unique(b.sensitive)) == {0, 1}
    np.testing.assert_array_equal(b.sensitive, b.race == "African-American")
    assert b.decile_score.min() == 1 and b.decile_score.max() == 10
    assert set(np.unique(b.score_text)) == {"Low", "Medium", "High"}
    for col in ("sex_male", "charge_felony"):
        assert set(np.unique(b.X[:, D.COMPAS_FEATURES.index(col)])) == {0.0, 1.0}
    full = D.load_compas(filtered=False)
    assert full.X.shape[0] == 7214 and _counts(full.y) == {0: 3963, 1: 3251}
    assert _counts(full.race)["African-American"] == 3696


# ----------------------------------------------------------------------------- data faults

_ION = "ionosphere/ionosphere.data"


@pytest.fixture
def ionosphere_home(home, tmp_path, monkeypatch):
    """A data home holding a good ionosphere file (a fixed copy), digest store in tmp."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    rows = [",".join(["1", "0"] + [f"{v:.5f}" for v in np.linspace(-1, 1, 32) * (i % 7) / 7]
                     + ["g" if i % 3 else "b"]) for i in range(60)]
    payload = ("\n".join(rows) + "\n").encode()
    _register(monkeypatch, _ION, hashlib.sha256(payload).hexdigest(),
              "https://example.org/pinned/ionosphere.data")
    (home / "ionosphere").mkdir()
    (home / _ION).write_bytes(payload)
    return home, payload


def _truncate(b):
    return b[: len(b) * 2 // 3]


def _corrupt(b):
    return b[:500] + bytes(x ^ 0xFF for x in b[500:520]) + b[520:]


def _edit_label(b):
    i = b.rindex(b",g")
    return b[:i] + b",b" + b[i + 2:]


@pytest.mark.parametrize("fault", [_truncate, _corrupt, _edit_label])
def test_a_damaged_file_is_refused_offline_with_the_repair(ionosphere_home, fault):
    home, payload = ionosphere_home
    D.load_ionosphere()                                  # verified, digest remembered
    (home / _ION).write_bytes(fault(payload))
    entry = _registry.REGISTRY[_ION]
    with pytest.raises(D.ChecksumError) as info:
        D.load_ionosphere()
    msg = str(info.value)
    assert str(home / _ION) in msg and entry.sha256 in msg
    assert hashlib.sha256(fault(payload)).hexdigest() in msg
    assert "python -m svmtext.datasets fetch ionosphere" in msg


@pytest.mark.parametrize("fault", [_truncate, _corrupt, _edit_label])
def test_a_damaged_file_is_fetched_again(ionosphere_home, mirror, fault):
    home, payload = ionosphere_home
    _publish(mirror, _registry.REGISTRY[_ION].url, payload)
    (home / _ION).write_bytes(fault(payload))
    D.load_ionosphere()
    assert (home / _ION).read_bytes() == payload
    assert _listing(home) == [_ION]


def test_a_damaged_assembled_file_is_refused(home, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    arrays = {"X": np.arange(6.0).reshape(3, 2), "y": np.array([1, -1, 1], np.int8)}
    digests = {k: _ida.array_digest(v) for k, v in arrays.items()}
    monkeypatch.setitem(_registry.ASSEMBLED, "raetsch/toy.npz",
                        _registry.Assembled(digests, None, None))
    (home / "raetsch").mkdir()
    np.savez_compressed(home / "raetsch" / "toy.npz", **arrays)
    assert D.fetch("raetsch/toy.npz", download=False) == home / "raetsch" / "toy.npz"
    np.savez_compressed(home / "raetsch" / "toy.npz", **{**arrays, "y": -arrays["y"]})
    with pytest.raises(D.ChecksumError, match=r"toy\.npz.*array\(s\) y differ.*fetch --all"):
        D.fetch("raetsch/toy.npz", download=False)
    data = (home / "raetsch" / "toy.npz").read_bytes()
    (home / "raetsch" / "toy.npz").write_bytes(data[:len(data) // 2])
    with pytest.raises(D.ChecksumError, match=r"cannot be read as an \.npz archive"):
        D.fetch("raetsch/toy.npz", download=False)


@pytest.mark.parametrize("code", [30, 28, 13])      # EROFS, ENOSPC, EACCES
def test_an_unwritable_data_home_says_what_to_do(home, mirror, monkeypatch, code):
    import errno
    import tempfile

    payload = b"some bytes\n"
    url = "https://example.org/pinned/w.bin"
    _publish(mirror, url, payload)
    _register(monkeypatch, "toy/w.bin", hashlib.sha256(payload).hexdigest(), url)

    def refuse(*args, **kw):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    with pytest.raises(D.DataNotFoundError) as info:
        D.fetch("toy/w.bin")
    msg = str(info.value)
    assert f"errno {code}" in msg and os.strerror(code) in msg
    assert "set SVMTEXT_DATA to a writable folder" in msg and "fetch --all" in msg
    assert errno.errorcode[code]                         # a real errno


def test_a_full_disk_while_writing_leaves_nothing(home, mirror, monkeypatch):
    payload = b"x" * 5000
    url = "https://example.org/pinned/full.bin"
    _publish(mirror, url, payload)
    _register(monkeypatch, "toy/full.bin", hashlib.sha256(payload).hexdigest(), url)
    real_fsync = os.fsync

    def full(fd):
        raise OSError(28, os.strerror(28))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(D.DataNotFoundError, match=r"No space left on device, errno 28"):
        D.fetch("toy/full.bin")
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert _listing(home) == []


def test_an_interrupted_download_leaves_nothing(home, mirror, monkeypatch):
    payload = b"y" * 50_000
    url = "https://example.org/pinned/big.bin"
    _publish(mirror, url, payload)
    _register(monkeypatch, "toy/big.bin", hashlib.sha256(payload).hexdigest(), url)
    import svmtext.datasets._download as dl

    real = dl.urllib.request.urlopen

    class Interrupting:
        def __init__(self, resp):
            self.resp = resp

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.resp.close()

        def readline(self):
            return self.resp.readline()

        def read(self, n):
            raise KeyboardInterrupt

    monkeypatch.setattr(dl.urllib.request, "urlopen", lambda *a, **k: Interrupting(real(*a, **k)))
    with pytest.raises(KeyboardInterrupt):
        D.fetch("toy/big.bin")
    assert _listing(home) == []
    monkeypatch.setattr(dl.urllib.request, "urlopen", real)
    assert D.fetch("toy/big.bin").read_bytes() == payload


def test_a_dropped_connection_is_a_download_error(home, monkeypatch):
    """The server promises more bytes than it sends (http.client.IncompleteRead)."""
    import socketserver

    class Short(socketserver.BaseRequestHandler):
        def handle(self):
            self.request.recv(4096)
            self.request.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + b"z" * 10)

    srv = socketserver.TCPServer(("127.0.0.1", 0), Short)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{srv.server_address[1]}/short.bin"
        _register(monkeypatch, "toy/short.bin", "0" * 64, url)
        with pytest.raises(D.DataNotFoundError, match="interrupted.*retry"):
            D.fetch("toy/short.bin")
    finally:
        srv.shutdown()
        srv.server_close()
    assert _listing(home) == []


def test_reverification_is_remembered_by_size_and_mtime(ionosphere_home):
    home, payload = ionosphere_home
    from svmtext.datasets import _download

    D.load_ionosphere()
    store = _download.digest_store()
    assert store.is_file() and str(home / _ION) in store.read_text()
    _download._DIGESTS.clear()                           # a new process: read from disk
    calls = []
    real_open = open

    def counting_open(path, *a, **k):
        calls.append(str(path))
        return real_open(path, *a, **k)

    import builtins
    builtins.open, saved = counting_open, builtins.open
    try:
        _download.sha256sum(home / _ION)
    finally:
        builtins.open = saved
    assert str(home / _ION) not in calls                 # not hashed again


def test_datasets_modules_import_no_cycle():
    """_fetch imports _ida and both import _download; _ida never imports _fetch."""
    import ast

    folder = Path(D.__file__).parent
    graph = {}
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text())
        graph[path.stem] = {n.module for n in ast.walk(tree)
                            if isinstance(n, ast.ImportFrom) and n.level == 1 and n.module}
        graph[path.stem] |= {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                             and n.level == 1 and n.module is None for a in n.names}

    def reaches(a, b, seen=()):
        return any(m == b or (m not in seen and reaches(m, b, (*seen, m)))
                   for m in graph.get(a, ()))

    assert not [m for m in graph if reaches(m, m)]
    assert "_download" in graph["_ida"] and "_fetch" not in graph["_ida"]
