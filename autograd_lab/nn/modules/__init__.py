"""The layers: ``Module`` and the modules built on it."""

from .module import Module
from .activation import (
    ELU, GELU, LeakyReLU, LogSoftmax, ReLU, Sigmoid, SiLU, Softmax, Softplus, Tanh,
)
from .container import ModuleList, Sequential
from .dropout import Dropout
from .flatten import Flatten
from .linear import Identity, Linear
from .lazy import LazyLinear
from .loss import (
    BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, HuberLoss, KLDivLoss, L1Loss, MSELoss, NLLLoss,
    SmoothL1Loss,
)
from .sparse import Embedding

__all__ = ["BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "Dropout", "ELU", "Embedding",
           "Flatten",
           "GELU", "HuberLoss", "Identity", "KLDivLoss", "L1Loss", "LazyLinear", "LeakyReLU",
           "Linear", "LogSoftmax", "MSELoss", "Module", "ModuleList", "NLLLoss", "ReLU",
           "Sequential", "SiLU", "Sigmoid", "Softmax", "SmoothL1Loss", "Softplus", "Tanh"]
