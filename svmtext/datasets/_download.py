"""Bytes from a URL into the data home, verified and written atomically.

The pieces that both :mod:`svmtext.datasets._fetch` (registered files) and
:mod:`svmtext.datasets._ida` (assembled files) use: the download mirror, sha256 of a
file (remembered by size and modification time), the atomic write, and the errors
with the advice that goes with them.

``$SVMTEXT_DOWNLOAD_MIRROR`` redirects every download: ``https://<host>/<path>`` is
fetched from ``$SVMTEXT_DOWNLOAD_MIRROR/<host>/<path>`` (a local copy of the public
sources, e.g. served by ``tools/public_mirror.py``).
"""
from __future__ import annotations

import contextlib
import errno
import hashlib
import http.client
import json
import os
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

__all__ = ["ChecksumError", "DownloadError", "sha256sum", "source_url", "mirror_path",
           "replace_atomically", "download_file", "MIRROR_VAR", "ENV_VAR"]

ENV_VAR = "SVMTEXT_DATA"
MIRROR_VAR = "SVMTEXT_DOWNLOAD_MIRROR"
_CHUNK = 1 << 20

#: errno values of a folder that cannot take the file: read-only filesystem, no
#: permission, no space left, quota exceeded.
UNWRITABLE = {errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOSPC, errno.EDQUOT}


class ChecksumError(OSError):
    """A data file's bytes (or the arrays assembled from them) differ from the registered
    digest.

    Raised for a download (nothing is written) and for a file already in the data home
    that was truncated, corrupted or edited and could not be replaced; the message names
    the file, both digests and the command that repairs it.
    """


class DownloadError(OSError):
    """One URL could not be downloaded or stored (offline, HTTP error, read-only or full
    folder)."""


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


_DIGESTS: dict[tuple, str] = {}


def _stat_key(path) -> tuple:
    st = os.stat(path)
    return (os.path.abspath(path), st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev)


def digest_store() -> Path:
    """File remembering verified digests across processes (by path, size, mtime, inode):
    ``$XDG_CACHE_HOME/svmtext/verified-digests.json`` (``~/.cache/...`` by default)."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache).expanduser() / "svmtext" / "verified-digests.json"


def remembered(key: tuple) -> str | None:
    """The digest recorded for ``key`` (:func:`_stat_key`) in this process or on disk."""
    if key not in _DIGESTS:
        try:
            stored = json.loads(digest_store().read_text()).get(json.dumps(key))
        except (OSError, ValueError, AttributeError):
            stored = None
        if stored is None:
            return None
        _DIGESTS[key] = stored
    return _DIGESTS[key]


def remember(key: tuple, digest: str) -> None:
    """Record ``digest`` for ``key``; the on-disk record is best effort (skipped when the
    cache folder is not writable)."""
    _DIGESTS[key] = digest
    store = digest_store()
    try:
        try:
            table = json.loads(store.read_text())
        except (OSError, ValueError):
            table = {}
        live = {k: v for k, v in table.items() if os.path.exists(json.loads(k)[0])}
        live[json.dumps(key)] = digest
        store.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".verified-", dir=store.parent)
        with os.fdopen(fd, "w") as out:
            json.dump(live, out)
        os.replace(tmp, store)
    except (OSError, ValueError, TypeError, IndexError):
        pass


def sha256sum(path: str | os.PathLike) -> str:
    """Hex sha256 of a file, read in 1 MiB chunks.

    Remembered (:func:`remember`) by the file's path, size, modification time and inode,
    so a file verified once is not hashed again by later loads or processes; any write to
    the file changes the key.
    """
    key = _stat_key(path)
    digest = remembered(key)
    if digest is None:
        h = hashlib.sha256()
        with open(path, "rb") as fh:
            for chunk in iter(lambda: fh.read(_CHUNK), b""):
                h.update(chunk)
        digest = h.hexdigest()
        remember(key, digest)
    return digest


def unwritable_advice(folder: Path, exc: OSError) -> str:
    """What to do when ``folder`` cannot take a file (read-only, no permission, full)."""
    why = exc.strerror or str(exc)
    return (f"cannot write into {folder} ({why}, errno {exc.errno}); set {ENV_VAR} to a "
            "writable folder with free space, or fill the data folder once where it is "
            "writable with `python -m svmtext.datasets fetch --all`")


def replace_atomically(target: Path, write) -> None:
    """Call ``write(fileobj)`` on a temporary file beside ``target``, then rename it to ``target``.

    If ``write`` raises (or the process is interrupted), the temporary file is removed and
    ``target`` is untouched. A folder that cannot take the file (read-only filesystem,
    no permission, disk full) raises :class:`DownloadError` saying what to do.
    """
    tmp = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
        with os.fdopen(fd, "wb") as out:
            write(out)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        if isinstance(exc, (DownloadError, ChecksumError)) or exc.errno not in UNWRITABLE:
            raise
        raise DownloadError(unwritable_advice(target.parent, exc)) from exc
    finally:
        if tmp is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)


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
        Network or HTTP failure, or the folder is read-only, not writable or full.
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
                if getattr(resp, "length", None):        # bytes promised, never sent
                    raise http.client.IncompleteRead(b"", resp.length)
        except urllib.error.HTTPError as exc:
            raise DownloadError(f"{actual}: HTTP {exc.code} {exc.reason}") from exc
        except urllib.error.URLError as exc:
            raise DownloadError(f"{actual}: {exc.reason}") from exc
        except http.client.HTTPException as exc:     # e.g. the connection dropped mid-file
            raise DownloadError(f"{actual}: the download was interrupted "
                                f"({type(exc).__name__}); retry") from exc
        except OSError as exc:
            if exc.errno in UNWRITABLE:
                raise DownloadError(unwritable_advice(target.parent, exc)) from exc
            raise DownloadError(f"{actual}: {exc}") from exc
        if sha256 is not None and h.hexdigest() != sha256:
            via = f" (via {actual})" if actual != url else ""
            raise ChecksumError(
                f"checksum mismatch for {target.name!r} downloaded from {url}{via}: "
                f"expected sha256 {sha256}, got {h.hexdigest()}; the file was not saved. "
                f"The download was incomplete or the source changed: retry; if "
                f"{MIRROR_VAR} is set, refresh the mirror's copy of {mirror_path(url)}")

    replace_atomically(target, write)
