"""The engine's events: what a ``Listener`` hears while backward runs.

The visual tools (``viz``) and the tests watch backward through these events and never
re-implement it. A listener is registered for one call (``backward(..., listener=l)``) or
for a block (``with listen(l):``); the engine calls it at each step of ``engine._run``.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

import numpy as np

from .node import Node
from .tensor import Tensor


class Listener:
    """Receives the engine's events during one backward. Override what you need.

    Gradients are passed as numpy arrays copied at the time of the event.
    """

    def on_begin(self, roots: list[tuple[Node, int]], grads: list[np.ndarray]) -> None:
        """Backward starts at ``roots`` (node, output_nr) with these gradients."""

    def on_node(self, node: Node, grad_outputs: list[np.ndarray | None]) -> None:
        """``node`` is about to run; ``grad_outputs`` is the summed gradient of each output."""

    def on_edge(self, node: Node, index: int, next_node: Node, input_nr: int,
                grad: np.ndarray | None) -> None:
        """``node`` sends ``grad`` along ``node.next_functions[index]`` to ``next_node``."""

    def on_accumulate(self, tensor: Tensor, grad: np.ndarray, total: np.ndarray) -> None:
        """``grad`` was added into ``tensor.grad`` (a leaf or retained non-leaf): now ``total``."""

    def on_free(self, node: Node, names: list[str]) -> None:
        """``node``'s saved tensors ``names`` were released (no ``retain_graph``)."""

    def on_error(self, node: Node, error: BaseException) -> None:
        """Running ``node`` raised ``error`` (re-raised after this call)."""

    def on_end(self) -> None:
        """Backward finished."""


_listeners: list[Listener] = []


@contextmanager
def listen(listener: Listener) -> Iterator[Listener]:
    """Report every backward run inside this block to ``listener``."""
    _listeners.append(listener)
    try:
        yield listener
    finally:
        _listeners.remove(listener)


def current(listener: Listener | None) -> Listener | None:
    """The listener of a run: the one passed in, else the innermost ``listen`` block's."""
    if listener is None and _listeners:
        return _listeners[-1]
    return listener


def copy(g: Any) -> np.ndarray | None:
    """A gradient as a listener receives it: a numpy array of its own (or None)."""
    if g is None:
        return None
    return np.array(g._data if isinstance(g, Tensor) else g, copy=True)
