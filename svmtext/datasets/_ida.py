"""Assemble the Rätsch/IDA ``raetsch/<name>.npz`` files from the original split files.

The IDA benchmark distributes realisation ``r`` of a set as four text files,
``<name>_{train,test}_{data,labels}_<r>.asc`` (one pattern or label per line, each
number written ``%16.7e``).  The book stores a set as a pattern pool with index
matrices (``X`` float64, ``y`` int8 in {-1, +1}, ``train_idx``, ``test_idx`` int16,
``realisation`` int16, 1..10); :func:`assemble` rebuilds exactly that from the
downloaded files:

1. Pool: the registered ``.mat`` pool (variables ``data``, ``target``), or, for heart
   and ringnorm, realisation 1's training rows followed by its test rows.
2. Indices: for each realisation, the rows of its training file and then of its test
   file, in file order, each take the lowest pool index not yet used in that
   realisation among the pool rows with the same (pattern, label).  Identical
   (pattern, label) rows are interchangeable; this first-come rule makes the choice
   unique.
3. Verification: :func:`array_digest` of every array must equal the registered digest
   (computed from the book's canonical copies) before the file is written.
"""
from __future__ import annotations

import collections
import hashlib
import io
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from ._download import (UNWRITABLE, ChecksumError, DownloadError, _stat_key, download_file,
                        remember, remembered, replace_atomically, unwritable_advice)
from ._registry import Assembled

__all__ = ["array_digest", "asc_bytes", "split_urls", "sources_url", "assemble", "verify",
           "N_REALISATIONS"]

#: Realisations stored per set (IDA numbers 1..10).
N_REALISATIONS = 10
_PARTS = ("train", "test")
_KINDS = ("data", "labels")


def array_digest(a: np.ndarray) -> str:
    """sha256 of a canonical serialisation of an array.

    The hashed bytes are ``"<dtype>:<shape>:"`` in ASCII (dtype as ``numpy.dtype.str``
    with little-endian byte order, shape as comma-separated integers), followed by the
    array's little-endian C-order bytes.  Equal digests mean equal dtype, shape and
    bits.
    """
    a = np.asarray(a)
    a = np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("<"))
    h = hashlib.sha256(f"{a.dtype.str}:{','.join(map(str, a.shape))}:".encode("ascii"))
    h.update(a.tobytes())
    return h.hexdigest()


def split_urls(entry: Assembled) -> dict[tuple[str, str, int], str]:
    """URL of every split file: ``(part, kind, r) -> URL`` for r = 1..10."""
    if entry.asc is None:
        return {}
    base, prefix = entry.asc
    return {(part, kind, r): f"{base}{prefix}_{part}_{kind}_{r}.asc"
            for r in range(1, N_REALISATIONS + 1) for part in _PARTS for kind in _KINDS}


def sources_url(entry: Assembled) -> str:
    """One line naming where an assembled file's sources come from (for messages)."""
    from ._registry import REGISTRY

    where = []
    if entry.asc is not None:
        base, prefix = entry.asc
        where.append(f"{base}{prefix}_{{train,test}}_{{data,labels}}_{{1..{N_REALISATIONS}}}.asc")
    if entry.pool is not None:
        where.append(REGISTRY[entry.pool].url)
    return " and ".join(where)


def asc_bytes(a: np.ndarray) -> bytes:
    """An array in the IDA ``.asc`` text format: one row per line, ``%16.7e`` per number."""
    a = np.asarray(a, dtype=np.float64)
    if a.ndim == 1:
        a = a[:, None]
    return "".join("".join(f"{v:16.7e}" for v in row) + "\n" for row in a).encode("ascii")


def _read_asc(path: Path, kind: str) -> np.ndarray:
    if kind == "data":
        return np.loadtxt(path, dtype=np.float64, ndmin=2)
    return np.loadtxt(path, dtype=np.float64, ndmin=1).astype(np.int8)


def _first_come(X: np.ndarray, y: np.ndarray, splits: dict) -> tuple[np.ndarray, np.ndarray]:
    """Index matrices of realisations 1..10 into the pool (X, y) by the first-come rule."""
    pool = collections.defaultdict(list)
    for i, key in enumerate(zip(map(tuple, X.tolist()), y.tolist())):
        pool[key].append(i)
    idx = {part: [] for part in _PARTS}
    for r in range(1, N_REALISATIONS + 1):
        queues = {key: collections.deque(rows) for key, rows in pool.items()}
        for part in _PARTS:
            Xp, yp = splits[part, "data", r], splits[part, "labels", r]
            try:
                rows = [queues[key].popleft()
                        for key in zip(map(tuple, Xp.tolist()), yp.tolist())]
            except (KeyError, IndexError):
                raise ValueError(f"a row of {part} realisation {r} is not in the pattern "
                                 "pool") from None
            idx[part].append(rows)
    dtype = np.int16 if len(X) <= np.iinfo(np.int16).max else np.int32
    return np.array(idx["train"], dtype=dtype), np.array(idx["test"], dtype=dtype)


def _download_splits(entry: Assembled, folder: Path, timeout: float) -> dict:
    urls = split_urls(entry)
    paths = {key: folder / Path(url).name for key, url in urls.items()}
    with ThreadPoolExecutor(max_workers=8) as pool:
        for f in [pool.submit(download_file, urls[k], paths[k], timeout=timeout) for k in urls]:
            f.result()
    return {key: _read_asc(path, key[1]) for key, path in paths.items()}


def _arrays(entry: Assembled, folder: Path, pool: Path | None,
            timeout: float) -> dict[str, np.ndarray]:
    splits = _download_splits(entry, folder, timeout)
    if entry.pool is not None:
        from scipy.io import loadmat

        m = loadmat(pool)
        X = np.asarray(m["data"], dtype=np.float64)
        y = np.where(np.asarray(m["target"]).ravel() > 0, 1, -1).astype(np.int8)
    else:
        X = np.concatenate([splits["train", "data", 1], splits["test", "data", 1]])
        y = np.concatenate([splits["train", "labels", 1], splits["test", "labels", 1]])
    arrays = {"X": X, "y": y}
    if splits:
        arrays["train_idx"], arrays["test_idx"] = _first_come(X, y, splits)
        arrays["realisation"] = np.arange(1, N_REALISATIONS + 1, dtype=np.int16)
    return arrays


def _mismatched(entry: Assembled, arrays: dict) -> list[str]:
    return sorted(k for k in set(entry.digests) | set(arrays)
                  if k not in arrays or array_digest(arrays[k]) != entry.digests.get(k))


def verify(path: Path, entry: Assembled) -> str | None:
    """``None`` if the ``.npz`` at ``path`` holds exactly the registered arrays, else why not.

    A verified file is remembered (:func:`svmtext.datasets._download.remember`) by its
    path, size, modification time and inode, with the registered digests it matched.
    """
    key = _stat_key(path)
    mark = "arrays:" + hashlib.sha256(repr(sorted(entry.digests.items())).encode()).hexdigest()
    if remembered(key) == mark:
        return None
    try:
        with np.load(path) as d:
            arrays = {k: d[k] for k in d.files}
    except Exception as exc:  # noqa: BLE001 - any unreadable archive is a corrupt file
        return f"it cannot be read as an .npz archive ({type(exc).__name__}: {exc})"
    bad = _mismatched(entry, arrays)
    if bad:
        return (f"array(s) {', '.join(bad)} differ from the registered digests "
                + "; ".join(f"{k}: expected {entry.digests.get(k, '(none)')}" for k in bad))
    remember(key, mark)
    return None


def assemble(relpath: str, entry: Assembled, target: Path, *, pool: Path | None = None,
             timeout: float = 60.0) -> None:
    """Download the sources of ``relpath``, assemble its arrays, verify, write ``target``.

    The split files go to a temporary folder beside ``target`` that is removed
    afterwards; ``pool`` is the registered ``.mat`` pattern pool, already in the data
    home (required when ``entry.pool`` is set).

    Raises
    ------
    ChecksumError
        An assembled array differs from its registered digest (nothing is written).
    svmtext.datasets._download.DownloadError
        A source could not be downloaded.
    """
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix=f".{target.stem}-sources-",
                                         dir=target.parent) as tmp:
            try:
                arrays = _arrays(entry, Path(tmp), pool, timeout)
            except ValueError as exc:
                raise ChecksumError(f"{relpath!r} cannot be assembled from "
                                    f"{sources_url(entry)}: {exc}; the file was not saved. "
                                    "A source file was incomplete or changed: retry") from exc
    except (ChecksumError, DownloadError):
        raise
    except OSError as exc:
        if exc.errno not in UNWRITABLE:
            raise
        raise DownloadError(unwritable_advice(target.parent, exc)) from exc
    bad = _mismatched(entry, arrays)
    if bad:
        raise ChecksumError(
            f"{relpath!r} assembled from {sources_url(entry)} differs from the registered "
            f"digests in array(s) {', '.join(bad)}; the file was not saved. A source file "
            "was incomplete or changed: retry")

    def write(out):
        buf = io.BytesIO()
        np.savez_compressed(buf, **arrays)
        out.write(buf.getvalue())

    replace_atomically(target, write)
