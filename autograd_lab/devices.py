"""Devices on the Tensor: ``t.device`` is a ``torch.device`` (``device(type='cpu')``), which
compares as torch's does (equal to ``torch.device('cpu')``, never to the string ``'cpu'``)."""

from __future__ import annotations

from ._device import CPU, device, get_default_device, set_default_device
from .tensor import Tensor

__all__ = ["device", "get_default_device", "set_default_device"]


def _device(self: Tensor) -> device:
    """The device the tensor lives on: the CPU."""
    return CPU


def _get_device(self: Tensor) -> int:
    """``-1``: the index torch gives a CPU tensor."""
    return -1


Tensor.device = property(_device)  # type: ignore[assignment,method-assign]
Tensor.is_cpu = property(lambda self: True)  # type: ignore[attr-defined]
Tensor.get_device = _get_device  # type: ignore[attr-defined]
