"""The measuring environment: one thread everywhere, optional PyTorch, heap usage."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from types import ModuleType

THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def single_thread() -> None:
    """One BLAS/OpenMP thread, here and in child processes.

    Call it before numpy is imported: BLAS libraries read the variables once, when they load.
    """
    for var in THREAD_VARS:
        os.environ[var] = "1"

MB = 1e6  # decimal megabytes: 1,000,000 float32 values are 4 MB


def load_torch() -> ModuleType | None:
    """PyTorch limited to one thread, or None when it is not installed."""
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(1)
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:  # only allowed before any inter-op work started
        pass
    if torch.get_num_threads() != 1:
        raise RuntimeError(f"torch runs {torch.get_num_threads()} threads, not 1")
    return torch


def describe(torch: ModuleType | None = None,
             autograd_lab: ModuleType | None = None) -> dict[str, object]:
    """What runs the arithmetic in this process: numpy's BLAS (through threadpoolctl when it
    is installed) and its thread count, torch's intra-/inter-op thread counts, and the kernels
    of autograd_lab's large float32 products."""
    env: dict[str, object] = {}
    if autograd_lab is not None:
        from autograd_lab import _gemm

        env["gemm"] = ("OpenBLAS's Haswell kernels (a private copy)" if _gemm.in_use()
                       else "numpy's")
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        env["blas"] = "threadpoolctl not installed (pip install threadpoolctl)"
    else:
        import numpy  # noqa: F401  (loads the BLAS whose pools are listed)

        env["blas"] = [
            f"{p.get('internal_api')} {p.get('version') or ''} "
            f"[{os.path.basename(p.get('filepath', '?'))}"
            f"{', ' + p['architecture'] if p.get('architecture') else ''}], "
            f"{p.get('num_threads')} thread(s)"
            for p in threadpool_info() if p.get("user_api") in ("blas", "openmp")
        ]
    if torch is not None:
        env["torch_threads"] = torch.get_num_threads()
        env["torch_interop_threads"] = torch.get_num_interop_threads()
    return env


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
        "uordblks", "fordblks", "keepcost",
    )]


def _mallinfo2() -> object | None:
    path = ctypes.util.find_library("c")
    if path is None:
        return None
    try:
        fn = ctypes.CDLL(path).mallinfo2
    except (OSError, AttributeError):  # not glibc, or glibc < 2.33
        return None
    fn.restype = _MallInfo2
    return fn


_MALLINFO2 = _mallinfo2()


def heap_bytes() -> int | None:
    """Bytes handed out by malloc and still in use (glibc), or None elsewhere.

    numpy and PyTorch both allocate tensor buffers with malloc, so the difference
    of two readings is the memory a piece of code keeps alive, whichever library
    holds it. (Process RSS would not do: freed heap memory is not always returned.)
    """
    if _MALLINFO2 is None:
        return None
    info = _MALLINFO2()
    return info.uordblks + info.hblkhd
