"""Locate a data file; on first use, download it (sha256-verified) or assemble it.

The data home is ``$SVMTEXT_DATA`` when that variable is set, otherwise a per-user
cache directory (``$XDG_CACHE_HOME/svmtext``, or ``~/.cache/svmtext``).  Inside it the
layout is ``<dataset>/<file>`` (for example ``mnist/t10k-labels-idx1-ubyte.gz``).
Files are read from the data home; a missing one is fetched into it, so
``SVMTEXT_DATA`` may name an empty folder.

A registered file (:data:`svmtext.datasets._registry.REGISTRY`) is downloaded from its
pinned URL into a temporary file in the target folder and moved into place with
:func:`os.replace` only after its sha256 matched, so the data home never holds a
partial or corrupt file.  An assembled file
(:data:`svmtext.datasets._registry.ASSEMBLED`) is built from its downloaded sources by
:mod:`svmtext.datasets._ida` and written the same way.

``$SVMTEXT_DOWNLOAD_MIRROR`` redirects every download: ``https://<host>/<path>`` is
fetched from ``$SVMTEXT_DOWNLOAD_MIRROR/<host>/<path>`` (a local copy of the public
sources, e.g. served by ``tools/public_mirror.py``).
"""
from __future__ import annotations

import hashlib
import os
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from . import _registry

__all__ = ["data_home", "fetch", "sha256sum", "source_url", "DataNotFoundError", "ChecksumError"]

ENV_VAR = "SVMTEXT_DATA"
MIRROR_VAR = "SVMTEXT_DOWNLOAD_MIRROR"
_CHUNK = 1 << 20


class DataNotFoundError(FileNotFoundError):
    """A data file is missing from the data home and could not be fetched."""


class ChecksumError(OSError):
    """Downloaded bytes, or arrays assembled from them, differ from the registered digest.

    Nothing is written to the data home when this is raised.
    """


class DownloadError(OSError):
    """One URL could not be downloaded (offline, HTTP error, unwritable folder)."""


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


def mirror_path(url: str) -> str:
    """``<host>/<path>`` of ``https://<host>/<path>``: where a mirror keeps the file."""
    parts = urllib.parse.urlsplit(url)
    return f"{parts.netloc}{parts.path}"


def source_url(url: str) -> str:
    """The URL actually requested for ``url``: redirected when ``$SVMTEXT_DOWNLOAD_MIRROR`` is set.

    ``https://<host>/<path>`` becomes ``$SVMTEXT_DOWNLOAD_MIRROR/<host>/<path>``
    (:func:`mirror_path`); other schemes are left alone.
    """
    mirror = os.environ.get(MIRROR_VAR)
    if not mirror or urllib.parse.urlsplit(url).scheme != "https":
        return url
    return f"{mirror.rstrip('/')}/{mirror_path(url)}"


def sha256sum(path: str | os.PathLike) -> str:
    """Hex sha256 of a file, read in 1 MiB chunks."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(_CHUNK), b""):
            h.update(chunk)
    return h.hexdigest()


def replace_atomically(target: Path, write) -> None:
    """Call ``write(fileobj)`` on a temporary file beside ``target``, then rename it to ``target``.

    If ``write`` raises, the temporary file is removed and ``target`` is untouched.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            write(out)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
        tmp = None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass


def download_file(url: str, target: Path, sha256: str | None = None, *, skip_lines: int = 0,
             timeout: float = 60.0) -> None:
    """Download ``url`` (through :func:`source_url`) to ``target`` atomically.

    Parameters
    ----------
    url : str
        Public URL; :func:`source_url` applies the mirror.
    target : pathlib.Path
        Final path; written only when the download is complete and verified.
    sha256 : str or None
        Expected hex sha256 of the stored bytes (after ``skip_lines``); ``None`` when
        the caller verifies what it builds from the file.
    skip_lines : int, default 0
        Leading lines of the download not stored (a header the public copy adds).
    timeout : float, default 60
        Socket timeout in seconds.

    Raises
    ------
    DownloadError
        Network or HTTP failure, or the folder is not writable.
    ChecksumError
        The bytes do not have ``sha256``.
    """
    actual = source_url(url)

    def write(out):
        h = hashlib.sha256()
        try:
            with urllib.request.urlopen(actual, timeout=timeout) as resp:
                for _ in range(skip_lines):
                    resp.readline()
                for chunk in iter(lambda: resp.read(_CHUNK), b""):
                    h.update(chunk)
                    out.write(chunk)
        except urllib.error.HTTPError as exc:
            raise DownloadError(f"{actual}: HTTP {exc.code} {exc.reason}") from exc
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", None) or exc
            raise DownloadError(f"{actual}: {reason}") from exc
        if sha256 is not None and h.hexdigest() != sha256:
            via = f" (via {actual})" if actual != url else ""
            raise ChecksumError(
                f"checksum mismatch for {target.name!r} downloaded from {url}{via}: "
                f"expected sha256 {sha256}, got {h.hexdigest()}; the file was not saved")

    try:
        replace_atomically(target, write)
    except PermissionError as exc:
        raise DownloadError(f"cannot write into {target.parent} ({exc})") from exc


def _where() -> str:
    if os.environ.get(ENV_VAR):
        return f"the data folder {ENV_VAR}={data_home()}"
    return f"the data cache {data_home()} ({ENV_VAR} is not set)"


def missing(relpath: str, url: str, why: str) -> DataNotFoundError:
    """The error for a file that is not in the data home and could not be fetched.

    It names the file, the URL, ``SVMTEXT_DATA`` (and the mirror, when one is set).
    """
    mirror = os.environ.get(MIRROR_VAR)
    via = f" (requested through {MIRROR_VAR}={mirror})" if mirror and url.startswith("https://") else ""
    return DataNotFoundError(
        f"{relpath!r} is not in {_where()}, and {why}. It comes from {url}{via}. "
        f"Run `python -m svmtext.datasets fetch --all` once while online, or set {ENV_VAR} "
        f"to a folder that holds '{relpath}'.")


def fetch(relpath: str, *, download: bool = True, timeout: float = 60.0) -> Path:
    """Path of a data file in the data home, fetching it first if it is missing.

    Parameters
    ----------
    relpath : str
        Path relative to :func:`data_home`, e.g. ``"ionosphere/ionosphere.data"``;
        a key of ``REGISTRY`` (downloaded) or ``ASSEMBLED`` (built from downloads).
    download : bool, default True
        If False, never touch the network: a missing file raises at once.
    timeout : float, default 60
        Socket timeout in seconds for each download.

    Returns
    -------
    pathlib.Path
        Existing file.  A file already present is trusted as is (not re-hashed).

    Raises
    ------
    KeyError
        ``relpath`` is not registered.
    DataNotFoundError
        The file is missing and downloading is disabled or failed (e.g. offline).  The
        message names the file, the URL and ``SVMTEXT_DATA``.
    ChecksumError
        The downloaded bytes (or the arrays assembled from them) do not match the
        registered digest; nothing is written.
    """
    entry = _registry.REGISTRY.get(relpath) or _registry.ASSEMBLED.get(relpath)
    if entry is None:
        raise KeyError(f"unknown data file {relpath!r}")
    target = data_home() / relpath
    if target.is_file():
        return target
    if isinstance(entry, _registry.Assembled):
        from . import _ida

        url = _ida.sources_url(entry)
        if not download:
            raise missing(relpath, url, "downloading is disabled")
        try:
            _ida.assemble(relpath, entry, target, timeout=timeout)
        except DownloadError as exc:
            raise missing(relpath, url, f"downloading its sources failed ({exc})") from exc
        return target
    if not download:
        raise missing(relpath, entry.url, "downloading is disabled")
    try:
        download_file(entry.url, target, entry.sha256, skip_lines=entry.skip_lines,
                      timeout=timeout)
    except DownloadError as exc:
        raise missing(relpath, entry.url, f"downloading it failed ({exc})") from exc
    return target
