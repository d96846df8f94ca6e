"""autograd_lab: a small tensor-autograd engine on numpy that behaves like PyTorch.

Write ``import autograd_lab as torch`` and PyTorch teaching code prints the same
values, reprs, ``grad_fn`` names, errors and warnings (PyTorch 2.13, CPU).

Layers, each importing only the layers before it (``tests/test_import_graph.py``):

1. ``_dtype``, ``grad_mode``, ``anomaly_mode``, ``memory``, ``hooks`` -- the basics
2. ``tensor`` (the data), ``node`` (graph nodes, saved tensors, ``AccumulateGrad``),
   ``factories``
3. ``ops`` -- ``ops.record`` makes every op's output and node; one module per family
4. ``engine`` (backward, as named steps) and ``listener`` (its events)
5. ``tensor_methods`` (Tensor methods and ``backward()``), ``autograd``, ``nn``, ``optim``,
   ``random``; beside them the visual tools in ``viz`` and the course's ``teaching`` helpers

The rest of the API teaching code reaches for, imported on first use: ``utils.data``
(datasets, ``DataLoader``), ``serialization`` (``save``/``load``), ``functional``
(``meshgrid``), and ``cuda``, ``accelerator`` and ``backends`` as a CPU-only torch has them
(devices themselves: ``_device``).

Torch-fidelity shims sit at the edges, in modules named for them: ``_messages``,
``_printing``, ``_saved_display``, ``_torch_names``, ``ops.summation``, ``_C``.
``loss.backward()`` reads in three modules: ``tensor_methods`` -> ``engine`` -> ``node``.
"""

from __future__ import annotations

from . import _dtype
from ._dtype import (
    bool_ as bool,  # noqa: A004
    dtype,
    float16,
    float32,
    float64,
    get_default_dtype,
    int8,
    int16,
    int32,
    int64,
    set_default_dtype,
    uint8,
)
from .anomaly_mode import is_anomaly_check_nan_enabled, is_anomaly_enabled, set_anomaly_enabled
from ._printing import get_printoptions, printoptions, set_printoptions
from .grad_mode import (
    enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled, no_grad,
    set_grad_enabled,
)
from .memory import max_memory_allocated, memory_allocated, reset_peak_memory_stats
from .tensor import Size, Tensor
from . import ops  # noqa: E402
from . import tensor_methods  # noqa: E402,F401  (installs the Tensor methods)
from .ops import (
    abs, acos, add, allclose, amax, amin, argmax, argmin, argsort, asin, atan, bitwise_and,
    bitwise_not, bitwise_or, bitwise_xor, bmm, broadcast_to, cat, ceil, chunk, clamp, clamp_max,
    clamp_min, clone, cos, cosh, count_nonzero, cumprod, cumsum, diag, diagonal, div, dot, eq,
    equal, erf, exp, exp2, expm1, flatten, flip, floor, floor_divide, gather, ge, gt, hstack,
    index_fill, index_select, isclose, isfinite, isinf, isnan, le, log, log1p, log2, log10,
    log_softmax,
    logical_and, logical_not, logical_or, logical_xor, logsumexp, lt, masked_fill, matmul, max,
    maximum, mean, median, min, minimum, mm, mul, mv, narrow, ne, neg, nonzero, norm, outer,
    permute, pow, prod, reciprocal, relu, remainder, repeat, repeat_interleave, reshape, round,
    rsqrt, rsub, scatter, scatter_add, select, sigmoid, sign, sin, sinh, softmax, sort, split, sqrt,
    square, squeeze, stack, std, sub, sum, t, tan, tanh, tile, topk, trace, transpose, tril, triu,
    trunc, unbind, unsqueeze, var, vstack, where,
)
from .ops import atan2, fmod, frac, hypot, nan_to_num, roll, sgn
from .ops.common import result_type as _result_type
from .ops.linalg import addmm
from .ops.summation import get_num_threads, set_num_threads
from .tensor_methods import _all as all, _any as any  # noqa: A004
from .factories import (
    arange, as_tensor, empty, empty_like, eye, from_numpy, full, full_like, linspace,
    ones, ones_like, tensor, zeros, zeros_like,
)
from .random import (
    Generator, bernoulli, default_generator, get_rng_state, initial_seed, manual_seed, normal,
    rand, rand_like, randint, randn, randn_like, randperm, seed, set_rng_state,
)
from . import autograd  # noqa: E402
from .legacy import (  # noqa: E402  (installs Tensor(...) and Tensor.new too)
    BoolTensor, ByteTensor, CharTensor, DoubleTensor, FloatTensor, HalfTensor, IntTensor,
    LongTensor, ShortTensor,
)
from ._device import device, get_default_device, set_default_device  # noqa: E402
from . import _tracebacks  # noqa: E402

_tracebacks.install()  # in IPython: tracebacks without the engine's frames, as with torch's C++

# Imported on first use (``torch.nn.Linear`` works as usual): keeps ``import`` fast.
_LAZY_MODULES = ("nn", "optim", "teaching", "viz", "utils", "cuda", "accelerator", "backends",
                 "serialization", "functional", "_C", "linalg")
_LAZY_NAMES = {"save": "serialization", "load": "serialization", "meshgrid": "functional"}


def __getattr__(name: str) -> object:
    """The lazily imported subpackages (and functions of them), on first access."""
    if name in _LAZY_MODULES or name in _LAZY_NAMES:
        import importlib

        module = importlib.import_module(f".{_LAZY_NAMES.get(name, name)}", __name__)
        return getattr(module, name) if name in _LAZY_NAMES else module
    raise AttributeError(f"module 'autograd_lab' has no attribute '{name}'")


float = float32  # noqa: A001
double = float64
half = float16
long = int64
int = int32  # noqa: A001
negative = neg
clip = clamp
concat = concatenate = cat
subtract = sub
multiply = mul
divide = true_divide = div
absolute = abs
arcsin, arccos, arctan, fix = asin, acos, atan, trunc
arctan2 = atan2
row_stack = vstack
swapaxes = transpose
__version__ = "2.13.0+autograd_lab"  # what code written for torch checks
__course_version__ = "0.2.0"  # this release of the course and package (CHANGELOG.md)


def is_tensor(obj: object) -> bool:
    """Whether ``obj`` is a Tensor."""
    return isinstance(obj, Tensor)


def is_floating_point(input: Tensor) -> bool:
    """Whether ``input`` has a floating-point dtype."""
    return input.dtype.is_floating_point


def numel(input: Tensor) -> int:
    """The number of elements of ``input``."""
    return input.numel()


def detach(input: Tensor) -> Tensor:
    """``input.detach()``: the same data, outside the graph."""
    return input.detach()


def zero_(input: Tensor) -> Tensor:
    """Fill ``input`` with zeros in place (``input.zero_()``)."""
    return input.zero_()


def promote_types(a: dtype, b: dtype) -> dtype:
    """The smallest dtype both ``a`` and ``b`` convert to."""
    return _dtype.promote(a, b)


def result_type(a: object, b: object) -> dtype:
    """The dtype an operation on ``a`` and ``b`` (tensors or numbers) gives."""
    return _result_type(a, b)

