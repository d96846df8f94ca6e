"""Scratch buffers for kernel temporaries that never leave the kernel.

A training loop runs the same kernels on the same shapes step after step. A temporary of a
few hundred kilobytes or more, allocated and freed every step, is handed back to the
kernel by glibc and faulted in again page by page on the next step (or cleared again by
``calloc``). Kernels that own a temporary's whole lifetime take it from here instead: one
buffer per (call site, shape, dtype), kept for the next call.

Rules that keep this invisible:

* only for arrays a kernel writes and reads itself and drops before it returns: never a
  result, a saved tensor or a gradient (those go to the user, hooks or the graph);
* one buffer per call site (``site``), so two kernels never share one, and per thread
  (numpy releases the GIL inside its loops: two threads would write one buffer at once);
* bounded: past ``MAX_BYTES`` in one thread the cache is emptied and starts again.
"""

from __future__ import annotations

from _thread import _local as _thread_local  # ``threading.local`` itself, without ``threading``

import numpy as np

MAX_BYTES = 64 << 20  # per thread; a few buffers per shape a loop uses

_local = _thread_local()


def scratch(site: str, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """An uninitialised C-contiguous array of ``shape`` and ``dtype`` owned by ``site``
    (the same array on every call with the same arguments in this thread)."""
    cache = getattr(_local, "cache", None)
    if cache is None:
        cache = _local.cache = {}
        _local.nbytes = 0
    key = (site, shape, dtype)
    buf = cache.get(key)
    if buf is None:
        buf = np.empty(shape, dtype)
        if _local.nbytes + buf.nbytes > MAX_BYTES:
            cache.clear()
            _local.nbytes = 0
        if buf.nbytes <= MAX_BYTES:
            cache[key] = buf
            _local.nbytes += buf.nbytes
    return buf


def clear() -> None:
    """Drop this thread's scratch buffers."""
    cache = getattr(_local, "cache", None)
    if cache is not None:
        cache.clear()
        _local.nbytes = 0


def held_bytes() -> int:
    """Bytes of scratch buffers this thread holds."""
    return getattr(_local, "nbytes", 0)
