"""Locate a data file; on first use, download it (sha256-verified) or assemble it.

The data home is ``$SVMTEXT_DATA`` when that variable is set, otherwise a per-user
cache directory (``$XDG_CACHE_HOME/svmtext``, or ``~/.cache/svmtext``).  Inside it the
layout is ``<dataset>/<file>`` (for example ``mnist/t10k-labels-idx1-ubyte.gz``).
Files are read from the data home; a missing one is fetched into it, so
``SVMTEXT_DATA`` may name an empty folder. Every load re-verifies the file (sha256 of a
registered file, the array digests of an assembled one; the result is remembered by the
file's size and modification time): a truncated, corrupted or edited file is fetched
again, or refused with its path, both digests and the command that repairs it.

A registered file (:data:`svmtext.datasets._registry.REGISTRY`) is downloaded from its
pinned URL into a temporary file in the target folder and moved into place with
:func:`os.replace` only after its sha256 matched, so the data home never holds a
partial or corrupt file.  An assembled file
(:data:`svmtext.datasets._registry.ASSEMBLED`) is built from its downloaded sources by
:mod:`svmtext.datasets._ida` and written the same way.

``$SVMTEXT_DOWNLOAD_MIRROR`` redirects every download: ``https://<host>/<path>`` is
fetched from ``$SVMTEXT_DOWNLOAD_MIRROR/<host>/<path>`` (a local copy of the public
sources, e.g. served by ``tools/public_mirror.py``; :mod:`svmtext.datasets._download`).
"""
from __future__ import annotations

import os
from pathlib import Path

from . import _ida, _registry
from ._download import (ENV_VAR, MIRROR_VAR, ChecksumError, DownloadError, download_file,
                        mirror_path, replace_atomically, sha256sum, source_url)

__all__ = ["data_home", "fetch", "sha256sum", "source_url", "DataNotFoundError", "ChecksumError",
           "DownloadError", "mirror_path", "replace_atomically", "verify"]


class DataNotFoundError(FileNotFoundError):
    """A data file is missing from the data home and could not be fetched."""


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


def _repair_command(relpath: str) -> str:
    name = next((n for n, files in _registry.DATASETS.items() if relpath in files), None)
    return f"python -m svmtext.datasets fetch {name or '--all'}"


def verify(relpath: str, target: Path) -> None:
    """Raise :class:`ChecksumError` unless ``target`` holds the registered content of ``relpath``.

    A downloaded file must have its registered sha256; an assembled ``.npz`` must load
    and each array must have its registered digest (:func:`svmtext.datasets._ida.verify`).
    The message names the file, the expected and actual digests and the command that
    repairs it.
    """
    entry = _registry.REGISTRY.get(relpath)
    if entry is not None:
        actual = sha256sum(target)
        if actual == entry.sha256:
            return
        why = f"its sha256 is {actual}, the registered one is {entry.sha256}"
    else:
        why = _ida.verify(target, _registry.ASSEMBLED[relpath])
        if why is None:
            return
    raise ChecksumError(
        f"{target} is truncated, corrupted or was edited: {why}. Repair it: delete the file "
        f"and run `{_repair_command(relpath)}` while online (it downloads and verifies a "
        f"fresh copy), or copy a good '{relpath}' into {_where()}")


def fetch(relpath: str, *, download: bool = True, timeout: float = 60.0) -> Path:
    """Path of a verified data file in the data home, fetching it first if needed.

    Parameters
    ----------
    relpath : str
        Path relative to :func:`data_home`, e.g. ``"ionosphere/ionosphere.data"``;
        a key of ``REGISTRY`` (downloaded) or ``ASSEMBLED`` (built from downloads).
    download : bool, default True
        If False, never touch the network: a missing file raises at once, and so does a
        file that fails verification.
    timeout : float, default 60
        Socket timeout in seconds for each download.

    Returns
    -------
    pathlib.Path
        Existing file with the registered content. A file already present is verified
        (:func:`verify`; the digest is remembered by size and modification time) and
        fetched again, atomically, if it fails.

    Raises
    ------
    KeyError
        ``relpath`` is not registered.
    DataNotFoundError
        The file is missing and downloading is disabled or failed (e.g. offline).  The
        message names the file, the URL and ``SVMTEXT_DATA``.
    ChecksumError
        The downloaded bytes (or the arrays assembled from them) do not match the
        registered digest (nothing is written); or the file in the data home fails
        verification and could not be replaced (the message names both digests and the
        command that repairs it).
    """
    entry = _registry.REGISTRY.get(relpath) or _registry.ASSEMBLED.get(relpath)
    if entry is None:
        raise KeyError(f"unknown data file {relpath!r}")
    target = data_home() / relpath
    if target.is_file():
        try:
            verify(relpath, target)
            return target
        except ChecksumError as bad:
            if not download:
                raise
            try:
                _get(relpath, entry, target, timeout)
            except (DataNotFoundError, ChecksumError) as exc:
                raise ChecksumError(f"{bad} (fetching it again failed: {exc})") from exc
            return target
    _get(relpath, entry, target, timeout, download=download)
    return target


def _get(relpath, entry, target, timeout, download=True):
    """Download (or assemble) ``relpath`` into ``target``, verified, atomically."""
    if isinstance(entry, _registry.Assembled):
        url = _ida.sources_url(entry)
        if not download:
            raise missing(relpath, url, "downloading is disabled")
        try:
            pool = None if entry.pool is None else fetch(entry.pool, timeout=timeout)
            _ida.assemble(relpath, entry, target, pool=pool, timeout=timeout)
        except (DownloadError, DataNotFoundError) as exc:
            raise missing(relpath, url, f"downloading its sources failed ({exc})") from exc
        return
    if not download:
        raise missing(relpath, entry.url, "downloading is disabled")
    try:
        download_file(entry.url, target, entry.sha256, skip_lines=entry.skip_lines,
                      timeout=timeout)
    except DownloadError as exc:
        raise missing(relpath, entry.url, f"downloading it failed ({exc})") from exc
