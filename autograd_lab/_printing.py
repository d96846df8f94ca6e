"""Text rendering of tensors, following PyTorch's ``torch/_tensor_str.py`` rules.

The public entry point is :func:`tensor_repr`, which renders the ``repr()`` of a
tensor from its numpy data, its dtype name and its autograd state.  Global print
options are managed with :func:`set_printoptions`, :func:`get_printoptions` and
the :func:`printoptions` context manager, with PyTorch's defaults and profiles.

Every element is formatted from its Python value (``float``/``int``/``bool``),
so float16 and float32 data print exactly as PyTorch prints them.

This module is self-contained: it imports nothing from the rest of the package.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

__all__ = [
    "get_printoptions",
    "printoptions",
    "set_printoptions",
    "size_repr",
    "tensor_repr",
]


class _PrinterOptions:
    """The global print options (same fields and defaults as PyTorch); a plain class, as
    ``dataclasses`` costs ``import autograd_lab`` a millisecond."""

    __slots__ = ("precision", "threshold", "edgeitems", "linewidth", "sci_mode")

    def __init__(self) -> None:
        self.precision: int = 4
        self.threshold: float = 1000
        self.edgeitems: int = 3
        self.linewidth: int = 80
        self.sci_mode: bool | None = None


PRINT_OPTS = _PrinterOptions()

_PROFILES: dict[str, dict[str, Any]] = {
    "default": {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80},
    "short": {"precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80},
    "full": {"precision": 4, "threshold": math.inf, "edgeitems": 3, "linewidth": 80},
}

_NUMPY_DTYPES: dict[str, np.dtype] = {
    name: np.dtype(name)
    for name in (
        "float16",
        "float32",
        "float64",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "bool",
    )
}


def set_printoptions(
    precision: int | None = None,
    threshold: float | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    profile: str | None = None,
    sci_mode: bool | None = None,
) -> None:
    """Set the global print options.

    ``profile`` ("default", "short" or "full") is applied first and the other
    arguments override it.  As in PyTorch, ``sci_mode`` is always assigned, so
    omitting it restores automatic selection of scientific notation.
    """
    if profile is not None and profile in _PROFILES:
        for key, value in _PROFILES[profile].items():
            setattr(PRINT_OPTS, key, value)
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    """Return the current print options as keyword arguments for set_printoptions."""
    return {key: getattr(PRINT_OPTS, key) for key in _PrinterOptions.__slots__}


@contextlib.contextmanager
def printoptions(**kwargs: Any) -> Iterator[None]:
    """Temporarily change the print options (same arguments as set_printoptions)."""
    old_kwargs = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old_kwargs)


def size_repr(shape: Sequence[int]) -> str:
    """Render a shape like ``torch.Size``: ``torch.Size([2, 3])``."""
    return "torch.Size([" + ", ".join(str(int(dim)) for dim in shape) + "])"


class _Formatter:
    """Chooses one common format (int, fixed or scientific) and width for a tensor."""

    def __init__(self, values: np.ndarray, floating: bool) -> None:
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1

        flat = values.reshape(-1)
        if not floating:
            for value in flat.tolist():
                self.max_width = max(self.max_width, len(f"{value}"))
            return

        nonzero_finite = flat[np.isfinite(flat) & (flat != 0)]
        if nonzero_finite.size == 0:
            # Only zeros and non-finite values: nothing decides the format.
            return

        abs_values = np.abs(nonzero_finite)
        abs_min = float(abs_values.min())
        abs_max = float(abs_values.max())
        self.int_mode = bool(np.all(nonzero_finite == np.ceil(nonzero_finite)))

        if PRINT_OPTS.sci_mode is None:
            self.sci_mode = abs_max / abs_min > 1000.0 or abs_max > 1.0e8 or abs_min < 1.0e-4
        else:
            self.sci_mode = bool(PRINT_OPTS.sci_mode)

        precision = PRINT_OPTS.precision
        for value in nonzero_finite.tolist():
            if self.sci_mode:
                width = len(f"{value:.{precision}e}")
            elif self.int_mode:
                # Room for the trailing "." that marks a floating-point tensor.
                width = len(f"{value:.0f}") + 1
            else:
                width = len(f"{value:.{precision}f}")
            self.max_width = max(self.max_width, width)

    def width(self) -> int:
        """Width of one formatted element (the widest nonzero finite element)."""
        return self.max_width

    def format(self, value: float | int | bool) -> str:
        """Format one element, right-aligned to the common width."""
        precision = PRINT_OPTS.precision
        if self.floating:
            if self.sci_mode:
                text = f"{value:{self.max_width}.{precision}e}"
            elif self.int_mode:
                text = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    text += "."
            else:
                text = f"{value:.{precision}f}"
        else:
            text = f"{value}"
        return (self.max_width - len(text)) * " " + text


def _summarized_data(values: np.ndarray) -> np.ndarray:
    """Keep only the elements that a summarised print shows (used for the format)."""
    edgeitems = PRINT_OPTS.edgeitems
    if values.ndim == 0:
        return values
    if values.ndim == 1:
        if values.shape[0] > 2 * edgeitems:
            # As in PyTorch, ``[-0:]`` keeps everything when edgeitems is 0.
            return np.concatenate((values[:edgeitems], values[-edgeitems:]))
        return values
    if not edgeitems:
        return np.empty((0,) * values.ndim, dtype=values.dtype)
    length = values.shape[0]
    if length > 2 * edgeitems:
        rows = [*range(edgeitems), *range(length - edgeitems, length)]
    else:
        rows = list(range(length))
    return np.stack([_summarized_data(values[i]) for i in rows])


def _vector_str(values: np.ndarray, indent: int, summarize: bool, formatter: _Formatter) -> str:
    """Render a 1-D array, wrapping lines at the configured line width."""
    element_length = formatter.width() + 2
    elements_per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / element_length))
    edgeitems = PRINT_OPTS.edgeitems

    if summarize and not edgeitems:
        data = ["..."]
    elif summarize and values.shape[0] > 2 * edgeitems:
        data = (
            [formatter.format(v) for v in values[:edgeitems].tolist()]
            + [" ..."]
            + [formatter.format(v) for v in values[-edgeitems:].tolist()]
        )
    else:
        data = [formatter.format(v) for v in values.tolist()]

    lines = [
        ", ".join(data[i : i + elements_per_line]) for i in range(0, len(data), elements_per_line)
    ]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str_with_formatter(
    values: np.ndarray, indent: int, summarize: bool, formatter: _Formatter
) -> str:
    """Render an array of any rank with nested brackets."""
    ndim = values.ndim
    if ndim == 0:
        return formatter.format(values.item())
    if ndim == 1:
        return _vector_str(values, indent, summarize, formatter)

    edgeitems = PRINT_OPTS.edgeitems
    length = values.shape[0]
    if summarize and length > 2 * edgeitems:
        slices = (
            [
                _tensor_str_with_formatter(values[i], indent + 1, summarize, formatter)
                for i in range(edgeitems)
            ]
            + ["..."]
            + [
                _tensor_str_with_formatter(values[i], indent + 1, summarize, formatter)
                for i in range(length - edgeitems, length)
            ]
        )
    else:
        slices = [
            _tensor_str_with_formatter(values[i], indent + 1, summarize, formatter)
            for i in range(length)
        ]
    separator = "," + "\n" * (ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(slices) + "]"


def _tensor_str(values: np.ndarray, indent: int, floating: bool) -> str:
    """Render the bracketed contents of a tensor (without prefix or suffixes)."""
    if values.size == 0:
        return "[]"
    summarize = values.size > PRINT_OPTS.threshold
    shown = _summarized_data(values) if summarize else values
    formatter = _Formatter(shown, floating)
    return _tensor_str_with_formatter(values, indent, summarize, formatter)


def _add_suffixes(tensor_str: str, suffixes: list[str], indent: int) -> str:
    """Append ``, key=value`` suffixes, moving one to a new line when it would not fit."""
    parts = [tensor_str]
    # Same arithmetic as PyTorch, which counts two characters more than the last line has.
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def tensor_repr(
    data: np.ndarray,
    dtype_name: str,
    *,
    default_dtype_name: str = "float32",
    requires_grad: bool = False,
    grad_fn_name: str | None = None,
    prefix: str = "tensor(",
    indent: int | None = None,
) -> str:
    """Return the ``repr()`` of a dense CPU tensor, exactly as PyTorch prints it.

    ``data`` holds the values (cast to ``dtype_name`` if needed).  A ``dtype=``
    suffix is shown unless the dtype is the default float dtype, int64 or bool
    (empty tensors show every non-default dtype).  ``grad_fn=<grad_fn_name>`` is
    shown for non-leaf tensors, otherwise ``requires_grad=True`` when set.
    Continuation lines are indented by ``indent``, by default ``len(prefix)``.
    """
    try:
        np_dtype = _NUMPY_DTYPES[dtype_name]
    except KeyError:
        raise ValueError(f"unsupported dtype name: {dtype_name!r}") from None
    values = np.asarray(data)
    if values.dtype != np_dtype:
        values = values.astype(np_dtype)
    if indent is None:
        indent = len(prefix)

    dtype_suffix = "dtype=torch." + dtype_name
    size_suffix = "size=" + str(tuple(int(dim) for dim in values.shape))
    suffixes: list[str] = []
    if values.size == 0:
        # Like NumPy, the shape is shown unless it is (0,); the dtype cannot be
        # inferred from no elements, so any non-default one (even int64) is shown.
        if values.ndim != 1:
            suffixes.append(size_suffix)
        if dtype_name != default_dtype_name:
            suffixes.append(dtype_suffix)
        tensor_str = "[]"
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append(size_suffix)
        if dtype_name not in (default_dtype_name, "int64", "bool"):
            suffixes.append(dtype_suffix)
        floating = values.dtype.kind == "f"
        tensor_str = _tensor_str(values, indent, floating)

    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")

    return _add_suffixes(prefix + tensor_str, suffixes, indent)
