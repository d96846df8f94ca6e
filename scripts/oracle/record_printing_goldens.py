"""Record reference tensor reprs from PyTorch into ``tests/goldens/printing.json``.

Run with a Python that has torch and numpy installed::

    python scripts/oracle/record_printing_goldens.py

Input values are generated with numpy (seeded), turned into torch tensors, and the
tensor's own values are stored next to its ``repr()``.  Floating-point values are
stored with ``float.hex`` (exact, and able to hold nan/inf/-0.0); integers and
booleans as JSON numbers and booleans.  Each case is a dict with the keys
``name``, ``values`` (flat list), ``shape``, ``dtype``, ``requires_grad``,
``grad_fn_name``, ``printoptions`` (keyword arguments for ``set_printoptions``),
``repr`` and, when not the defaults, ``prefix`` and ``default_dtype``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch

OUTPUT = Path(__file__).resolve().parents[2] / "tests" / "goldens" / "printing.json"

NAN = math.nan
INF = math.inf

CASES: list[dict[str, Any]] = []


class Foo(torch.Tensor):
    """A trivial subclass, whose repr uses the prefix ``Foo(``."""


class LongSubclassName(torch.Tensor):
    """A subclass with a longer prefix, to check continuation-line indents."""


def _encode(value: Any) -> Any:
    if isinstance(value, float):
        return value.hex()
    return value


def record(
    name: str,
    tensor: torch.Tensor,
    printoptions: dict[str, Any] | None = None,
    default_dtype: torch.dtype | None = None,
) -> None:
    """Record the repr of ``tensor`` under the given print options."""
    printoptions = printoptions or {}
    if any(case["name"] == name for case in CASES):
        raise ValueError(f"duplicate case name {name}")
    old_default = torch.get_default_dtype()
    if default_dtype is not None:
        torch.set_default_dtype(default_dtype)
    try:
        with torch._tensor_str.printoptions(**printoptions):
            text = repr(tensor)
    finally:
        torch.set_default_dtype(old_default)
    grad_fn = tensor.grad_fn
    plain = tensor.detach().as_subclass(torch.Tensor)
    case: dict[str, Any] = {
        "name": name,
        "values": [_encode(v) for v in plain.reshape(-1).tolist()],
        "shape": list(plain.shape),
        "dtype": str(plain.dtype).removeprefix("torch."),
        "requires_grad": tensor.requires_grad,
        "grad_fn_name": None if grad_fn is None else type(grad_fn).__name__,
        "printoptions": printoptions,
        "repr": text,
    }
    if type(tensor) is not torch.Tensor:
        case["prefix"] = type(tensor).__name__ + "("
    if default_dtype is not None:
        case["default_dtype"] = str(default_dtype).removeprefix("torch.")
    CASES.append(case)


def t(values: Any, dtype: torch.dtype = torch.float32, requires_grad: bool = False) -> torch.Tensor:
    """A tensor from numpy data (or a nested list turned into numpy float64 first)."""
    array = np.array(values)
    if array.dtype == np.float64 and dtype != torch.float64:
        with np.errstate(over="ignore"):  # float16 overflow to inf is intended
            array = array.astype(torch.empty(0, dtype=dtype).numpy().dtype)
    tensor = torch.from_numpy(np.array(array, order="C")).to(dtype)
    return tensor.requires_grad_(requires_grad)


def rng(seed: int) -> np.random.Generator:
    """A seeded numpy generator (each case family has its own seed)."""
    return np.random.default_rng(seed)


def basic_cases() -> None:
    """Leaves, grad_fn suffixes, the common 1-d and 2-d layouts."""
    record("leaf_requires_grad", t([1.0, 2.0, 3.0], requires_grad=True))
    x = t([1.0, 2.0, 3.0], requires_grad=True)
    record("sum_grad_fn", (x * x).sum())
    record("float64_requires_grad", t([1.0, 2.0], torch.float64, requires_grad=True))
    record("row_2d", t([[-0.3410, 0.2424, 0.0986]]))
    record("int64_default", t(np.array([1, 2]), torch.int64))
    record("int32", t(np.array([1, 2]), torch.int32))
    record("bool_1d", t(np.array([True, False]), torch.bool))
    record("float_int_valued", t([1.0, 2.0, 3.0]))
    record("float_fraction", t([1.5, 2.0, 3.25]))
    record("float_precision_rounding", t([0.12345, 1.99999, 2.00005]))
    record("float_negative_mixed_width", t([-1.5, 22.25, -333.125, 4444.0]))
    record("int_valued_widths", t([1.0, 10.0, 100.0, -1000.0]))
    record("alignment_neg_small", t([-0.001, 0.5, 12.75]))
    record("half_basic", t([1.0, 2.0, 3.0], torch.float16))
    record("half_fraction", t([0.1, 1 / 3, -2.5], torch.float16))
    record("double_fraction", t([0.1, 1 / 3, -2.5], torch.float64))
    record("double_tiny_ok", t([1e-4, 0.5], torch.float64))
    record("double_1e-4_alone", t([1e-4], torch.float64))
    record("double_1e-4_ratio_ok", t([1e-4, 0.05], torch.float64))
    record("float_1e-4_is_sci", t([1e-4, 0.5]))
    record("float_1e-4_alone", t([1e-4]))


def sci_cases() -> None:
    """Where torch switches to scientific notation."""
    record("sci_small", t([1e-5, 1.0]))
    record("sci_large", t([1e8, 1.0]))
    record("sci_large_only", t([1e9]))
    record("sci_1e10", t([1e10]))
    record("sci_mix_1e-5_1e8", t([1e-5, 1e8]))
    record("sci_mix_2d", t([[1e-5, 1e8], [3.0, 4.0]]))
    record("ratio_exactly_1000", t([1000.0, 1.0]))
    record("ratio_above_1000", t([1000.5, 1.0]))
    record("ratio_below_1000", t([999.5, 1.0]))
    record("max_exactly_1e8", t([1e8]))
    record("max_above_1e8", t([1.0000001e8]))
    record("max_1e8_double", t([1e8, 1e8 + 1], torch.float64))
    record("max_1e8_plus_double", t([1e8 + 1], torch.float64))
    record("sci_negative", t([-1e-6, 2.5, -3e5]))
    record("sci_with_nan_inf", t([1e-5, NAN, -INF, 0.0, -0.0]))
    record("sci_extreme_float32", t([3e38, 1e-45]))
    record("sci_extreme_float64", t([1e308, 1e-308], torch.float64))
    record("sci_three_digit_exponent", t([1e200, -1.5e-200, 1.0], torch.float64))
    record("sci_half", t([65504.0, 1e-7], torch.float16))
    record("sci_half_ratio", t([0.001, 2.0], torch.float16))
    record("sci_scalar_large", t(1e10))
    record("sci_scalar_small", t(1.5e-7))
    record("sci_int_valued_big", t([1e9, 2e9, 3e9]))
    record(
        "sci_3d", t(rng(7).standard_normal((2, 2, 3)) * 10.0 ** rng(8).integers(-6, 6, (2, 2, 3)))
    )


def special_value_cases() -> None:
    """-0.0, zeros, inf and nan."""
    record("negative_zero", t([-0.0]))
    record("negative_zero_and_one", t([-0.0, 1.0]))
    record("negative_zero_and_fraction", t([-0.0, 1.5]))
    record("negative_zero_scalar", t(-0.0))
    record("zeros", t([0.0, 0.0]))
    record("zeros_2d", t(np.zeros((2, 3))))
    record("zeros_mixed_sign", t([0.0, -0.0, 0.0]))
    record("nan_only", t([NAN]))
    record("inf_only", t([INF, -INF]))
    record("nan_inf_only_2d", t([[NAN, INF], [-INF, 0.0]]))
    record("nan_with_fraction", t([NAN, 1.5]))
    record("nan_with_int_valued", t([1.0, NAN, -INF, 0.0, -0.0]))
    record("inf_with_large", t([INF, 1e10]))
    record("nan_scalar", t(NAN))
    record("inf_scalar", t(-INF))
    record("nan_double", t([NAN, 0.25, INF], torch.float64))
    record("nan_half", t([NAN, 0.25, -INF], torch.float16))
    record("neg_int_valued_with_inf", t([-100.0, INF, 3.0]))
    record("tiny_negative_sci", t([-0.00004, 0.5, 0.5]))


def int_and_bool_cases() -> None:
    """Integer and bool tensors."""
    record("int64_negative", t(np.array([-5, 10, 300]), torch.int64))
    record("int64_2d", t(np.arange(12).reshape(3, 4) - 6, torch.int64))
    record("int64_large", t(np.array([2**62, -(2**63), 7]), torch.int64))
    record("int32_2d", t(np.arange(6).reshape(2, 3), torch.int32))
    record("int16", t(np.array([-32768, 0, 32767]), torch.int16))
    record("int8", t(np.array([-128, 5, 127]), torch.int8))
    record("uint8", t(np.array([0, 7, 255]), torch.uint8))
    record("int64_scalar", t(np.array(7), torch.int64))
    record("int32_scalar", t(np.array(-7), torch.int32))
    record("uint8_scalar", t(np.array(200), torch.uint8))
    record("int64_wrap", t(np.arange(100) * 37, torch.int64))
    record("int64_wrap_wide", t(np.arange(40) * 123456789, torch.int64))
    record("int64_summarized", t(np.arange(1001), torch.int64))
    record("int32_summarized_2d", t(np.arange(1200).reshape(40, 30), torch.int32))
    record("int64_3d", t(np.arange(24).reshape(2, 3, 4), torch.int64))
    record("bool_2d", t(np.array([[True, False, True], [False, False, True]]), torch.bool))
    record("bool_all_true", t(np.array([True, True]), torch.bool))
    record("bool_scalar_true", t(np.array(True), torch.bool))
    record("bool_scalar_false", t(np.array(False), torch.bool))
    record("bool_wrap", t(rng(11).random(40) > 0.5, torch.bool))
    record("bool_summarized", t(rng(12).random(1500) > 0.5, torch.bool))
    record("bool_3d", t(rng(13).random((2, 2, 2)) > 0.5, torch.bool))


def shape_cases() -> None:
    """Scalars, empty tensors and higher-dimensional shapes."""
    record("scalar_float", t(3.5))
    record("scalar_int_valued", t(14.0))
    record("scalar_zero", t(0.0))
    record("scalar_double", t(0.123456789, torch.float64))
    record("scalar_half", t(0.1, torch.float16))
    record("scalar_requires_grad", t(2.5, requires_grad=True))
    record("empty_1d", t(np.zeros(0)))
    record("empty_0x3", t(np.zeros((0, 3))))
    record("empty_3x0", t(np.zeros((3, 0))))
    record("empty_2x0x3_int32", t(np.zeros((2, 0, 3), dtype=np.int32), torch.int32))
    record("empty_bool", t(np.zeros(0, dtype=bool), torch.bool))
    record("empty_int64", t(np.zeros(0, dtype=np.int64), torch.int64))
    record("empty_int64_2d", t(np.zeros((0, 2), dtype=np.int64), torch.int64))
    record("empty_float64", t(np.zeros(0), torch.float64))
    record("empty_float16", t(np.zeros((1, 0)), torch.float16))
    record("empty_requires_grad", t(np.zeros((0, 4)), requires_grad=True))
    record("one_element_2d", t([[5.0]]))
    record("one_element_4d", t(np.full((1, 1, 1, 1), 0.5)))
    record("column", t(rng(20).standard_normal((4, 1))))
    record("matrix_2x3", t(rng(21).standard_normal((2, 3))))
    record("matrix_5x5", t(rng(22).standard_normal((5, 5)) * 10))
    record("cube_2x3x4", t(rng(23).standard_normal((2, 3, 4))))
    record("cube_3x1x2", t(rng(24).standard_normal((3, 1, 2))))
    record("hyper_2x2x2x2", t(rng(25).standard_normal((2, 2, 2, 2))))
    record("hyper_5d", t(rng(26).standard_normal((2, 1, 2, 1, 3))))
    record("cube_int_valued", t(np.arange(8.0).reshape(2, 2, 2)))


def wrap_cases() -> None:
    """Rows wrapped at the line width."""
    record("arange_100", t(np.arange(100.0)))
    record("randn_50", t(rng(30).standard_normal(50)))
    record("randn_30_x100", t(rng(31).standard_normal(30) * 100))
    record("wrap_2d", t(rng(32).standard_normal((3, 30))))
    record("wrap_3d", t(rng(33).standard_normal((2, 2, 30))))
    record("wrap_sci", t(rng(34).standard_normal(25) * 1e6))
    record("wrap_double", t(rng(35).standard_normal(20), torch.float64))
    record("wrap_half", t(rng(36).standard_normal(30), torch.float16))
    record("wrap_exact_fit", t(np.arange(8.0) + 10.5))
    for n in range(6, 11):
        record(f"wrap_boundary_{n}", t(np.arange(n, dtype=np.float64) * 1000.25))
    for n in range(1, 13):
        x = t(rng(40 + n).standard_normal(n), torch.float64, requires_grad=True)
        record(f"suffix_wrap_leaf_{n}", x)
    for n in (7, 8, 9):
        x = t(rng(60 + n).standard_normal(n), torch.float64, requires_grad=True)
        record(f"suffix_wrap_grad_fn_{n}", x * 2)
    record("suffix_wrap_2d", t(rng(70).standard_normal((2, 8)), torch.float64, requires_grad=True))
    x = t(rng(71).standard_normal((2, 8)), torch.float16, requires_grad=True)
    record("suffix_wrap_half_grad_fn", x + 1)


def summary_cases() -> None:
    """Tensors long enough to be summarised with '...'."""
    record("summary_1001", t(rng(80).standard_normal(1001)))
    record("summary_1500", t(rng(81).standard_normal(1500)))
    record("summary_40x40", t(rng(82).standard_normal((40, 40))))
    record("summary_10x10x11", t(rng(83).standard_normal((10, 10, 11))))
    record("summary_2x600", t(rng(84).standard_normal((2, 600))))
    record("summary_600x2", t(rng(85).standard_normal((600, 2))))
    record("summary_3x4x100", t(rng(86).standard_normal((3, 4, 100))))
    record("summary_hidden_large_value", t(np.concatenate([np.ones(3), [1e9] * 1000, np.ones(3)])))
    record("summary_double", t(rng(87).standard_normal((33, 33)), torch.float64))
    record("summary_half", t(rng(88).standard_normal(1200), torch.float16))
    record("summary_int_valued", t(np.arange(1200.0)))
    record("summary_requires_grad", t(rng(89).standard_normal(1100), requires_grad=True))
    record("summary_4d", t(rng(90).standard_normal((7, 3, 3, 17))))
    record("not_summarized_1000", t(rng(91).standard_normal((10, 100))))


def option_cases() -> None:
    """``set_printoptions`` settings."""
    values = rng(100).standard_normal(20) * 3
    small = [1e-5, 1.0, 123.456]
    record("sci_mode_true", t(values[:5]), {"sci_mode": True})
    record("sci_mode_true_int_valued", t([1.0, 2.0]), {"sci_mode": True})
    record("sci_mode_true_zeros", t([0.0, 0.0]), {"sci_mode": True})
    record("sci_mode_true_scalar", t(3.0), {"sci_mode": True})
    record("sci_mode_true_nan", t([NAN, 2.0, -INF]), {"sci_mode": True})
    record("sci_mode_false_small", t(small), {"sci_mode": False})
    record("sci_mode_false_large", t([1e10, 1.0]), {"sci_mode": False})
    record("sci_mode_false_large_fraction", t([1e10, 1.5]), {"sci_mode": False})
    record("sci_mode_false_tiny_neg", t([-1e-7, 1.0]), {"sci_mode": False})
    record("sci_mode_false_wrap", t(rng(101).standard_normal(30) * 1e5), {"sci_mode": False})
    record("precision_2", t(values[:6]), {"precision": 2})
    record("precision_2_sci", t(small), {"precision": 2})
    record("precision_0", t(values[:6]), {"precision": 0})
    record("precision_0_sci", t(small), {"precision": 0})
    record("precision_8", t(values[:6]), {"precision": 8})
    record("precision_10_float32", t([0.1, 1 / 3]), {"precision": 10})
    record("precision_10_float64", t([0.1, 1 / 3], torch.float64), {"precision": 10})
    record("precision_6_half", t([0.1, 1 / 3], torch.float16), {"precision": 6})
    record("profile_full_1200", t(rng(102).standard_normal(1200)), {"profile": "full"})
    record("profile_full_2d", t(rng(103).standard_normal((9, 120))), {"profile": "full"})
    record("profile_short", t(values[:6]), {"profile": "short"})
    record("profile_short_summary", t(rng(104).standard_normal((30, 40))), {"profile": "short"})
    record("profile_default_explicit", t(values[:6]), {"profile": "default"})
    record("profile_full_precision_2", t(values[:6]), {"profile": "full", "precision": 2})
    record("threshold_5", t(np.arange(10), torch.int64), {"threshold": 5})
    record("threshold_5_float_2d", t(rng(105).standard_normal((4, 4))), {"threshold": 5})
    record("threshold_5_3d", t(rng(106).standard_normal((8, 2, 8))), {"threshold": 5})
    record("edgeitems_1", t(rng(107).standard_normal(1001)), {"edgeitems": 1})
    record(
        "edgeitems_1_2d", t(rng(108).standard_normal((10, 10))), {"edgeitems": 1, "threshold": 50}
    )
    record("edgeitems_5", t(rng(109).standard_normal((20, 20))), {"edgeitems": 5, "threshold": 100})
    record("edgeitems_0_1d", t(rng(110).standard_normal(20)), {"edgeitems": 0, "threshold": 10})
    record(
        "edgeitems_0_2d", t(rng(111).standard_normal((2, 10))), {"edgeitems": 0, "threshold": 10}
    )
    record("edgeitems_0_small", t([1.0, 2.5]), {"edgeitems": 0})
    record("edgeitems_0_scalar", t(3.0), {"edgeitems": 0})
    record("edgeitems_0_empty", t(np.zeros((0, 2))), {"edgeitems": 0})
    record("edgeitems_0_grad", t(rng(112).standard_normal(5), requires_grad=True), {"edgeitems": 0})
    record("linewidth_40", t(rng(113).standard_normal(20)), {"linewidth": 40})
    record("linewidth_120", t(rng(114).standard_normal(40)), {"linewidth": 120})
    record("linewidth_10", t(rng(115).standard_normal(5)), {"linewidth": 10})
    record("linewidth_3", t(rng(116).standard_normal((2, 3))), {"linewidth": 3})
    record(
        "linewidth_30_suffix",
        t(rng(117).standard_normal(3), torch.float64, requires_grad=True),
        {"linewidth": 30},
    )
    record(
        "linewidth_15_many_suffixes",
        t(rng(118).standard_normal(2), torch.float64, requires_grad=True),
        {"linewidth": 15, "edgeitems": 0},
    )
    record(
        "mixed_options",
        t(rng(119).standard_normal((12, 20)) * 1e4),
        {
            "precision": 3,
            "threshold": 100,
            "edgeitems": 2,
            "linewidth": 60,
            "sci_mode": True,
        },
    )


def prefix_cases() -> None:
    """Subclass prefixes (the indent follows the class name)."""
    base = torch.from_numpy(rng(120).standard_normal(30).astype(np.float32))
    record("prefix_foo_wrap", torch.Tensor._make_subclass(Foo, base))
    base = torch.from_numpy(np.arange(30.0, dtype=np.float32) * 1.5)
    record("prefix_foo_arange", torch.Tensor._make_subclass(Foo, base))
    base = torch.from_numpy(rng(121).standard_normal((3, 2, 12)).astype(np.float32))
    record("prefix_long_3d", torch.Tensor._make_subclass(LongSubclassName, base))
    base = torch.from_numpy(rng(122).standard_normal(9))
    record("prefix_long_suffix", torch.Tensor._make_subclass(LongSubclassName, base, True))


def default_dtype_cases() -> None:
    """dtype suffixes under a float64 default dtype."""
    f64 = torch.float64
    record("default64_float64", t([1.5, 2.0], torch.float64), default_dtype=f64)
    record("default64_float32", t([1.5, 2.0], torch.float32), default_dtype=f64)
    record("default64_float32_empty", t(np.zeros(0), torch.float32), default_dtype=f64)
    record("default64_float64_empty", t(np.zeros(0), torch.float64), default_dtype=f64)
    record("default64_int64", t(np.array([1, 2]), torch.int64), default_dtype=f64)
    record("default64_grad", t([1.0, 2.0], torch.float64, requires_grad=True), default_dtype=f64)


def grad_fn_cases() -> None:
    """The ``grad_fn=<...>`` suffix of many ops."""
    gen = rng(130)

    def leaf(shape: tuple[int, ...], dtype: torch.dtype = torch.float32) -> torch.Tensor:
        return t(gen.standard_normal(shape), dtype, requires_grad=True)

    ops: dict[str, Callable[[], torch.Tensor]] = {
        "add": lambda: leaf((3,)) + leaf((3,)),
        "sub": lambda: leaf((2, 2)) - 1.0,
        "mul": lambda: leaf((3,)) * 3.0,
        "div": lambda: leaf((3,)) / 7.0,
        "neg": lambda: -leaf((2,)),
        "pow": lambda: leaf((3,)) ** 2,
        "exp": lambda: leaf((3,)).exp(),
        "log": lambda: leaf((3,)).abs().log(),
        "tanh": lambda: leaf((2, 3)).tanh(),
        "sigmoid": lambda: leaf((2, 3)).sigmoid(),
        "relu": lambda: leaf((2, 3)).relu(),
        "sum": lambda: leaf((2, 3)).sum(),
        "sum_dim": lambda: leaf((2, 3)).sum(dim=1),
        "mean": lambda: leaf((4,)).mean(),
        "matmul": lambda: leaf((2, 3)) @ leaf((3, 2)),
        "mv": lambda: leaf((2, 3)) @ leaf((3,)),
        "transpose": lambda: leaf((2, 3)).t(),
        "view": lambda: leaf((2, 3)).view(3, 2),
        "reshape": lambda: leaf((2, 3)).reshape(6),
        "select": lambda: leaf((2, 3))[0],
        "slice": lambda: leaf((5,))[1:4],
        "unsqueeze": lambda: leaf((3,)).unsqueeze(0),
        "max": lambda: leaf((4,)).max(),
        "softmax": lambda: leaf((2, 3)).softmax(dim=1),
        "log_softmax": lambda: leaf((2, 3)).log_softmax(dim=1),
        "cat": lambda: torch.cat([leaf((2,)), leaf((2,))]),
        "stack": lambda: torch.stack([leaf((2,)), leaf((2,))]),
        "expand": lambda: leaf((1, 3)).expand(2, 3),
        "clone": lambda: leaf((3,)).clone(),
        "abs": lambda: leaf((3,)).abs(),
        "sqrt": lambda: leaf((3,)).abs().sqrt(),
        "double_mul": lambda: leaf((3,), torch.float64) * 2.0,
        "half_add": lambda: leaf((3,), torch.float16) + 1.0,
        "mul_scalar_int_valued": lambda: t([1.0, 2.0, 3.0], requires_grad=True) * 2,
        "sum_int_valued": lambda: (t([1.0, 2.0, 3.0], requires_grad=True) ** 2).sum(),
        "big_grad_fn_summary": lambda: leaf((1200,)) * 2.0,
        "wrap_grad_fn": lambda: leaf((30,)) * 1.0,
    }
    for name, make in ops.items():
        record(f"grad_fn_{name}", make())


def random_cases(count: int) -> None:
    """Random shapes, scales, dtypes and special values, one seed per case."""
    float_dtypes = [torch.float32, torch.float32, torch.float64, torch.float16]
    for seed in range(count):
        gen = rng(1000 + seed)
        ndim = int(gen.integers(0, 4))
        shape = tuple(int(s) for s in gen.integers(1, 6, ndim))
        kind = seed % 5
        if kind == 4:
            dtype = [torch.int64, torch.int32, torch.uint8, torch.bool][seed % 4]
            if dtype == torch.bool:
                array = gen.random(shape) > 0.5
            elif dtype == torch.uint8:
                array = gen.integers(0, 256, shape)
            else:
                array = gen.integers(-(10 ** int(gen.integers(1, 10))), 10**6, shape)
            record(f"random_{seed}", t(np.asarray(array), dtype))
            continue
        dtype = float_dtypes[seed % 4]
        scale = 10.0 ** gen.uniform(-7, 9)
        array = gen.standard_normal(shape) * scale
        if kind == 1:
            array = np.round(array)
        if kind == 2 and array.size > 1:
            flat = array.reshape(-1)
            flat[gen.integers(0, flat.size)] = [NAN, INF, -INF, -0.0, 0.0][seed % 5]
        if kind == 3:
            array = array * 10.0 ** gen.integers(-3, 4, shape)
        record(f"random_{seed}", t(np.asarray(array, dtype=np.float64), dtype, seed % 7 == 0))


def main() -> None:
    """Record every case family and write the goldens file."""
    torch.set_printoptions(profile="default")
    basic_cases()
    sci_cases()
    special_value_cases()
    int_and_bool_cases()
    shape_cases()
    wrap_cases()
    summary_cases()
    option_cases()
    prefix_cases()
    default_dtype_cases()
    grad_fn_cases()
    random_cases(80)
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text("[\n" + ",\n".join(json.dumps(case) for case in CASES) + "\n]\n")
    print(f"wrote {len(CASES)} cases to {OUTPUT}")


if __name__ == "__main__":
    main()
