"""``torch.autograd.graph``: graph nodes, saved-tensor hooks, and the engine's events."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator

from ..engine import Listener, listen
from ..node import AccumulateGrad, Node, SavedTensor, _saved_tensors_hooks

__all__ = ["AccumulateGrad", "Listener", "Node", "SavedTensor", "listen", "saved_tensors_hooks",
           "save_on_cpu"]


class saved_tensors_hooks:  # noqa: N801
    """Inside this block, every tensor saved for backward goes through ``pack_hook``,
    and comes back through ``unpack_hook`` when backward needs it."""

    def __init__(self, pack_hook: Callable[[Any], Any], unpack_hook: Callable[[Any], Any]):
        self.pair = (pack_hook, unpack_hook)

    def __enter__(self) -> saved_tensors_hooks:
        _saved_tensors_hooks.append(self.pair)
        return self

    def __exit__(self, *exc: object) -> None:
        _saved_tensors_hooks.remove(self.pair)


@contextmanager
def save_on_cpu(pin_memory: bool = False) -> Iterator[None]:
    """Everything is on the CPU already: a no-op context, for compatibility."""
    yield
