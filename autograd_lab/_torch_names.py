"""Torch fidelity: classes that print under PyTorch's names.

``type(y.grad_fn)`` prints ``<class 'MulBackward0'>`` in torch (its nodes are C++ classes
without a Python module) and a custom Function's node ``<class
'torch.autograd.function.MyFnBackward'>``; a few errors are of a class of our own that
must print as Python's ``TypeError``.
"""

from __future__ import annotations


def as_torch_node_class(cls: type) -> None:
    """Give a node class the module torch's node classes show."""
    custom = cls.__module__.endswith("autograd.function")
    cls.__module__ = "torch.autograd.function" if custom else "builtins"


def as_builtin_error(cls: type, name: str) -> type:
    """Make an exception subclass print as the builtin ``name`` (``TypeError``)."""
    cls.__name__ = cls.__qualname__ = name
    cls.__module__ = "builtins"
    return cls
