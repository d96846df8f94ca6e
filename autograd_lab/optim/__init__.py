"""``torch.optim``: optimizers that update parameters from their ``.grad``."""

from . import adagrad, adam, optimizer, rmsprop, sgd
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["SGD", "Adagrad", "Adam", "AdamW", "Optimizer", "RMSprop"]
