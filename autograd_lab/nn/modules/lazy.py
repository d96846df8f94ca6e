"""``LazyLinear``: a ``Linear`` whose ``in_features`` is read from its first input.

Until then its weight and bias are ``UninitializedParameter`` objects (no data). The first
call sets ``in_features``, gives the parameters their shapes (the same objects, so an
optimizer made earlier keeps them), initialises them as ``Linear`` does -- drawing the same
random numbers -- and turns the module into a plain ``Linear``, as torch's lazy modules do.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._dtype import get_default_dtype
from ...tensor import Tensor, _init
from ..parameter import Parameter
from .linear import Linear
from .module import Module

__all__ = ["LazyLinear", "UninitializedParameter"]


class UninitializedParameter(Parameter):
    """A parameter whose shape is not known yet; ``materialize(shape)`` gives it one."""

    cls_to_become = Parameter

    def __new__(cls, requires_grad: bool = True, device: Any = None,
                dtype: Any = None) -> UninitializedParameter:
        dt = dtype or get_default_dtype()
        p = Tensor.__new__(cls)
        _init(p, np.empty((0,), dtype=dt.np), dt)
        p._rg = bool(requires_grad)
        return p

    def __init__(self, requires_grad: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        pass

    def __repr__(self, *, tensor_contents: Any = None) -> str:
        return "<UninitializedParameter>"

    def materialize(self, shape: Any, device: Any = None, dtype: Any = None) -> None:
        """Give the parameter (uninitialised) data of ``shape``; it becomes a Parameter."""
        dt = dtype or self.dtype
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        rg = self._rg
        _init(self, np.empty(shape, dtype=dt.np), dt)
        self._rg = rg
        self.__class__ = self.cls_to_become


UninitializedParameter.__module__ = "torch.nn.parameter"


class LazyLinear(Linear):
    """``Linear(in_features, out_features)`` with ``in_features`` taken from the first input."""

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        Module.__init__(self)
        self.in_features = 0
        self.out_features = out_features
        self.weight = UninitializedParameter(dtype=dtype)
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)
        else:
            self.register_parameter("bias", None)
        self._lazy_hook = self.register_forward_pre_hook(LazyLinear._infer_parameters)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def has_uninitialized_params(self) -> bool:
        return any(isinstance(p, UninitializedParameter)
                   for p in (self.weight, self.bias) if p is not None)

    def initialize_parameters(self, input: Tensor) -> None:
        """Shape the parameters from ``input`` and draw their initial values."""
        if self.has_uninitialized_params():
            self.in_features = input.shape[-1]
            self.weight.materialize((self.out_features, self.in_features))
            if self.bias is not None:
                self.bias.materialize((self.out_features,))
            self.reset_parameters()

    @staticmethod
    def _infer_parameters(module: LazyLinear, args: tuple) -> None:
        module.initialize_parameters(*args)
        module._lazy_hook.remove()
        del module._lazy_hook
        module.__class__ = module.cls_to_become
