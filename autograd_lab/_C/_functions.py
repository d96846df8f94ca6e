"""``torch._C._functions``: the engine's built-in node types."""

from ..node import AccumulateGrad

__all__ = ["AccumulateGrad"]
