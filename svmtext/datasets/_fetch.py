"""Locate a data file, downloading it once with sha256 verification.

The data home is ``$SVMTEXT_DATA`` when that variable is set, otherwise a per-user
cache directory (``$XDG_CACHE_HOME/svmtext``, or ``~/.cache/svmtext``).  Inside it the
layout is ``<dataset>/<file>`` (for example ``mnist/t10k-labels-idx1-ubyte.gz``).

A file that is missing is downloaded from the URL in the registry
(:data:`svmtext.datasets._registry.REGISTRY`) into a temporary file in the target
folder; only after its sha256 matched the registered value is it moved into place
with :func:`os.replace`, so the data home never holds a partial or corrupt file.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

from . import _registry

__all__ = ["data_home", "fetch", "sha256sum", "DataNotFoundError", "ChecksumError"]

ENV_VAR = "SVMTEXT_DATA"
_CHUNK = 1 << 20


class DataNotFoundError(FileNotFoundError):
    """A data file is missing and could not be downloaded (offline, or no public source)."""


class ChecksumError(OSError):
    """A downloaded file's sha256 differs from the registered value (nothing was written)."""


def data_home() -> Path:
    """Folder holding the data files.

    Returns
    -------
    pathlib.Path
        ``$SVMTEXT_DATA`` when set and non-empty; otherwise ``$XDG_CACHE_HOME/svmtext``
        (``~/.cache/svmtext`` when ``XDG_CACHE_HOME`` is unset).  The folder is not
        created here; :func:`fetch` creates sub-folders when it downloads.
    """
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache).expanduser() / "svmtext"


def sha256sum(path: str | os.PathLike) -> str:
    """Hex sha256 of a file, read in 1 MiB chunks."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(_CHUNK), b""):
            h.update(chunk)
    return h.hexdigest()


def _missing(relpath: str, target: Path, why: str) -> DataNotFoundError:
    return DataNotFoundError(
        f"data file {relpath!r} not found at {target} and {why}. "
        f"Set {ENV_VAR} to a folder that holds '{relpath}' (layout <dataset>/<file>, "
        f"as in the book's data folder), or connect to the internet so it can be downloaded "
        f"into the data home ({data_home()}).")


def _download(url: str, target: Path, expected: str, relpath: str, timeout: float) -> None:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    except OSError as exc:
        raise _missing(relpath, target, f"its folder is not writable ({exc})") from exc
    try:
        h = hashlib.sha256()
        with os.fdopen(fd, "wb") as out:
            try:
                with urllib.request.urlopen(url, timeout=timeout) as resp:
                    for chunk in iter(lambda: resp.read(_CHUNK), b""):
                        h.update(chunk)
                        out.write(chunk)
            except (urllib.error.URLError, OSError) as exc:
                raise _missing(relpath, target, f"downloading it from {url} failed ({exc})") from exc
            out.flush()
            os.fsync(out.fileno())
        actual = h.hexdigest()
        if actual != expected:
            raise ChecksumError(
                f"checksum mismatch for {relpath!r} downloaded from {url}: "
                f"expected sha256 {expected}, got {actual}; the file was not saved")
        os.replace(tmp, target)
        tmp = None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass


def fetch(relpath: str, *, download: bool = True, timeout: float = 60.0) -> Path:
    """Path of a registered data file, downloading it first if it is missing.

    Parameters
    ----------
    relpath : str
        Path relative to :func:`data_home`, e.g. ``"ionosphere/ionosphere.data"``;
        must be a key of the registry.
    download : bool, default True
        If False, never touch the network: a missing file raises at once.
    timeout : float, default 60
        Socket timeout in seconds for the download.

    Returns
    -------
    pathlib.Path
        Existing file.  A file already present is trusted as is (not re-hashed).

    Raises
    ------
    DataNotFoundError
        The file is missing and there is no public source, downloading is disabled, or
        the download failed (e.g. offline).  The message names the file and ``SVMTEXT_DATA``.
    ChecksumError
        The downloaded bytes do not have the registered sha256; nothing is written.
    """
    try:
        entry = _registry.REGISTRY[relpath]
    except KeyError:
        raise KeyError(f"unknown data file {relpath!r}") from None
    target = data_home() / relpath
    if target.is_file():
        return target
    if entry.url is None:
        raise _missing(relpath, target, "there is no verifiable public source to download it from")
    if not download:
        raise _missing(relpath, target, "downloading is disabled")
    _download(entry.url, target, entry.sha256, relpath, timeout)
    return target
