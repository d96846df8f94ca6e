"""How a ``DataLoader`` turns a list of samples into a batch (torch's ``default_collate``).

Tensors are stacked along a new first dim; Python floats become a float64 tensor, ints an
int64 one (bools a bool one); numpy arrays and scalars become tensors; strings stay a list;
a dict is collated key by key, a namedtuple field by field, and a tuple or list of fields
position by position (a tuple gives a list, as in torch).
"""

from __future__ import annotations

import collections.abc as abc
from typing import Any

import numpy as np

from ... import _dtype
from ...factories import as_tensor, tensor
from ...ops import stack
from ...tensor import Tensor

__all__ = ["default_collate", "default_convert"]

ERR = ("default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
       "found {}")


def _bad_numpy(arr: np.ndarray) -> bool:
    return arr.dtype.kind in "SaUO"


def default_collate(batch: Any) -> Any:
    """One batch from a list of samples (see the module docstring)."""
    elem = batch[0]
    elem_type = type(elem)
    if isinstance(elem, Tensor):
        return stack(list(batch), 0)
    if elem_type.__module__ == "numpy" and elem_type.__name__ not in ("str_", "string_"):
        if isinstance(elem, np.ndarray) or elem_type.__name__ == "memmap":
            if _bad_numpy(elem):
                raise TypeError(ERR.format(elem.dtype))
            return default_collate([as_tensor(b) for b in batch])
        if elem.shape == ():
            return as_tensor(np.array(batch))
    if isinstance(elem, float):
        return tensor(batch, dtype=_dtype.float64)
    if isinstance(elem, int):
        return tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, abc.Mapping):
        collated = {key: default_collate([d[key] for d in batch]) for key in elem}
        try:
            return elem_type(collated)
        except TypeError:
            return collated
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # namedtuple
        return elem_type(*(default_collate(s) for s in zip(*batch)))
    if isinstance(elem, abc.Sequence):
        it = iter(batch)
        size = len(next(it))
        if not all(len(e) == size for e in it):
            raise RuntimeError("each element in list of batch should be of equal size")
        transposed = list(zip(*batch))
        if isinstance(elem, tuple):
            return [default_collate(s) for s in transposed]
        try:
            return elem_type([default_collate(s) for s in transposed])
        except TypeError:
            return [default_collate(s) for s in transposed]
    raise TypeError(ERR.format(elem_type))


def default_convert(data: Any) -> Any:
    """A sample as a ``DataLoader`` with ``batch_size=None`` gives it: numpy to tensors."""
    elem_type = type(data)
    if isinstance(data, Tensor):
        return data
    if isinstance(data, np.ndarray):
        return data if _bad_numpy(data) else as_tensor(data)
    if isinstance(data, np.generic):
        return as_tensor(data)
    if isinstance(data, abc.Mapping):
        try:
            return elem_type({k: default_convert(v) for k, v in data.items()})
        except TypeError:
            return {k: default_convert(v) for k, v in data.items()}
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return elem_type(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, abc.Sequence) and not isinstance(data, (str, bytes)):
        try:
            return elem_type([default_convert(d) for d in data])
        except TypeError:
            return [default_convert(d) for d in data]
    return data


default_collate.__module__ = default_convert.__module__ = "torch.utils.data._utils.collate"
