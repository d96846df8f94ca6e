"""``torch.autograd``: run backward, take gradients, observe the engine."""

from __future__ import annotations

from .. import anomaly_mode
from ..anomaly_mode import detect_anomaly, set_detect_anomaly
from ..engine import backward, grad
from ..grad_mode import enable_grad, no_grad, set_grad_enabled
from . import graph
from .gradcheck import gradcheck, gradgradcheck  # eager: the function shadows its module's name

__all__ = ["Function", "anomaly_mode", "backward", "detect_anomaly", "enable_grad", "function",
           "functional", "grad", "gradcheck", "gradgradcheck", "graph", "no_grad",
           "set_detect_anomaly", "set_grad_enabled", "Variable", "variable"]


# Imported on first use: keeps ``import autograd_lab`` fast.
_LAZY = {"Function": ("function", "Function"), "function": ("function", None),
         "functional": ("functional", None),
         "Variable": ("variable", "Variable"), "variable": ("variable", None)}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        mod = importlib.import_module(f".{module}", __name__)
        return mod if attr is None else getattr(mod, attr)
    raise AttributeError(f"module 'autograd_lab.autograd' has no attribute '{name}'")

