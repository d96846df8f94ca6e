"""Differentiable operations, grouped by kind (one small node class per op).

- ``unary``: elementwise functions of one tensor
- ``binary``: elementwise functions of two operands, with broadcasting
- ``reduce``: sums, means, max/min, softmax
- ``movement``: views, indexing, cat/stack
- ``linalg``: matrix products
- ``inplace``: in-place changes and item assignment
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
]
