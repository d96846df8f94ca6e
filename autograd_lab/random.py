"""Random numbers, bit for bit those of torch's CPU generator.

A ``Generator`` is torch's Mersenne Twister (``_mt19937``); every sampler here turns its
32-bit draws into values exactly as torch's CPU kernels do, and consumes the same number of
draws, so a mixed sequence of calls after ``manual_seed`` stays in step with torch:

* float32 (and float16) uniform: ``(r & (2**24 - 1)) * 2**-24`` from one draw ``r``; float64:
  the low 53 bits of a 64-bit draw ``(r1 << 32) | r2``, times ``2**-53``; then
  ``u * (to - from) + from`` rounded once (the kernel is compiled with FMA), and a value that
  rounds up to ``to`` becomes ``from``.
* normal: see ``_normal_kernels`` (16-value blocks for contiguous tensors of 16 or more
  elements, otherwise double Box-Muller with the second value cached in the generator).
* ``randint``: ``r % (high - low) + low``, with 64-bit draws when ``high - low >= 2**28``.
* ``randperm``: torch's swap shuffle driven by ``r % (n - i)`` (worked out without a loop).
* Bernoulli: ``u < p`` with a float uniform for float32 ``p`` and a double one otherwise.

Non-contiguous tensors are filled in memory order, the order torch's TensorIterator visits.
"""

from __future__ import annotations

import math
import os
import warnings
from typing import Any

import numpy as np

from . import _normal_kernels as K
from ._dtype import dtype, float16, float32, float64, get_default_dtype, int64, uint8
from ._fma import fma32, fma64
from ._mt19937 import MT19937, STATE_SIZE
from .factories import _check_device, _finish, _size
from .factories import device as _device
from .tensor import Tensor, _make

_DEFAULT_SEED = 67280421310721  # torch's seed for a new Generator
_MASK24 = np.uint32((1 << 24) - 1)
_MASK21 = np.uint64((1 << 21) - 1)
_BATCH = 1 << 15  # values per batch of draws
_RANDPERM_SMALL = 0xFFFFFFFF // 20  # below this, randperm uses 32-bit draws
_C_NAMES = {"int8": "signed char", "uint8": "unsigned char", "int16": "short int",
            "int32": "int", "int64": "long int", "bool": "bool"}


class Generator:
    """A random-number stream (``torch.Generator``): torch's mt19937 and its state bytes."""

    def __init__(self, device: Any = "cpu") -> None:
        _check_device(device)
        self._mt = MT19937(_DEFAULT_SEED)

    def __repr__(self) -> str:  # torch's generator is a C++ object; teaching code prints this
        return f"<torch._C.Generator object at {hex(id(self))}>"

    @property
    def device(self) -> _device:
        return _device("cpu")

    def manual_seed(self, seed: int) -> Generator:
        """Seed the stream; negative seeds wrap to 64 bits as in torch."""
        if isinstance(seed, (float, np.floating)) or not hasattr(seed, "__index__"):
            raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
        seed = int(seed)
        if not -(1 << 63) <= seed < (1 << 64):
            raise ValueError("Overflow when unpacking long long")
        self._mt.manual_seed(seed & 0xFFFFFFFFFFFFFFFF)
        return self

    def initial_seed(self) -> int:
        return self._mt.seed

    def seed(self) -> int:
        """Seed from the operating system's entropy and return that seed."""
        s = int.from_bytes(os.urandom(8), "little")
        self._mt.manual_seed(s)
        return s

    def get_state(self) -> Tensor:
        """torch's ``CPUGeneratorImplState`` as a uint8 tensor of 5056 bytes."""
        return _make(self._mt.get_state(), uint8, None)

    def set_state(self, new_state: Tensor) -> Generator:
        if not isinstance(new_state, Tensor):
            raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
        if new_state.dtype is not uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        if new_state.numel() != STATE_SIZE:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {STATE_SIZE} but found "
                               f"the input RNG state size to be {new_state.numel()}")
        self._mt.set_state(new_state._data.reshape(-1))
        return self


default_generator = Generator()
default_generator.seed()  # torch seeds its default generator nondeterministically


def manual_seed(seed: int) -> Generator:
    """Seed the global generator (``torch.manual_seed``); returns it."""
    return default_generator.manual_seed(int(seed))


def initial_seed() -> int:
    return default_generator.initial_seed()


def seed() -> int:
    return default_generator.seed()


def get_rng_state() -> Tensor:
    return default_generator.get_state()


def set_rng_state(new_state: Tensor) -> None:
    default_generator.set_state(new_state)


# ---- helpers ------------------------------------------------------------------------------

def _mt(generator: Generator | None) -> MT19937:
    if generator is None:
        return default_generator._mt
    if not isinstance(generator, Generator):
        raise TypeError(f"expected a torch.Generator, but got {type(generator).__name__}")
    return generator._mt


def _scalar_name(dt: dtype) -> str:
    from .ops.reductions import _scalar_name as name

    return name(dt)


def _dtype_of(arr: np.ndarray) -> dtype:
    from ._dtype import from_numpy_dtype

    return from_numpy_dtype(arr.dtype)


def _need_float(dt: dtype, kernel: str) -> None:
    if not dt.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_scalar_name(dt)}\'')


def _fmt(x: float) -> str:
    """A double as C++ streams print it."""
    return f"{x:g}"


def _memory_order(shape: tuple, strides: tuple) -> tuple:
    """Axes from outermost to innermost as TensorIterator walks them (by decreasing stride)."""
    axes = [d for d in range(len(shape))]
    return tuple(sorted(axes, key=lambda d: -abs(strides[d]) if shape[d] > 1 else 0))


def _write(arr: np.ndarray, values: np.ndarray) -> None:
    """Store ``values`` (flat, one per element) into ``arr`` in memory order."""
    if arr.flags.c_contiguous:
        arr.reshape(-1)[...] = values
        return
    order = _memory_order(arr.shape, arr.strides)
    view = arr.transpose(order)
    view[...] = values.reshape(view.shape)


def _empty_like(arr: np.ndarray, np_dtype: np.dtype) -> np.ndarray:
    """``empty_like`` with torch's preserve_format: dense, axes in the same memory order."""
    if arr.flags.c_contiguous or arr.ndim < 2:
        return np.empty(arr.shape, np_dtype)
    order = _memory_order(arr.shape, arr.strides)
    base = np.empty(tuple(arr.shape[d] for d in order), np_dtype)
    return base.transpose(np.argsort(order))


def _check_inplace(t: Tensor) -> None:
    from .ops.inplace import check_inplace

    check_inplace(t)


def _done(t: Tensor) -> Tensor:
    t._vc[0] += 1
    return t


# ---- value kernels (flat arrays in the order torch produces them) --------------------------

def _batches(n: int, size: int = _BATCH) -> range:
    """Starts of the batches a fill of ``n`` values is made in, so that each batch of draws
    and its temporaries stay in the CPU cache."""
    return range(0, n, size)


def _unit_doubles_into(mt: MT19937, out: np.ndarray) -> None:
    """``out`` (flat float64) gets double uniforms: the low 53 bits of ``random64()``, / 2**53."""
    for s in _batches(out.size):
        part = out[s:s + _BATCH]
        r = mt.random(2 * part.size).astype("<u4", copy=False).view("<u8")  # second, first
        hi = r & _MASK21
        hi <<= np.uint64(32)
        r >>= np.uint64(32)
        hi |= r  # (first << 32 | second) & (2**53 - 1)
        np.copyto(part, hi.view(np.int64), casting="unsafe")
        np.multiply(part, 2.0 ** -53, part)


def _unit_uniform_double(mt: MT19937, n: int) -> np.ndarray:
    out = np.empty(n)
    _unit_doubles_into(mt, out)
    return out


def _sum_is_exact(a: np.float32, d: np.float32) -> bool:
    """Whether ``k / 2**24 * d + a`` is exact in float64 for every 24-bit ``k``: the product
    is a multiple of ulp(d) / 2**24 below 2 d, so the sum fits 53 bits when the exponents
    of ``a`` and ``d`` are close."""
    if not (np.isfinite(a) and np.isfinite(d)):
        return False
    if a == 0 or d == 0:
        return True
    return -28 <= math.frexp(float(a))[1] - math.frexp(float(d))[1] <= 4


def _uniform_into(mt: MT19937, out: np.ndarray, dt: dtype, a: float, b: float) -> None:
    """``uniform_`` values into flat contiguous ``out``: ``u * (b - a) + a`` rounded once; a
    result that rounds up to ``b`` becomes ``a``.

    float64 uses 53-bit double uniforms; float32 and float16 use 24-bit float uniforms and
    float arithmetic (float16 rounds the float result at the end).
    """
    if dt is float64:
        _unit_doubles_into(mt, out)
        if (a, b) != (0.0, 1.0):
            out[...] = fma64(out, b - a, a)
            out[out >= b] = a  # keep the range half-open after rounding
        return
    lo32 = np.float32(a)
    d32 = np.float32(b) - lo32  # torch subtracts in float
    lo, hi = dt.np.type(a), dt.np.type(b)
    if dt is float32 and (a, b) == (0.0, 1.0):
        for s in _batches(out.size):
            part = out[s:s + _BATCH]
            r = mt.random(part.size)
            np.bitwise_and(r, _MASK24, r)
            np.copyto(part, r, casting="unsafe")
            np.multiply(part, np.float32(2.0 ** -24), part)  # x * 1 + 0 is x, and x < 1
        return
    if dt is float32 and _sum_is_exact(lo32, d32):
        # the product and the sum are exact in float64: one rounding, the fused one
        scale, shift = np.float64(d32) * 2.0 ** -24, np.float64(lo32)
        top = np.float32(np.float64(_MASK24) * scale + shift)  # the largest value, rounded
        buf = np.empty(min(out.size, _BATCH))
        for s in _batches(out.size):
            part = out[s:s + _BATCH]
            r = mt.random(part.size)
            np.bitwise_and(r, _MASK24, r)
            x = buf[:part.size]
            np.copyto(x, r)
            np.multiply(x, scale, x)
            np.add(x, shift, x)
            np.copyto(part, x)
            if top >= hi:
                np.copyto(part, lo, where=part >= hi)
        return
    for s in _batches(out.size):
        part = out[s:s + _BATCH]
        r = mt.random(part.size)
        np.bitwise_and(r, _MASK24, r)
        x = r.astype(np.float32)
        np.multiply(x, np.float32(2.0 ** -24), x)
        v = fma32(x, d32, lo32).astype(dt.np)
        v[v >= hi] = lo
        part[...] = v


def _fill_uniform(arr: np.ndarray, mt: MT19937, dt: dtype, a: float, b: float) -> None:
    """``arr`` gets ``uniform_`` values in memory order."""
    if arr.flags.c_contiguous:
        _uniform_into(mt, arr.reshape(-1), dt, a, b)
    else:
        _write(arr, _uniform(mt, arr.size, dt, a, b))


def _uniform(mt: MT19937, n: int, dt: dtype, a: float, b: float) -> np.ndarray:
    """``n`` ``uniform_`` values (see :func:`_uniform_into`)."""
    out = np.empty(n, dt.np)
    _uniform_into(mt, out, dt, a, b)
    return out


def _normal_serial(mt: MT19937, n: int, mean: float, std: float) -> np.ndarray:
    """``normal_distribution<double>(mean, std)`` ``n`` times, using and refilling the cache."""
    head = []
    if n and mt.double_normal is not None:
        head, mt.double_normal = [mt.double_normal], None
    m = n - len(head)
    pairs = (m + 1) // 2
    u = _unit_uniform_double(mt, 2 * pairs).reshape(-1, 2)
    vals = K.serial_pairs(u).reshape(-1)
    if m % 2:
        mt.double_normal = float(vals[-1])
    out = np.concatenate([np.array(head, np.float64), vals[:m]])
    return K.scale(out, mean, std)


def _normal_blocks(mt: MT19937, out: np.ndarray, mean: float, std: float) -> None:
    """torch's ``normal_fill`` into ``out`` (flat, contiguous, float32/64, 16 or more values)."""
    if out.dtype == np.float32:
        K.fill_f32(mt.random, out, mean, std)
        return
    n = out.size
    full = n - n % 16
    u = _uniform(mt, n, float64, 0.0, 1.0)
    K.fill16_f64(u[:full].reshape(-1, 16), out[:full].reshape(-1, 16))
    if n % 16:  # the last 16 values are drawn again and redone
        tail = _uniform(mt, 16, float64, 0.0, 1.0)
        K.fill16_f64(tail.reshape(1, 16), out[n - 16:].reshape(1, 16))
    out[...] = K.scale(out, mean, std)


def _normal_half(mt: MT19937, n: int, mean: float, std: float) -> np.ndarray:
    """float16 blocks: whole blocks of 16 float uniforms (the last one cut), float math.

    The draws match torch; the values are float Box-Muller, which torch's vectorised half
    kernel reproduces for most but not all elements.
    """
    blocks = -(-n // 16)
    u = _uniform(mt, 16 * blocks, float32, 0.0, 1.0).reshape(-1, 16).astype(np.float64)
    radius = np.sqrt(-2.0 * np.log(1.0 - u[:, :8])).astype(np.float32)
    theta = (np.float32(2.0 * np.pi) * u[:, 8:].astype(np.float32)).astype(np.float64)
    out = np.concatenate([radius * np.cos(theta).astype(np.float32),
                          radius * np.sin(theta).astype(np.float32)], axis=1).reshape(-1)[:n]
    return fma32(out, np.float32(std), np.float32(mean)).astype(np.float16)


def _normal_into(arr: np.ndarray, mean: float, std: float, mt: MT19937) -> None:
    """Fill a float array as torch's ``normal_`` does: block kernel or serial Box-Muller."""
    n = arr.size
    if n >= 16 and arr.flags.c_contiguous and arr.dtype != np.float16:
        _normal_blocks(mt, arr.reshape(-1), mean, std)
    elif n >= 16 and arr.flags.c_contiguous:
        arr.reshape(-1)[...] = _normal_half(mt, n, mean, std)
    else:
        _write(arr, _normal_serial(mt, n, mean, std).astype(arr.dtype))


# ---- factories ----------------------------------------------------------------------------

def _shape(size: tuple, kw: dict, fname: str) -> tuple:
    """The size from ``*size`` or the ``size=`` keyword; other keywords are errors."""
    extra = [k for k in kw if k not in ("size", "layout", "pin_memory")]
    if extra:
        raise TypeError(f"{fname}() got an unexpected keyword argument '{extra[0]}'")
    return _size(size if "size" not in kw else (kw["size"],))


def rand(*size: Any, generator: Generator | None = None, dtype: dtype | None = None,
         device: Any = None, requires_grad: bool = False, **kw: Any) -> Tensor:
    """Uniform samples on [0, 1)."""
    _check_device(device)
    dt = dtype or get_default_dtype()
    shape = _shape(size, kw, "rand")
    _need_float(dt, "check_uniform_bounds")
    arr = np.empty(shape, dt.np)
    _uniform_into(_mt(generator), arr.reshape(-1), dt, 0.0, 1.0)
    return _finish(arr, dt, requires_grad)


def randn(*size: Any, generator: Generator | None = None, dtype: dtype | None = None,
          device: Any = None, requires_grad: bool = False, **kw: Any) -> Tensor:
    """Standard normal samples."""
    _check_device(device)
    dt = dtype or get_default_dtype()
    shape = _shape(size, kw, "randn")
    _need_float(dt, "normal_kernel_cpu")
    arr = np.empty(shape, dt.np)
    _normal_into(arr, 0.0, 1.0, _mt(generator))
    return _finish(arr, dt, requires_grad)


def _randint_signature_error(args: tuple) -> TypeError:
    opts = ("torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
            "bool pin_memory = False, bool requires_grad = False)")
    gen = "torch.Generator generator, Tensor out = None"
    got = ", ".join(type(a).__name__ for a in args)
    lines = [f" * ({head}, *, {out}, {opts}\n"
             for head in ("int high, tuple of ints size", "int low, int high, tuple of ints size")
             for out in (gen, "Tensor out = None")]
    return TypeError(f"randint() received an invalid combination of arguments - got ({got}), but "
                     "expected one of:\n" + "".join(lines))


def _float_bounds(low: int, high: int, dt: dtype) -> tuple[int, int]:
    """torch's ``update_from``/``update_to``: pull bounds the float type cannot hold inward."""
    digits = {"float16": 11, "float32": 24, "float64": 53}[dt.name]
    to_minus_1 = int(np.array(high - 1).astype(dt.np))
    if to_minus_1 >= high:
        high = to_minus_1 - (1 << (abs(high - 1).bit_length() - 1 - digits + 1))
    from_plus_1 = int(np.array(low + 1).astype(dt.np))
    if from_plus_1 < low:
        low = from_plus_1 + (1 << (abs(low + 1).bit_length() - 1 - digits + 1))
    if low >= high:
        raise RuntimeError("random_ expects 'from' casted to dtype to be less than 'to' casted "
                           f"to dtype, but got from={low} >= to={high}")
    return low, high


def _check_from_to(low: int, hi_incl: int, dt: dtype) -> None:
    """torch's ``check_from_to_in_range``: an error for integers, a warning for floats."""
    if dt.is_floating_point:
        digits, cname = {"float16": (11, "Half"), "float32": (24, "float"),
                         "float64": (53, "double")}[dt.name]
        for name, v in (("from", low), ("to - 1", hi_incl)):
            if not -(1 << digits) <= v <= 1 << digits:
                warnings.warn(
                    f"{name} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision "
                    f"limitations {cname} can support discrete uniform distribution only within "
                    "this range. This warning will become an error in version 1.7 release, "
                    "please fix the code in advance", UserWarning, stacklevel=3)
        return
    lo, hi = (0, 1) if dt.name == "bool" else (np.iinfo(dt.np).min, np.iinfo(dt.np).max)
    for name, v in (("from", low), ("to - 1", hi_incl)):
        if not lo <= v <= hi:
            raise RuntimeError(f"{name} is out of bounds for {_C_NAMES[dt.name]}")


def randint(low: int, high: Any = None, size: Any = None, *,
            generator: Generator | None = None, dtype: dtype | None = None,
            device: Any = None, requires_grad: bool = False) -> Tensor:
    """Integers uniform on [low, high): ``r % (high - low) + low``."""
    _check_device(device)
    args = tuple(a for a in (low, high, size) if a is not None)
    if size is None and isinstance(high, (tuple, list)):
        low, high, size = 0, low, high
    if high is None or not isinstance(size, (tuple, list)):
        raise _randint_signature_error(args)
    low, high = int(low), int(high)
    dt = dtype or int64
    shape = _size(tuple(size))
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= "
                           f"to={high}")
    if dt.is_floating_point:
        low, high = _float_bounds(low, high, dt)
    _check_from_to(low, high - 1, dt)
    n = int(np.prod(shape, dtype=np.int64))
    span = (high - low) & 0xFFFFFFFFFFFFFFFF
    wide = span >= 1 << 28  # 64-bit draws keep the modulo skew small
    mt = _mt(generator)
    if not wide and -(1 << 63) <= low < (1 << 63):
        draws = mt.random(n)
        draws %= np.uint32(span)
        vals = draws.astype(np.int64)
        vals += low  # low <= value < high: no overflow
    else:
        draws = mt.random64(n) if wide else mt.random(n).astype(np.uint64)
        draws %= np.uint64(span)
        draws += np.uint64(low & 0xFFFFFFFFFFFFFFFF)  # wraps like torch's unsigned sum
        vals = draws.view(np.int64)
    return _finish(vals.astype(dt.np, copy=False).reshape(shape), dt, requires_grad)


def _swap_shuffle(draws: np.ndarray, n: int) -> np.ndarray:
    """``arange(n)`` after ``swap(p[i], p[j_i])``, ``j_i = i + draws[i] % (n - i)``, i < n - 1.

    Without the loop: position i is final after step i, and holds what position ``j_i`` held
    just before it -- ``j_i`` itself if no earlier step moved a value there, else the value
    ``W(m)`` that the last such step ``m`` moved, where ``W(k)``, what position k holds just
    before step k, is in turn ``W`` of the last step that moved a value into k (or k).  The
    moves are grouped by target with one sort, and the chains of ``W`` are followed by
    pointer jumping.
    """
    if n <= 1:
        return np.arange(n, dtype=np.int64)
    z = draws % np.arange(n, 1, -1, dtype=np.uint32)
    moved = np.flatnonzero(z)  # steps that swap with a later position
    if not moved.size:
        return np.arange(n, dtype=np.int64)
    key = z[moved].astype(np.int64)
    key += moved
    key <<= 32
    key |= moved
    key.sort()  # by target, then by step
    target, step = (key >> 32).astype(np.int32), key.astype(np.int32)
    first = np.empty(target.size, bool)  # the first move into its target
    first[0] = True
    np.not_equal(target[1:], target[:-1], out=first[1:])
    last = np.empty(target.size, bool)
    last[-1] = True
    last[:-1] = first[1:]
    w = np.arange(n, dtype=np.int32)  # w[k]: a step whose W(...) is W(k), until a root k
    w[target[last]] = step[last]
    while True:
        nxt = w[w]
        if np.array_equal(nxt, w):
            break
        w = nxt
    perm = w.astype(np.int64)  # steps that stay put, and the last position, hold W(k)
    carried = target.astype(np.int64)
    np.copyto(carried[1:], w[step[:-1]], where=~first[1:])
    perm[step] = carried
    return perm


def randperm(n: int, *, generator: Generator | None = None, dtype: dtype | None = None,
             device: Any = None, requires_grad: bool = False) -> Tensor:
    """A random permutation of 0..n-1, shuffled the way torch does."""
    _check_device(device)
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
        raise TypeError(f"randperm(): argument 'n' (position 1) must be int, not "
                        f"{type(n).__name__}")
    n = int(n)
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    dt = dtype or int64
    if dt.name == "bool":
        raise NotImplementedError("\"randperm\" not implemented for 'Bool'")
    if dt is float16 and n > 2049:
        raise RuntimeError("n cannot be greater than 2049 for Half type.")
    if not dt.is_floating_point and n > 0 and n - 1 > np.iinfo(dt.np).max:
        ctype = f"{dt.name}_t"
        raise RuntimeError(f"value cannot be converted to type {ctype} without overflow")
    mt = _mt(generator)
    if n < _RANDPERM_SMALL:
        perm = _swap_shuffle(mt.random(max(n - 1, 0)), n)
    else:  # inside-out Fisher-Yates with 64-bit draws
        zs = (mt.random64(n) % np.arange(1, n + 1, dtype=np.uint64)).tolist()
        perm = list(range(n))
        for i, z in enumerate(zs):
            perm[i] = perm[z]
            perm[z] = i
    return _finish(np.asarray(perm, np.int64).astype(dt.np, copy=False), dt, requires_grad)


def rand_like(t: Tensor, *, dtype: dtype | None = None, generator: Generator | None = None,
              device: Any = None, requires_grad: bool = False, layout: Any = None,
              memory_format: Any = None) -> Tensor:
    """Uniform samples shaped (and laid out) like ``t``."""
    _check_device(device)
    dt = dtype or t.dtype
    _need_float(dt, "check_uniform_bounds")
    arr = _empty_like(t._data, dt.np)
    _fill_uniform(arr, _mt(generator), dt, 0.0, 1.0)
    return _finish(arr, dt, requires_grad)


def randn_like(t: Tensor, *, dtype: dtype | None = None, generator: Generator | None = None,
               device: Any = None, requires_grad: bool = False, layout: Any = None,
               memory_format: Any = None) -> Tensor:
    """Standard normal samples shaped (and laid out) like ``t``."""
    _check_device(device)
    dt = dtype or t.dtype
    _need_float(dt, "normal_kernel_cpu")
    arr = _empty_like(t._data, dt.np)
    _normal_into(arr, 0.0, 1.0, _mt(generator))
    return _finish(arr, dt, requires_grad)


def _check_std(std: float) -> None:
    if not std >= 0.0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {_fmt(std)}")


def normal(mean: Any = 0.0, std: Any = 1.0, size: Any = None, *,
           generator: Generator | None = None, dtype: dtype | None = None,
           requires_grad: bool = False) -> Tensor:
    """``torch.normal``: N(0, 1) samples, then ``* std + mean`` as torch composes them."""
    mt = _mt(generator)
    mt_t, st_t = isinstance(mean, Tensor), isinstance(std, Tensor)
    if not mt_t and not st_t:
        if size is None:
            raise TypeError("normal() received an invalid combination of arguments - got "
                            "(float, float), but expected (Tensor mean, Tensor std), "
                            "(Tensor mean, float std), (float mean, Tensor std) or "
                            "(float mean, float std, tuple of ints size)")
        dt = dtype or get_default_dtype()
        _check_std(float(std))
        arr = np.empty(_size(tuple(size)), dt.np)
        _normal_into(arr, float(mean), float(std), mt)
        return _finish(arr, dt, requires_grad)
    if st_t and bool((std._data < 0).any()):
        raise RuntimeError("normal expects all elements of std >= 0.0")
    if mt_t and not st_t:  # normal_(0, std), then + mean
        _check_std(float(std))
        dt = mean.dtype
        arr = np.empty(mean.shape, dt.np)
        _normal_into(arr, 0.0, float(std), mt)
        return _make((arr + mean._data).astype(dt.np), dt, None)
    dt = mean.dtype if mt_t else std.dtype  # normal_(0, 1), then * std + mean
    shape = np.broadcast_shapes(mean.shape, std.shape) if mt_t and st_t else std.shape
    arr = np.empty(tuple(shape), dt.np)
    _normal_into(arr, 0.0, 1.0, mt)
    m = mean._data if mt_t else np.asarray(mean, dt.np)
    return _make(((arr * std._data).astype(dt.np) + m).astype(dt.np), dt, None)


def _bernoulli_tensor_values(mt: MT19937, p: np.ndarray) -> np.ndarray:
    """``u < p`` per element of ``p`` (flat, iteration order); float32 p uses float uniforms."""
    if p.dtype not in (np.float32, np.float64):
        raise NotImplementedError("\"bernoulli_tensor_cpu_p_\" not implemented for "
                                  f"'{_scalar_name(_dtype_of(p))}'")
    bad = ~((p >= 0) & (p <= 1))
    count = int(np.argmax(bad)) if bad.any() else p.size
    if p.dtype == np.float64:
        u = _unit_uniform_double(mt, count)
    else:
        u = (mt.random(count) & _MASK24).astype(np.float32) * np.float32(2.0 ** -24)
    if count < p.size:
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could "
                           "this error message be improved?  If so, please report an "
                           "enhancement request to PyTorch.)")
    return u < p.astype(u.dtype)


def _bernoulli_scalar_values(mt: MT19937, n: int, p: float) -> np.ndarray:
    """``u < p`` with double uniforms, ``n`` times."""
    p = float(p)
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_fmt(p)}")
    return _unit_uniform_double(mt, n) < p


def bernoulli(input: Tensor, p: float | None = None, *,
              generator: Generator | None = None) -> Tensor:
    """0/1 samples with probability ``input`` (or ``p`` for every element)."""
    mt = _mt(generator)
    if p is not None:
        arr = np.empty(input.shape, input.dtype.np)
        arr.reshape(-1)[...] = _bernoulli_scalar_values(mt, arr.size, p)
        return _make(arr, input.dtype, None)
    vals = _bernoulli_tensor_values(mt, np.ascontiguousarray(input._data).reshape(-1))
    return _make(vals.astype(input.dtype.np).reshape(input.shape), input.dtype, None)


# ---- in-place samplers (used by nn.init and the Tensor methods) ---------------------------

def uniform_(t: Tensor, a: float = 0.0, b: float = 1.0, *,
             generator: Generator | None = None) -> Tensor:
    """Fill ``t`` with uniform samples on [a, b)."""
    _check_inplace(t)
    _need_float(t.dtype, "check_uniform_bounds")
    a, b = float(a), float(b)
    if a > b:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found "
                           f"from={_fmt(a)} > to={_fmt(b)}")
    _fill_uniform(t._data, _mt(generator), t.dtype, a, b)
    return _done(t)


def normal_(t: Tensor, mean: float = 0.0, std: float = 1.0, *,
            generator: Generator | None = None) -> Tensor:
    """Fill ``t`` with samples of N(mean, std**2)."""
    _check_inplace(t)
    _check_std(float(std))
    _need_float(t.dtype, "normal_kernel_cpu")
    _normal_into(t._data, float(mean), float(std), _mt(generator))
    return _done(t)


def bernoulli_(t: Tensor, p: Any = 0.5, *, generator: Generator | None = None) -> Tensor:
    """Fill ``t`` with 0/1 samples, 1 with probability ``p`` (a float or a tensor)."""
    _check_inplace(t)
    mt = _mt(generator)
    if isinstance(p, Tensor):
        probs = np.broadcast_to(p._data, t.shape)
        order = _memory_order(t._data.shape, t._data.strides)
        flat = np.ascontiguousarray(probs.transpose(order)).reshape(-1)
        _write(t._data, _bernoulli_tensor_values(mt, flat).astype(t._data.dtype))
        return _done(t)
    _write(t._data, _bernoulli_scalar_values(mt, t.numel(), p).astype(t._data.dtype))
    return _done(t)
