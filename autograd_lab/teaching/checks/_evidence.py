"""How a check sees the method of an answer, not only its result.

``watching()`` counts the backward passes the engine starts while the student's code runs
(and whether anomaly mode was on for each), hears the nodes that ran through a ``Listener``,
and counts calls of the functions an exercise forbids, by wrapping them for the duration of
the block.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from ... import engine
from ...anomaly_mode import is_anomaly_enabled
from ...listener import Listener, listen

__all__ = ["Evidence", "graph_names", "watching"]


class Evidence(Listener):
    """What happened while the student's code ran."""

    def __init__(self) -> None:
        self.backwards = 0              # backward passes (backward() and autograd.grad alike)
        self.anomaly: list[bool] = []   # anomaly mode at the start of each pass
        self.nodes: list[str] = []      # the nodes that ran, in order
        self.calls: dict[str, int] = {}  # calls of the watched functions

    def on_begin(self, roots: list, grads: list) -> None:
        pass  # counted where the engine starts a pass (below), which no listener can hide

    def started(self) -> None:
        """One backward pass starts (``backward()``, ``autograd.grad`` or a Jacobian's)."""
        self.backwards += 1
        self.anomaly.append(is_anomaly_enabled())

    def on_node(self, node: Any, grad_outputs: list) -> None:
        self.nodes.append(node.name())

    def facts(self) -> dict:
        """The evidence as JSON data."""
        return {"backwards": self.backwards, "anomaly": list(self.anomaly),
                "calls": dict(self.calls)}


def _counted(fn: Any, label: str, ev: Evidence) -> Any:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        ev.calls[label] = ev.calls.get(label, 0) + 1
        return fn(*args, **kwargs)

    wrapper.__name__ = getattr(fn, "__name__", label)
    wrapper.__doc__ = getattr(fn, "__doc__", None)
    return wrapper


@contextmanager
def watching(watched: dict[str, list[tuple[Any, str]]] | None = None) -> Iterator[Evidence]:
    """Listen to the engine and count calls of ``watched`` (label -> [(owner, attribute)])."""
    ev = Evidence()
    saved: list[tuple[Any, str, Any, bool]] = []
    run = engine._run

    def counted_run(*args: Any, **kwargs: Any) -> Any:
        ev.started()
        return run(*args, **kwargs)

    try:
        saved.append((engine, "_run", run, True))
        engine._run = counted_run
        for label, places in (watched or {}).items():
            ev.calls[label] = 0
            for owner, attr in places:
                own = attr in vars(owner)
                original = vars(owner)[attr] if own else getattr(owner, attr)
                saved.append((owner, attr, original, own))
                setattr(owner, attr, _counted(getattr(owner, attr), label, ev))
        with listen(ev):
            yield ev
    finally:
        for owner, attr, original, own in reversed(saved):
            if own:
                setattr(owner, attr, original)
            else:
                delattr(owner, attr)


def graph_names(t: Any) -> list[str]:
    """The names of every node reachable from ``t.grad_fn`` (each once)."""
    fn = getattr(t, "grad_fn", None)
    names, seen, stack = [], set(), [fn] if fn is not None else []
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        names.append(node.name())
        stack.extend(nxt for nxt, _ in node.next_functions if nxt is not None)
    return names
