"""``torch.linalg``: the norms (``vector_norm``, ``matrix_norm`` with ``'fro'`` and
``'nuc'``) and ``svdvals``."""

from __future__ import annotations

from math import inf
from typing import Any

from ._dtype import dtype as DType
from ._messages import scalar_name
from .ops.common import norm_dim
from .ops.extremes import amax, amin
from .ops.norms import norm as _norm
from .ops.nuclear_norm import nuclear_norm, svdvals
from .ops.views import permute, unsqueeze
from .tensor import Tensor

__all__ = ["matrix_norm", "svdvals", "vector_norm"]


def vector_norm(x: Tensor, ord: Any = 2, dim: Any = None, keepdim: bool = False, *,  # noqa: A002
                dtype: DType | None = None) -> Tensor:
    """The vector ``ord``-norm over ``dim`` (all elements by default)."""
    if isinstance(ord, str):
        raise TypeError(f"linalg_vector_norm(): argument 'ord' (position 2) must be Number, "
                        f"not {type(ord).__name__}")
    return _norm(x, ord, dim, keepdim, dtype=dtype)


def matrix_norm(A: Tensor, ord: Any = "fro", dim: Any = (-2, -1), keepdim: bool = False, *,  # noqa: N803
                dtype: DType | None = None) -> Tensor:
    """The matrix norm of the matrices spanning ``dim``: ``'fro'``, ``'nuc'``, or ``ord``
    1/-1 (max/min column sum), inf/-inf (row sum), 2/-2 (largest/smallest singular value),
    composed as torch composes them."""
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    elif ord not in (1, -1, 2, -2, inf, -inf):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord:g} not supported.")
    if dtype is not None and dtype is not A.dtype:
        A = A.to(dtype)  # noqa: N806
    if ord == "nuc":
        return nuclear_norm(A, dim, keepdim)
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    if ord == "fro":
        return _norm(A, 2, dim, keepdim)
    if not A.dtype.is_floating_point:
        raise RuntimeError("linalg.matrix_norm: Expected a floating point or complex tensor "
                           f"as input. Got {scalar_name(A.dtype)}")
    reduce = amax if ord > 0 else amin
    d0, d1 = (norm_dim(d, A.dim()) for d in dim)
    if abs(ord) == 2:  # the largest (smallest) singular value
        perm = [d for d in range(A.dim()) if d not in (d0, d1)] + [d0, d1]
        result = reduce(svdvals(permute(A, perm)), -1, keepdim)
        if keepdim:
            result = permute(unsqueeze(result, -1), [perm.index(d) for d in range(A.dim())])
        return result
    if abs(ord) == inf:  # the 1-norm of the transpose
        d0, d1 = d1, d0
    if not keepdim and d0 < d1:
        d1 -= 1
    return reduce(_norm(A, 1, (d0,), keepdim), d1, keepdim)
