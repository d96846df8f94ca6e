"""The layers: ``Module`` and the modules built on it."""

from .module import Module
from .activation import LogSoftmax, ReLU, Sigmoid, Softmax, Tanh
from .container import ModuleList, Sequential
from .flatten import Flatten
from .linear import Identity, Linear
from .loss import CrossEntropyLoss, MSELoss, NLLLoss

__all__ = ["CrossEntropyLoss", "Flatten", "Identity", "Linear", "LogSoftmax", "MSELoss",
           "Module", "ModuleList", "NLLLoss", "ReLU", "Sequential", "Sigmoid", "Softmax", "Tanh"]
