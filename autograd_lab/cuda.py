"""``torch.cuda`` as a CPU-only build of torch has it: nothing is available.

So that ``device = "cuda" if torch.cuda.is_available() else "cpu"`` picks the CPU, and code
that touches a GPU anyway gets torch's error.
"""

from __future__ import annotations

from typing import Any

from ._device import NO_CUDA

__all__ = ["current_device", "device_count", "empty_cache", "get_device_name",
           "is_available", "is_initialized", "manual_seed", "manual_seed_all",
           "max_memory_allocated", "memory_allocated", "synchronize"]


def is_available() -> bool:
    """Whether CUDA can be used: never, here."""
    return False


def device_count() -> int:
    """The number of GPUs: 0."""
    return 0


def is_initialized() -> bool:
    return False


def manual_seed(seed: int) -> None:
    """Seeding the (absent) GPUs does nothing, as in torch."""


def manual_seed_all(seed: int) -> None:
    """Seeding the (absent) GPUs does nothing, as in torch."""


def memory_allocated(device: Any = None) -> int:
    return 0


def max_memory_allocated(device: Any = None) -> int:
    return 0


def empty_cache() -> None:
    """Nothing to release."""


def _no_cuda(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError(NO_CUDA)


current_device = get_device_name = synchronize = _no_cuda

for _f in (is_available, device_count, is_initialized, manual_seed, manual_seed_all,
           memory_allocated, max_memory_allocated, empty_cache):
    _f.__module__ = "torch.cuda"
