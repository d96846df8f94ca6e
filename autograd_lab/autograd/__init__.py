"""``torch.autograd``: run backward, take gradients, observe the engine."""

from __future__ import annotations

from ..engine import backward, grad
from ..grad_mode import enable_grad, no_grad, set_grad_enabled
from . import function, functional, graph
from .function import Function
from .gradcheck import gradcheck, gradgradcheck

__all__ = ["Function", "backward", "enable_grad", "function", "functional", "grad",
           "gradcheck", "gradgradcheck", "graph", "no_grad", "set_grad_enabled"]


def set_detect_anomaly(mode: bool, check_nan: bool = True) -> None:
    """Accepted for compatibility; this engine's errors already name the failing op."""
