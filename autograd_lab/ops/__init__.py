"""Differentiable operations, one small node class per op, its forward beside it.

- ``unary``: elementwise functions of one tensor (exp, log, sin, relu, rounding ...)
- ``activation``: the activations of ``nn`` beyond relu/tanh/sigmoid (gelu, silu ...), and erf
- ``binary``: elementwise functions of two operands, with broadcasting; comparisons, logic
- ``reduce``: sums, means, max/min, var/std, prod, softmax, norms
- ``movement``: views, indexing, cat/stack/split (``composite``: hstack, tile ... built on them)
- ``linalg``: matrix products, and ``addmm``/``linear``
- ``matrix``: triangles and diagonals (tril/triu, diag, diagonal) and cumsum
- ``gather``: index-driven reads and writes (gather, scatter, index_select, embedding,
  masked_fill); ``sorting``: sort, argsort, topk
- ``losses``: nll_loss, mse_loss, binary cross-entropy
- ``inplace``: in-place changes and item assignment; ``out``: ``out=`` arguments

Shared by all: ``common`` (recording a node, backward helpers on arrays or Tensors) and
``summation`` (torch's order of additions, so float sums round as torch's do).
The Tensor methods and operators are attached by ``autograd_lab.tensor_methods``.
"""

from .activation import erf
from .binary import (
    add, allclose, bitwise_and, bitwise_not, bitwise_or, bitwise_xor, clamp_tensor, div, eq,
    equal, floor_divide, ge, gt, isclose, isfinite, isinf, isnan, le, logical_and, logical_not,
    logical_or, logical_xor, lt, maximum, minimum, mul, ne, pow, remainder, rsub, sub, where,
)
from .composite import broadcast_to, hstack, repeat_interleave, tile, vstack
from .indexing import (
    count_nonzero, gather, index_select, masked_fill, nonzero, one_hot, scatter, scatter_add,
)
from .linalg import bmm, dot, matmul, mm, mv, outer, trace
from .matrix import cumsum, diag, diagonal, tril, triu
from .movement import (
    cat, chunk, clone, expand, flatten, flip, narrow, permute, repeat, reshape, select, split,
    squeeze, stack, t, transpose, unbind, unflatten, unsqueeze, view,
)
from .reduce import (
    amax, amin, argmax, argmin, log_softmax, logsumexp, max, mean, min, norm, prod, softmax, std,
    sum, var,
)
from .sorting import argsort, sort, topk
from .unary import (
    abs, acos, asin, atan, ceil, clamp, clamp_max, clamp_min, cos, cosh, exp, exp2, expm1, floor,
    log, log1p, log2, log10, neg, reciprocal, relu, round, rsqrt, sigmoid, sign, sin, sinh, sqrt,
    square, tan, tanh, trunc,
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
