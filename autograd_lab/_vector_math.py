"""torch's vectorised float32 ``exp`` and ``tanh`` replayed: SLEEF's ``expf_u10`` and
``tanhf_u10`` as torch's AVX-512 CPU kernels run them, in float32 numpy arithmetic with the
same fused multiply-adds; and the kernels built on them (sigmoid, silu, gelu's tanh form).

torch's elementwise loops (``cpu_kernel_vec``) run a contiguous stretch in steps of two
vectors (32 float32 on AVX-512) with the vector formula, whose ``exp``/``tanh`` are SLEEF's,
and the last ``n % 32`` elements with the scalar formula, whose ``std::exp``/``std::tanh``
are libm's (``expf`` about correctly rounded: float64 ``exp`` rounded once; ``tanhf`` in
``_libm_tanhf``). SLEEF's results
differ from correctly rounded ones in the last bit for a good share of inputs, which
``1 - y`` in the gradients makes visible. (``torch.exp`` and ``torch.tanh`` themselves do not
run these: they call MKL's vector library.)

SLEEF's algorithms (Shibata, "SLEEF Vectorized Math Library"). ``exp``: ``q = rint(d / ln 2)``;
the reduced argument ``s = d - q ln 2`` in two fused steps (ln 2 split in two parts); a
degree-6 polynomial by Horner's rule; ``1 + (s*s * u + s)``; scaled by 2^q in two halves; 0
below -104 and inf above 100. ``tanh``: ``e = exp(|x|)`` as a double-float (a float32 pair
``hi + lo``, arithmetic of Dekker's kind with fused multiply-adds), ``(e - 1/e) / (e + 1/e)``
in double-float, rounded once; 1 beyond 8.664339742; the sign of x.
"""

from __future__ import annotations

import numpy as np

from ._fma import fma32
from ._libm_tanhf import tanhf

_F32 = np.float32
_R_LN2 = _F32(1.442695040888963407359924681001892137426645954152985934135449406931)
_LN2_HI = _F32(0.693145751953125)
_LN2_LO = _F32(1.428606765330187045e-06)
_POLY = tuple(_F32(c) for c in (
    0.00139304355252534151077271, 0.00833336077630519866943359, 0.0416664853692054748535156,
    0.166666671633720397949219, 0.5))
_POLY0 = _F32(0.000198527617612853646278381)
_EXPK_POLY = tuple(_F32(c) for c in (0.1394256484e-2, 0.8333456703e-2, 0.4166637361e-1))
_EXPK_POLY0 = _F32(0.1980960224e-3)
_TANH_ONE = _F32(8.664339742)


def _pow2(e: np.ndarray) -> np.ndarray:
    """2**e as float32 (e within float32's normal exponents)."""
    return ((e.astype(np.int32) + 127) << 23).astype(np.int32).view(_F32)


def sleef_expf(d: np.ndarray) -> np.ndarray:
    """SLEEF's ``expf_u10`` on float32 ``d`` (any shape), bit for bit."""
    d = np.asarray(d, _F32)
    with np.errstate(over="ignore", invalid="ignore"):
        q = np.rint(d * _R_LN2).astype(_F32)
        q = np.clip(q, -300, 300)  # NaN and the far ranges are selected below
        q = np.where(np.isnan(q), _F32(0), q).astype(np.int32)
        qf = q.astype(_F32)
        s = fma32(qf, -_LN2_HI, d)
        s = fma32(qf, -_LN2_LO, s)
        u = np.full(s.shape, _POLY0, _F32)
        for c in _POLY:
            u = fma32(u, s, c)
        u = _F32(1) + fma32(s * s, u, s)
        half = q >> 1
        u = u * _pow2(np.clip(half, -126, 127)) * _pow2(np.clip(q - half, -126, 127))
        u = np.where(d < _F32(-104), _F32(0), u)
        u = np.where(d > _F32(100), _F32(np.inf), u)
        return np.where(np.isnan(d), d, u).astype(_F32, copy=False)


# ---- double-float arithmetic (a value as an unevaluated float32 sum hi + lo) -------------------

_DF = tuple[np.ndarray, np.ndarray]


def _add_df_f(x: _DF, y: np.ndarray | np.float32) -> _DF:
    """x + y, any magnitudes (SLEEF's dfadd2_vf2_vf2_vf)."""
    s = x[0] + y
    v = s - x[0]
    return s, ((x[0] - (s - v)) + (y - v)) + x[1]


def _add_df_df(x: _DF, y: _DF) -> _DF:
    """x + y, any magnitudes (dfadd2_vf2_vf2_vf2)."""
    s = x[0] + y[0]
    v = s - x[0]
    return s, ((x[0] - (s - v)) + (y[0] - v)) + (x[1] + y[1])


def _add_f_df_big(x: np.float32, y: _DF) -> _DF:
    """x + y with |x| >= |y| (dfadd_vf2_vf_vf2)."""
    s = x + y[0]
    return s, ((x - s) + y[0]) + y[1]


def _add_df_df_big(x: _DF, y: _DF) -> _DF:
    """x + y with |x| >= |y| (dfadd_vf2_vf2_vf2)."""
    s = x[0] + y[0]
    return s, (((x[0] - s) + y[0]) + x[1]) + y[1]


def _mul_df_f(x: _DF, y: np.ndarray) -> _DF:
    s = x[0] * y
    return s, fma32(x[1], y, fma32(x[0], y, -s))


def _mul_df_df(x: _DF, y: _DF) -> _DF:
    s = x[0] * y[0]
    return s, fma32(x[0], y[1], fma32(x[1], y[0], fma32(x[0], y[0], -s)))


def _square_df(x: _DF) -> _DF:
    s = x[0] * x[0]
    return s, fma32(x[0] + x[0], x[1], fma32(x[0], x[0], -s))


def _reciprocal_df(d: _DF) -> _DF:
    s = _F32(1) / d[0]
    return s, s * fma32(-d[1], s, fma32(-d[0], s, _F32(1)))


def _divide_df(n: _DF, d: _DF) -> _DF:
    t = _F32(1) / d[0]
    s = n[0] * t
    u = fma32(t, n[0], -s)
    v = fma32(-d[1], t, fma32(-d[0], t, _F32(1)))
    return s, fma32(s, v, fma32(n[1], t, u))


def _exp_df(d: np.ndarray) -> _DF:
    """SLEEF's expk2f: exp of a float32 d >= 0 as a double-float."""
    q = np.rint(d * _R_LN2).astype(np.int32)
    qf = q.astype(_F32)
    s = _add_df_f((d, np.zeros_like(d)), qf * -_LN2_HI)
    s = _add_df_f(s, qf * -_LN2_LO)
    u = np.full(d.shape, _EXPK_POLY0, _F32)
    for c in _EXPK_POLY:
        u = fma32(u, s[0], c)
    t = _add_df_f(_mul_df_f(s, u), _F32(0.166666659414234244790680580464))
    t = _add_df_f(_mul_df_df(s, t), _F32(0.5))
    t = _add_df_df(s, _mul_df_df(_square_df(s), t))
    t = _add_f_df_big(_F32(1), t)
    half = q >> 1
    scale = _pow2(np.clip(half, -126, 127)) * _pow2(np.clip(q - half, -126, 127))
    return t[0] * scale, t[1] * scale


def sleef_tanhf(x: np.ndarray) -> np.ndarray:
    """SLEEF's ``tanhf_u10`` on float32 ``x`` (any shape), bit for bit."""
    x = np.asarray(x, _F32)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        a = np.minimum(np.abs(x), _F32(9))  # beyond 8.66 the result is 1 anyway
        a = np.where(np.isnan(a), _F32(0), a)
        e = _exp_df(a)
        r = _reciprocal_df(e)
        d = _divide_df(_add_df_df_big(e, (-r[0], -r[1])), _add_df_df_big(e, r))
        y = d[0] + d[1]
        y = np.where((np.abs(x) > _TANH_ONE) | np.isnan(y), _F32(1), y)
        return np.where(np.isnan(x), x, np.copysign(y, x)).astype(_F32, copy=False)


# ---- which elements torch's loop gives to its vector formula ----------------------------------


def vector_part(a: np.ndarray) -> np.ndarray | None:
    """A boolean mask of the elements of ``a`` torch's loop gives to its vector formula, or
    None where it runs the scalar formula on all of them.

    The loop's step is two 64-byte vectors (32 float32, 16 float64). A contiguous array
    (either order) is one stretch in memory order: all but its last ``n % step`` elements.
    Other layouts run row by row along a unit-stride last dim; anything else element by
    element."""
    n, step = a.size, 128 // a.itemsize
    if n < step:
        return None
    if a.flags.c_contiguous or a.flags.f_contiguous:
        order = "C" if a.flags.c_contiguous else "F"
        mask = np.zeros(n, bool)
        mask[: n - n % step] = True
        return mask.reshape(a.shape, order=order)
    if a.ndim and a.strides[-1] == a.itemsize and a.shape[-1] >= step:
        row = np.zeros(a.shape[-1], bool)
        row[: a.shape[-1] - a.shape[-1] % step] = True
        return np.broadcast_to(row, a.shape)
    return None


def _by_part(a: np.ndarray, layout: np.ndarray, scalar: object, vector: object) -> np.ndarray:
    out = scalar(a)
    mask = vector_part(layout)
    if mask is not None:
        out[mask] = vector(a[mask])
    return out


def _cr(fn: object) -> object:
    def run(a: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore"):
            return fn(a.astype(np.float64)).astype(_F32)
    return run


def tanh_as_kernel(a: np.ndarray, layout: np.ndarray | None = None) -> np.ndarray:
    """float32 ``tanh(a)`` as torch's elementwise kernels other than ``torch.tanh`` compute
    it: SLEEF's on the vector part, glibc's ``tanhf`` on the scalar tail."""
    return _by_part(a, a if layout is None else layout, tanhf, sleef_tanhf)


def exp_as_kernel(a: np.ndarray, layout: np.ndarray | None = None) -> np.ndarray:
    """float32 ``exp(a)`` as torch's elementwise kernels compute it: SLEEF's on the vector part,
    correctly rounded on the rest (the scalar tail).  ``layout``: the array whose memory
    layout torch's loop follows (the op's input, when ``a`` is computed from it)."""
    return _by_part(a, a if layout is None else layout, _cr(np.exp), sleef_expf)


def sigmoid32(x: np.ndarray) -> np.ndarray:
    """torch's float32 sigmoid kernel: ``1 / (1 + exp(-x))``."""
    one = _F32(1)
    return one / (one + exp_as_kernel(-x, x))


def silu32(x: np.ndarray) -> np.ndarray:
    """torch's float32 silu kernel: ``x / (1 + exp(-x))``."""
    return x / (_F32(1) + exp_as_kernel(-x, x))


def silu_backward32(g: np.ndarray, x: np.ndarray) -> np.ndarray:
    """torch's float32 ``silu_backward``: ``g * s * (1 + x * (1 - s))``, ``s = sigmoid(x)``,
    the last factor one fused multiply-add."""
    s = sigmoid32(x)
    return g * s * fma32(x, _F32(1) - s, _F32(1))


# ---- gelu with approximate='tanh' ---------------------------------------------------------------

_BETA = _F32(0.7978845608028654)  # sqrt(2) * 2/sqrt(pi) * 0.5, rounded to float32
_KAPPA = _F32(0.044715)
_KAPPA3 = _F32(3) * _KAPPA  # the C++ constant 3 * kKappa, folded in float32


def _gelu_inner(x: np.ndarray) -> np.ndarray:
    """``kBeta * (x + kKappa * x^3)``, the inner sum one fused multiply-add."""
    return _BETA * fma32(_KAPPA, x * x * x, x)


def gelu_tanh32(x: np.ndarray) -> np.ndarray:
    """torch's float32 ``gelu(x, approximate='tanh')`` kernel."""
    t = tanh_as_kernel(_gelu_inner(x), x)
    return _F32(0.5) * x * (_F32(1) + t)


def gelu_tanh_backward32(g: np.ndarray, x: np.ndarray) -> np.ndarray:
    """torch's float32 ``gelu_backward(g, x, approximate='tanh')`` kernel."""
    t = tanh_as_kernel(_gelu_inner(x), x)
    left_derivative = _F32(0.5) * (_F32(1) + t)
    inner_derivative = _BETA * fma32(_KAPPA3, x * x, _F32(1))
    right_derivative = _F32(0.5) * x * fma32(-t, t, _F32(1)) * inner_derivative
    return g * (left_derivative + right_derivative)
