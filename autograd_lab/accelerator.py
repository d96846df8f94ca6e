"""``torch.accelerator`` with no accelerator: code picks ``"cpu"``."""

from __future__ import annotations

__all__ = ["current_accelerator", "device_count", "is_available"]


def is_available() -> bool:
    """Whether an accelerator (CUDA, MPS, ...) can be used: never, here."""
    return False


def current_accelerator(check_available: bool = False) -> None:
    """The accelerator's device: None, as there is none."""
    return None


def device_count() -> int:
    return 0

for _f in (is_available, current_accelerator, device_count):
    _f.__module__ = "torch.accelerator"
