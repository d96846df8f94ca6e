"""Differentiable operations by family, each op's node class (its backward) beside its forward.

- ``record``: how an op makes its output and node (every op goes through it)
- ``common``: argument checks and the helpers backward formulas share (arrays or Tensors)
- ``arithmetic``: add, sub, mul, div, pow ... on two operands, with broadcasting;
  ``binary_functions``: maximum/minimum, atan2, hypot, fmod
- ``comparison``: where, comparisons, logic, predicates (only ``where`` has a gradient)
- ``elementwise``: functions of one tensor (exp, log, sin, relu, rounding, clamp ...);
  ``activation``: the activations of ``nn`` beyond relu/tanh/sigmoid (gelu, silu ...), erf
- ``reductions``: sum, mean, var/std, prod, logsumexp, count_nonzero, all/any; ``norms``: norm;
  ``extremes``: max/min, amax/amin, argmax/argmin, median
- ``softmax_family``: softmax, log_softmax; ``losses``: nll, mse, binary cross-entropy;
  ``regression_losses``: smooth L1, Huber, KL divergence
- ``backward_ops``: the functions backward formulas are written in (``tanh_backward`` ...), with
  nodes of their own (``TanhBackwardBackward0``) for graphs recorded under ``create_graph``
- ``views``: reshape, transpose, squeeze, expand, select, slice ... (and clone, dtype copies)
- ``indexing``: ``x[key]``, masked_fill; ``gather_scatter``: gather/scatter, index_select;
  ``embedding``
- ``join_split``: cat, stack, repeat, split, chunk, unbind (and hstack, tile ... built on them)
- ``linalg``: matrix products, ``addmm``/``linear``; ``matrix``: tril/triu, diag, roll;
  ``cumulative``: cumsum, cumprod
- ``sorting``: sort, argsort, topk
- ``inplace``: in-place changes and item assignment; ``out``: ``out=`` arguments
- ``summation``: torch's order of additions, so float sums round as torch's do
- ``layout``: the strides torch gives new tensors where numpy lays them out otherwise, and
  those of empty gradients

The Tensor methods and operators are attached by ``autograd_lab.tensor_methods``.
"""

from .activation import erf
from .arithmetic import add, div, floor_divide, mul, pow, remainder, rsub, sub
from .binary_functions import atan2, fmod, hypot, maximum, minimum
from .comparison import (
    allclose, bitwise_and, bitwise_not, bitwise_or, bitwise_xor, eq, equal, ge, gt, isclose,
    isfinite, isinf, isnan, le, logical_and, logical_not, logical_or, logical_xor, lt, ne, where,
)
from .elementwise import (
    abs, acos, asin, atan, ceil, clamp, clamp_max, clamp_min, clamp_tensor, cos, cosh, exp, exp2,
    expm1, floor, log, log1p, log2, log10, neg, reciprocal, relu, round, rsqrt, sigmoid, sign, sin,
    sinh, sqrt, square, tan, tanh, trunc,
)
from .elementwise import frac, nan_to_num, sgn
from .gather_scatter import gather, index_fill, index_select, scatter, scatter_add
from .indexing import masked_fill, nonzero, one_hot
from .join_split import (
    broadcast_to, cat, chunk, hstack, repeat, repeat_interleave, split, stack, tile, unbind, vstack,
)
from .linalg import bmm, dot, matmul, mm, mv, outer, trace
from .cumulative import cumprod, cumsum
from .matrix import diag, diagonal, roll, tril, triu
from .extremes import amax, amin, argmax, argmin, max, median, min
from .norms import norm
from .reductions import count_nonzero, logsumexp, mean, prod, std, sum, var
from .softmax_family import log_softmax, softmax
from .sorting import argsort, sort, topk
from .views import (
    clone, expand, flatten, flip, narrow, permute, reshape, select, squeeze, t, transpose,
    unflatten, unsqueeze, view,
)
from .common import numpy_aliases as _aliases
from . import out as _out
from .out import with_out as _with_out

# torch reads numpy's ``axis``/``keepdims`` as ``dim``/``keepdim``
for _name in ("sum", "mean", "max", "min", "amax", "amin", "argmax", "argmin", "var", "std",
              "median", "prod", "logsumexp", "norm", "softmax", "log_softmax", "cumsum", "cumprod",
              "cat", "stack", "squeeze", "unsqueeze", "sort", "argsort", "topk", "gather",
              "index_select", "count_nonzero", "flatten"):
    globals()[_name] = _aliases(globals()[_name])
# ``torch.mul(a, b, out=c)``
for _name in ("add", "sub", "mul", "div", "matmul", "mm", "bmm", "mv", "stack", "exp",
              "log", "sqrt", "abs", "pow", "sigmoid", "tanh", "clamp", "sum", "mean", "neg",
              "maximum", "minimum", "cumsum", "sin", "cos", "relu", "tril", "triu", "atan2",
              "fmod", "hypot", "frac", "sgn", "nan_to_num", "remainder"):
    globals()[_name] = _with_out(globals()[_name], _name)
for _name, _check in (("gather", _out.gather_out_check),
                      ("index_select", _out.index_select_out_check),
                      ("amax", _out.reduction_out_check), ("amin", _out.reduction_out_check),
                      ("cat", _out.cat_out_check)):
    globals()[_name] = _with_out(globals()[_name], _name, _check)

__all__ = [
    "abs", "add", "allclose", "amax", "amin", "argmax", "argmin", "bitwise_and", "bitwise_not",
    "bitwise_or", "bitwise_xor", "bmm", "cat", "chunk", "clamp", "clamp_max", "clamp_min",
    "clamp_tensor", "clone", "cos", "div", "dot", "eq", "equal", "exp", "expand", "expm1",
    "flatten", "flip", "floor_divide", "ge", "gt", "isclose", "le", "log", "log1p", "log2",
    "log_softmax", "logical_not", "logsumexp", "lt", "matmul", "max", "maximum", "mean", "median",
    "min",
    "minimum", "mm", "mul", "mv", "narrow", "ne", "neg", "norm", "outer", "permute", "pow", "prod",
    "reciprocal", "relu", "remainder", "repeat", "reshape", "rsqrt", "rsub", "select", "sigmoid",
    "sign", "sin", "softmax", "split", "sqrt", "square", "squeeze", "stack", "std", "sub", "sum",
    "t", "tan", "tanh", "trace", "transpose", "unbind", "unflatten", "unsqueeze", "var", "view",
    "where", "cumprod",
    "acos", "argsort", "asin", "atan", "broadcast_to", "ceil", "cosh", "count_nonzero", "cumsum",
    "diag", "diagonal", "erf", "exp2", "floor", "gather", "hstack", "index_select", "isfinite",
    "isinf", "isnan", "log10", "logical_and", "logical_or", "logical_xor", "masked_fill",
    "nonzero", "one_hot", "repeat_interleave", "round", "scatter", "scatter_add", "sinh", "sort",
    "tile", "topk", "tril", "triu", "trunc", "vstack",
    "atan2", "fmod", "frac", "hypot", "nan_to_num", "roll", "sgn", "index_fill",
]
