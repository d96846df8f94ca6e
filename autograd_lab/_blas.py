"""``y += a * x`` in one pass: the BLAS ``axpy`` that numpy's own OpenBLAS ships but numpy has no
ufunc for.

numpy spells the update as two passes (``a * x`` into a buffer, then ``y += buffer``): four
array-sized reads and writes against axpy's three. An optimizer's step on a large parameter is
that update, and memory-bound, so the extra pass is a third of its time. OpenBLAS's kernels fuse
the multiply and add (FMA), as torch's ``add_(x, alpha=a)`` does, so the result also rounds
as torch's.

The library is the one bundled with numpy's wheels (``numpy.libs/libscipy_openblas64_*``, the
64-bit-integer interface). Anywhere else -- a numpy built against another BLAS, another
platform -- ``axpy`` declines and callers keep numpy's two passes.

Layer: basics (imports numpy and ``_fma``).
"""

from __future__ import annotations

import ctypes
import glob
import os
from typing import Any, Callable

import numpy as np

from ._fma import fma32

_SYMBOLS = {np.dtype(np.float32): "scipy_cblas_saxpy64_",
            np.dtype(np.float64): "scipy_cblas_daxpy64_"}
_CTYPES = {np.dtype(np.float32): ctypes.c_float, np.dtype(np.float64): ctypes.c_double}


def numpy_openblas() -> str | None:
    """The path of the OpenBLAS numpy's wheels ship (``numpy.libs/libscipy_openblas64_*``),
    or None."""
    libs = os.path.join(os.path.dirname(os.path.dirname(np.__file__)), "numpy.libs")
    found = sorted(glob.glob(os.path.join(libs, "libscipy_openblas64_*.so")))
    return found[0] if found else None


def _load() -> dict[np.dtype, Callable] | None:
    """numpy's OpenBLAS axpy kernels by dtype, or None where numpy ships no such library."""
    path = numpy_openblas()
    if path is None:
        return None
    try:
        lib = ctypes.CDLL(path)
        kernels = {}
        for dt, name in _SYMBOLS.items():
            fn = getattr(lib, name)
            fn.argtypes = [ctypes.c_int64, _CTYPES[dt], ctypes.c_void_p, ctypes.c_int64,
                           ctypes.c_void_p, ctypes.c_int64]
            fn.restype = None
            kernels[dt] = fn
    except (OSError, AttributeError):
        return None
    return kernels


def _fused(kernels: dict[np.dtype, Callable]) -> bool:
    """Whether the kernel rounds each element once (a CPU without FMA runs another kernel):
    checked on 67 elements where one rounding and two differ in the vector body and its tail
    (elements 0, 9, 12, 15, 26 and 66)."""
    k = np.arange(1, 68, dtype=np.float32)
    x, y = np.sqrt(k * np.float32(2)), k / np.float32(7)
    a = np.float32(-0.1)
    out = y.copy()
    kernels[out.dtype](out.size, a, x.ctypes.data, 1, out.ctypes.data, 1)
    return bool(np.array_equal(out.view(np.uint32), fma32(a, x, y).view(np.uint32)))


_KERNELS = _load()
if _KERNELS is not None and not _fused(_KERNELS):
    _KERNELS = None


def address(a: np.ndarray) -> int:
    """Where ``a``'s data starts (a third of the cost of ``a.ctypes.data``, which builds an
    object per call; that stays for what exports no writable buffer: read-only, empty)."""
    try:
        return ctypes.addressof(ctypes.c_char.from_buffer(a))
    except (TypeError, ValueError):
        return a.ctypes.data


def _kernel(a: Any, x: np.ndarray, y: np.ndarray) -> Callable | None:
    """The kernel for ``a * x + y``: ``a`` a number, ``x`` C-contiguous, both of one float
    dtype and shape; else None."""
    if _KERNELS is None or (type(a) is np.ndarray and a.ndim):
        return None
    fn = _KERNELS.get(y.dtype)
    if fn is None or x.dtype != y.dtype or x.shape != y.shape or not x.flags.c_contiguous:
        return None
    return fn


def axpy(a: Any, x: np.ndarray, y: np.ndarray) -> bool:
    """``y += a * x`` in place, each element rounded once; False (nothing done) unless the
    kernel applies (``_kernel``), ``y`` is C-contiguous and writable, and the two are apart in
    memory."""
    fn = _kernel(a, x, y)
    if (fn is None or not y.flags.c_contiguous or not y.flags.writeable
            or np.may_share_memory(x, y)):
        return False
    fn(y.size, a, address(x), 1, address(y), 1)
    return True


def axpy_copy(a: Any, x: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """``a * x + y`` in a new array, each element rounded once; None where the kernel does not
    apply (``_kernel``)."""
    fn = _kernel(a, x, y)
    if fn is None:
        return None
    out = np.array(y, order="C")
    fn(out.size, a, address(x), 1, address(out), 1)
    return out
