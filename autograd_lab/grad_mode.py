"""Grad mode: whether operations record a graph.

``no_grad``, ``enable_grad`` and ``set_grad_enabled`` work as context managers
and as decorators, as in PyTorch.
"""

from __future__ import annotations

import functools
from typing import Any, Callable


class _State:
    """The global grad mode (read by every op: a slot, for speed)."""

    __slots__ = ("enabled",)

    def __init__(self) -> None:
        self.enabled = True


STATE = _State()


def is_grad_enabled() -> bool:
    """Whether operations currently record a graph."""
    return STATE.enabled


class _GradModeContext:
    """Base of the grad-mode context managers; also usable as a decorator."""

    _target: bool = True

    def __init__(self) -> None:
        self._prev: list[bool] = []

    def __enter__(self) -> None:
        self._prev.append(STATE.enabled)
        STATE.enabled = self._target

    def __exit__(self, *exc: object) -> None:
        STATE.enabled = self._prev.pop()

    def __call__(self, fn: Callable) -> Callable:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self.clone():
                return fn(*args, **kwargs)

        return wrapper

    def clone(self) -> _GradModeContext:
        """A fresh context of the same mode (a decorated function enters one per call)."""
        return type(self)()


class _NoParamContext(_GradModeContext):
    """Also a decorator without parentheses: ``@no_grad`` as well as ``@no_grad()``."""

    def __new__(cls, orig_func: Any = None) -> Any:
        if not callable(orig_func):  # ``no_grad()``, or ``inference_mode(mode)``
            return super().__new__(cls)
        return cls()(orig_func)

    def __init__(self, orig_func: Callable | None = None) -> None:
        super().__init__()


class no_grad(_NoParamContext):  # noqa: N801
    """Disable graph recording: results of operations do not require grad."""

    _target = False


class enable_grad(_NoParamContext):  # noqa: N801
    """Enable graph recording (inside a ``no_grad`` block)."""

    _target = True


class set_grad_enabled(_GradModeContext):  # noqa: N801
    """Set grad mode to ``mode``; takes effect at once, and is undone on exit."""

    def __init__(self, mode: bool) -> None:
        super().__init__()
        self._target = bool(mode)
        self._prev.append(STATE.enabled)
        STATE.enabled = self._target

    def __enter__(self) -> None:
        pass

    def __call__(self, fn: Callable) -> Callable:
        # as a decorator it must not change the mode now: undo what __init__ did
        STATE.enabled = self._prev[-1]
        return super().__call__(fn)

    def clone(self) -> _GradModeContext:
        # not a set_grad_enabled: that would switch the mode when made, not when entered
        return _Enter(self._target)


class _Enter(_GradModeContext):
    """Context manager that applies a ``set_grad_enabled`` mode on each entry."""

    def __init__(self, mode: bool) -> None:
        super().__init__()
        self._target = mode


class inference_mode(no_grad):  # noqa: N801
    """Like ``no_grad`` (this engine has no separate inference tensors)."""

    def __new__(cls, mode: Any = True) -> Any:
        if callable(mode):  # bare ``@inference_mode``
            return cls()(mode)
        return _GradModeContext.__new__(cls)

    def __init__(self, mode: bool = True) -> None:
        _GradModeContext.__init__(self)
        self._target = not mode

    def clone(self) -> inference_mode:
        """A fresh context of the same mode."""
        return type(self)(not self._target)
