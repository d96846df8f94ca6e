"""Random numbers, bit for bit those of torch's CPU generator.

``manual_seed(0); randn(3)`` gives torch's numbers: every sampler turns the Mersenne Twister's
32-bit draws into values exactly as torch's CPU kernels do, and consumes the same number of
draws, so a mixed sequence of calls after ``manual_seed`` stays in step with torch.

Reading order, bottom up:

* :mod:`.mt19937` -- the twister and torch's state bytes;
* ``autograd_lab._fma`` (below this package: ``linspace`` and the optimizers use it too) --
  fused multiply-add (one rounding) emulated in numpy, as torch's kernels are compiled with
  FMA contraction;
* :mod:`.normal_kernels` -- torch's vectorised Box-Muller (float32 and float64 blocks of 16);
* :mod:`.generator` -- ``Generator``, the global generator, seeding and states;
* :mod:`.kernels` -- uniform, normal and Bernoulli values from the draws, in memory order;
* :mod:`.factories` -- ``rand``, ``randn``, ``randint``, ``randperm``, ``*_like``, ``normal``,
  ``bernoulli``;
* :mod:`.inplace` -- ``uniform_``, ``normal_``, ``bernoulli_``.
"""

from __future__ import annotations

from .factories import (
    bernoulli, normal, rand, rand_like, randint, randn, randn_like, randperm,
)
from .generator import (
    Generator, default_generator, get_rng_state, initial_seed, manual_seed, seed, set_rng_state,
)
from .inplace import bernoulli_, normal_, uniform_

__all__ = [
    "Generator", "bernoulli", "bernoulli_", "default_generator", "get_rng_state",
    "initial_seed", "manual_seed", "normal", "normal_", "rand", "rand_like", "randint", "randn",
    "randn_like", "randperm", "seed", "set_rng_state", "uniform_",
]
