"""What an exercise check is made of when a grader runs it: variants, payloads and verdicts.

A check has two halves. ``collect(ns, variant)`` runs in the student's kernel: it reads the
student's names from ``ns``, runs the student's code on the inputs ``variant`` describes and
returns JSON data only. ``judge(payload, variant)`` runs where no student code ran: it
recomputes what is expected and returns ``(status, message)``. The in-notebook check is
``judge(collect(...), FIXED)`` shown at once; a grader draws a fresh ``Variant`` instead.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ... import _dtype
from ...factories import tensor
from ...tensor import Tensor
from ..exercises import Feedback, captured

__all__ = ["FIXED", "Spec", "Unanswered", "Variant", "answer", "call", "decode", "early",
           "encode", "failed", "guarded", "passed", "placeholder", "run_quietly", "show", "spec",
           "value_spec"]

STATUSES = ("passed", "failed", "unanswered", "error")


@dataclass(frozen=True)
class Variant:
    """The inputs a check uses: the notebook's own (``fixed``) or drawn from ``seed``."""

    seed: int = 0
    fixed: bool = True

    def rng(self, salt: str = "") -> np.random.Generator:
        """A generator for this variant (``salt`` keeps exercises' draws apart)."""
        return np.random.default_rng([self.seed, zlib.crc32(salt.encode())])


FIXED = Variant(0, True)


@dataclass(frozen=True)
class Spec:
    """One exercise's two halves and its grading terms."""

    collect: Callable[[dict, Variant], dict]
    judge: Callable[[dict, Variant], tuple[str, str]]
    title: str = ""
    points: int = 1
    graded: bool = True
    formative_reason: str = ""


class Unanswered(Exception):
    """Raised inside a collect when the student's answer is still the placeholder."""


class NotAFunction(TypeError):
    """Raised inside a collect when an answer that must be a function is not one."""


def placeholder(value: Any) -> bool:
    """The student copy's ``...`` (or None): no answer yet."""
    return value is Ellipsis or value is None


def answer(ns: dict, name: str, *, callable_: bool = False) -> Any:
    """The student's ``name`` from ``ns``; Unanswered when missing or a placeholder."""
    value = ns.get(name, Ellipsis)
    if placeholder(value):
        raise Unanswered(name)
    if callable_ and not callable(value):
        raise NotAFunction(f"{name} must be a function, not a {type(value).__name__}.")
    return value


def guarded(collect: Callable[[dict, Variant], dict]) -> Callable[[dict, Variant], dict]:
    """A collect that never raises and returns JSON data only."""

    def run(ns: dict, variant: Variant = FIXED) -> dict:
        try:
            payload = collect(ns, variant)
            return json.loads(json.dumps(payload))
        except Unanswered:
            return {"unanswered": True}
        except NotAFunction as e:
            return {"not_a_function": str(e)}
        except (Exception, SystemExit) as e:  # noqa: BLE001 - a collect reports, never raises
            return {"error": f"{type(e).__name__}: {e}"}

    run.__name__ = run.__qualname__ = getattr(collect, "__name__", "collect")
    run.__doc__ = collect.__doc__
    return run


def early(payload: dict) -> tuple[str, str] | None:
    """The verdict of a payload that holds no answer (unanswered, or collect's own error)."""
    if payload.get("unanswered"):
        return "unanswered", "replace the ... with your code and run the cell"
    if "not_a_function" in payload:
        return "failed", payload["not_a_function"]
    if "error" in payload:
        return "error", f"the answer could not be run: {payload['error']}"
    return None


def raised(e: BaseException) -> str:
    """How an exception raised by the student's code is reported."""
    return f"{type(e).__name__}: {e}"


# ---- JSON encoding of the values a notebook holds ------------------------------------------------

def encode(x: Any) -> Any:
    """``x`` as JSON data: tensors as their values and their autograd facts."""
    if isinstance(x, Tensor):
        fn = x.grad_fn
        return {"tensor": np.asarray(x._data, dtype=np.float64).tolist(), "dtype": x.dtype.name,
                "requires_grad": bool(x.requires_grad), "is_leaf": bool(x.is_leaf),
                "grad_fn": fn.name() if fn is not None else None}
    if x is Ellipsis:
        return {"ellipsis": True}
    if isinstance(x, (bool, str)) or x is None:
        return x
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return float(x)
    if isinstance(x, np.ndarray):
        return {"array": x.astype(np.float64).tolist()}
    if isinstance(x, tuple):
        return {"tuple": [encode(v) for v in x]}
    if isinstance(x, list):
        return [encode(v) for v in x]
    if isinstance(x, (set, frozenset)):
        return {"set": sorted((encode(v) for v in x), key=repr)}
    if isinstance(x, BaseException):
        return {"exception": type(x).__name__, "message": str(x)}
    return {"object": type(x).__name__, "callable": callable(x)}


class Opaque:
    """A value the payload only names (a module, a function ...): not numeric."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __repr__(self) -> str:
        return f"<{self.kind}>"


def decode(e: Any) -> Any:
    """The value ``encode`` described: tensors come back as plain tensors of the same values."""
    if isinstance(e, list):
        return [decode(v) for v in e]
    if not isinstance(e, dict):
        return e
    if "tensor" in e:
        dtype = getattr(_dtype, e["dtype"], None)
        t = tensor(e["tensor"], dtype=dtype) if dtype is not None else tensor(e["tensor"])
        if e.get("requires_grad") and t.dtype.is_floating_point:
            t.requires_grad_()
            if not e.get("is_leaf", True):
                t = t * 1  # a result of the graph, as the student's was
        return t
    if e.get("ellipsis"):
        return Ellipsis
    if "array" in e:
        return np.asarray(e["array"], dtype=np.float64)
    if "tuple" in e:
        return tuple(decode(v) for v in e["tuple"])
    if "set" in e:
        return {decode(v) for v in e["set"]}
    kind = str(e.get("exception", e.get("object", "object")))
    return type(kind, (Opaque,), {})(kind)  # named as the student's value was, for messages


# ---- verdicts ------------------------------------------------------------------------------------

def verdict(ok: bool, shown: list[Feedback]) -> tuple[str, str]:
    """(status, message) from a check's result and the lines it showed."""
    if ok:
        return "passed", ""
    bad = [f for f in shown if f.state == "wrong"]
    if not bad and any(f.state == "waiting" for f in shown):
        return "unanswered", "replace the ... with your code and run the cell"
    parts = []
    for f in bad or shown:
        text = f.detail or f.hint or "not right"
        parts.append(f"{f.name}: {text}" if f.name else text)
    return "failed", "; ".join(parts) or "not right"


def run_quietly(check: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[str, str]:
    """Run an in-notebook check without showing anything; its verdict."""
    with captured() as shown:
        try:
            fb = check(*args, **kwargs)
        except Exception as e:  # noqa: BLE001 - a crashing check is an error verdict
            return "error", f"the check failed: {raised(e)}"
    return verdict(bool(fb), shown)


def show(name: str, result: tuple[str, str], hint: str = "") -> Feedback:
    """Show a verdict in the notebook, as the other checks do; truthy when passed."""
    status, message = result
    if status == "passed":
        return Feedback(True, name).show()
    if status == "unanswered":
        return Feedback(False, name, message, state="waiting").show()
    return Feedback(False, name, message.strip().rstrip("."), hint).show()


def value_spec(names: list[str], check: Callable[..., Any], *,
               extra: Callable[[], tuple] | None = None, title: str = "", points: int = 1,
               graded: bool = True, formative_reason: str = "") -> Spec:
    """An exercise whose answers are values of the notebook's own example.

    ``collect`` sends the named values; ``judge`` runs the in-notebook ``check`` quietly on
    them, with ``extra()`` (objects of the example, rebuilt where the check runs) after them.
    """

    def collect(ns: dict, variant: Variant = FIXED) -> dict:
        values = {n: ns.get(n, Ellipsis) for n in names}
        if all(placeholder(v) for v in values.values()):
            raise Unanswered(names[0])
        return {"values": {n: encode(v) for n, v in values.items()}}

    def judge(payload: dict, variant: Variant = FIXED) -> tuple[str, str]:
        if (out := early(payload)) is not None:
            return out
        args = [decode(payload["values"].get(n, {"ellipsis": True})) for n in names]
        return run_quietly(check, *args, *(extra() if extra else ()))

    collect.__name__ = f"collect_{'_'.join(names)}"
    judge.__name__ = f"judge_{'_'.join(names)}"
    return Spec(guarded(collect), judge, title or ", ".join(names), points, graded,
                formative_reason)


def spec(collect: Callable[[dict, Variant], dict], judge: Callable[[dict, Variant], tuple],
         title: str, **terms: Any) -> Spec:
    """An exercise with a collect and judge of its own."""
    return Spec(guarded(collect), judge, title, **terms)


def invoke(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, str | None]:
    """``(fn(*args), None)``, or ``(None, how it raised)``.

    The student copy's stubs (a ``...`` result, or ``NotImplementedError``) are Unanswered."""
    try:
        result = fn(*args, **kwargs)
    except NotImplementedError as e:
        raise Unanswered(str(e)) from None
    except (Exception, SystemExit) as e:  # noqa: BLE001 - the student's error is recorded
        return None, raised(e)
    if result is Ellipsis:
        raise Unanswered("...")
    return result, None


def call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> dict:
    """``fn(*args)`` as JSON: ``{"value": ...}`` or ``{"raised": "..."}`` (``invoke``)."""
    result, error = invoke(fn, *args, **kwargs)
    if error is not None:
        return {"raised": error}
    try:
        return {"value": encode(result)}
    except Exception as e:  # noqa: BLE001 - the student's error is recorded, not raised
        return {"raised": raised(e)}


def passed() -> tuple[str, str]:
    """The verdict for a right answer."""
    return "passed", ""


def failed(message: str) -> tuple[str, str]:
    """The verdict for a wrong answer; ``message`` names the misconception."""
    return "failed", message
