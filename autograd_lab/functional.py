"""``torch.functional``: ``meshgrid``.

``meshgrid(x, y, indexing='ij')`` views each 1-D input as a column along its own dim and
expands it to the grid: ``X[i, j] = x[i]``, ``Y[i, j] = y[j]`` (``ExpandBackward0`` on
``ViewBackward0``). ``indexing='xy'`` swaps the first two dims (``X[j, i] = x[i]``), as
``numpy.meshgrid``.
"""

from __future__ import annotations

from typing import Any

from . import _messages as msg
from .tensor import Tensor

__all__ = ["meshgrid"]

MESHGRID_INDEXING = ("torch.meshgrid: in an upcoming release, it will be required to pass the "
                     "indexing argument.")


def meshgrid(*tensors: Any, indexing: str | None = None) -> tuple[Tensor, ...]:
    """Coordinate grids from 0-d or 1-d tensors (see the module docstring)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        msg.warn_once(MESHGRID_INDEXING)
        indexing = "ij"
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors:
        if t.dim() > 1:
            raise RuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but "
                               f"got: {t}")
    if any(t.dtype is not tensors[0].dtype for t in tensors):
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    if indexing not in ("ij", "xy"):
        raise RuntimeError('torch.meshgrid: indexing must be one of "xy" or "ij", but received: '
                           f"{indexing}")
    swap = indexing == "xy" and len(tensors) >= 2
    order = list(tensors)
    if swap:
        order[0], order[1] = order[1], order[0]
    shape = [t.numel() for t in order]
    grids = []
    for i, t in enumerate(order):
        view = [1] * len(order)
        view[i] = -1
        grids.append(t.view(view).expand(shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)
