"""Tensor reprs: the formatter against torch's (checked by ``tests/test_printing.py``).

A case is one tensor: ``inputs`` (numpy values with a dtype and ``requires_grad``, turned into
tensors ``a``, ``b`` by ``from_numpy(...).to(dtype)``), an optional ``expr`` computed from them
(default ``a``), an optional ``subclass`` (a trivial Tensor subclass whose name prefixes the
repr), print options and an optional default dtype. :func:`replay` builds it and returns its
``repr()`` with its values (floats as ``float.hex``), shape, dtype, ``requires_grad`` and
``grad_fn`` name, so that the formatter can also be checked on torch's own values.
"""

from __future__ import annotations

import base64
import math
import zlib
from typing import Any

import numpy as np

NAN = math.nan
INF = math.inf
_NUMPY = {"float16": np.float16, "float32": np.float32, "float64": np.float64,
          "int64": np.int64, "int32": np.int32, "int16": np.int16, "int8": np.int8,
          "uint8": np.uint8, "bool": np.bool_}

CASES: list[dict[str, Any]] = []


def encode(array: np.ndarray) -> dict[str, Any]:
    """An array as JSON: dtype, shape and compressed base64 bytes."""
    array = np.array(array, order="C")  # (ascontiguousarray would make a 0-d array 1-d)
    return {"dtype": array.dtype.name, "shape": list(array.shape),
            "data": base64.b64encode(zlib.compress(array.tobytes(), 9)).decode("ascii")}


def decode(obj: dict[str, Any]) -> np.ndarray:
    """The array ``encode`` stored."""
    raw = zlib.decompress(base64.b64decode(obj["data"]))
    return np.frombuffer(raw, dtype=obj["dtype"]).reshape(obj["shape"]).copy()


def t(values: Any, dtype: str = "float32", requires_grad: bool = False) -> dict[str, Any]:
    """A tensor input from numpy data (a nested list goes through float64, then the dtype)."""
    array = np.array(values)
    if array.dtype == np.float64 and dtype != "float64":
        with np.errstate(over="ignore"):  # float16 overflow to inf is intended
            array = array.astype(_NUMPY[dtype])
    return {"data": encode(np.array(array, order="C")), "dtype": dtype,
            "requires_grad": requires_grad}


def rng(seed: int) -> np.random.Generator:
    """A seeded numpy generator (each case family has its own seed)."""
    return np.random.default_rng(seed)


def case(name: str, *args: dict[str, Any], default_dtype: str | None = None,
         expr: str | None = None, subclass: str | None = None) -> None:
    """One tensor to print: ``case(name, *inputs[, printoptions])``."""
    inputs = [a for a in args if "data" in a]
    options = [a for a in args if "data" not in a]
    CASES.append({"name": name, "inputs": inputs, "printoptions": options[0] if options else {},
                  **({"expr": expr} if expr else {}),
                  **({"default_dtype": default_dtype} if default_dtype else {}),
                  **({"subclass": subclass} if subclass else {})})


def basic_cases() -> None:
    """Leaves, grad_fn suffixes, the common 1-d and 2-d layouts."""
    case("leaf_requires_grad", t([1.0, 2.0, 3.0], requires_grad=True))
    x = t([1.0, 2.0, 3.0], requires_grad=True)
    case("sum_grad_fn", x, expr="(a * a).sum()")
    case("float64_requires_grad", t([1.0, 2.0], "float64", requires_grad=True))
    case("row_2d", t([[-0.3410, 0.2424, 0.0986]]))
    case("int64_default", t(np.array([1, 2]), "int64"))
    case("int32", t(np.array([1, 2]), "int32"))
    case("bool_1d", t(np.array([True, False]), "bool"))
    case("float_int_valued", t([1.0, 2.0, 3.0]))
    case("float_fraction", t([1.5, 2.0, 3.25]))
    case("float_precision_rounding", t([0.12345, 1.99999, 2.00005]))
    case("float_negative_mixed_width", t([-1.5, 22.25, -333.125, 4444.0]))
    case("int_valued_widths", t([1.0, 10.0, 100.0, -1000.0]))
    case("alignment_neg_small", t([-0.001, 0.5, 12.75]))
    case("half_basic", t([1.0, 2.0, 3.0], "float16"))
    case("half_fraction", t([0.1, 1 / 3, -2.5], "float16"))
    case("double_fraction", t([0.1, 1 / 3, -2.5], "float64"))
    case("double_tiny_ok", t([1e-4, 0.5], "float64"))
    case("double_1e-4_alone", t([1e-4], "float64"))
    case("double_1e-4_ratio_ok", t([1e-4, 0.05], "float64"))
    case("float_1e-4_is_sci", t([1e-4, 0.5]))
    case("float_1e-4_alone", t([1e-4]))


def sci_cases() -> None:
    """Where torch switches to scientific notation."""
    case("sci_small", t([1e-5, 1.0]))
    case("sci_large", t([1e8, 1.0]))
    case("sci_large_only", t([1e9]))
    case("sci_1e10", t([1e10]))
    case("sci_mix_1e-5_1e8", t([1e-5, 1e8]))
    case("sci_mix_2d", t([[1e-5, 1e8], [3.0, 4.0]]))
    case("ratio_exactly_1000", t([1000.0, 1.0]))
    case("ratio_above_1000", t([1000.5, 1.0]))
    case("ratio_below_1000", t([999.5, 1.0]))
    case("max_exactly_1e8", t([1e8]))
    case("max_above_1e8", t([1.0000001e8]))
    case("max_1e8_double", t([1e8, 1e8 + 1], "float64"))
    case("max_1e8_plus_double", t([1e8 + 1], "float64"))
    case("sci_negative", t([-1e-6, 2.5, -3e5]))
    case("sci_with_nan_inf", t([1e-5, NAN, -INF, 0.0, -0.0]))
    case("sci_extreme_float32", t([3e38, 1e-45]))
    case("sci_extreme_float64", t([1e308, 1e-308], "float64"))
    case("sci_three_digit_exponent", t([1e200, -1.5e-200, 1.0], "float64"))
    case("sci_half", t([65504.0, 1e-7], "float16"))
    case("sci_half_ratio", t([0.001, 2.0], "float16"))
    case("sci_scalar_large", t(1e10))
    case("sci_scalar_small", t(1.5e-7))
    case("sci_int_valued_big", t([1e9, 2e9, 3e9]))
    case(
        "sci_3d", t(rng(7).standard_normal((2, 2, 3)) * 10.0 ** rng(8).integers(-6, 6, (2, 2, 3)))
    )


def special_value_cases() -> None:
    """-0.0, zeros, inf and nan."""
    case("negative_zero", t([-0.0]))
    case("negative_zero_and_one", t([-0.0, 1.0]))
    case("negative_zero_and_fraction", t([-0.0, 1.5]))
    case("negative_zero_scalar", t(-0.0))
    case("zeros", t([0.0, 0.0]))
    case("zeros_2d", t(np.zeros((2, 3))))
    case("zeros_mixed_sign", t([0.0, -0.0, 0.0]))
    case("nan_only", t([NAN]))
    case("inf_only", t([INF, -INF]))
    case("nan_inf_only_2d", t([[NAN, INF], [-INF, 0.0]]))
    case("nan_with_fraction", t([NAN, 1.5]))
    case("nan_with_int_valued", t([1.0, NAN, -INF, 0.0, -0.0]))
    case("inf_with_large", t([INF, 1e10]))
    case("nan_scalar", t(NAN))
    case("inf_scalar", t(-INF))
    case("nan_double", t([NAN, 0.25, INF], "float64"))
    case("nan_half", t([NAN, 0.25, -INF], "float16"))
    case("neg_int_valued_with_inf", t([-100.0, INF, 3.0]))
    case("tiny_negative_sci", t([-0.00004, 0.5, 0.5]))


def int_and_bool_cases() -> None:
    """Integer and bool tensors."""
    case("int64_negative", t(np.array([-5, 10, 300]), "int64"))
    case("int64_2d", t(np.arange(12).reshape(3, 4) - 6, "int64"))
    case("int64_large", t(np.array([2**62, -(2**63), 7]), "int64"))
    case("int32_2d", t(np.arange(6).reshape(2, 3), "int32"))
    case("int16", t(np.array([-32768, 0, 32767]), "int16"))
    case("int8", t(np.array([-128, 5, 127]), "int8"))
    case("uint8", t(np.array([0, 7, 255]), "uint8"))
    case("int64_scalar", t(np.array(7), "int64"))
    case("int32_scalar", t(np.array(-7), "int32"))
    case("uint8_scalar", t(np.array(200), "uint8"))
    case("int64_wrap", t(np.arange(100) * 37, "int64"))
    case("int64_wrap_wide", t(np.arange(40) * 123456789, "int64"))
    case("int64_summarized", t(np.arange(1001), "int64"))
    case("int32_summarized_2d", t(np.arange(1200).reshape(40, 30), "int32"))
    case("int64_3d", t(np.arange(24).reshape(2, 3, 4), "int64"))
    case("bool_2d", t(np.array([[True, False, True], [False, False, True]]), "bool"))
    case("bool_all_true", t(np.array([True, True]), "bool"))
    case("bool_scalar_true", t(np.array(True), "bool"))
    case("bool_scalar_false", t(np.array(False), "bool"))
    case("bool_wrap", t(rng(11).random(40) > 0.5, "bool"))
    case("bool_summarized", t(rng(12).random(1500) > 0.5, "bool"))
    case("bool_3d", t(rng(13).random((2, 2, 2)) > 0.5, "bool"))


def shape_cases() -> None:
    """Scalars, empty tensors and higher-dimensional shapes."""
    case("scalar_float", t(3.5))
    case("scalar_int_valued", t(14.0))
    case("scalar_zero", t(0.0))
    case("scalar_double", t(0.123456789, "float64"))
    case("scalar_half", t(0.1, "float16"))
    case("scalar_requires_grad", t(2.5, requires_grad=True))
    case("empty_1d", t(np.zeros(0)))
    case("empty_0x3", t(np.zeros((0, 3))))
    case("empty_3x0", t(np.zeros((3, 0))))
    case("empty_2x0x3_int32", t(np.zeros((2, 0, 3), dtype=np.int32), "int32"))
    case("empty_bool", t(np.zeros(0, dtype=bool), "bool"))
    case("empty_int64", t(np.zeros(0, dtype=np.int64), "int64"))
    case("empty_int64_2d", t(np.zeros((0, 2), dtype=np.int64), "int64"))
    case("empty_float64", t(np.zeros(0), "float64"))
    case("empty_float16", t(np.zeros((1, 0)), "float16"))
    case("empty_requires_grad", t(np.zeros((0, 4)), requires_grad=True))
    case("one_element_2d", t([[5.0]]))
    case("one_element_4d", t(np.full((1, 1, 1, 1), 0.5)))
    case("column", t(rng(20).standard_normal((4, 1))))
    case("matrix_2x3", t(rng(21).standard_normal((2, 3))))
    case("matrix_5x5", t(rng(22).standard_normal((5, 5)) * 10))
    case("cube_2x3x4", t(rng(23).standard_normal((2, 3, 4))))
    case("cube_3x1x2", t(rng(24).standard_normal((3, 1, 2))))
    case("hyper_2x2x2x2", t(rng(25).standard_normal((2, 2, 2, 2))))
    case("hyper_5d", t(rng(26).standard_normal((2, 1, 2, 1, 3))))
    case("cube_int_valued", t(np.arange(8.0).reshape(2, 2, 2)))


def wrap_cases() -> None:
    """Rows wrapped at the line width."""
    case("arange_100", t(np.arange(100.0)))
    case("randn_50", t(rng(30).standard_normal(50)))
    case("randn_30_x100", t(rng(31).standard_normal(30) * 100))
    case("wrap_2d", t(rng(32).standard_normal((3, 30))))
    case("wrap_3d", t(rng(33).standard_normal((2, 2, 30))))
    case("wrap_sci", t(rng(34).standard_normal(25) * 1e6))
    case("wrap_double", t(rng(35).standard_normal(20), "float64"))
    case("wrap_half", t(rng(36).standard_normal(30), "float16"))
    case("wrap_exact_fit", t(np.arange(8.0) + 10.5))
    for n in range(6, 11):
        case(f"wrap_boundary_{n}", t(np.arange(n, dtype=np.float64) * 1000.25))
    for n in range(1, 13):
        x = t(rng(40 + n).standard_normal(n), "float64", requires_grad=True)
        case(f"suffix_wrap_leaf_{n}", x)
    for n in (7, 8, 9):
        x = t(rng(60 + n).standard_normal(n), "float64", requires_grad=True)
        case(f"suffix_wrap_grad_fn_{n}", x, expr="a * 2")
    case("suffix_wrap_2d", t(rng(70).standard_normal((2, 8)), "float64", requires_grad=True))
    x = t(rng(71).standard_normal((2, 8)), "float16", requires_grad=True)
    case("suffix_wrap_half_grad_fn", x, expr="a + 1")


def summary_cases() -> None:
    """Tensors long enough to be summarised with '...'."""
    case("summary_1001", t(rng(80).standard_normal(1001)))
    case("summary_1500", t(rng(81).standard_normal(1500)))
    case("summary_40x40", t(rng(82).standard_normal((40, 40))))
    case("summary_10x10x11", t(rng(83).standard_normal((10, 10, 11))))
    case("summary_2x600", t(rng(84).standard_normal((2, 600))))
    case("summary_600x2", t(rng(85).standard_normal((600, 2))))
    case("summary_3x4x100", t(rng(86).standard_normal((3, 4, 100))))
    case("summary_hidden_large_value", t(np.concatenate([np.ones(3), [1e9] * 1000, np.ones(3)])))
    case("summary_double", t(rng(87).standard_normal((33, 33)), "float64"))
    case("summary_half", t(rng(88).standard_normal(1200), "float16"))
    case("summary_int_valued", t(np.arange(1200.0)))
    case("summary_requires_grad", t(rng(89).standard_normal(1100), requires_grad=True))
    case("summary_4d", t(rng(90).standard_normal((7, 3, 3, 17))))
    case("not_summarized_1000", t(rng(91).standard_normal((10, 100))))


def option_cases() -> None:
    """``set_printoptions`` settings."""
    values = rng(100).standard_normal(20) * 3
    small = [1e-5, 1.0, 123.456]
    case("sci_mode_true", t(values[:5]), {"sci_mode": True})
    case("sci_mode_true_int_valued", t([1.0, 2.0]), {"sci_mode": True})
    case("sci_mode_true_zeros", t([0.0, 0.0]), {"sci_mode": True})
    case("sci_mode_true_scalar", t(3.0), {"sci_mode": True})
    case("sci_mode_true_nan", t([NAN, 2.0, -INF]), {"sci_mode": True})
    case("sci_mode_false_small", t(small), {"sci_mode": False})
    case("sci_mode_false_large", t([1e10, 1.0]), {"sci_mode": False})
    case("sci_mode_false_large_fraction", t([1e10, 1.5]), {"sci_mode": False})
    case("sci_mode_false_tiny_neg", t([-1e-7, 1.0]), {"sci_mode": False})
    case("sci_mode_false_wrap", t(rng(101).standard_normal(30) * 1e5), {"sci_mode": False})
    case("precision_2", t(values[:6]), {"precision": 2})
    case("precision_2_sci", t(small), {"precision": 2})
    case("precision_0", t(values[:6]), {"precision": 0})
    case("precision_0_sci", t(small), {"precision": 0})
    case("precision_8", t(values[:6]), {"precision": 8})
    case("precision_10_float32", t([0.1, 1 / 3]), {"precision": 10})
    case("precision_10_float64", t([0.1, 1 / 3], "float64"), {"precision": 10})
    case("precision_6_half", t([0.1, 1 / 3], "float16"), {"precision": 6})
    case("profile_full_1200", t(rng(102).standard_normal(1200)), {"profile": "full"})
    case("profile_full_2d", t(rng(103).standard_normal((9, 120))), {"profile": "full"})
    case("profile_short", t(values[:6]), {"profile": "short"})
    case("profile_short_summary", t(rng(104).standard_normal((30, 40))), {"profile": "short"})
    case("profile_default_explicit", t(values[:6]), {"profile": "default"})
    case("profile_full_precision_2", t(values[:6]), {"profile": "full", "precision": 2})
    case("threshold_5", t(np.arange(10), "int64"), {"threshold": 5})
    case("threshold_5_float_2d", t(rng(105).standard_normal((4, 4))), {"threshold": 5})
    case("threshold_5_3d", t(rng(106).standard_normal((8, 2, 8))), {"threshold": 5})
    case("edgeitems_1", t(rng(107).standard_normal(1001)), {"edgeitems": 1})
    case(
        "edgeitems_1_2d", t(rng(108).standard_normal((10, 10))), {"edgeitems": 1, "threshold": 50}
    )
    case("edgeitems_5", t(rng(109).standard_normal((20, 20))), {"edgeitems": 5, "threshold": 100})
    case("edgeitems_0_1d", t(rng(110).standard_normal(20)), {"edgeitems": 0, "threshold": 10})
    case(
        "edgeitems_0_2d", t(rng(111).standard_normal((2, 10))), {"edgeitems": 0, "threshold": 10}
    )
    case("edgeitems_0_small", t([1.0, 2.5]), {"edgeitems": 0})
    case("edgeitems_0_scalar", t(3.0), {"edgeitems": 0})
    case("edgeitems_0_empty", t(np.zeros((0, 2))), {"edgeitems": 0})
    case("edgeitems_0_grad", t(rng(112).standard_normal(5), requires_grad=True), {"edgeitems": 0})
    case("linewidth_40", t(rng(113).standard_normal(20)), {"linewidth": 40})
    case("linewidth_120", t(rng(114).standard_normal(40)), {"linewidth": 120})
    case("linewidth_10", t(rng(115).standard_normal(5)), {"linewidth": 10})
    case("linewidth_3", t(rng(116).standard_normal((2, 3))), {"linewidth": 3})
    case(
        "linewidth_30_suffix",
        t(rng(117).standard_normal(3), "float64", requires_grad=True),
        {"linewidth": 30},
    )
    case(
        "linewidth_15_many_suffixes",
        t(rng(118).standard_normal(2), "float64", requires_grad=True),
        {"linewidth": 15, "edgeitems": 0},
    )
    case(
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
    case("prefix_foo_wrap", t(rng(120).standard_normal(30).astype(np.float32)), subclass="Foo")
    case("prefix_foo_arange", t(np.arange(30.0, dtype=np.float32) * 1.5), subclass="Foo")
    case("prefix_long_3d", t(rng(121).standard_normal((3, 2, 12)).astype(np.float32)),
         subclass="LongSubclassName")
    case("prefix_long_suffix", t(rng(122).standard_normal(9), "float64", requires_grad=True),
         subclass="LongSubclassName")


def default_dtype_cases() -> None:
    """dtype suffixes under a float64 default dtype."""
    case("default64_float64", t([1.5, 2.0], "float64"), default_dtype="float64")
    case("default64_float32", t([1.5, 2.0], "float32"), default_dtype="float64")
    case("default64_float32_empty", t(np.zeros(0), "float32"), default_dtype="float64")
    case("default64_float64_empty", t(np.zeros(0), "float64"), default_dtype="float64")
    case("default64_int64", t(np.array([1, 2]), "int64"), default_dtype="float64")
    case("default64_grad", t([1.0, 2.0], "float64", requires_grad=True), default_dtype="float64")


def grad_fn_cases() -> None:
    """The ``grad_fn=<...>`` suffix of many ops: leaves drawn in turn, then an expression."""
    gen = rng(130)

    def leaves(*shapes: tuple[int, ...], dtype: str = "float32") -> list[dict[str, Any]]:
        return [t(gen.standard_normal(s), dtype, requires_grad=True) for s in shapes]

    ops: list[tuple[str, Any, str]] = [
        ("add", ((3,), (3,)), "a + b"), ("sub", ((2, 2),), "a - 1.0"),
        ("mul", ((3,),), "a * 3.0"), ("div", ((3,),), "a / 7.0"), ("neg", ((2,),), "-a"),
        ("pow", ((3,),), "a ** 2"), ("exp", ((3,),), "a.exp()"),
        ("log", ((3,),), "a.abs().log()"), ("tanh", ((2, 3),), "a.tanh()"),
        ("sigmoid", ((2, 3),), "a.sigmoid()"), ("relu", ((2, 3),), "a.relu()"),
        ("sum", ((2, 3),), "a.sum()"), ("sum_dim", ((2, 3),), "a.sum(dim=1)"),
        ("mean", ((4,),), "a.mean()"), ("matmul", ((2, 3), (3, 2)), "a @ b"),
        ("mv", ((2, 3), (3,)), "a @ b"), ("transpose", ((2, 3),), "a.t()"),
        ("view", ((2, 3),), "a.view(3, 2)"), ("reshape", ((2, 3),), "a.reshape(6)"),
        ("select", ((2, 3),), "a[0]"), ("slice", ((5,),), "a[1:4]"),
        ("unsqueeze", ((3,),), "a.unsqueeze(0)"), ("max", ((4,),), "a.max()"),
        ("softmax", ((2, 3),), "a.softmax(dim=1)"),
        ("log_softmax", ((2, 3),), "a.log_softmax(dim=1)"),
        ("cat", ((2,), (2,)), "torch.cat([a, b])"), ("stack", ((2,), (2,)), "torch.stack([a, b])"),
        ("expand", ((1, 3),), "a.expand(2, 3)"), ("clone", ((3,),), "a.clone()"),
        ("abs", ((3,),), "a.abs()"), ("sqrt", ((3,),), "a.abs().sqrt()"),
        ("double_mul", ("float64", (3,)), "a * 2.0"), ("half_add", ("float16", (3,)), "a + 1.0"),
        ("mul_scalar_int_valued", [t([1.0, 2.0, 3.0], requires_grad=True)], "a * 2"),
        ("sum_int_valued", [t([1.0, 2.0, 3.0], requires_grad=True)], "(a ** 2).sum()"),
        ("big_grad_fn_summary", ((1200,),), "a * 2.0"), ("wrap_grad_fn", ((30,),), "a * 1.0"),
    ]
    for name, made, expr in ops:
        if isinstance(made, list):  # fixed values
            inputs = made
        elif isinstance(made[0], str):  # (dtype, shape)
            inputs = leaves(made[1], dtype=made[0])
        else:
            inputs = leaves(*made)
        case(f"grad_fn_{name}", *inputs, expr=expr)


def random_cases(count: int) -> None:
    """Random shapes, scales, dtypes and special values, one seed per case."""
    float_dtypes = ["float32", "float32", "float64", "float16"]
    for seed in range(count):
        gen = rng(1000 + seed)
        ndim = int(gen.integers(0, 4))
        shape = tuple(int(s) for s in gen.integers(1, 6, ndim))
        kind = seed % 5
        if kind == 4:
            dtype = ["int64", "int32", "uint8", "bool"][seed % 4]
            if dtype == "bool":
                array = gen.random(shape) > 0.5
            elif dtype == "uint8":
                array = gen.integers(0, 256, shape)
            else:
                array = gen.integers(-(10 ** int(gen.integers(1, 10))), 10**6, shape)
            case(f"random_{seed}", t(np.asarray(array), dtype))
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
        case(f"random_{seed}", t(np.asarray(array, dtype=np.float64), dtype, seed % 7 == 0))



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


# ---- replay ---------------------------------------------------------------------------------

def _input(torch: Any, spec: dict[str, Any], subclass: type | None) -> Any:
    tensor = torch.from_numpy(decode(spec["data"])).to(getattr(torch, spec["dtype"]))
    if subclass is not None:  # torch's way to make one: the data, then requires_grad
        return torch.Tensor._make_subclass(subclass, tensor, spec["requires_grad"])
    return tensor.requires_grad_(spec["requires_grad"])


def _encode(value: Any) -> Any:
    return value.hex() if isinstance(value, float) else value


def replay(torch: Any, case: dict[str, Any]) -> dict[str, Any]:
    """Build the case's tensor with ``torch`` and print it: its repr and what it holds."""
    subclass = type(case["subclass"], (torch.Tensor,), {}) if "subclass" in case else None
    names = {"torch": torch}
    for letter, spec in zip("abcdefgh", case["inputs"]):
        names[letter] = _input(torch, spec, subclass)
    tensor = eval(case.get("expr", "a"), names)  # noqa: S307  (the case's own expression)
    old_default = torch.get_default_dtype()
    try:
        if "default_dtype" in case:
            torch.set_default_dtype(getattr(torch, case["default_dtype"]))
        torch.set_printoptions(**case["printoptions"])
        text = repr(tensor)
    finally:
        torch.set_printoptions(profile="default")
        torch.set_default_dtype(old_default)
    plain = tensor.detach()
    grad_fn = tensor.grad_fn
    return {
        "values": [_encode(v) for v in plain.reshape(-1).tolist()],
        "shape": list(plain.shape),
        "dtype": str(plain.dtype).removeprefix("torch."),
        "requires_grad": tensor.requires_grad,
        "grad_fn_name": None if grad_fn is None else type(grad_fn).__name__,
        **({"prefix": case["subclass"] + "("} if subclass is not None else {}),
        "repr": text,
    }
