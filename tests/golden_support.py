"""Run a golden case under a torch-like module, describe what it produced, compare two runs.

A case is a Python snippet. ``run_case`` executes it with ``torch`` bound to real PyTorch
(when recording goldens) or to ``autograd_lab`` (when testing), and returns a JSON-ready
outcome: the described ``result`` variable, captured stdout, the exception that ended the
case (if any) and the warnings it raised. ``compare`` checks two outcomes: everything
exactly, except floating-point values, which may differ by a few ulps (numpy's and
torch's math libraries legitimately round differently).

This module imports neither torch nor autograd_lab: it works on whatever it is given.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import math
import re
import types
import warnings
from typing import Any

import numpy as np

__all__ = ["TOLERANCES", "compare", "describe", "run_case", "sanitize"]

# (rtol, atol) per tensor dtype; plain Python floats use the float32 pair (most of them
# come from ``item()`` of a float32 tensor). Integers, bools and strings compare exactly.
TOLERANCES: dict[str, tuple[float, float]] = {
    "torch.float16": (1e-3, 1e-5),
    "torch.float32": (1e-5, 1e-6),
    "torch.float64": (1e-10, 1e-12),
}
PY_FLOAT_TOLERANCE = TOLERANCES["torch.float32"]

_ADDR = re.compile(r"0x[0-9a-fA-F]{6,}")
_TRIGGERED = re.compile(r"\s*\(Triggered internally at .*?\)\s*$", re.DOTALL)
MAX_GRAPH_DEPTH = 8
MAX_GRAPH_NODES = 200


def sanitize(text: str) -> str:
    """Replace memory addresses (``0x7f3a...``) by ``0xADDR``."""
    return _ADDR.sub("0xADDR", text)


# ---- running a case ----------------------------------------------------------------------

def _namespace(torch: types.ModuleType) -> dict[str, Any]:
    ns: dict[str, Any] = {"torch": torch, "np": np, "__name__": "__golden_case__"}
    for short, sub in (("nn", "nn"), ("F", "nn.functional")):
        try:
            ns[short] = importlib.import_module(f"{torch.__name__}.{sub}")
        except ImportError:
            pass  # not (yet) provided: a case that uses it fails with a NameError
    return ns


def _reset(torch: types.ModuleType, grad_enabled: bool, default_dtype: Any) -> None:
    """Undo global state a case may have changed."""
    torch.set_grad_enabled(grad_enabled)
    torch.set_default_dtype(default_dtype)
    torch.set_printoptions(profile="default")


def run_case(torch: types.ModuleType, code: str) -> dict[str, Any]:
    """Execute ``code`` with ``torch`` bound to ``torch``; return the described outcome."""
    ns = _namespace(torch)
    out = io.StringIO()
    error = None
    grad_enabled, default_dtype = torch.is_grad_enabled(), torch.get_default_dtype()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(code, "<golden case>", "exec"), ns)
        except Exception as e:  # the case's outcome, not a failure of the runner
            error = {"type": type(e).__name__, "message": sanitize(str(e))}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # describing must not add warnings
            result = describe(ns["result"]) if "result" in ns else None
    finally:
        _reset(torch, grad_enabled, default_dtype)
    return {
        "result": result,
        "stdout": sanitize(out.getvalue()),
        "error": error,
        "warnings": [
            {"category": w.category.__name__,
             "message": sanitize(_TRIGGERED.sub("", str(w.message)))}
            for w in caught
        ],
    }


# ---- describing values ---------------------------------------------------------------------

def _float(v: float) -> dict[str, str]:
    return {"float": float(v).hex()}


def _encode_values(v: Any) -> Any:
    """``tolist()`` output with floats as exact hex strings (nan, inf and -0.0 included)."""
    if isinstance(v, list):
        return [_encode_values(x) for x in v]
    if isinstance(v, float):
        return float(v).hex()
    return v


def _is_tensor(obj: Any) -> bool:
    return hasattr(obj, "grad_fn") and hasattr(obj, "requires_grad") and hasattr(obj, "tolist")


def _is_node(obj: Any) -> bool:
    return hasattr(obj, "next_functions") and callable(getattr(obj, "name", None))


def _edges(node: Any, depth: int, budget: list[int]) -> Any:
    """``next_functions`` as nested ``[name, input_nr, children]`` down to the leaves."""
    if depth >= MAX_GRAPH_DEPTH or budget[0] <= 0:
        return "..."
    out = []
    for nxt, nr in node.next_functions:
        budget[0] -= 1
        if nxt is None:
            out.append([None, nr])
        else:
            out.append([type(nxt).__name__, nr, _edges(nxt, depth + 1, budget)])
    return out


def _graph(node: Any) -> Any:
    return _edges(node, 0, [MAX_GRAPH_NODES])


def _describe_tensor(t: Any) -> dict[str, Any]:
    fn = t.grad_fn
    grad = t.grad  # the caller suppresses the non-leaf warning
    return {
        "kind": "tensor",
        "type": type(t).__name__,
        "repr": sanitize(repr(t)),
        "dtype": repr(t.dtype),
        "shape": list(t.shape),
        "values": _encode_values(t.detach().tolist()),
        "requires_grad": bool(t.requires_grad),
        "is_leaf": bool(t.is_leaf),
        "grad_fn": None if fn is None else type(fn).__name__,
        "next_functions": None if fn is None else _graph(fn),
        "grad": None if grad is None else _describe_tensor(grad),
    }


def describe(obj: Any) -> Any:
    """A JSON-ready description of a case's result (see the module docstring)."""
    try:
        return _describe(obj)
    except Exception as e:  # shows up as a mismatch, with the reason
        return {"describe_error": f"{type(e).__name__}: {sanitize(str(e))}"}


def _describe(obj: Any) -> Any:
    if obj is None or isinstance(obj, bool):
        return obj
    if isinstance(obj, str):
        return sanitize(obj)

    if isinstance(obj, int) and not isinstance(obj, bool):
        return int(obj)
    if isinstance(obj, float):
        return _float(obj)
    if isinstance(obj, np.ndarray):
        return {"kind": "ndarray", "dtype": str(obj.dtype), "shape": list(obj.shape),
                "values": _encode_values(obj.tolist())}
    if isinstance(obj, (np.generic,)):
        return {"kind": "npscalar", "dtype": str(obj.dtype), "value": _describe(obj.item())}
    if _is_tensor(obj):
        return _describe_tensor(obj)
    if _is_node(obj):
        return {"kind": "node", "type": type(obj).__name__, "repr": sanitize(repr(obj)),
                "next_functions": _graph(obj)}
    if type(obj).__name__ == "dtype":
        return {"kind": "dtype", "repr": repr(obj)}
    if isinstance(obj, tuple) and type(obj).__name__ == "Size":
        return {"kind": "size", "repr": repr(obj), "value": [int(s) for s in obj]}
    if isinstance(obj, (tuple, list)):
        return {"kind": "list" if isinstance(obj, list) else "tuple",
                "type": type(obj).__name__, "items": [describe(x) for x in obj]}
    if isinstance(obj, dict):
        return {"kind": "dict", "items": [[describe(k), describe(v)] for k, v in obj.items()]}
    return {"kind": "object", "type": type(obj).__name__, "repr": sanitize(repr(obj))}


# ---- comparing outcomes ----------------------------------------------------------------------

def _hexfloat(s: Any) -> float:
    return float.fromhex(s) if isinstance(s, str) else float(s)


def _tolerance(dtype: Any) -> tuple[float, float] | None:
    """Float tolerance for a tensor (``torch.float32``) or array (``float32``) dtype."""
    name = str(dtype)
    return TOLERANCES.get(name if name.startswith("torch.") else f"torch.{name}")


def _close(a: float, b: float, tol: tuple[float, float]) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    rtol, atol = tol
    return abs(a - b) <= atol + rtol * abs(b)


def _compare_values(g: Any, a: Any, tol: tuple[float, float] | None, path: str,
                    diffs: list[str]) -> None:
    """Tensor values: nested lists whose floats are hex strings."""
    if isinstance(g, list) and isinstance(a, list):
        if len(g) != len(a):
            diffs.append(f"{path}: length {len(a)} != golden {len(g)}")
            return
        for i, (x, y) in enumerate(zip(g, a)):
            _compare_values(x, y, tol, f"{path}[{i}]", diffs)
        return
    if tol is not None and isinstance(g, str) and isinstance(a, str):
        x, y = _hexfloat(g), _hexfloat(a)
        if not _close(y, x, tol):
            diffs.append(f"{path}: {y!r} != golden {x!r}")
        return
    if g != a or type(g) is not type(a):
        diffs.append(f"{path}: {_show(a)} != golden {_show(g)}")


def _show(v: Any) -> str:
    if isinstance(v, str) and re.fullmatch(r"-?0x[0-9a-f.]+p[+-]\d+|-?inf|nan", v):
        return repr(float.fromhex(v))
    text = repr(v)
    return text if len(text) < 300 else text[:300] + "..."


def _walk(g: Any, a: Any, path: str, diffs: list[str]) -> None:
    if isinstance(g, dict) and isinstance(a, dict):
        if set(g) == {"float"} and set(a) == {"float"}:
            x, y = _hexfloat(g["float"]), _hexfloat(a["float"])
            if not _close(y, x, PY_FLOAT_TOLERANCE):
                diffs.append(f"{path}: {y!r} != golden {x!r}")
            return
        for k in sorted(set(g) | set(a)):
            sub = f"{path}.{k}" if path else k
            if k not in a:
                diffs.append(f"{sub}: missing (golden {_show(g[k])})")
            elif k not in g:
                diffs.append(f"{sub}: unexpected {_show(a[k])}")
            elif k == "values" and g.get("kind") in ("tensor", "ndarray"):
                tol = _tolerance(g.get("dtype")) if g.get("dtype") == a.get("dtype") else None
                _compare_values(g[k], a[k], tol, sub, diffs)
            else:
                _walk(g[k], a[k], sub, diffs)
        return
    if isinstance(g, list) and isinstance(a, list):
        if len(g) != len(a):
            diffs.append(f"{path}: {_show(a)} != golden {_show(g)}")
            return
        for i, (x, y) in enumerate(zip(g, a)):
            _walk(x, y, f"{path}[{i}]", diffs)
        return
    if g != a or type(g) is not type(a):
        if isinstance(g, str) and isinstance(a, str) and ("\n" in g or len(g) > 60):
            diffs.append(f"{path}:\n  got:    {a!r}\n  golden: {g!r}")
        else:
            diffs.append(f"{path}: {_show(a)} != golden {_show(g)}")


def compare(golden: Any, actual: Any) -> list[str]:
    """The differences between two outcomes (empty when they match), one line each."""
    diffs: list[str] = []
    _walk(golden, actual, "", diffs)
    return diffs
