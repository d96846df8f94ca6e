"""torch's argument parser lets ``add``, ``sub``, ``mul``, ``div`` and ``floor_divide`` (and
their aliases) take a Python number as ``input`` even when ``other`` is a number too: the
number becomes a 0-d tensor. The other functions refuse it."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._dtype import bool_, get_default_dtype, int64
from . import common as c
from .common import Tensor
from .record import make


def number_input(x: Any, y: Any) -> Any:
    """``x`` as torch's argument parser passes it to add/sub/mul/div/floor_divide: a Python
    number as ``input`` beside a number ``other`` becomes a 0-d tensor (a float one of the
    default dtype), so ``torch.add(2, 3.5)`` is ``tensor(5.5000)``."""
    if isinstance(x, Tensor) or isinstance(y, Tensor) or not (c.is_number(x) and c.is_number(y)):
        return x
    if isinstance(x, (bool, np.bool_)):
        dt = bool_
    elif isinstance(x, (int, np.integer)):
        dt = int64
    else:
        dt = get_default_dtype()
    return make(np.asarray(x, dtype=dt.np), dt, None)
