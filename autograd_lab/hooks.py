"""What ``register_hook`` returns (on tensors and on nodes): a handle to remove the hook."""

from __future__ import annotations

from typing import Callable


class RemovableHandle:
    """Returned by ``register_hook``; ``remove()`` unregisters the hook."""

    __slots__ = ("_list", "_fn")

    def __init__(self, hooks: list, fn: Callable) -> None:
        self._list, self._fn = hooks, fn

    def remove(self) -> None:
        """Unregister the hook (once; later calls do nothing)."""
        if self._fn in self._list:
            self._list.remove(self._fn)
