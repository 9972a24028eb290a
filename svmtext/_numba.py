r"""numba, configured once for the package: every compiled module imports it from here.

numba caches compiled functions (``cache=True``) next to their source, in
``__pycache__``, unless ``NUMBA_CACHE_DIR`` names another folder. An installed
package may be read-only, and compiled files do not belong in the source tree, so
this module points the cache at the user's cache folder,
``$XDG_CACHE_HOME/svmtext/numba`` (default ``~/.cache/svmtext/numba``), before numba
reads its configuration -- or, if numba was imported earlier, makes it read the
configuration again. A ``NUMBA_CACHE_DIR`` set by the user is kept.

Import :data:`njit` (and :data:`prange`) from this module, never from numba directly.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["CACHE_DIR", "njit", "prange", "jit"]

CACHE_DIR = os.environ.get("NUMBA_CACHE_DIR") or str(
    Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "svmtext" / "numba")

if os.environ.get("NUMBA_CACHE_DIR") != CACHE_DIR:
    os.environ["NUMBA_CACHE_DIR"] = CACHE_DIR
    if "numba" in sys.modules:              # configured already: read the variable again
        from numba.core import config as _config
        _config.reload_config()

from numba import njit, prange  # noqa: E402

jit = njit(cache=True)
"""The package's default decorator: compiled, cached in :data:`CACHE_DIR`."""
