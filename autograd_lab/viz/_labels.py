"""Text for Graphviz labels: escaping into HTML-like labels, and short value summaries.

Every label is an HTML-like label (``label=<...>``): the text is XML-escaped, so no
name can close the label or inject DOT syntax. Characters XML cannot carry (control
characters, lone surrogates, U+FFFE/U+FFFF) are shown as ``\\xNN`` / ``\\uNNNN`` text,
and newlines and tabs as ``\\n`` / ``\\t``: a label always has the lines we put in it.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

MAX_NAME_CHARS = 40  # longer names (params keys, saved names) are cut with "..."
_ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")  # memory addresses would make output unstable
_VISIBLE = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}


def _char(c: str) -> str:
    if c in _ENTITIES:
        return _ENTITIES[c]
    if c in _VISIBLE:
        return _VISIBLE[c]
    o = ord(c)
    if o < 0x20 or 0x7F <= o < 0xA0 or 0xD800 <= o < 0xE000 or o in (0xFFFE, 0xFFFF):
        return f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}"
    return c


def node_title(node: Any) -> str:
    """A node's class name, as torchviz labels it (``AccumulateGrad``, ``MulBackward0``).

    ``node.name()`` can differ (torch names the leaf sink ``torch::autograd::AccumulateGrad``).
    """
    return type(node).__name__


def op_name(node: Any) -> str:
    """The op a node records: ``MulBackward0`` -> ``mul``, ``LogSoftmaxBackward0`` ->
    ``log_softmax``."""
    name = node_title(node)
    i = name.rfind("Backward")
    name = name[:i] if i > 0 else name
    out = []
    for k, c in enumerate(name):
        if c.isupper() and k and not name[k - 1].isupper():
            out.append("_")
        out.append(c.lower())
    return "".join(out)


def truncate(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, ending in ``...`` when cut."""
    limit = max(limit, 4)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def escape(text: Any, limit: int | None = MAX_NAME_CHARS) -> str:
    """One line of label text: stringified, stripped of addresses, truncated, XML-escaped."""
    s = _ADDRESS.sub("0x...", str(text))
    if limit is not None:
        s = truncate(s, limit)
    return "".join(map(_char, s))


def html_label(*lines: str, bold_first: bool = False) -> str:
    """An HTML-like label from already-escaped lines (``<BR/>`` between them)."""
    parts = [f"<B>{lines[0]}</B>" if bold_first and lines else lines[0] if lines else ""]
    parts += list(lines[1:])
    return "<" + "<BR/>".join(parts) + ">"


def left_lines(lines: list[str]) -> str:
    """Escaped lines joined so that each is left-aligned inside its node."""
    return "".join(f"{line}<BR ALIGN=\"LEFT\"/>" for line in lines)


def size_str(shape: tuple) -> str:
    """A shape as torchviz prints it: ``(2, 3)``; ``()`` for a scalar."""
    return "(" + ", ".join(str(int(s)) for s in shape) + ")"


def _num(v: Any) -> str:
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    v = float(v)
    if not np.isfinite(v):
        return str(v)
    if v == 0 or 1e-4 <= abs(v) < 1e6:
        return np.format_float_positional(v, precision=4, unique=True, trim=".")
    return np.format_float_scientific(v, precision=3, unique=True, trim=".")


def _nested(a: np.ndarray) -> str:
    if a.ndim == 0:
        return _num(a.item())
    return "[" + ", ".join(_nested(x) for x in a) + "]"


def fmt_array(a: np.ndarray | None, max_chars: int = 40, max_values: int = 8) -> str:
    """A short, deterministic summary of an array: its values when few, else its shape.

    Numbers get at most 4 decimals and no alignment padding: ``[9., 20.]``, ``2.0794``.
    """
    if a is None:
        return "None"
    a = np.asarray(a)
    if a.size > max_values:
        return "shape " + size_str(a.shape)
    return truncate(_nested(a), max_chars)


def fmt_bytes(n: int) -> str:
    """Bytes for a label: exact below 1 KiB, else one decimal in KiB/MiB/GiB."""
    if n < 1024:
        return f"{n} B"
    for unit in ("KiB", "MiB", "GiB"):
        n /= 1024
        if n < 1024 or unit == "GiB":
            return f"{n:.1f} {unit}"
    raise AssertionError("unreachable")
