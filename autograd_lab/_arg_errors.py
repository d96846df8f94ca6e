"""torch's argument-parser errors for ops with several signatures ("received an invalid
combination of arguments"), in its exact layout.

An overload is ``(text, params)``: ``text`` as torch prints it (``"(Tensor input, int dim =
None)"``), ``params`` the accepted ``(name, accepts(value) -> bool)`` pairs in order (a method's
``self`` left out). torch explains why an overload did not match only when the number of
arguments given fits it: unknown keywords first, else the arguments of a wrong type (marked
``!...!``). Keywords are listed in reverse order of the call, as torch does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Overload = tuple[str, list[tuple[str, Callable[[Any], bool]]]]


def _type(v: Any) -> str:
    return type(v).__name__


def _got(args: tuple, kwargs: dict, bad: Callable[[Any, Any], bool] = lambda k, v: False) -> str:
    """``(int, keepdim=bool)``; arguments for which ``bad(position or name, value)`` is true
    are marked ``!...!``."""
    def mark(key: Any, text: str) -> str:
        return f"!{text}!" if bad(key, text) else text

    parts = [mark(i, _type(a)) for i, a in enumerate(args)]
    kws = [mark(k, f"{k}={_type(v)}") for k, v in reversed(list(kwargs.items()))]
    if not parts and kws:  # torch ends a keywords-only list with a separator
        return "(" + ", ".join(kws) + ", )"
    return "(" + ", ".join(parts + kws) + ")"


def invalid_combination(name: str, overloads: list[Overload], args: tuple,
                        kwargs: dict) -> TypeError:
    """The TypeError torch raises when no overload of ``name`` accepts the arguments."""
    lines = [f"{name}() received an invalid combination of arguments - got "
             f"{_got(args, kwargs)}, but expected one of:"]
    for text, params in overloads:
        lines.append(f" * {text}")
        if len(args) + len(kwargs) > len(params):
            continue
        names = dict(params)
        tail = {n for n, _ in params[max(0, len(params) - len(kwargs)):]}
        unknown = [k for k in kwargs if k not in tail]  # torch looks among the last params
        if unknown:
            lines.append("      didn't match because some of the keywords were incorrect: "
                         + ", ".join(unknown))
            continue
        wrong = {i for i, a in enumerate(args) if not params[i][1](a)}
        wrong |= {k for k, v in kwargs.items() if not names[k](v)}
        if wrong:
            desc = _got(args, kwargs, lambda key, _, w=wrong: key in w)
            lines.append("      didn't match because some of the arguments have invalid "
                         f"types: {desc}")
    return TypeError("\n".join(lines) + "\n")
