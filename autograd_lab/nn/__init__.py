"""``torch.nn``: layers (``Module`` and friends), ``Parameter``, ``functional`` and ``init``."""

from . import functional, init
from .modules import (
    BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, Dropout, ELU, Embedding, Flatten, GELU, Identity,
    HuberLoss, KLDivLoss, L1Loss, LazyLinear, LeakyReLU, Linear, LogSoftmax, Module, ModuleList,
    MSELoss, NLLLoss, ReLU, Sequential, SiLU, Sigmoid, SmoothL1Loss, Softmax, Softplus, Tanh,
)
from .modules.lazy import UninitializedParameter
from .parameter import Buffer, Parameter

__all__ = ["BCELoss", "BCEWithLogitsLoss", "Buffer", "CrossEntropyLoss", "Dropout", "ELU",
           "Embedding",
           "Flatten", "GELU", "HuberLoss", "Identity", "KLDivLoss", "L1Loss", "LazyLinear",
           "LeakyReLU", "Linear", "LogSoftmax", "MSELoss", "Module", "ModuleList", "NLLLoss",
           "Parameter", "ReLU", "Sequential", "SiLU", "Sigmoid", "SmoothL1Loss", "Softmax",
           "Softplus", "Tanh", "UninitializedParameter", "functional", "init"]
