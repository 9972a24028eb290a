"""Peak resident memory of a block of code, from ``/proc/self`` (Linux).

The kernel keeps the high-water mark of the resident set (``VmHWM`` in
``/proc/self/status``); writing ``5`` to ``/proc/self/clear_refs`` resets it to the
current resident size, so the peak of a block is ``VmHWM`` after it minus ``VmRSS``
before it. Where ``/proc`` is missing the peak is reported as ``None``.

The kernel raises ``VmHWM`` lazily (when pages are unmapped, and on reading, to the
resident size then), so memory a block frees before its end is counted only where the
kernel raised the mark before the free; memory still held at the end is always
counted. The mark is the process's: blocks measured at once in threads of one process
share it (run them in processes, as joblib's default backend does).
"""
from __future__ import annotations

import time

__all__ = ["status_kb", "reset_peak", "Meter"]


def status_kb(key) -> int | None:
    """The value in kB of ``key`` (``VmRSS``, ``VmHWM``) in ``/proc/self/status``, or None."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def reset_peak() -> bool:
    """Reset the high-water mark to the current resident size; False where unsupported."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


class Meter:
    """Wall time (``seconds``), CPU time of the process (``cpu_seconds``) and peak
    resident memory above the start of a block (``peak_mb``, MB; None where ``/proc``
    cannot tell)."""

    def __enter__(self):
        self.ok = reset_peak()
        self.rss0 = status_kb("VmRSS")
        self.t0, self.c0 = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self.t0
        self.cpu_seconds = time.process_time() - self.c0
        hwm = status_kb("VmHWM")
        self.peak_mb = (None if not (self.ok and hwm and self.rss0)
                        else (hwm - self.rss0) / 1024)
