"""``nn.Parameter``: a tensor that a ``Module`` registers as one of its parameters."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _messages as msg
from .._dtype import get_default_dtype
from ..tensor import Tensor, _init, _make

__all__ = ["Buffer", "Parameter"]


class Parameter(Tensor):
    """A leaf tensor that requires grad (by default) and is found by ``Module.parameters()``.

    It shares memory and version counter with the tensor it wraps, as torch's does.
    Operations on a Parameter return plain Tensors.
    """

    _is_param = True

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True) -> Parameter:
        if data is None:
            data = Tensor.__new__(Tensor)
            _init(data, np.empty((0,), dtype=get_default_dtype().np), get_default_dtype())
        if not isinstance(data, Tensor):
            raise TypeError(
                f"Parameter(): argument 'data' (position 1) must be Tensor, not "
                f"{type(data).__name__}"
            )
        if requires_grad and not data.dtype.is_floating_point:
            raise RuntimeError(msg.FACTORY_REQUIRES_GRAD)
        p = Tensor.__new__(cls)
        _init(p, data._data, data.dtype, data._storage, data._vc)
        p._rg = bool(requires_grad)
        return p

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        pass  # everything happens in __new__ (Tensor.__init__ is the legacy constructor)

    def __repr__(self, *, tensor_contents: Any = None) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, proto: int) -> Any:
        return (_rebuild_parameter, (_make(self._data.copy(), self.dtype, None), self._rg))


Parameter.__module__ = "torch.nn.parameter"  # ``type(p)`` prints as with torch


def _rebuild_parameter(data: Tensor, requires_grad: bool) -> Parameter:
    return Parameter(data, requires_grad)


class Buffer:
    """``nn.Buffer(tensor)``: marks a tensor to be registered as a module buffer."""

    def __init__(self, data: Tensor, *, persistent: bool = True) -> None:
        self.data, self.persistent = data, persistent
