"""Grad mode: whether operations record a graph.

``no_grad``, ``enable_grad``, ``set_grad_enabled`` and ``inference_mode`` work as context
managers and as decorators, as in PyTorch (torch's ``_DecoratorContextManager``): a decorated
generator function holds the mode during each of its steps only, and a decorated class (a
deprecated form) is wrapped in a function that makes its instances under the mode.
"""

from __future__ import annotations

import functools
import sys
import warnings
from typing import Any, Callable, Generator

_CO_GENERATOR = 0x20  # ``inspect.CO_GENERATOR`` (inspect itself is slow to import)
DECORATE_CLASS = (
    "Decorating classes is deprecated and will be disabled in future versions. You should only "
    "decorate functions or methods. To preserve the current behavior of class decoration, you "
    "can directly decorate the `__init__` method and nothing else."
)


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
        if isinstance(fn, type):
            warnings.warn(DECORATE_CLASS, FutureWarning, stacklevel=2)
            cls = fn
            fn = lambda *args, **kwargs: cls(*args, **kwargs)  # noqa: E731
            fn.__qualname__ = "_DecoratorContextManager.__call__.<locals>.<lambda>"
        if _is_generator_function(fn):
            return _wrap_generator(self.clone, fn)

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self.clone():
                return fn(*args, **kwargs)

        return wrapper

    def clone(self) -> _GradModeContext:
        """A fresh context of the same mode (a decorated function enters one per call)."""
        return type(self)()


def _is_generator_function(fn: Any) -> bool:
    """``inspect.isgeneratorfunction``: a (possibly bound) function whose body yields."""
    while isinstance(fn, functools.partial):
        fn = fn.func
    code = getattr(getattr(fn, "__func__", fn), "__code__", None)
    return code is not None and bool(code.co_flags & _CO_GENERATOR)


def _wrap_generator(ctx_factory: Callable[[], Any], fn: Callable) -> Callable:
    """``fn``'s generators with the mode entered around each step (each ``send``, ``throw``
    and ``close``) and left while the caller runs, as torch's ``_wrap_generator``."""

    @functools.wraps(fn)
    def generator_context(*args: Any, **kwargs: Any) -> Generator:
        gen = fn(*args, **kwargs)
        try:
            with ctx_factory():
                response = gen.send(None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with ctx_factory():
                        gen.close()
                    raise
                except BaseException:
                    with ctx_factory():
                        response = gen.throw(*sys.exc_info())
                else:
                    with ctx_factory():
                        response = gen.send(request)
        except StopIteration as e:
            return e.value

    return generator_context


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
        if type(mode) is not bool:  # torch's argument parser takes a bool and nothing else
            kind = type(mode)
            name = kind.__name__ if kind.__module__ == "builtins" else (
                f"{kind.__module__}.{kind.__qualname__}")
            raise TypeError("set_grad_enabled(): argument 'enabled' (position 1) must be bool, "
                            f"not {name}")
        super().__init__()
        self._target = mode
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


_INFERENCE = [False]  # whether an ``inference_mode`` block is running


def is_inference_mode_enabled() -> bool:
    """Whether code runs inside ``inference_mode()``."""
    return _INFERENCE[0]


class inference_mode(no_grad):  # noqa: N801
    """Like ``no_grad`` (this engine has no separate inference tensors)."""

    def __enter__(self) -> None:
        super().__enter__()
        self._prev.append(_INFERENCE[0])
        _INFERENCE[0] = not self._target

    def __exit__(self, *exc: object) -> None:
        _INFERENCE[0] = self._prev.pop()
        super().__exit__(*exc)

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
