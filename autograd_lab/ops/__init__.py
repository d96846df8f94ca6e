"""Differentiable operations, grouped by kind (one small node class per op).

- ``unary``: elementwise functions of one tensor
- ``binary``: elementwise functions of two operands, with broadcasting
- ``reduce``: sums, means, max/min, softmax
- ``movement``: views, indexing, cat/stack
- ``linalg``: matrix products
- ``inplace``: in-place changes and item assignment
- ``gather``, ``sorting``, ``matrix``, ``composite``: index-driven ops, sort/topk,
  triangles/diagonals/cumsum, and ops torch builds from other ops
"""

from . import methods as _methods  # noqa: F401  (attaches the Tensor methods)
from .binary import (
    add, allclose, bitwise_and, bitwise_not, bitwise_or, bitwise_xor, clamp_tensor, div, eq,
    equal, floor_divide, ge, gt, isclose, le, logical_not, lt, maximum, minimum, mul, ne, pow,
    remainder, rsub, sub, where,
)
from .linalg import bmm, dot, matmul, mm, mv, outer, trace
from .movement import (
    cat, chunk, clone, expand, flatten, flip, narrow, permute, repeat, reshape, select, split,
    squeeze, stack, t, transpose, unbind, unflatten, unsqueeze, view,
)
from .reduce import (
    amax, amin, argmax, argmin, log_softmax, logsumexp, max, mean, min, norm, prod, softmax, std,
    sum, var,
)

from .unary import (
    abs, clamp, clamp_max, clamp_min, cos, exp, expm1, log, log1p, log2, neg, reciprocal, relu,
    rsqrt, sigmoid, sign, sin, sqrt, square, tan, tanh,
)

from .activation import erf
from .binary import isfinite, isinf, isnan, logical_and, logical_or, logical_xor
from .composite import broadcast_to, hstack, repeat_interleave, tile, vstack
from .gather import count_nonzero, gather, index_select, nonzero, one_hot, scatter, scatter_add
from .matrix import cumsum, diag, diagonal, tril, triu
from .nn_ops import masked_fill
from .sorting import argsort, sort, topk
from .unary import (
    acos, asin, atan, ceil, cosh, exp2, floor, log10, round, sinh, trunc,
)
from .common import numpy_aliases as _aliases
from .out import with_out as _with_out

# torch reads numpy's ``axis``/``keepdims`` as ``dim``/``keepdim``
for _name in ("sum", "mean", "max", "min", "amax", "amin", "argmax", "argmin", "var", "std",
              "prod", "logsumexp", "norm", "softmax", "log_softmax", "cumsum", "cat", "stack",
              "squeeze", "unsqueeze", "sort", "argsort", "topk", "gather", "index_select",
              "count_nonzero", "flatten"):
    globals()[_name] = _aliases(globals()[_name])
# ``torch.mul(a, b, out=c)``
for _name in ("add", "sub", "mul", "div", "matmul", "mm", "bmm", "mv", "cat", "stack", "exp",
              "log", "sqrt", "abs", "pow", "sigmoid", "tanh", "clamp", "sum", "mean", "neg",
              "maximum", "minimum", "cumsum", "sin", "cos", "relu", "tril", "triu"):
    globals()[_name] = _with_out(globals()[_name], _name)

__all__ = [
    "abs", "add", "allclose", "amax", "amin", "argmax", "argmin", "bitwise_and", "bitwise_not",
    "bitwise_or", "bitwise_xor", "bmm", "cat", "chunk", "clamp", "clamp_max", "clamp_min",
    "clamp_tensor", "clone", "cos", "div", "dot", "eq", "equal", "exp", "expand", "expm1",
    "flatten", "flip", "floor_divide", "ge", "gt", "isclose", "le", "log", "log1p", "log2",
    "log_softmax", "logical_not", "logsumexp", "lt", "matmul", "max", "maximum", "mean", "min",
    "minimum", "mm", "mul", "mv", "narrow", "ne", "neg", "norm", "outer", "permute", "pow", "prod",
    "reciprocal", "relu", "remainder", "repeat", "reshape", "rsqrt", "rsub", "select", "sigmoid",
    "sign", "sin", "softmax", "split", "sqrt", "square", "squeeze", "stack", "std", "sub", "sum",
    "t", "tan", "tanh", "trace", "transpose", "unbind", "unflatten", "unsqueeze", "var", "view",
    "where",
    "acos", "argsort", "asin", "atan", "broadcast_to", "ceil", "cosh", "count_nonzero", "cumsum",
    "diag", "diagonal", "erf", "exp2", "floor", "gather", "hstack", "index_select", "isfinite",
    "isinf", "isnan", "log10", "logical_and", "logical_or", "logical_xor", "masked_fill",
    "nonzero", "one_hot", "repeat_interleave", "round", "scatter", "scatter_add", "sinh", "sort",
    "tile", "topk", "tril", "triu", "trunc", "vstack",
]
