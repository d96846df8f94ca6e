"""Moving OpInfo sample inputs from torch to autograd_lab and comparing what both return.

Used by ``opinfo_conformance.py``. Tensors are copied by identity (a tensor passed twice stays
one tensor), with their strides, dtype and ``requires_grad``; outputs are compared by type,
dtype, shape and values (integers and bools exactly, floats both bit for bit and within a
relative tolerance with matching NaN/inf positions).
"""

from __future__ import annotations

import types
from typing import Any

import numpy as np

RTOL = {"float32": 1e-6, "float64": 1e-12, "float16": 1e-3, "bfloat16": 1e-2}


class Unconvertible(Exception):
    """A sample holds something autograd_lab has no counterpart for (a generator, complex...)."""


# ---- torch -> autograd_lab --------------------------------------------------------------------

def _array(t: Any) -> np.ndarray:
    """A fresh numpy copy of torch tensor ``t`` with the same strides (non-contiguity kept)."""
    t = t.detach().resolve_conj().resolve_neg()
    if t.dim() > 64:
        raise Unconvertible("more than 64 dims (numpy's limit)")
    if t.is_contiguous() or t.numel() == 0 or 0 in t.stride():
        return t.contiguous().numpy().copy()
    extent = 1 + sum((n - 1) * s for n, s in zip(t.shape, t.stride()))
    flat = t.as_strided((extent,), (1,), t.storage_offset()).numpy().copy()
    item = flat.itemsize
    return np.lib.stride_tricks.as_strided(flat, t.shape, tuple(s * item for s in t.stride()),
                                           writeable=True)


def to_lab(obj: Any, torch: Any, lab: Any, memo: dict[int, Any]) -> Any:
    """``obj`` (a sample's input, arg or kwarg) with every torch object as autograd_lab's."""
    if isinstance(obj, torch.Tensor):
        if id(obj) in memo:
            return memo[id(obj)]
        name = str(obj.dtype).removeprefix("torch.")
        if obj.is_complex() or obj.layout != torch.strided or not hasattr(lab, name):
            raise Unconvertible(f"tensor of {obj.dtype}/{obj.layout}")
        out = lab.from_numpy(_array(obj))
        if out.dtype != getattr(lab, name):
            out = out.to(getattr(lab, name))
        if obj.requires_grad:
            out.requires_grad_(True)
        memo[id(obj)] = out
        return out
    if isinstance(obj, torch.dtype):
        name = str(obj).removeprefix("torch.")
        if not hasattr(lab, name):
            raise Unconvertible(f"dtype {obj}")
        return getattr(lab, name)
    if isinstance(obj, torch.Size):
        return lab.Size(tuple(obj))
    if isinstance(obj, torch.device):
        return str(obj)
    if isinstance(obj, (torch.memory_format, torch.layout, torch.Generator)):
        raise Unconvertible(type(obj).__name__)
    if isinstance(obj, list):
        return [to_lab(x, torch, lab, memo) for x in obj]
    if isinstance(obj, tuple):
        items = [to_lab(x, torch, lab, memo) for x in obj]
        return type(obj)(*items) if hasattr(obj, "_fields") else tuple(items)
    if isinstance(obj, dict):
        return {k: to_lab(v, torch, lab, memo) for k, v in obj.items()}
    if isinstance(obj, (int, float, bool, str, slice, type(None), type(Ellipsis), complex)):
        return obj
    if isinstance(obj, np.ndarray):
        return obj.copy()
    if callable(obj):
        return rebind(obj, lab)
    raise Unconvertible(type(obj).__name__)


def rebind(fn: Any, lab: Any, seeded: Any = None) -> Any:
    """A copy of the Python function ``fn`` whose global ``torch`` is ``lab`` (OpInfo's lambdas
    call ``torch.X`` or ``x.method``); ``wrapper_set_seed`` becomes ``seeded`` if given."""
    if not isinstance(fn, types.FunctionType):
        return fn
    glb = dict(fn.__globals__)
    glb["torch"] = lab
    if seeded is not None:
        glb["wrapper_set_seed"] = seeded
    new = types.FunctionType(fn.__code__, glb, fn.__name__, fn.__defaults__, fn.__closure__)
    new.__kwdefaults__ = fn.__kwdefaults__
    return new


def tensors_in(obj: Any, cls: type, out: list | None = None) -> list:
    """Every tensor of class ``cls`` in ``obj`` (nested lists/tuples/dicts), each once."""
    out = [] if out is None else out
    if isinstance(obj, cls):
        if not any(o is obj for o in out):
            out.append(obj)
    elif isinstance(obj, (list, tuple)):
        for x in obj:
            tensors_in(x, cls, out)
    elif isinstance(obj, dict):
        for x in obj.values():
            tensors_in(x, cls, out)
    return out


def describe(obj: Any, torch: Any, depth: int = 0) -> str:
    """A short repr of a sample's part: tensors as ``f32[2,3]`` (``nc`` when strided, ``rg``
    when requiring grad, values when small), everything else by repr."""
    if isinstance(obj, torch.Tensor):
        dt = {"torch.float32": "f32", "torch.float64": "f64", "torch.int64": "i64",
              "torch.bool": "b"}.get(str(obj.dtype), str(obj.dtype).removeprefix("torch."))
        s = f"{dt}[{','.join(map(str, obj.shape))}]"
        if not obj.is_contiguous():
            s += " nc"
        if obj.requires_grad:
            s += " rg"
        if 0 < obj.numel() <= 6:
            s += f"={obj.detach().flatten().tolist()}"
        return s
    if isinstance(obj, (list, tuple)) and depth < 3:
        inner = ", ".join(describe(x, torch, depth + 1) for x in obj[:8])
        more = ", ..." if len(obj) > 8 else ""
        return f"[{inner}{more}]" if isinstance(obj, list) else f"({inner}{more})"
    if isinstance(obj, dict):
        return "{" + ", ".join(f"{k}={describe(v, torch, depth + 1)}" for k, v in obj.items()) + "}"
    r = repr(obj)
    return r if len(r) <= 60 else r[:57] + "..."


# ---- comparing -------------------------------------------------------------------------------

def _np(t: Any) -> np.ndarray:
    t = t.detach()
    if hasattr(t, "resolve_conj"):
        t = t.resolve_conj().resolve_neg()
    return np.asarray(t.numpy(force=True))


def compare(ref: Any, got: Any, torch: Any, lab: Any, path: str = "out",
            values: bool = True) -> tuple[list[str], bool]:
    """(differences beyond tolerance, bit-exact) between torch's ``ref`` and our ``got``.
    ``values=False`` compares tensors by dtype and shape only (``empty``)."""
    diffs: list[str] = []
    exact = [True]
    _compare(ref, got, torch, lab, path, values, diffs, exact)
    return diffs, exact[0] and not diffs


def _type_name(x: Any) -> str:
    t = type(x)
    mod = t.__module__.replace("autograd_lab", "torch")
    return f"{mod}.{t.__qualname__}"


def _compare(ref: Any, got: Any, torch: Any, lab: Any, path: str, values: bool,
             diffs: list[str], exact: list[bool]) -> None:
    if isinstance(ref, torch.Tensor):
        if not isinstance(got, lab.Tensor):
            diffs.append(f"{path}: torch Tensor, ours {_type_name(got)}")
            return
        if str(ref.dtype) != str(got.dtype):
            diffs.append(f"{path}.dtype: torch {ref.dtype}, ours {got.dtype}")
            return
        if tuple(ref.shape) != tuple(got.shape):
            diffs.append(f"{path}.shape: torch {tuple(ref.shape)}, ours {tuple(got.shape)}")
            return
        if values:
            _values(_np(ref), _np(got), str(ref.dtype).removeprefix("torch."), path, diffs, exact)
        return
    if isinstance(ref, (tuple, list)):
        if not isinstance(got, (tuple, list)) or _type_name(ref) != _type_name(got):
            diffs.append(f"{path}: torch {_type_name(ref)}, ours {_type_name(got)}")
            return
        if len(ref) != len(got):
            diffs.append(f"{path}: torch {len(ref)} items, ours {len(got)}")
            return
        for k, (a, b) in enumerate(zip(ref, got)):
            _compare(a, b, torch, lab, f"{path}[{k}]", values, diffs, exact)
        return
    if isinstance(ref, (bool, int, float)) and not isinstance(ref, torch.Tensor):
        if type(ref) is not type(got):
            diffs.append(f"{path}: torch {type(ref).__name__} {ref!r}, ours "
                         f"{_type_name(got)} {got!r}")
            return
        if values:
            kind = "float64" if isinstance(ref, float) else "int64"
            _values(np.array(ref), np.array(got), kind, path, diffs, exact)
        return
    if ref is None or isinstance(ref, (str, torch.dtype)):
        if str(ref) != str(got):
            diffs.append(f"{path}: torch {ref!r}, ours {got!r}")
        return
    if str(ref) != str(got):
        diffs.append(f"{path}: torch {_type_name(ref)} {str(ref)[:60]}, ours "
                     f"{_type_name(got)} {str(got)[:60]}")


def _values(a: np.ndarray, b: np.ndarray, dtype: str, path: str, diffs: list[str],
            exact: list[bool]) -> None:
    if a.dtype.kind not in "fc":
        if not np.array_equal(a, b):
            diffs.append(f"{path}: {_first_diff(a, b)}")
        return
    a64, b64 = a.astype(np.float64), np.asarray(b, dtype=np.float64)
    nan_a, nan_b = np.isnan(a64), np.isnan(b64)
    same = (a64 == b64) | (nan_a & nan_b)
    if not (same.all() and np.array_equal(np.signbit(a64[~nan_a]), np.signbit(b64[~nan_b]))):
        exact[0] = False
    if same.all():
        return
    rtol = RTOL.get(dtype, 1e-6)
    finite = np.isfinite(a64) & np.isfinite(b64)
    with np.errstate(invalid="ignore", over="ignore"):
        ok = same | (finite & (np.abs(a64 - b64) <= rtol * np.abs(a64)))
    if not ok.all():
        diffs.append(f"{path}: {_first_diff(a64, b64, ok)}")


def _first_diff(a: np.ndarray, b: np.ndarray, ok: np.ndarray | None = None) -> str:
    bad = ~ok if ok is not None else (a != b)
    idx = tuple(int(i[0]) for i in np.nonzero(np.atleast_1d(bad)))
    a1, b1 = np.atleast_1d(a), np.atleast_1d(b)
    n = int(np.count_nonzero(bad))
    return (f"{n}/{a.size} differ, first at {list(idx)}: torch {a1[idx]!r}, ours {b1[idx]!r}"
            .replace("np.float64(", "(").replace("np.int64(", "("))
