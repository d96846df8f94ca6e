"""Activation functions beyond relu/tanh/sigmoid: leaky_relu, gelu, silu, softplus, elu,
and ``erf`` (which gelu is built on). One torch node each; the backward formulas are
written with ops that work on arrays and on Tensors (so create_graph differentiates them).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _onednn_gelu as onednn_gelu
from .._messages import scalar_name
from .._precision import exact
from .._vector_math import gelu_tanh32, silu32, silu_backward32
from . import backward_ops as bo
from . import common as c
from .common import Node, Tensor, float_dtype, unary_data
from .record import record

_SQRT1_2 = 0.7071067811865476
_SQRT_2_PI = 0.7978845608028654  # sqrt(2 / pi)
_2_SQRT_PI = 1.1283791670955126  # 2 / sqrt(pi)
_np_erf = bo.np_erf


class ErfBackward0(Node):
    """y = erf(x);  dx = g * 2/sqrt(pi) * exp(-x^2)"""

    saved_names = ("self",)

    def backward(self, g: Any) -> Any:
        x = self.saved("self")
        return bo.times(c.exp(-bo.power(x, 2)), _2_SQRT_PI) * g


def erf(x: Tensor) -> Tensor:
    """The error function, 2/sqrt(pi) * integral of exp(-t^2) from 0 to x."""
    data, dt = unary_data(x, "erf"), float_dtype(x)
    out, node = record(ErfBackward0, _np_erf(data.astype(dt.np, copy=False)), dt, x)
    if node is not None:
        node.save("self", x)
    return out


def _float_input(x: Tensor, name: str, kernel: str | None = None) -> np.ndarray:
    """x's data; torch's kernels for these functions (``name_cpu`` unless ``kernel`` names
    another) refuse integer and bool tensors."""
    data = unary_data(x, name)
    if x.dtype._cat != 2:
        kernel = kernel or f"{name}_cpu"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{scalar_name(x.dtype)}\'')
    return data


# ---- leaky_relu -------------------------------------------------------------------------------

class LeakyReluBackward0(Node):
    """y = x if x > 0 else slope * x;  dx = g if x > 0 else slope * g"""

    saved_names = ("negative_slope", "self")

    def backward(self, g: Any) -> Any:
        return bo.leaky_relu_backward(g, self.saved("self"), self._saved["negative_slope"])


def leaky_relu(x: Tensor, negative_slope: float = 0.01) -> Tensor:
    """x if x > 0 else negative_slope * x."""
    data = _float_input(x, "leaky_relu")
    y = np.where(data > 0, data, data * data.dtype.type(negative_slope))
    out, node = record(LeakyReluBackward0, y, x.dtype, x)
    if node is not None:
        node._saved["negative_slope"] = negative_slope
        node.save("self", x)
    return out


# ---- gelu -------------------------------------------------------------------------------------

class GeluBackward0(Node):
    """y = x * Phi(x);  dx = g * (Phi(x) + x * phi(x))  (Phi, phi: the normal cdf and pdf;
    with approximate='tanh', Phi(x) ~ (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) / 2)"""

    saved_names = ("approximate", "self")

    def backward(self, g: Any) -> Any:
        return bo.gelu_backward(g, self.saved("self"), self._saved["approximate"])


def gelu(x: Tensor, approximate: str = "none") -> Tensor:
    """x * Phi(x), Phi the standard normal cdf (or its tanh approximation)."""
    data = _float_input(x, "gelu", "GeluKernelImpl")
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    one, half = data.dtype.type(1), data.dtype.type(0.5)
    if approximate == "tanh" and data.dtype == np.float32 and exact(data.size):
        y = gelu_tanh32(data)  # torch's kernel: SLEEF's tanh on its vector part
    elif approximate == "tanh":
        inner = data.dtype.type(_SQRT_2_PI) * (data + data.dtype.type(0.044715) * data ** 3)
        y = half * data * (one + np.tanh(inner))
    elif onednn_gelu.applies(data) and exact(data.size):  # torch calls oneDNN's kernel here
        y = onednn_gelu.gelu(data)
    else:
        y = data * half * (one + _np_erf(data * data.dtype.type(_SQRT1_2)))
    out, node = record(GeluBackward0, y, x.dtype, x)
    if node is not None:
        node._saved["approximate"] = approximate
        node.save("self", x)
    return out


# ---- silu -------------------------------------------------------------------------------------

class SiluBackward0(Node):
    """y = x * sigmoid(x);  dx = g * s * (1 + x * (1 - s)),  s = sigmoid(x)"""

    saved_names = ("self",)

    def backward(self, g: Any) -> Any:
        x = self.saved("self")
        if not isinstance(x, Tensor) and x.dtype == np.float32 and exact(x.size):
            return silu_backward32(np.asarray(g, np.float32), x)  # torch's fused kernel
        s = c.sigmoid(x)
        right = bo.plus(x * bo.from_scalar(1.0, s), 1.0)  # C++ evaluates the right factor first
        return g * s * right


def silu(x: Tensor) -> Tensor:
    """x * sigmoid(x)."""
    data = _float_input(x, "silu")
    if data.dtype == np.float32 and exact(data.size):
        y = silu32(data)
    else:
        y = data / (data.dtype.type(1) + np.exp(-data))
    out, node = record(SiluBackward0, y, x.dtype, x)
    if node is not None:
        node.save("self", x)
    return out


# ---- softplus ---------------------------------------------------------------------------------

class SoftplusBackward0(Node):
    """y = log(1 + exp(beta x)) / beta (x where beta x > threshold);
    dx = g * sigmoid(beta x) (g where beta x > threshold)"""

    saved_names = ("beta", "self", "threshold")

    def backward(self, g: Any) -> Any:
        return bo.softplus_backward(g, self.saved("self"), self._saved["beta"],
                                    self._saved["threshold"])


def softplus(x: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """log(1 + exp(beta x)) / beta (x itself where beta x > threshold)."""
    data = _float_input(x, "softplus")
    bx = data * data.dtype.type(beta)
    y = np.where(bx > threshold, data, np.log1p(np.exp(bx)) / data.dtype.type(beta))
    out, node = record(SoftplusBackward0, y.astype(data.dtype, copy=False), x.dtype, x)
    if node is not None:
        node._saved.update(beta=beta, threshold=threshold)
        node.save("self", x)
    return out


# ---- elu --------------------------------------------------------------------------------------

class EluBackward0(Node):
    """y = x if x > 0 else alpha (exp(x) - 1);  dx = g if x > 0 else g * alpha * exp(x)"""

    saved_names = ("alpha", "input_scale", "scale", "self")

    def backward(self, g: Any) -> Any:
        s = self._saved
        return bo.elu_backward(g, self.saved("self"), s["alpha"], s["input_scale"], False,
                               s["scale"])


def elu(x: Tensor, alpha: float = 1.0) -> Tensor:
    """x if x > 0 else alpha * (exp(x) - 1)."""
    data = _float_input(x, "elu")
    y = np.where(data > 0, data, data.dtype.type(alpha) * np.expm1(data))
    out, node = record(EluBackward0, y.astype(data.dtype, copy=False), x.dtype, x)
    if node is not None:
        node._saved.update(alpha=alpha, input_scale=1, scale=1)
        node.save("self", x)
    return out
