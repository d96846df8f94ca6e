"""torch's argument-parser errors for ops with several signatures ("received an invalid
combination of arguments"), in its exact layout.

An overload is ``(text, params)``: ``text`` as torch prints it (``"(Tensor input, int dim =
None)"``), ``params`` the accepted ``(name, accepts(value) -> bool)`` pairs in order (a method's
``self`` left out). torch explains why an overload did not match only when the number of
arguments given fits it: unknown keywords first, else the arguments of a wrong type (marked
``!...!``). Keywords are listed in reverse order of the call, as torch does.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Overload = tuple[str, list[tuple[str, Callable[[Any], bool]]]]


def _type(v: Any) -> str:
    return type(v).__name__


def _detail(v: Any) -> str:
    """A mismatched argument as torch marks it: ``list of [int, float]``,
    ``tuple of (int, str)``."""
    if isinstance(v, (list, tuple)):
        names = list(dict.fromkeys(_type(x) for x in v))
        body = ", ".join(names)
        return f"{_type(v)} of " + (f"[{body}]" if isinstance(v, list) else f"({body})")
    return _type(v)


def _got(args: tuple, kwargs: dict, bad: Callable[[Any, Any], bool] = lambda k, v: False) -> str:
    """``(int, keepdim=bool)``; arguments for which ``bad(position or name, value)`` is true
    are marked ``!...!``."""
    def mark(key: Any, text: str, v: Any) -> str:
        return f"!{text.replace(_type(v), _detail(v))}!" if bad(key, text) else text

    parts = [mark(i, _type(a), a) for i, a in enumerate(args)]
    kws = [mark(k, f"{k}={_type(v)}", v) for k, v in reversed(list(kwargs.items()))]
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


# ---- the same errors raised through a Tensor method ------------------------------------------
# torch parses a method's arguments without ``self``: positions are one less, and its
# signatures are the function's without ``Tensor input`` (or ``self``) and ``out``.

_POSITION = re.compile(r"^\w+\(\): argument '(\w+)' \(position (\d+)\)")
_COMBINATION = re.compile(r"^\w+\(\) received an invalid combination of arguments - got ")
_SELF = ("Tensor input", "Tensor self")


def _method_signature(text: str) -> list[str] | None:
    """A function signature's parameters as the method has them (None: no Tensor self)."""
    params = [p for p in text.strip()[1:-1].split(", ") if p]
    found = [p for p in params if p in _SELF]
    if not found:
        return None
    params = [p for p in params if p not in _SELF and p != "Tensor out = None"]
    return params[:-1] if params and params[-1] == "*" else params


def _accepts(param: str, types: dict[str, Callable[[Any], bool]]) -> Callable[[Any], bool]:
    """What a parameter (``"Tensor index"``, ``"bool keepdim = False"``) accepts."""
    return types.get(param.split(" = ")[0].rsplit(" ", 1)[0], lambda v: True)


def method_error(e: TypeError, name: str, args: tuple, kwargs: dict,
                 types: dict[str, Callable[[Any], bool]]) -> TypeError:
    """The TypeError ``e`` of the function form, as torch raises it for method ``name``
    called with ``args``/``kwargs`` (``self`` left out); ``types`` tells which values a
    parameter type (``"Tensor"``, ``"Number"``...) accepts."""
    text = str(e)
    m = _POSITION.match(text)
    if m and int(m[2]) > 1:
        return TypeError(f"{name}(): argument '{m[1]}' (position {int(m[2]) - 1})"
                         + text[m.end():])
    if m is None and _COMBINATION.match(text):
        overloads: list[Overload] = []
        for line in text.splitlines()[1:]:
            if not line.startswith(" * "):
                continue
            params = _method_signature(line[3:])
            if params is not None:
                shown = "(" + ", ".join(params) + ")"
                positional = params[:params.index("*")] if "*" in params else params
                if any(" = " not in p and p.rsplit(" ", 1)[-1] not in kwargs
                       for p in params[len(positional) + 1:]):
                    positional = []  # a required keyword is missing: torch gives no reason
                overloads.append((shown, [(p.split(" = ")[0].rsplit(" ", 1)[-1],
                                           _accepts(p, types)) for p in positional]))
        if not overloads:  # already the method's own signatures
            return e
        return invalid_combination(name, overloads, args, kwargs)
    return e
