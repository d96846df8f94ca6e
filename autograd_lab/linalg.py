"""``torch.linalg``: the norms (``vector_norm``, ``matrix_norm`` with ``'fro'`` and
``'nuc'``) and ``svdvals``."""

from __future__ import annotations

from typing import Any

from ._dtype import dtype as DType
from .ops.norms import norm as _norm
from .ops.nuclear_norm import nuclear_norm, svdvals
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
    """The Frobenius (``'fro'``) or nuclear (``'nuc'``) norm of the matrices spanning ``dim``."""
    if ord not in ("fro", "nuc"):
        if isinstance(ord, str):
            raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
        raise NotImplementedError(f"linalg.matrix_norm with ord={ord!r} is not supported by "
                                  "autograd_lab (only 'fro' and 'nuc')")
    if dtype is not None and dtype is not A.dtype:
        A = A.to(dtype)  # noqa: N806
    if ord == "nuc":
        return nuclear_norm(A, dim, keepdim)
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    return _norm(A, 2, dim, keepdim)
