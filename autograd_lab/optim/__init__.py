"""``torch.optim``: optimizers that update parameters from their ``.grad``."""

from . import adam, optimizer, sgd
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["SGD", "Adam", "AdamW", "Optimizer"]
