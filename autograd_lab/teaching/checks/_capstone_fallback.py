"""Stand-ins for the capstone's pieces, so that a student copy runs to the end before every
piece is solved.

The later sections of notebook 16 (the tanh neuron, the deep chain, the comparisons with
autograd_lab, training) use the whole engine. ``nb16.check_engine`` judges each of the
student's pieces quietly, as its check does, keeps those that pass and takes a working piece
from here for each of the others (built on the notebook's own ``Op``, so that ``Value``'s
operators make the same graph), saying so in one printed line. Re-running the student's cell
and then that cell brings a fixed piece back.
"""

from __future__ import annotations

import math
from typing import Any, Callable

# forward and backward of each op, in terms of (self, grad, out, *inputs)
_RULES: dict[str, tuple[str, Callable[..., float], Callable[..., tuple]]] = {
    "Add": ("AddBackward0", lambda s, a, b: a + b, lambda s, g, o, a, b: (g, g)),
    "Mul": ("MulBackward0", lambda s, a, b: a * b, lambda s, g, o, a, b: (g * b, g * a)),
    "Neg": ("NegBackward0", lambda s, a: -a, lambda s, g, o, a: (-g,)),
    "Pow": ("PowBackward0", lambda s, a: a ** s.k, lambda s, g, o, a: (g * s.k * a ** (s.k - 1),)),
    "Exp": ("ExpBackward0", lambda s, a: math.exp(a), lambda s, g, o, a: (g * o,)),
    "Log": ("LogBackward0", lambda s, a: math.log(a), lambda s, g, o, a: (g / a,)),
    "Tanh": ("TanhBackward0", lambda s, a: math.tanh(a), lambda s, g, o, a: (g * (1 - o * o),)),
    "ReLU": ("ReluBackward0", lambda s, a: max(a, 0.0), lambda s, g, o, a: (g * (a > 0),)),
}


def _stand_in_op(op_base: type, name: str) -> type:
    torch_name, forward, backward = _RULES[name]
    body: dict[str, Any] = {"__doc__": f"The reference {name} (a stand-in until yours passes).",
                            "torch_name": torch_name,
                            "forward": lambda self, *xs: forward(self, *xs),
                            "backward": lambda self, grad, out, *xs: backward(self, grad, out, *xs)}
    if name == "Pow":
        def __init__(self: Any, k: float) -> None:
            self.k = k
        body["__init__"] = __init__
    return type(name, (op_base,), body)


def stand_in_op(op_base: type, name: str) -> type:
    """The reference op ``name``, a subclass of the notebook's ``op_base`` (so that ``Value``'s
    operators build the same graph with it)."""
    if name not in _RULES:
        raise TypeError(f"no reference op named {name!r}; known: {', '.join(_RULES)}")
    return _stand_in_op(op_base, name)


def _order(root: Any) -> list:
    order, seen, stack = [], set(), [(root, False)]
    while stack:
        v, parents_done = stack.pop()
        if parents_done:
            order.append(v)
        elif v not in seen:
            seen.add(v)
            stack.append((v, True))
            stack.extend((p, False) for p in v.parents if p not in seen)
    return order


_order.__name__ = _order.__qualname__ = "topological_order"


def _chain(order: list) -> None:
    for v in order:
        if v.op is not None:
            v.grad = 0.0
    order[-1].grad = 1.0
    for v in reversed(order):
        if v.op is not None:
            grads = v.op.backward(v.grad, v.data, *(p.data for p in v.parents))
            for p, g in zip(v.parents, grads):
                p.grad += g


_chain.__name__ = _chain.__qualname__ = "chain_rule"


def stand_in_order() -> Callable:
    """A reference ``topological_order`` (an explicit stack, each Value once)."""
    return _order


def stand_in_chain_rule() -> Callable:
    """A reference ``chain_rule`` loop."""
    return _chain


def note(what: list[str]) -> None:
    """Say which pieces the rest of the notebook borrows, and where their checks stand."""
    one = len(what) == 1
    print(f"⚠ using the reference {', '.join(what)} until yours "
          f"{'passes (its check above says' if one else 'pass (their checks above say'} what to "
          f"fix); the rest of the notebook runs on {'it' if one else 'them'}.")
