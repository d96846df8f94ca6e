"""Memory accounting: bytes of live tensor storage.

Every tensor's buffer is owned by a ``Storage``. Views, ``detach()`` and
``.data`` share their source's storage, so shared memory is counted once.
Values saved for backward keep their storage alive, and so are counted until
backward frees them -- which is what the memory notebook measures.
"""

from __future__ import annotations


class _Counter:
    """Bytes allocated now, and the most ever since the last reset."""

    __slots__ = ("allocated", "peak")

    def __init__(self) -> None:
        self.allocated = 0
        self.peak = 0


_MEM = _Counter()


class Storage:
    """One buffer's bytes, counted while any tensor or saved value refers to it.

    It also carries the buffer's version counter (``t._vc``), which views and
    ``detach()`` share; ``.data`` gets a fresh counter (a ``Storage(0)``).
    """

    # ``views``: weak references to the views recorded on this counter (set on the first),
    # whose nodes an in-place change through any alias regenerates
    __slots__ = ("nbytes", "version", "views")

    def __init__(self, nbytes: int) -> None:
        self.nbytes = nbytes
        self.version = 0
        m = _MEM
        m.allocated += nbytes
        if m.allocated > m.peak:
            m.peak = m.allocated

    def __del__(self) -> None:
        _MEM.allocated -= self.nbytes

    # the version-counter protocol: ``vc[0]`` reads, ``vc[0] += 1`` bumps
    def __getitem__(self, i: int) -> int:
        return self.version

    def __setitem__(self, i: int, value: int) -> None:
        self.version = value


def memory_allocated(device: object = None) -> int:
    """Bytes of tensor storage alive now (saved tensors included)."""
    return _MEM.allocated


def max_memory_allocated(device: object = None) -> int:
    """The highest ``memory_allocated()`` since the last reset."""
    return _MEM.peak


def reset_peak_memory_stats(device: object = None) -> None:
    """Start measuring ``max_memory_allocated()`` again from now."""
    _MEM.peak = _MEM.allocated
