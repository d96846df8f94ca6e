"""torch's ZeroTensor, as far as gradients show it: the gradient ``sgn`` (and so ``abs`` at
0, ...) sends back is an "efficient zero tensor" with no memory behind it. Adding it to
another gradient gives an ordinary tensor; if it reaches a leaf (or ``autograd.grad``) as it
is, ``.grad`` is that zero tensor: it prints as zeros, but ``numpy()``, ``tolist()`` and any
in-place change refuse it, and so does accumulating a second gradient into it.

Inside a plain backward pass gradients are numpy arrays, so the zero tensor is a
:class:`ZeroGrad` array there: numpy's ufuncs turn it back into an ordinary array (a sum
with another gradient is ordinary, as in torch), except a product and a sum of two zero
tensors, which stay zero; views, casts and ``clone``'s identity pass keep it.
"""

from __future__ import annotations

from typing import Any

import numpy as np


class ZeroGrad(np.ndarray):
    """A zero gradient array that stands for a torch ZeroTensor."""

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        plain = tuple(i.view(np.ndarray) if isinstance(i, ZeroGrad) else i for i in inputs)
        if "out" in kwargs:
            kwargs["out"] = tuple(o.view(np.ndarray) if isinstance(o, ZeroGrad) else o
                                  for o in kwargs["out"])
        res = getattr(ufunc, method)(*plain, **kwargs)
        if method == "__call__" and "out" not in kwargs and isinstance(res, np.ndarray) and (
                ufunc is np.multiply or ufunc in (np.add, np.subtract)
                and all(isinstance(i, ZeroGrad) for i in inputs)):
            return np.zeros_like(res).view(ZeroGrad)  # zero * x, zero + zero: ZeroTensors
        return res



def zero_grad(shape: tuple, dtype: np.dtype) -> ZeroGrad:
    """A fresh zero gradient (its own memory, as torch's gradient layout contract wants)."""
    z = ZeroGrad(shape, dtype)
    z.fill(0)
    return z
