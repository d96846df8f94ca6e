"""``torch.autograd.Variable``: the pre-0.4 wrapper, kept as torch keeps it.

``Variable(t, requires_grad=True)`` gives a plain Tensor (``t.detach()``, sharing its data and
version counter, with ``requires_grad`` set), and ``isinstance(x, Variable)`` holds for every
Tensor.
"""

from __future__ import annotations

import warnings
from typing import Any

from .. import _messages as msg
from ..factories import tensor as _tensor
from ..tensor import Tensor

__all__ = ["Variable"]


class _VariableMeta(type):
    def __instancecheck__(cls, other: Any) -> bool:
        return isinstance(other, Tensor)


class Variable(metaclass=_VariableMeta):
    """Makes Tensors; ``Variable(data, requires_grad=False, volatile=False)``."""

    def __new__(cls, data: Any = None, requires_grad: bool = False,  # type: ignore[misc]
                volatile: bool = False) -> Tensor:
        if volatile:
            warnings.warn("volatile was removed and now has no effect. Use `with "
                          "torch.no_grad():` instead.", UserWarning, stacklevel=2)
        if data is None:
            data = _tensor([])
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        out = data.detach()
        if requires_grad:
            if not out.dtype.is_floating_point:
                raise RuntimeError(msg.FACTORY_REQUIRES_GRAD)
            out.requires_grad_(True)
        return out


Variable.__module__ = "torch.autograd.variable"
