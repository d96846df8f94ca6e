"""``torch._C`` as teaching code reaches into it: ``torch._C._functions.AccumulateGrad`` is
the type of the nodes that add gradients into leaves."""

from . import _functions

__all__ = ["_functions"]
