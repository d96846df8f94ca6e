"""The graphs the capstone's checks build, as plain data, so that the student's kernel (which
builds them with the student's ``Value``) and the grader (which verifies the answers) agree.

A graph is a list of nodes ``(kind, parents, data, label)``: ``kind`` is ``"leaf"``, ``"add"``
or ``"mul"``, ``parents`` are indices of earlier nodes, the last node is the output.
"""

from __future__ import annotations

from typing import Any

from ._payloads import Variant

Spec = list[tuple[str, tuple[int, ...], float, str]]


def sample_graph(variant: Variant) -> Spec:
    """Shared Values, fan-ins, and a short and a long path into the same Value."""
    if variant.fixed:  # x, y, z; s = x*y; l1 = s*x; l2 = l1 + z; q = l2*l2; out = q + s + l1
        return [("leaf", (), 2.0, "x"), ("leaf", (), -1.5, "y"), ("leaf", (), 0.5, "z"),
                ("mul", (0, 1), 0.0, "s"), ("mul", (3, 0), 0.0, "l1"), ("add", (4, 2), 0.0, "l2"),
                ("mul", (5, 5), 0.0, "q"), ("add", (6, 3, 4), 0.0, "out")]
    rng = variant.rng("nb16.graph")
    spec: Spec = [("leaf", (), float(rng.integers(-3, 4)) + 0.5, f"x{i}") for i in range(3)]
    for i in range(int(rng.integers(5, 9))):
        n = len(spec)
        arity = int(rng.integers(2, 4))
        # the newest node and the ones before it, some twice: paths of different lengths
        parents = (n - 1,) + tuple(int(p) for p in rng.integers(0, n, arity - 1))
        kind = "mul" if arity == 2 and rng.random() < 0.6 else "add"
        spec.append((kind, parents, 0.0, f"v{i}"))
    last = len(spec) - 1
    spec.append(("add", (last, int(rng.integers(3, last))), 0.0, "out"))
    return spec


def doubling(levels: int = 40) -> Spec:
    """Every Value used twice by the next: 2**levels paths, levels + 1 Values."""
    spec: Spec = [("leaf", (), 1.0, "x")]
    for i in range(levels):
        spec.append(("add", (i, i), 0.0, f"d{i}"))
    return spec


def deep_chain(depth: int = 5000) -> Spec:
    """A chain deeper than Python's recursion limit."""
    spec: Spec = [("leaf", (), 1.0, "x")]
    for i in range(depth):
        spec.append(("leaf", (), 1.0, f"c{i}"))
        spec.append(("mul", (len(spec) - 2 if i else 0, len(spec) - 1), 0.0, f"m{i}"))
    return spec


def values_of(spec: Spec) -> list[float]:
    """Each node's value (leaves as given, ops computed)."""
    out: list[float] = []
    for kind, parents, data, _ in spec:
        xs = [out[p] for p in parents]
        if kind == "leaf":
            out.append(data)
        elif kind == "mul":
            out.append(xs[0] * xs[1])
        else:
            out.append(sum(xs))
    return out


def reachable(spec: Spec) -> set[int]:
    """The nodes the output was computed from (and the output)."""
    seen, stack = {len(spec) - 1}, [len(spec) - 1]
    while stack:
        for p in spec[stack.pop()][1]:
            if p not in seen:
                seen.add(p)
                stack.append(p)
    return seen


class Probe:
    """An op of the checks' own: a correct backward that records each call."""

    def __init__(self, kind: str, log: list) -> None:
        self.kind, self.log = kind, log
        self.index = -1  # the node this op made

    def forward(self, *xs: float) -> float:
        return xs[0] * xs[1] if self.kind == "mul" else sum(xs)

    def backward(self, grad: float, out: float, *xs: float) -> tuple[float, ...]:
        self.log.append((self.index, grad, out, xs))
        if self.kind == "mul":
            return grad * xs[1], grad * xs[0]
        return tuple(grad for _ in xs)


def build(spec: Spec, value_cls: type, log: list | None = None) -> list[Any]:
    """The graph made of ``value_cls`` Values (ops are ``Probe``s writing to ``log``)."""
    log = [] if log is None else log
    made: list[Any] = []
    for i, (kind, parents, data, label) in enumerate(spec):
        if kind == "leaf":
            made.append(value_cls(data, (), None, label))
            continue
        op = Probe(kind, log)
        op.index = i
        ins = tuple(made[p] for p in parents)
        made.append(value_cls(op.forward(*(v.data for v in ins)), ins, op, label))
    return made
