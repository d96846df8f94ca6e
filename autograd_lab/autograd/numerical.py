"""Central differences: the one numerical derivative behind ``gradcheck``, the exercise checks
and the test suite.

For an element ``x[k]`` of an input, with the others held fixed::

    d f / d x[k]  ~  (f(x + eps e_k) - f(x - eps e_k)) / (2 eps)

:func:`central_differences` does the perturbing: it moves each element of an array in place
(``x - eps``, then ``x + eps``, as torch's gradcheck does), evaluates ``f`` at both points and
restores the element. What ``f`` returns is up to the caller -- a float, an array, a tuple of
tensors -- and :func:`slope` turns a pair of values into the quotient above.
:func:`numerical_grad` is the common case: the gradient of a scalar function of arrays.

This module imports only numpy, so every layer may use it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

__all__ = ["central_differences", "numerical_grad", "slope"]


def central_differences(f: Callable[[], Any], x: np.ndarray,
                        eps: float) -> Iterator[tuple[tuple[int, ...], Any, Any]]:
    """For each element of ``x`` in C order: ``(index, f() at x - eps, f() at x + eps)``.

    ``x`` is changed in place (``f`` reads it) and each element is restored before its
    values are yielded; the steps are made in ``x``'s own dtype.
    """
    for idx in np.ndindex(x.shape):
        orig = x[idx].copy()
        x[idx] = orig - eps
        lo = f()
        x[idx] = orig + eps
        hi = f()
        x[idx] = orig
        yield idx, lo, hi


def slope(lo: Any, hi: Any, eps: float) -> Any:
    """The central-difference quotient ``(hi - lo) / (2 eps)`` (numbers or arrays)."""
    return (hi - lo) / (2 * eps)


def numerical_grad(h: Callable[[list[np.ndarray]], float], arrays: Sequence[Any],
                   eps: float = 1e-6) -> list[np.ndarray]:
    """``d h / d arrays[i]`` for every input, by central differences in float64.

    ``h`` takes the list of (float64 copies of the) inputs and returns a number.
    """
    xs = [np.array(a, dtype=np.float64, copy=True) for a in arrays]
    grads = []
    for x in xs:
        g = np.zeros_like(x)
        for idx, lo, hi in central_differences(lambda: h(xs), x, eps):
            g[idx] = slope(lo, hi, eps)
        grads.append(g)
    return grads
