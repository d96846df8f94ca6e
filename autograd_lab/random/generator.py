"""``Generator`` objects and the global generator: seeding, state bytes, the stream to draw from.

A ``Generator`` wraps torch's Mersenne Twister (:mod:`.mt19937`); its state is torch's
``CPUGeneratorImplState`` bytes, so states move between torch and autograd_lab both ways.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from .._device import CPU
from .._device import device as _device
from .._dtype import uint8
from ..factories import _check_device
from ..tensor import Tensor, _make
from .mt19937 import MT19937, STATE_SIZE

_DEFAULT_SEED = 67280421310721  # torch's seed for a new Generator


class Generator:
    """A random-number stream (``torch.Generator``): torch's mt19937 and its state bytes."""

    def __init__(self, device: Any = "cpu") -> None:
        _check_device(device)
        self._mt = MT19937(_DEFAULT_SEED)

    def __repr__(self) -> str:  # torch's generator is a C++ object; teaching code prints this
        return f"<torch._C.Generator object at {hex(id(self))}>"

    @property
    def device(self) -> _device:
        return CPU

    def manual_seed(self, seed: int) -> Generator:
        """Seed the stream; negative seeds wrap to 64 bits as in torch."""
        if isinstance(seed, (float, np.floating)) or not hasattr(seed, "__index__"):
            raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
        seed = int(seed)
        if not -(1 << 63) <= seed < (1 << 64):
            raise ValueError("Overflow when unpacking long long")
        self._mt.manual_seed(seed & 0xFFFFFFFFFFFFFFFF)
        return self

    def initial_seed(self) -> int:
        return self._mt.seed

    def seed(self) -> int:
        """Seed from the operating system's entropy and return that seed."""
        s = int.from_bytes(os.urandom(8), "little")
        self._mt.manual_seed(s)
        return s

    def get_state(self) -> Tensor:
        """torch's ``CPUGeneratorImplState`` as a uint8 tensor of 5056 bytes."""
        return _make(self._mt.get_state(), uint8, None)

    def set_state(self, new_state: Tensor) -> Generator:
        if not isinstance(new_state, Tensor):
            raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
        if new_state.dtype is not uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        if new_state.numel() != STATE_SIZE:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {STATE_SIZE} but found "
                               f"the input RNG state size to be {new_state.numel()}")
        self._mt.set_state(new_state._data.reshape(-1))
        return self


default_generator = Generator()
default_generator.seed()  # torch seeds its default generator nondeterministically


def manual_seed(seed: int) -> Generator:
    """Seed the global generator (``torch.manual_seed``); returns it."""
    return default_generator.manual_seed(int(seed))


def initial_seed() -> int:
    return default_generator.initial_seed()


def seed() -> int:
    return default_generator.seed()


def get_rng_state() -> Tensor:
    return default_generator.get_state()


def set_rng_state(new_state: Tensor) -> None:
    default_generator.set_state(new_state)


def _mt(generator: Generator | None) -> MT19937:
    if generator is None:
        return default_generator._mt
    if not isinstance(generator, Generator):
        raise TypeError(f"expected a torch.Generator, but got {type(generator).__name__}")
    return generator._mt
