"""Every differentiable op: the engine's gradient against central differences (float64).

Each case draws its inputs (and the op's arguments) with hypothesis, backpropagates a
random upstream gradient (a vector-Jacobian product) and compares with the numerical
one. Elementwise ops and reductions also have their second derivative checked:
``autograd.grad(..., create_graph=True)`` differentiated again.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from numgrad import assert_gradgrad, assert_vjp
from strategies import (
    GAP,
    arrays,
    broadcastable_shapes,
    dim_keepdim,
    dims,
    distinct,
    grid,
    index_expressions,
    nonzero,
    permutations,
    positive,
    seeds,
    shape_with_numel,
    shapes,
    untied_pair,
)

import autograd_lab as torch
import autograd_lab.nn.functional as F

SETTINGS = settings(max_examples=15, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])
GRADGRAD_SETTINGS = settings(SETTINGS, max_examples=6)

Case = tuple[Callable[..., Any], list[np.ndarray]]
CASES: dict[str, Callable[[Any], Case]] = {}
GRADGRAD: list[str] = []  # cases whose second derivative is checked too


def case(name: str, gradgrad: bool = False) -> Callable:
    def register(builder: Callable[[Any], Case]) -> Callable[[Any], Case]:
        CASES[name] = builder
        if gradgrad:
            GRADGRAD.append(name)
        return builder

    return register


def _numel(shape: tuple) -> int:
    return int(np.prod(shape, dtype=np.int64))


# ---- unary elementwise ------------------------------------------------------------------------

def _any(shape: tuple) -> Any:
    return arrays(shape)


UNARY: dict[str, tuple[Callable, Callable]] = {
    "neg": (torch.neg, _any), "neg_op": (lambda x: -x, _any),
    "negative": (torch.negative, _any), "neg_method": (lambda x: x.neg(), _any),
    "exp": (torch.exp, _any), "exp_method": (lambda x: x.exp(), _any),
    "log": (torch.log, positive), "log2": (torch.log2, positive),
    "log1p": (torch.log1p, lambda s: arrays(s, -0.5, 2.0)), "expm1": (torch.expm1, _any),
    "sin": (torch.sin, _any), "cos": (torch.cos, _any),
    "tan": (torch.tan, lambda s: arrays(s, -1.2, 1.2)),
    "tanh": (torch.tanh, _any), "sigmoid": (torch.sigmoid, lambda s: arrays(s, -4.0, 4.0)),
    "relu": (torch.relu, nonzero), "relu_method": (lambda x: x.relu(), nonzero),
    "abs": (torch.abs, nonzero), "abs_builtin": (abs, nonzero),
    "sqrt": (torch.sqrt, positive), "rsqrt": (torch.rsqrt, positive),
    "reciprocal": (torch.reciprocal, nonzero), "sign": (torch.sign, nonzero),
    "square": (torch.square, _any),
    "pow_2": (lambda x: x ** 2, _any), "pow_3": (lambda x: torch.pow(x, 3), _any),
    "pow_0": (lambda x: x ** 0, _any), "pow_1": (lambda x: x.pow(1), _any),
    "pow_neg1": (lambda x: x ** -1, nonzero), "pow_half": (lambda x: x ** 0.5, positive),
    "pow_neg1.5": (lambda x: x ** -1.5, positive), "pow_2.5": (lambda x: x ** 2.5, positive),
    "clamp_min": (lambda x: torch.clamp(x, min=-0.5), lambda s: arrays(s, avoid=(-0.5,))),
    "clamp_max": (lambda x: torch.clamp(x, max=0.7), lambda s: arrays(s, avoid=(0.7,))),
    "clamp_both": (lambda x: torch.clamp(x, -0.5, 0.7), lambda s: arrays(s, avoid=(-0.5, 0.7))),
    "clamp_min_fn": (lambda x: torch.clamp_min(x, 0.3), lambda s: arrays(s, avoid=(0.3,))),
    "clamp_max_fn": (lambda x: x.clamp_max(-0.2), lambda s: arrays(s, avoid=(-0.2,))),
    "clip": (lambda x: x.clip(-1, 1), lambda s: arrays(s, avoid=(-1.0, 1.0))),
    "clamp_int_bounds": (lambda x: x.clamp(-1, 1), lambda s: arrays(s, avoid=(-1.0, 1.0))),
    # scalars on either side of a binary op
    "add_scalar": (lambda x: x + 2.5, _any), "radd_scalar": (lambda x: 2.5 + x, _any),
    "add_int": (lambda x: x + 2, _any), "sub_scalar": (lambda x: x - 1.5, _any),
    "rsub_scalar": (lambda x: 1.5 - x, _any), "rsub_int": (lambda x: 1 - x, _any),
    "mul_scalar": (lambda x: x * 3.0, _any), "rmul_scalar": (lambda x: -2 * x, _any),
    "div_scalar": (lambda x: x / 4.0, _any), "rdiv_scalar": (lambda x: 2.0 / x, nonzero),
    "rpow_scalar": (lambda x: 2.0 ** x, _any), "rpow_fraction": (lambda x: 0.5 ** x, _any),
    "rpow_int": (lambda x: 3 ** x, _any),
    "add_alpha_scalar": (lambda x: torch.add(x, 2.0, alpha=3), _any),
    "sub_method_scalar": (lambda x: x.sub(2.0), _any),
    "pow_0d_tensor_exponent": (lambda x: x ** torch.tensor(2.0, dtype=torch.float64), positive),
    "norm_2": (lambda x: x.norm(), nonzero), "norm_1": (lambda x: x.norm(p=1), nonzero),
    "norm_3": (lambda x: x.norm(3), nonzero),
    "clone": (torch.clone, _any), "clone_method": (lambda x: x.clone(), _any),
    "to_copy": (lambda x: x.to(torch.float64, copy=True), _any),
    "to_same": (lambda x: x.to(torch.float64) * 1.0, _any),
    "double": (lambda x: x.double() * 2, _any),
    "contiguous": (lambda x: x.contiguous() * 2, _any),
}

_INTS = (-2.0, -1.0, 0.0, 1.0, 2.0)  # where floor/ceil/trunc jump
_HALVES = (-1.5, -0.5, 0.5, 1.5)  # where round jumps
UNARY.update({
    "exp2": (torch.exp2, _any), "log10": (torch.log10, positive),
    "sinh": (torch.sinh, _any), "cosh_method": (lambda x: x.cosh(), _any),
    "asin": (torch.asin, lambda s: arrays(s, -0.9, 0.9)),
    "acos": (torch.acos, lambda s: arrays(s, -0.9, 0.9)), "atan": (torch.atan, _any),
    "erf": (torch.erf, _any),
    "floor": (torch.floor, lambda s: arrays(s, avoid=_INTS)),
    "ceil": (lambda x: x.ceil(), lambda s: arrays(s, avoid=_INTS)),
    "trunc": (torch.trunc, lambda s: arrays(s, avoid=_INTS)),
    "round": (torch.round, lambda s: arrays(s, avoid=_HALVES)),
    "round_decimals": (lambda x: x.round(decimals=-1), lambda s: arrays(s, -4.0, 4.0)),
    "leaky_relu": (lambda x: F.leaky_relu(x, 0.2), nonzero),
    "gelu": (F.gelu, _any), "gelu_tanh": (lambda x: F.gelu(x, approximate="tanh"), _any),
    "silu": (F.silu, _any), "softplus": (lambda x: F.softplus(x, beta=1.5, threshold=2.0),
                                          lambda s: arrays(s, avoid=(2.0 / 1.5,))),
    "elu": (lambda x: F.elu(x, alpha=0.7), nonzero),
    "masked_fill": (lambda x: x.masked_fill(x > 0.5, -1.0), lambda s: arrays(s, avoid=(0.5,))),
    "l1_loss": (lambda x: F.l1_loss(x, torch.zeros_like(x), reduction="sum"), nonzero),
    "binary_cross_entropy": (lambda x: F.binary_cross_entropy(x, torch.full_like(x, 0.3)),
                             lambda s: arrays(s, 0.1, 0.9)),
    "bce_with_logits": (lambda x: F.binary_cross_entropy_with_logits(
        x, torch.full_like(x, 0.25), reduction="none"), _any),
    "bce_with_logits_pos_weight": (lambda x: F.binary_cross_entropy_with_logits(
        x, torch.full_like(x, 0.75), weight=torch.full_like(x, 2.0),
        pos_weight=torch.full_like(x, 3.0), reduction="sum"), _any),
    "frac": (torch.frac, lambda s: arrays(s, avoid=_INTS)),
    "sgn": (lambda x: x.sgn(), nonzero),
    "nan_to_num": (torch.nan_to_num, _any),
    "roll": (lambda x: x.roll(1) * torch.arange(x.numel()).reshape(x.shape), _any),
    "roll_dims": (lambda x: torch.roll(x, (1, -2), (0, -1)) if x.dim() else x.roll(2), _any),
})
_STEPS = ("floor", "ceil", "trunc", "round", "sgn")  # zero gradient: nothing to differentiate twice

# a chain of ops: each contributes to the second derivative
UNARY["chain"] = (lambda x: torch.tanh(torch.exp(torch.sin(x)) * x) ** 2, _any)


def _unary_builder(name: str) -> Callable[[Any], Case]:
    fn, domain = UNARY[name]

    def build(draw: Any) -> Case:
        shape = draw(shapes())
        return fn, [draw(domain(shape))]

    return build


for _name in UNARY:
    case(f"unary/{_name}", gradgrad=not _name.startswith(("clone", "to_", "double",
                                                           "contiguous") + _STEPS)
         )(_unary_builder(_name))


# ---- binary elementwise with broadcasting ------------------------------------------------------

BINARY: dict[str, tuple[Callable, Callable, Callable]] = {
    "add": (torch.add, _any, _any), "add_op": (lambda a, b: a + b, _any, _any),
    "add_alpha": (lambda a, b: torch.add(a, b, alpha=-2.5), _any, _any),
    "add_method": (lambda a, b: a.add(b), _any, _any),
    "sub": (torch.sub, _any, _any), "sub_op": (lambda a, b: a - b, _any, _any),
    "sub_alpha": (lambda a, b: a.sub(b, alpha=3), _any, _any),
    "subtract": (torch.subtract, _any, _any),
    "mul": (torch.mul, _any, _any), "mul_op": (lambda a, b: a * b, _any, _any),
    "multiply": (torch.multiply, _any, _any),
    "div": (torch.div, _any, nonzero), "div_op": (lambda a, b: a / b, _any, nonzero),
    "true_divide": (torch.true_divide, _any, nonzero),
    # exponent != 0: torch's dx = where(y == 0, 0, g y x^(y-1)) has no y-derivative there
    "pow": (torch.pow, positive, nonzero), "pow_op": (lambda a, b: a ** b, positive, nonzero),
    "pow_method": (lambda a, b: a.pow(b), positive, nonzero),
    "squared_diff": (lambda a, b: ((a - b) * (a + 2 * b)) / (1 + b * b), _any, _any),
    "atan2": (torch.atan2, nonzero, nonzero), "hypot": (torch.hypot, nonzero, nonzero),
    # x / y in (1.1, 1.9): away from fmod's jumps (where x / y is a whole number)
    "fmod": (torch.fmod, lambda s: arrays(s, 2.2, 2.8), lambda s: arrays(s, 1.5, 2.0)),
    "remainder": (torch.remainder, lambda s: arrays(s, 2.2, 2.8), lambda s: arrays(s, 1.5, 2.0)),
}


def _binary_builder(name: str) -> Callable[[Any], Case]:
    fn, dom_a, dom_b = BINARY[name]

    def build(draw: Any) -> Case:
        sa, sb = draw(broadcastable_shapes())
        return fn, [draw(dom_a(sa)), draw(dom_b(sb))]

    return build


for _name in BINARY:
    case(f"binary/{_name}", gradgrad=True)(_binary_builder(_name))


def _untied(fn: Callable) -> Callable[[Any], Case]:
    def build(draw: Any) -> Case:
        sa, sb = draw(broadcastable_shapes())
        a, b = draw(untied_pair(sa, sb))
        if draw(st.booleans()):
            a, b = b, a
        return fn, [a, b]

    return build


for _name, _fn in {
    "maximum": torch.maximum, "minimum": torch.minimum,
    "maximum_method": lambda a, b: a.maximum(b), "minimum_method": lambda a, b: a.minimum(b),
    "max_binary": torch.max, "min_binary": torch.min,
    "max_other": lambda a, b: torch.max(a, other=b),
    "where_compare": lambda a, b: torch.where(a > b, a * b, b - a),
}.items():
    case(f"binary/{_name}", gradgrad=True)(_untied(_fn))


def _clamp_bound(bound: str) -> Callable[[Any], Case]:
    def build(draw: Any) -> Case:
        sx, sb = draw(broadcastable_shapes())
        sx = np.broadcast_shapes(sx, sb)  # the bound broadcasts to x (the output has x's shape)
        x, b = draw(untied_pair(sx, sb))
        return (lambda x, b: torch.clamp(x, **{bound: b})), [x, b]

    return build


case("binary/clamp_tensor_min", gradgrad=True)(_clamp_bound("min"))
case("binary/clamp_tensor_max", gradgrad=True)(_clamp_bound("max"))


@case("binary/clamp_tensor_both", gradgrad=True)
def _clamp_tensor_both(draw: Any) -> Case:
    sx, slo, shi = draw(broadcastable_shapes(3))
    sx = np.broadcast_shapes(sx, slo, shi)
    x = draw(grid(sx))
    lo, hi = draw(grid(slo, 0.25, -4, -1)), draw(grid(shi, 0.25, 0, 3))  # lo < 0 < hi
    fn = draw(st.sampled_from([lambda x, lo, hi: torch.clamp(x, lo, hi),
                               lambda x, lo, hi: x.clamp(min=lo, max=hi),
                               lambda x, lo, hi: x.clip(lo, hi)]))
    return fn, [x, lo, hi]


@case("binary/where_scalar", gradgrad=True)
def _where_scalar(draw: Any) -> Case:
    sc, sx = draw(broadcastable_shapes())
    cond = np.array(draw(st.lists(st.booleans(), min_size=_numel(sc), max_size=_numel(sc))))
    cond_t = torch.tensor(cond.reshape(sc).tolist(), dtype=torch.bool)
    if draw(st.booleans()):
        return (lambda x: torch.where(cond_t, x, 2.0)), [draw(arrays(sx))]
    return (lambda x: torch.where(cond_t, -1.0, x * 3)), [draw(arrays(sx))]


@case("binary/where_method", gradgrad=True)
def _where_method(draw: Any) -> Case:
    sc, sa, sb = draw(broadcastable_shapes(3))
    cond = np.array(draw(st.lists(st.booleans(), min_size=_numel(sc), max_size=_numel(sc))))
    cond_t = torch.tensor(cond.reshape(sc).tolist(), dtype=torch.bool)
    return (lambda a, b: a.where(cond_t, b)), [draw(arrays(sa)), draw(arrays(sb))]


@case("binary/where_three", gradgrad=True)
def _where_three(draw: Any) -> Case:
    sc, sa, sb = draw(broadcastable_shapes(3))
    cond = np.array(draw(st.lists(st.booleans(), min_size=_numel(sc), max_size=_numel(sc))))
    cond_t = torch.tensor(cond.reshape(sc).tolist(), dtype=torch.bool)
    return (lambda a, b: torch.where(cond_t, a, b)), [draw(arrays(sa)), draw(arrays(sb))]


@case("binary/same_input", gradgrad=True)
def _same_input(draw: Any) -> Case:
    shape = draw(shapes())
    return (lambda x: x * x + x / (x * x + 1) - x.exp() * x), [draw(arrays(shape))]


# ---- reductions -------------------------------------------------------------------------------

def _reduce(fn: Callable, domain: Callable = _any, none_ok: bool = True,
            tuple_ok: bool = True) -> Callable[[Any], Case]:
    def build(draw: Any) -> Case:
        shape = draw(shapes())
        dim, keepdim = draw(dim_keepdim(shape, none_ok, tuple_ok))
        return (lambda x: fn(x, dim, keepdim)), [draw(domain(shape))]

    return build


REDUCTIONS: dict[str, Callable[[Any], Case]] = {
    "sum_all": lambda d: (torch.sum, [d(arrays(d(shapes())))]),
    "sum_method": lambda d: ((lambda x: x.sum()), [d(arrays(d(shapes())))]),
    "sum_dim": _reduce(lambda x, dim, k: torch.sum(x, dim, keepdim=k)),
    "sum_dim_method": _reduce(lambda x, dim, k: x.sum(dim=dim, keepdim=k)),
    "mean_all": lambda d: (torch.mean, [d(arrays(d(shapes())))]),
    "mean_dim": _reduce(lambda x, dim, k: torch.mean(x, dim, k)),
    "amax": _reduce(lambda x, dim, k: torch.amax(x, () if dim is None else dim, k), distinct),
    "amin": _reduce(lambda x, dim, k: x.amin(() if dim is None else dim, keepdim=k), distinct),
    "max_dim": _reduce(lambda x, dim, k: torch.max(x, dim, k).values, distinct, False, False),
    "max_dim_tuple": _reduce(lambda x, dim, k: x.max(dim, keepdim=k)[0], distinct, False, False),
    "min_dim": _reduce(lambda x, dim, k: torch.min(x, dim=dim, keepdim=k).values, distinct,
                       False, False),
    "median_dim": _reduce(lambda x, dim, k: x.median(dim, keepdim=k).values, distinct, False,
                          False),
    "median_all": lambda d: ((lambda x: torch.median(x)), [d(distinct(d(shapes())))]),
    "logsumexp": _reduce(lambda x, dim, k: torch.logsumexp(x, dim, k), _any, False),
    "logsumexp_method": _reduce(lambda x, dim, k: x.logsumexp(dim, keepdim=k), _any, False),
    "softmax": _reduce(lambda x, dim, k: torch.softmax(x, dim), _any, False, False),
    "softmax_method": _reduce(lambda x, dim, k: x.softmax(dim), _any, False, False),
    "log_softmax": _reduce(lambda x, dim, k: torch.log_softmax(x, dim), _any, False, False),
    "log_softmax_method": _reduce(lambda x, dim, k: x.log_softmax(dim=dim), _any, False, False),
    "norm_fn": _reduce(lambda x, dim, k: torch.norm(x, dim=dim, keepdim=k), nonzero, True, False),
    "norm_dim": _reduce(lambda x, dim, k: x.norm(dim=dim, keepdim=k), nonzero, True, False),
}
for _name, _b in REDUCTIONS.items():
    case(f"reduce/{_name}", gradgrad=True)(_b)


@case("reduce/max_all", gradgrad=True)
def _max_all(draw: Any) -> Case:
    fn = draw(st.sampled_from([torch.max, torch.min, lambda x: x.max(), lambda x: x.min()]))
    return fn, [draw(distinct(draw(shapes())))]


@case("reduce/var_std", gradgrad=True)
def _var_std(draw: Any) -> Case:
    shape = draw(shapes())
    dim, keepdim = draw(dim_keepdim(shape))
    nd = max(len(shape), 1)
    axes = range(len(shape)) if dim is None else [dim] if isinstance(dim, int) else dim
    n = _numel([shape[a % nd] for a in axes]) if shape else 1
    corr = draw(st.sampled_from([0, 1, 2]))
    assume(n - corr > 0)
    op = draw(st.sampled_from([torch.var, torch.std, lambda x, *a, **k: x.var(*a, **k),
                               lambda x, *a, **k: x.std(*a, **k)]))
    form = draw(st.sampled_from(["correction", "unbiased", "default"]))
    if form == "unbiased":
        assume(corr < 2)
        kw: dict = {"unbiased": bool(corr)}
    elif form == "default":
        assume(corr == 1)
        kw = {}
    else:
        kw = {"correction": corr}
    return (lambda x: op(x, dim, keepdim=keepdim, **kw)), [draw(distinct(shape))]


@case("reduce/prod", gradgrad=True)
def _prod(draw: Any) -> Case:
    shape = draw(shapes(max_numel=8))
    x = draw(arrays(shape, 0.5, 1.5)) * draw(st.sampled_from([1.0, -1.0]))
    if x.size and draw(st.booleans()):  # an exact zero: prod is a polynomial, still smooth
        zeros = draw(st.lists(st.integers(0, x.size - 1), min_size=1, max_size=2))
        x.reshape(-1)[zeros] = 0.0
    return draw(st.sampled_from([torch.prod, lambda x: x.prod()])), [x]


@case("reduce/prod_dim", gradgrad=True)
def _prod_dim(draw: Any) -> Case:
    shape = draw(shapes(min_dims=0, max_numel=8))
    dim, keepdim = draw(dim_keepdim(shape, False, False))
    x = draw(arrays(shape, 0.5, 1.5))
    if x.size and draw(st.booleans()):
        zeros = draw(st.lists(st.integers(0, x.size - 1), min_size=1, max_size=2))
        x.reshape(-1)[zeros] = 0.0
    return (lambda t: torch.prod(t, dim, keepdim=keepdim)), [x]


@case("reduce/softmax_dtype")
def _softmax_dtype(draw: Any) -> Case:
    shape = draw(shapes(min_dims=1))
    dim = draw(dims(shape, False, False))
    return (lambda x: torch.softmax(x, dim, dtype=torch.float64)
            + x.log_softmax(dim, dtype=torch.float64)), [draw(arrays(shape))]


# ---- linear algebra -------------------------------------------------------------------------

@st.composite
def matmul_shapes(draw: Any) -> tuple[tuple, tuple]:
    """Operand shapes for every matmul dispatch: dot, mv, vm, mm, folded, batched, broadcast."""
    n, k, m = (draw(st.integers(1, 3)) for _ in range(3))
    kind = draw(st.sampled_from(["1-1", "2-1", "1-2", "2-2", "N-2", "N-1", "1-N", "2-N",
                                 "N-N"]))
    ba, bb = draw(broadcastable_shapes(2, max_dims=2, max_side=2))
    if kind == "1-1":
        return (k,), (k,)
    if kind == "2-1":
        return (n, k), (k,)
    if kind == "1-2":
        return (k,), (k, m)
    if kind == "2-2":
        return (n, k), (k, m)
    ba = ba or (2,)
    bb = bb or (2,)
    if kind == "N-2":
        return ba + (n, k), (k, m)
    if kind == "N-1":
        return ba + (n, k), (k,)
    if kind == "1-N":
        return (k,), bb + (k, m)
    if kind == "2-N":
        return (n, k), bb + (k, m)
    return ba + (n, k), bb + (k, m)


def _matmul(fn: Callable) -> Callable[[Any], Case]:
    def build(draw: Any) -> Case:
        sa, sb = draw(matmul_shapes())
        return fn, [draw(arrays(sa)), draw(arrays(sb))]

    return build


for _name, _fn in {"matmul": torch.matmul, "matmul_op": lambda a, b: a @ b,
                   "matmul_method": lambda a, b: a.matmul(b)}.items():
    case(f"linalg/{_name}", gradgrad=True)(_matmul(_fn))


def _fixed(fn: Callable, make_shapes: Callable[[Any], tuple]) -> Callable[[Any], Case]:
    def build(draw: Any) -> Case:
        return fn, [draw(arrays(s)) for s in make_shapes(draw)]

    return build


def _ints(draw: Any, k: int, hi: int = 3) -> list[int]:
    return [draw(st.integers(1, hi)) for _ in range(k)]


def _mm_shapes(d: Any) -> tuple:
    n, k, m = _ints(d, 3)
    return (n, k), (k, m)


def _mv_shapes(d: Any) -> tuple:
    n, k = _ints(d, 2)
    return (n, k), (k,)


def _dot_shapes(d: Any) -> tuple:
    return ((_ints(d, 1, 5)[0],),) * 2


def _bmm_shapes(d: Any) -> tuple:
    b, n, k, m = _ints(d, 4)
    return (b, n, k), (b, k, m)


LINALG: dict[str, Callable[[Any], Case]] = {
    "mm": _fixed(torch.mm, _mm_shapes), "mm_method": _fixed(lambda a, b: a.mm(b), _mm_shapes),
    "mv": _fixed(torch.mv, _mv_shapes), "mv_method": _fixed(lambda a, b: a.mv(b), _mv_shapes),
    "dot": _fixed(torch.dot, _dot_shapes), "dot_method": _fixed(lambda a, b: a.dot(b),
                                                                _dot_shapes),
    "bmm": _fixed(torch.bmm, _bmm_shapes), "bmm_method": _fixed(lambda a, b: a.bmm(b),
                                                                _bmm_shapes),
    "outer": _fixed(torch.outer, lambda d: ((_ints(d, 1, 4)[0],), (_ints(d, 1, 4)[0],))),
    "outer_method": _fixed(lambda a, b: a.outer(b), lambda d: ((2,), (3,))),
    "trace": _fixed(torch.trace, lambda d: (tuple(_ints(d, 2, 4)),)),
    "trace_method": _fixed(lambda a: (a @ a.t()).trace(), lambda d: (tuple(_ints(d, 2, 4)),)),
    "addmm": _fixed(torch.addmm, lambda d: ((d(st.sampled_from([(2, 3), (3,), (1, 3)])),)
                                             + ((2, 4), (4, 3)))),
    "mm_const_lhs": _fixed(lambda b: torch.tensor(np.ones((2, 3)), dtype=torch.float64) @ b,
                           lambda d: ((3, 2),)),
    "matmul_chain": _fixed(lambda a, b: torch.tanh(a @ b) @ b.t(), lambda d: ((2, 3), (3, 3))),
}
for _name, _b in LINALG.items():
    case(f"linalg/{_name}", gradgrad=True)(_b)


# ---- movement: views and copies ---------------------------------------------------------------

def _one(fn_of_shape: Callable[[Any, tuple], Callable], min_dims: int = 0,
         max_dims: int = 4) -> Callable[[Any], Case]:
    def build(draw: Any) -> Case:
        shape = draw(shapes(min_dims=min_dims, max_dims=max_dims))
        return fn_of_shape(draw, shape), [draw(arrays(shape))]

    return build


def _reshape(d: Any, s: tuple) -> Callable:
    new = d(shape_with_numel(_numel(s)))
    transposed = len(s) >= 2 and d(st.booleans())
    if transposed:  # a non-contiguous input: reshape copies (clone + view)
        return lambda x: x.transpose(0, 1).reshape(new)
    return d(st.sampled_from([lambda x: x.reshape(new), lambda x: torch.reshape(x, new),
                              lambda x: x.reshape(*new) if new else x.reshape(())]))


def _view(d: Any, s: tuple) -> Callable:
    new = d(shape_with_numel(_numel(s)))
    return lambda x: x.view(new)


def _flatten(d: Any, s: tuple) -> Callable:
    nd = max(len(s), 1)
    a, b = sorted(d(st.lists(st.integers(0, nd - 1), min_size=2, max_size=2)))
    b = b - nd if d(st.booleans()) else b
    return lambda x: torch.flatten(x, a, b)


def _unflatten(d: Any, s: tuple) -> Callable:
    dim = d(st.integers(0, len(s) - 1))
    sizes = d(shape_with_numel(s[dim], max_dims=3, allow_infer=False)) or (1,)
    return lambda x: x.unflatten(dim, sizes)


def _permute(d: Any, s: tuple) -> Callable:
    perm = d(permutations(len(s)))
    return d(st.sampled_from([lambda x: x.permute(*perm) if perm else x.permute(perm),
                              lambda x: torch.permute(x, perm)]))


def _transpose(d: Any, s: tuple) -> Callable:
    n = max(len(s), 1)
    a, b = d(st.integers(-n, n - 1)), d(st.integers(-n, n - 1))
    return d(st.sampled_from([lambda x: x.transpose(a, b), lambda x: torch.transpose(x, a, b),
                              lambda x: x.swapaxes(a, b)]))


def _unsqueeze(d: Any, s: tuple) -> Callable:
    dim = d(st.integers(-len(s) - 1, len(s)))
    return d(st.sampled_from([lambda x: x.unsqueeze(dim), lambda x: torch.unsqueeze(x, dim)]))


def _squeeze(d: Any, s: tuple) -> Callable:
    kind = d(st.sampled_from(["all", "int", "tuple"]))
    if kind == "all" or not s:
        return lambda x: x.squeeze()
    if kind == "int":
        dim = d(st.integers(-len(s), len(s) - 1))
        return lambda x: torch.squeeze(x, dim)
    dd = tuple(d(st.lists(st.integers(0, len(s) - 1), min_size=1, unique=True)))
    return lambda x: x.squeeze(dd)


def _expand(d: Any, s: tuple) -> Callable:
    lead = tuple(d(st.lists(st.integers(1, 3), max_size=2)))
    tgt = tuple(d(st.integers(1, 3)) if n == 1 else n for n in s)
    spec = lead + tuple(-1 if d(st.integers(0, 3)) == 0 else n for n in tgt)
    return d(st.sampled_from([lambda x: x.expand(spec),
                              lambda x: x.expand(*spec) if spec else x.expand(spec)]))


def _expand_as(d: Any, s: tuple) -> Callable:
    other = torch.zeros((2,) + tuple(3 if n == 1 else n for n in s), dtype=torch.float64)
    return lambda x: x.expand_as(other)


def _repeat(d: Any, s: tuple) -> Callable:
    reps = tuple(d(st.lists(st.integers(1, 3), min_size=len(s), max_size=len(s) + 2)))
    return lambda x: x.repeat(*reps) if reps else x.repeat(())


def _flip(d: Any, s: tuple) -> Callable:
    dd = d(dims(s, allow_none=False))
    return d(st.sampled_from([lambda x: torch.flip(x, dd if isinstance(dd, tuple) else (dd,)),
                              lambda x: x.flip(dd if isinstance(dd, tuple) else [dd])]))


def _narrow(d: Any, s: tuple) -> Callable:
    dim = d(st.integers(0, len(s) - 1))
    start = d(st.integers(0, s[dim] - 1))
    length = d(st.integers(0, s[dim] - start))
    return d(st.sampled_from([lambda x: x.narrow(dim, start, length),
                              lambda x: torch.narrow(x, dim - len(s), start, length)]))


def _select(d: Any, s: tuple) -> Callable:
    dim = d(st.integers(-len(s), len(s) - 1))
    i = d(st.integers(-s[dim], s[dim] - 1))
    return d(st.sampled_from([lambda x: x.select(dim, i), lambda x: torch.select(x, dim, i)]))


def _split(d: Any, s: tuple) -> Callable:
    dim = d(st.integers(0, len(s) - 1))
    if d(st.booleans()):
        size = d(st.integers(1, s[dim] + 1))
        return lambda x: torch.split(x, size, dim)
    cuts = sorted(d(st.lists(st.integers(0, s[dim]), max_size=2)))
    bounds = [0, *cuts, s[dim]]
    sizes = [b - a for a, b in zip(bounds, bounds[1:])]
    return lambda x: x.split(sizes, dim=dim)


def _chunk(d: Any, s: tuple) -> Callable:
    dim = d(st.integers(-len(s), len(s) - 1))
    n = d(st.integers(1, 4))
    return d(st.sampled_from([lambda x: x.chunk(n, dim), lambda x: torch.chunk(x, n, dim)]))


def _unbind(d: Any, s: tuple) -> Callable:
    dim = d(st.integers(-len(s), len(s) - 1))
    return d(st.sampled_from([lambda x: x.unbind(dim), lambda x: torch.unbind(x, dim)]))


def _t(d: Any, s: tuple) -> Callable:
    return d(st.sampled_from([lambda x: x.t(), lambda x: torch.t(x)]))


def _T(d: Any, s: tuple) -> Callable:  # noqa: N802
    def f(x: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # .T on non-2-D tensors is deprecated in torch
            return x.T

    return f


MOVEMENT: dict[str, Callable[[Any], Case]] = {
    "reshape": _one(_reshape), "view": _one(_view), "flatten": _one(_flatten),
    "flatten_method": _one(lambda d, s: lambda x: x.flatten()),
    "unflatten": _one(_unflatten, min_dims=1), "permute": _one(_permute),
    "transpose": _one(_transpose), "t": _one(_t, max_dims=2), "T": _one(_T),
    "mT": _one(lambda d, s: lambda x: x.mT, min_dims=2), "unsqueeze": _one(_unsqueeze),
    "squeeze": _one(_squeeze), "expand": _one(_expand), "expand_as": _one(_expand_as),
    "repeat": _one(_repeat), "flip": _one(_flip), "narrow": _one(_narrow, min_dims=1),
    "select": _one(_select, min_dims=1), "split": _one(_split, min_dims=1),
    "chunk": _one(_chunk, min_dims=1), "unbind": _one(_unbind, min_dims=1),
    "view_as": _one(lambda d, s: lambda x: (x * 2).view_as(torch.zeros(_numel(s)))),
    "reshape_as": _one(lambda d, s: lambda x: x.t().reshape_as(torch.zeros(_numel(s))),
                       max_dims=2),
    "contiguous_of_view": _one(lambda d, s: lambda x: x.t().contiguous(), min_dims=2,
                               max_dims=2),
    "views_chain": _one(lambda d, s: lambda x: x.unsqueeze(0).transpose(0, -1).flatten()[1:],
                        min_dims=1),
}
for _name, _b in MOVEMENT.items():
    case(f"movement/{_name}")(_b)


@case("movement/cat")
def _cat(draw: Any) -> Case:
    shape = draw(shapes(min_dims=1, max_numel=12))
    dim = draw(st.integers(-len(shape), len(shape) - 1))
    k = draw(st.integers(1, 3))
    parts = []
    for _ in range(k):
        s = list(shape)
        s[dim] = draw(st.integers(0, 3))
        parts.append(draw(arrays(tuple(s))))
    fn = draw(st.sampled_from([torch.cat, torch.concat]))
    return (lambda *ts: fn(list(ts), dim)), parts


@case("movement/stack")
def _stack(draw: Any) -> Case:
    shape = draw(shapes(max_numel=12))
    dim = draw(st.integers(-len(shape) - 1, len(shape)))
    k = draw(st.integers(1, 3))
    return (lambda *ts: torch.stack(ts, dim=dim)), [draw(arrays(shape)) for _ in range(k)]


@case("movement/cat_const_and_reuse")
def _cat_reuse(draw: Any) -> Case:
    shape = draw(shapes(min_dims=1, max_numel=12))
    const = torch.ones(shape, dtype=torch.float64)
    return (lambda x: torch.cat([x, const, x * 2], -1)), [draw(arrays(shape))]


@case("movement/getitem")
def _getitem(draw: Any) -> Case:
    shape = draw(shapes(max_dims=3))
    key = draw(index_expressions(shape))
    return (lambda x: x[key]), [draw(arrays(shape))]


@case("movement/getitem_twice")
def _getitem_twice(draw: Any) -> Case:
    shape = draw(shapes(min_dims=1, max_dims=3))
    k1 = draw(index_expressions(shape))
    x = draw(arrays(shape))
    with torch.no_grad():
        try:
            inner = torch.tensor(x)[k1].shape
        except IndexError:
            inner = None
    assume(inner is not None)
    k2 = draw(index_expressions(tuple(inner)))
    return (lambda t: t[k1][k2] * 2), [x]


# ---- index-driven ops, sorting, triangles, stacking ---------------------------------------------

def _index_for(draw: Any, shape: tuple, dim: int, unique: bool = False) -> np.ndarray:
    """An int64 index for gather/scatter along ``dim``: same ndim, each size <= the input's,
    values in range (with ``unique``, no repeats along ``dim``: scatter writes each slot once)."""
    ishape = [draw(st.integers(1, n)) for n in shape]
    n = shape[dim]
    if unique:
        ishape[dim] = draw(st.integers(1, n))
        rows = int(np.prod(ishape, dtype=np.int64)) // ishape[dim]
        picks = [draw(st.permutations(range(n)))[:ishape[dim]] for _ in range(rows)]
        idx = np.moveaxis(np.array(picks, dtype=np.int64).reshape(
            [s for i, s in enumerate(ishape) if i != dim] + [ishape[dim]]), -1, dim)
        return idx
    vals = draw(st.lists(st.integers(0, n - 1), min_size=int(np.prod(ishape)),
                         max_size=int(np.prod(ishape))))
    return np.array(vals, dtype=np.int64).reshape(ishape)


@case("index/gather", gradgrad=True)
def _gather(draw: Any) -> Case:
    shape = draw(shapes(min_dims=1, max_dims=3))
    dim = draw(st.integers(0, len(shape) - 1))
    idx = torch.tensor(_index_for(draw, shape, dim))
    fn = draw(st.sampled_from([lambda x: torch.gather(x, dim, idx),
                               lambda x: x.gather(dim - len(shape), idx)]))
    return fn, [draw(arrays(shape))]


@case("index/scatter", gradgrad=True)
def _scatter(draw: Any) -> Case:
    shape = draw(shapes(min_dims=1, max_dims=3))
    dim = draw(st.integers(0, len(shape) - 1))
    idx = _index_for(draw, shape, dim, unique=True)
    src_shape = tuple(idx.shape)
    it = torch.tensor(idx)
    if draw(st.booleans()):
        return (lambda x, s: x.scatter(dim, it, s)), [draw(arrays(shape)), draw(arrays(src_shape))]
    return (lambda x: torch.scatter(x, dim, it, 2.5) * x), [draw(arrays(shape))]


@case("index/scatter_add", gradgrad=True)
def _scatter_add(draw: Any) -> Case:
    shape = draw(shapes(min_dims=1, max_dims=3))
    dim = draw(st.integers(0, len(shape) - 1))
    idx = _index_for(draw, shape, dim)
    it = torch.tensor(idx)
    fn = draw(st.sampled_from([lambda x, s: torch.scatter_add(x, dim, it, s),
                               lambda x, s: (x * 1).scatter_add_(dim, it, s)]))
    return fn, [draw(arrays(shape)), draw(arrays(tuple(idx.shape)))]


@case("index/index_select", gradgrad=True)
def _index_select(draw: Any) -> Case:
    shape = draw(shapes(min_dims=1, max_dims=3))
    dim = draw(st.integers(0, len(shape) - 1))
    idx = torch.tensor(draw(st.lists(st.integers(0, shape[dim] - 1), min_size=1, max_size=4)))
    return (lambda x: torch.index_select(x, dim, idx)), [draw(arrays(shape))]


@case("index/index_fill", gradgrad=True)
def _index_fill(draw: Any) -> Case:
    """The filled slices get no gradient from ``x``; a 0-d tensor value gets their sum."""
    shape = draw(shapes(min_dims=1, max_dims=3))
    dim = draw(st.integers(0, len(shape) - 1))
    idx = torch.tensor(draw(st.lists(st.integers(0, shape[dim] - 1), min_size=1, max_size=3)))
    fn = draw(st.sampled_from([lambda x, v: x.index_fill(dim, idx, v),
                               lambda x, v: (x * 1).index_fill_(dim, idx, v)]))
    return fn, [draw(arrays(shape)), draw(arrays(()))]


@case("index/embedding", gradgrad=True)
def _embedding(draw: Any) -> Case:
    n, d = draw(st.integers(2, 5)), draw(st.integers(1, 3))
    pad = draw(st.sampled_from([None, 0]))  # padding_idx: that row's gradient is zero by
    low = 0 if pad is None else 1            # design, so it is not looked up here
    idx = torch.tensor(draw(st.lists(st.integers(low, n - 1), min_size=1, max_size=6)))
    return (lambda w: F.embedding(idx, w, padding_idx=pad)), [draw(arrays((n, d)))]


@case("sorting/sort")
def _sort(draw: Any) -> Case:
    shape = draw(shapes(max_dims=3))
    dim = draw(st.integers(-max(len(shape), 1), max(len(shape), 1) - 1))
    desc = draw(st.booleans())
    fn = draw(st.sampled_from([lambda x: torch.sort(x, dim, desc).values,
                               lambda x: x.sort(dim=dim, descending=desc)[0]]))
    return fn, [draw(distinct(shape))]


@case("sorting/topk")
def _topk(draw: Any) -> Case:
    shape = draw(shapes(min_dims=1, max_dims=3))
    dim = draw(st.integers(0, len(shape) - 1))
    k = draw(st.integers(0, shape[dim]))
    largest = draw(st.booleans())
    return (lambda x: torch.topk(x, k, dim, largest).values), [draw(distinct(shape))]


def _tri(d: Any, s: tuple) -> Callable:
    k = d(st.integers(-2, 2))
    return d(st.sampled_from([lambda x: torch.tril(x, k), lambda x: x.triu(k),
                              lambda x: torch.triu(x, diagonal=k)]))


def _diagonal(d: Any, s: tuple) -> Callable:
    off = d(st.integers(-2, 2))
    a, b = d(st.permutations(range(len(s))))[:2]
    return lambda x: torch.diagonal(x, off, a, b)


def _diag(d: Any, s: tuple) -> Callable:
    off = d(st.integers(-2, 2))
    return lambda x: torch.diag(x, off)


def _cumsum(d: Any, s: tuple) -> Callable:
    dim = d(st.integers(-len(s), len(s) - 1))
    return d(st.sampled_from([lambda x: torch.cumsum(x, dim), lambda x: x.cumsum(dim=dim)]))


def _cumprod(d: Any, s: tuple) -> Callable:
    dim = d(st.integers(-len(s), len(s) - 1))
    return d(st.sampled_from([lambda x: torch.cumprod(x, dim), lambda x: x.cumprod(dim=dim)]))


def _cumprod_case(draw: Any) -> Case:
    """cumprod on values that are 0 or at least GAP from it: without zeros, torch's (and our)
    double-backward formula divides by x (reversed_cumsum(y * g) / x), which a tiny nonzero x
    makes unstable in torch just as here, so central differences cannot check it there."""
    shape = draw(shapes(min_dims=1))
    a = draw(arrays(shape))
    a = np.where((a != 0) & (np.abs(a) < GAP), np.copysign(2 * GAP, a), a)
    return _cumprod(draw, shape), [a]


def _repeat_interleave(d: Any, s: tuple) -> Callable:
    r = d(st.integers(1, 3))
    dim = d(st.sampled_from([None] + list(range(len(s)))))
    return lambda x: x.repeat_interleave(r, dim=dim)


def _tile(d: Any, s: tuple) -> Callable:
    reps = tuple(d(st.lists(st.integers(1, 3), min_size=1, max_size=len(s) + 1)))
    return lambda x: torch.tile(x, reps)


def _broadcast_to(d: Any, s: tuple) -> Callable:
    lead = tuple(d(st.lists(st.integers(1, 3), max_size=2)))
    tgt = lead + tuple(d(st.integers(1, 3)) if n == 1 else n for n in s)
    return lambda x: torch.broadcast_to(x, tgt)


for _name, _b in {
    "tril_triu": _one(_tri, min_dims=2), "diagonal": _one(_diagonal, min_dims=2, max_dims=3),
    "diag_vector": _one(_diag, min_dims=1, max_dims=1),
    "diag_matrix": _one(_diag, min_dims=2, max_dims=2), "cumsum": _one(_cumsum, min_dims=1),
    "cumprod": _cumprod_case, "repeat_interleave": _one(_repeat_interleave), "tile": _one(_tile),
    "broadcast_to": _one(_broadcast_to),
}.items():
    case(f"movement/{_name}", gradgrad=_name in ("cumsum", "cumprod", "tril_triu"))(_b)


@case("movement/hstack_vstack")
def _hvstack(draw: Any) -> Case:
    shape = draw(shapes(max_dims=3, max_numel=12))
    k = draw(st.integers(1, 3))
    fn = draw(st.sampled_from([torch.hstack, torch.vstack]))
    return (lambda *ts: fn(list(ts))), [draw(arrays(shape)) for _ in range(k)]


# ---- the tests -------------------------------------------------------------------------------

def _run(build: Callable[[Any], Case], data: Any) -> tuple:
    fn, arrs = build(data.draw)
    return fn, arrs, data.draw(seeds())


def _valid(fn: Callable, arrs: list) -> bool:
    """Reject draws whose arguments are invalid for the op (torch raises there too)."""
    try:
        with torch.no_grad():
            fn(*[torch.tensor(a, dtype=torch.float64) for a in arrs])
    except (IndexError, RuntimeError):
        return False
    return True


# cases with many forms get several draws per example
REPEAT = {"movement/getitem": 6, "movement/getitem_twice": 3, "linalg/matmul": 3,
          "linalg/matmul_op": 2, "binary/where_three": 2}


@pytest.mark.parametrize("name", list(CASES))
@given(data=st.data())
@SETTINGS
def test_vjp_matches_central_differences(name: str, data: Any) -> None:
    for _ in range(REPEAT.get(name, 1)):
        fn, arrs, seed = _run(CASES[name], data)
        if name.startswith("movement/getitem"):
            assume(_valid(fn, arrs))
        assert_vjp(fn, *arrs, seed=seed)


@pytest.mark.parametrize("name", GRADGRAD)
@given(data=st.data())
@GRADGRAD_SETTINGS
def test_second_derivative_matches_central_differences(name: str, data: Any) -> None:
    fn, arrs, seed = _run(CASES[name], data)
    assert_gradgrad(fn, *arrs, seed=seed)


NOT_DIFFERENTIABLE = {
    "allclose", "argmax", "argmin", "bitwise_and", "bitwise_not", "bitwise_or", "bitwise_xor",
    "eq", "equal", "floor_divide", "ge", "gt", "isclose", "le", "logical_not", "lt", "ne",
    "remainder", "argsort", "count_nonzero", "isfinite", "isinf", "isnan", "logical_and",
    "logical_or", "logical_xor", "nonzero", "one_hot",
}


def test_every_differentiable_op_has_a_case() -> None:
    """Each differentiable op exported by autograd_lab.ops appears in some case's name."""
    from autograd_lab import ops

    missing = [op for op in ops.__all__ if op not in NOT_DIFFERENTIABLE
               and not any(op in name for name in CASES)]
    assert not missing


# ---- dtype casts: the gradient of a cast is the identity, cast back ----------------------------

@given(shape=shapes(), seed=seeds())
@SETTINGS
def test_cast_gradient_is_upstream_cast_back(shape: tuple, seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = torch.tensor(rng.standard_normal(shape), requires_grad=True)
    u = torch.tensor(rng.standard_normal(shape).astype(np.float32))
    for cast in (lambda t: t.to(torch.float32), lambda t: t.float(), lambda t: t.type_as(u),
                 lambda t: t.to(u), lambda t: t.to(dtype=torch.float32)):
        x.grad = None
        y = cast(x)
        assert y.dtype is torch.float32 and y.grad_fn.name() == "ToCopyBackward0"
        y.backward(u)
        assert x.grad.dtype is torch.float64
        np.testing.assert_array_equal(x.grad.numpy(), u.numpy().astype(np.float64))
    x.grad = None
    y = x.half().float().double()
    y.backward(torch.tensor(np.ones(shape)))
    np.testing.assert_array_equal(x.grad.numpy(), np.ones(shape))
