"""``torch.nn``: layers (``Module`` and friends), ``Parameter``, ``functional`` and ``init``."""

from . import functional, init
from .modules import (
    CrossEntropyLoss, Flatten, Identity, Linear, LogSoftmax, Module, ModuleList, MSELoss,
    NLLLoss, ReLU, Sequential, Sigmoid, Softmax, Tanh,
)
from .parameter import Buffer, Parameter

__all__ = ["Buffer", "CrossEntropyLoss", "Flatten", "Identity", "Linear", "LogSoftmax",
           "MSELoss", "Module", "ModuleList", "NLLLoss", "Parameter", "ReLU", "Sequential",
           "Sigmoid", "Softmax", "Tanh", "functional", "init"]
