"""The layers: ``Module`` and the modules built on it."""

from .module import Module
from .activation import (
    ELU, GELU, LeakyReLU, LogSoftmax, ReLU, Sigmoid, SiLU, Softmax, Softplus, Tanh,
)
from .container import ModuleList, Sequential
from .flatten import Flatten
from .linear import Identity, Linear
from .lazy import LazyLinear
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, MSELoss, NLLLoss
from .sparse import Embedding

__all__ = ["BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "ELU", "Embedding", "Flatten",
           "GELU", "Identity", "L1Loss", "LeakyReLU", "Linear", "LogSoftmax", "MSELoss", "Module",
           "ModuleList", "NLLLoss", "ReLU", "Sequential", "SiLU", "Sigmoid", "Softmax",
           "Softplus", "Tanh"]
