"""``torch.device`` as torch parses, compares and prints it (only the CPU computes here).

A device is a type and an optional index: ``device('cuda:1')`` is valid in a build without
CUDA (the error comes when a tensor is made there), ``device('cpu') != device('cpu:0')``, and
a device never equals a string.
"""

from __future__ import annotations

import re
from typing import Any

NO_CUDA = "Torch not compiled with CUDA enabled"
TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga",
         "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")
# c10::DeviceType's numbering
_TYPE_NUMBERS = {"cpu": 0, "cuda": 1, "mkldnn": 2, "opengl": 3, "opencl": 4, "ideep": 5, "hip": 6,
                 "fpga": 7, "maia": 8, "xla": 9, "vulkan": 10, "xpu": 12, "mps": 13, "meta": 14,
                 "hpu": 15, "ve": 16, "lazy": 17, "ipu": 18, "mtia": 19, "privateuseone": 20}
_SPEC = re.compile(r"([a-zA-Z_]+)(?::([0-9]+))?")
_INVALID_ARGS = (
    "device() received an invalid combination of arguments - got ({got}), but expected one "
    "of:\n * (torch.device device)\n      didn't match because some of the arguments have "
    "invalid types: (!{got}!)\n * (str type, int index = -1)\n"
)


class device:  # noqa: N801
    """``torch.device(type, index=None)``, ``torch.device('cuda:0')``; hashable, immutable."""

    __slots__ = ("_index", "_type")

    def __init__(self, type: Any, index: int | None = None) -> None:  # noqa: A002
        if isinstance(type, device):
            kind, idx = type._type, type._index
        elif isinstance(type, str):
            kind, idx = _parse(type)
            if index is not None:
                if idx is not None:
                    raise RuntimeError("type (string) must not include an index because index "
                                       f"was passed explicitly: {type}")
                if index < 0:
                    raise RuntimeError("Device index must not be negative")
                idx = int(index)
        elif isinstance(type, int) and not isinstance(type, bool):
            raise RuntimeError("Cannot access accelerator device when none is available.")
        else:
            raise TypeError(_INVALID_ARGS.format(got=_typename(type)))
        object.__setattr__(self, "_type", kind)
        object.__setattr__(self, "_index", idx)

    @property
    def type(self) -> str:
        return self._type

    @property
    def index(self) -> int | None:
        return self._index

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"attribute '{name}' of 'torch.device' objects is not writable")

    def __repr__(self) -> str:
        if self._index is None:
            return f"device(type='{self._type}')"
        return f"device(type='{self._type}', index={self._index})"

    def __str__(self) -> str:
        return self._type if self._index is None else f"{self._type}:{self._index}"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, device) and self._type == other._type
                and self._index == other._index)

    def __hash__(self) -> int:  # torch's: the type's number, then the index as a byte
        return _TYPE_NUMBERS[self._type] << 16 | (255 if self._index is None else self._index)

    def __reduce__(self) -> tuple:
        return (device, (str(self),))

    # ``with torch.device('cpu'):`` sets the default device for the block
    def __enter__(self) -> device:
        _DEFAULT_STACK.append(_DEFAULT[0])
        set_default_device(self)
        return self

    def __exit__(self, *exc: object) -> None:
        _DEFAULT[0] = _DEFAULT_STACK.pop()


device.__module__ = "torch"


def _typename(obj: Any) -> str:
    return type(obj).__name__


def _parse(spec: str) -> tuple[str, int | None]:
    """``'cuda:1'`` -> ``('cuda', 1)``, with torch's errors."""
    m = _SPEC.fullmatch(spec)
    if m is None:
        raise RuntimeError(f"Invalid device string: '{spec}'")
    kind, idx = m.group(1), m.group(2)
    if kind not in TYPES:
        raise RuntimeError(_unknown(spec))
    if idx is not None and len(idx) > 1 and idx[0] == "0":
        raise RuntimeError(f"Invalid device string: '{spec}'")
    return kind, None if idx is None else int(idx)


def _unknown(spec: str) -> str:
    return f"Expected one of {', '.join(TYPES)} device type at start of device string: {spec}"


def as_device(spec: Any) -> device:
    """``spec`` (a device, a string) as a device."""
    return spec if isinstance(spec, device) else device(spec)


def check_cpu(spec: Any) -> None:
    """torch's error for a tensor requested on a device this build cannot hold."""
    if spec is None:
        return
    d = as_device(spec)
    if d.type == "cuda":
        raise AssertionError(NO_CUDA)
    if d.type != "cpu":
        raise RuntimeError(f"autograd_lab computes on the CPU only, not on {d.type}")


_DEFAULT: list[device | None] = [None]
_DEFAULT_STACK: list[device | None] = []


def set_default_device(spec: Any) -> None:
    """``torch.set_default_device``: ``None`` or ``'cpu'`` here (others fail when used)."""
    _DEFAULT[0] = None if spec is None else as_device(spec)


def get_default_device() -> device:
    """``torch.get_default_device()``: ``device(type='cpu')`` unless another was set."""
    d = _DEFAULT[0]
    if d is None or d.type == "cpu":
        return device("cpu")
    if d.type == "cuda":
        raise AssertionError(NO_CUDA)
    return d


CPU = device("cpu")
