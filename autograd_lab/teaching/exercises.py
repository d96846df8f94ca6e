"""Immediate feedback for the notebook exercises.

Every check shows one line at once -- ``✓ correct``, ``✗ not yet: ...`` with a hint, or
``… waiting for your answer`` (coloured HTML in a notebook, plain text elsewhere) -- and
returns a ``Feedback`` (truthy when correct, invisible as a cell's result). A check
never raises on a wrong or missing answer, so a student's *Run All* always reaches
the end of the notebook. ``...`` (the placeholder left in the student notebooks)
counts as "not answered yet".

    from autograd_lab.teaching.exercises import check_close
    check_close("dy/dx at x=3", x.grad, 33.0, hint="add the two paths: 2x + 3x^2")
"""

from __future__ import annotations

import html
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import numpy as np

from ..tensor import Tensor

__all__ = [
    "Feedback", "captured", "check_close", "check_equal", "check_grad", "check_raises",
    "check_true", "numerical_grad",
]


_STATES = {  # symbol from ordinary fonts (no emoji font needed), word, colour
    "correct": ("✓", "correct", "#1b5e20"),
    "wrong": ("✗", "not yet", "#b71c1c"),
    "waiting": ("…", "waiting for your answer", "#6d4c00"),
}


class Feedback:
    """The result of a check: truthy when correct.

    The check shows it at once (coloured HTML in a notebook, one plain line elsewhere); as a
    cell's last value it shows nothing more, so a check can end a cell. ``repr`` is the
    plain line: ``✓ a: correct``, ``✗ a: not yet: ...``, ``… a: waiting for your answer``.
    """

    __slots__ = ("detail", "hint", "name", "ok", "state")

    def __init__(self, ok: bool, name: str = "", detail: str = "", hint: str = "",
                 state: str | None = None) -> None:
        self.ok = ok
        self.name, self.detail, self.hint = name, detail, hint
        self.state = state or ("correct" if ok else "wrong")

    def __bool__(self) -> bool:
        return self.ok

    def __repr__(self) -> str:
        symbol, word, _ = _STATES[self.state]
        line = f"{symbol} {self.name}: {word}" if self.name else f"{symbol} {word}"
        if self.detail:
            line += f": {self.detail}"
        if self.hint:
            line += f"\n   Hint: {self.hint}"
        return line

    def _repr_html_(self) -> str:
        symbol, word, color = _STATES[self.state]
        name = f"{html.escape(self.name)}: " if self.name else ""
        detail = f": {html.escape(self.detail)}" if self.detail else ""
        hint = (f'<div style="margin-left:1.6em;color:#333">Hint: {html.escape(self.hint)}</div>'
                if self.hint else "")
        # a light card in light and dark themes alike: the colours keep a 4.5:1 contrast
        return (f'<div class="agl-feedback agl-feedback-{self.state}" style="font-family:'
                f"sans-serif;font-size:14px;line-height:1.5;background:#fff;color:#111;"
                f'padding:2px 8px;border-radius:4px;width:fit-content;max-width:100%">'
                f'<span style="color:{color};font-weight:bold">{symbol} {name}{word}</span>'
                f"{detail}{hint}</div>")

    def _ipython_display_(self) -> None:
        pass  # shown by the check already

    def show(self) -> Feedback:
        """Show the feedback now: rich display in IPython, else one printed line.

        Inside ``captured()`` it is recorded instead (a grader judging quietly)."""
        if _CAPTURE:
            _CAPTURE[-1].append(self)
            return self
        try:
            from IPython import get_ipython
            from IPython.display import display
        except ImportError:  # plain Python without IPython
            get_ipython = None  # type: ignore[assignment]
        if get_ipython is not None and get_ipython() is not None:
            display({"text/plain": repr(self), "text/html": self._repr_html_()}, raw=True)
        else:
            print(repr(self))
        return self


_CAPTURE: list[list[Feedback]] = []


@contextmanager
def captured() -> Iterator[list[Feedback]]:
    """Record the feedback that checks show inside this block instead of showing it."""
    shown: list[Feedback] = []
    _CAPTURE.append(shown)
    try:
        yield shown
    finally:
        _CAPTURE.remove(shown)


def _report(name: str, ok: bool, detail: str = "", hint: str = "") -> Feedback:
    detail = detail.strip().rstrip(".") if not ok else ""
    return Feedback(ok, name, detail, "" if ok else hint).show()


def _missing(name: str, value: Any) -> bool:
    """Report an unanswered exercise (the student copies leave ``...``)."""
    if value is Ellipsis or value is None:
        Feedback(False, name, "replace the ... with your code and run the cell",
                 state="waiting").show()
        return True
    return False


def _array(x: Any) -> np.ndarray:
    if isinstance(x, Tensor):
        return np.asarray(x._data, dtype=np.float64)
    return np.asarray(x, dtype=np.float64)


def check_close(name: str, got: Any, expected: Any, *, rtol: float = 1e-5, atol: float = 1e-6,
                hint: str = "") -> Feedback:
    """``got`` (a tensor, array or number) equals ``expected`` up to float rounding."""
    if _missing(name, got):
        return Feedback(False)
    try:
        g, e = _array(got), _array(expected)
    except (TypeError, ValueError):
        return _report(name, False, f"expected a number or tensor, got {type(got).__name__}.",
                       hint)
    if g.shape != e.shape:
        return _report(name, False, f"expected shape {list(e.shape)}, got {list(g.shape)}.", hint)
    if np.allclose(g, e, rtol=rtol, atol=atol, equal_nan=True):
        return _report(name, True)
    worst = float(np.max(np.abs(g - e))) if g.size else 0.0
    shown = np.array2string(e, precision=4) if e.size <= 8 else f"an array of shape {e.shape}"
    return _report(name, False, f"expected {shown}; largest difference {worst:.4g}.", hint)


def check_equal(name: str, got: Any, expected: Any, *, hint: str = "") -> Feedback:
    """``got == expected`` for plain Python values (strings, bools, tuples, names)."""
    if _missing(name, got):
        return Feedback(False)
    return _report(name, got == expected, f"expected {expected!r}, got {got!r}.", hint)


def check_true(name: str, condition: Any, *, hint: str = "") -> Feedback:
    """A condition the answer must satisfy (``condition`` is the result of a test)."""
    if _missing(name, condition):
        return Feedback(False)
    return _report(name, bool(condition), "", hint)


def numerical_grad(fn: Callable[..., Any], inputs: list[Any], eps: float = 1e-6) -> list:
    """Central differences of a scalar ``fn`` in float64, one array per input."""
    from ..autograd.numerical import numerical_grad as central
    from ..factories import tensor
    from ..grad_mode import no_grad

    def value(arrs: list[np.ndarray]) -> float:
        with no_grad():
            out = fn(*[tensor(a) for a in arrs])
        return float(_array(out).sum())

    return central(value, [_array(x) for x in inputs], eps)


def check_grad(name: str, fn: Callable[..., Any], inputs: list[Any], got: list[Any], *,
               rtol: float = 1e-3, atol: float = 1e-4, hint: str = "") -> Feedback:
    """``got`` (one gradient per input) matches central differences of ``fn`` at ``inputs``."""
    if _missing(name, got):
        return Feedback(False)
    got = list(got) if isinstance(got, (list, tuple)) else [got]
    if len(got) != len(inputs):
        return _report(name, False, f"expected {len(inputs)} gradients, got {len(got)}.", hint)
    expected = numerical_grad(fn, inputs)
    for i, (g, e) in enumerate(zip(got, expected)):
        if _missing(name, g):
            return Feedback(False)
        ga = _array(g)
        if ga.shape != e.shape:
            return _report(name, False, f"gradient {i} should have shape {list(e.shape)}, got "
                           f"{list(ga.shape)}.", hint)
        if not np.allclose(ga, e, rtol=rtol, atol=atol):
            return _report(name, False, f"gradient {i} differs from finite differences "
                           f"({np.array2string(e, precision=4)}).", hint)
    return _report(name, True)


def check_raises(name: str, fn: Callable[[], Any], error: type[BaseException], *,
                 match: str = "", hint: str = "") -> Feedback:
    """Calling ``fn()`` raises ``error`` (whose message contains ``match``)."""
    if _missing(name, fn):
        return Feedback(False)
    try:
        fn()
    except error as e:
        ok = match in str(e)
        return _report(name, ok, f"raised, but the message lacks {match!r}.", hint)
    except Exception as e:  # noqa: BLE001 - a wrong exception is feedback, not a crash
        return _report(name, False, f"raised {type(e).__name__}: {e}", hint)
    return _report(name, False, f"expected {error.__name__}, but nothing was raised.", hint)
