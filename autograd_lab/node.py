"""Graph nodes: the ``grad_fn`` objects of PyTorch.

A ``Node`` is one recorded operation. Its ``next_functions`` point at the nodes
that produced its inputs (``AccumulateGrad`` for a leaf, ``None`` for a constant),
and ``backward`` maps the gradient of its output(s) to gradients of its inputs.

Saved values are version-checked: a node remembers the version of every tensor
it saved, and refuses to run if one was modified in place since then. After a
backward without ``retain_graph`` the saved tensors are freed.

``AccumulateGrad`` is the sink of a leaf: it owns adding a gradient into ``.grad``.

Backward formulas are written once and run on numpy arrays (plain backward) or on
Tensors (``create_graph=True``): operators work on both, and the helpers in
``ops.common`` dispatch on the type. Grad mode tells a node which one to use.

Layer: imports ``tensor`` and the modules below it, never ops or the engine (under
``create_graph`` it adds gradients with Tensor methods, which need no import).
"""

from __future__ import annotations

import itertools
import weakref
from sys import getrefcount
from typing import Any, Callable

import numpy as np

from . import _messages as msg
from ._saved_display import wrapped_number
from ._torch_names import as_torch_node_class
from ._zero_tensor import ZeroGrad
from .anomaly_mode import ANOMALY, record_forward_trace
from .grad_mode import STATE
from .hooks import RemovableHandle
from .tensor import Tensor, _make, _wrap_grad, torch_strides

_seq = itertools.count()
FREED = type("Freed", (), {"__repr__": lambda self: "<freed>"})()  # a released saved value
_saved_tensors_hooks: list[tuple[Callable, Callable]] = []


def _strip(name: str) -> str:
    """``SigmoidBackward0`` -> ``Sigmoid``, ``PowBackward1`` -> ``Pow1`` (the op's name, as
    torch's messages use it)."""
    i = name.rfind("Backward")
    if i <= 0:
        return name
    rest = name[i + 8:]
    return name[:i] + (rest if rest != "0" else "")


def _type_str(dtype: Any, shape: tuple) -> str:
    """A tensor as torch's version error names it: ``torch.FloatTensor [2, 3]``."""
    return f"torch.{dtype._tensor_type} [{', '.join(map(str, shape))}]"


class SavedTensor:
    """A tensor saved for backward, with the version it had when saved.

    An input is kept by reference. An output is kept as its buffer only (not the
    Tensor), and its node weakly, so output -> grad_fn -> saved output makes no
    reference cycle: a graph is freed as soon as its last reference goes.
    """

    __slots__ = ("tensor", "data", "storage", "vc", "version", "dtype", "output_nr",
                 "packed", "unpack_hook")

    def __init__(self, t: Tensor, is_output: bool, node: Node | None = None) -> None:
        self.vc = t._vc
        self.version = t._vc[0]
        self.packed = None
        if _saved_tensors_hooks:
            pack, self.unpack_hook = _saved_tensors_hooks[-1]
            self.packed = pack(t)
        if is_output:  # its producer is the node that saves it (no reference back: no cycle)
            self.tensor = None
            self.data, self.storage, self.dtype = t._data, t._storage, t.dtype
            self.output_nr = t._output_nr
        else:
            self.tensor = t

    def unpack(self, node: Node, as_tensor: bool) -> Any:
        """The saved value (array or Tensor); raises torch's error if it was modified."""
        if self.packed is not None:
            t = self.unpack_hook(self.packed)
            return t if as_tensor else t._data
        if self.vc[0] != self.version:
            self._raise_modified(node)
        if self.tensor is not None:
            return self.tensor if as_tensor else self.tensor._data
        if not as_tensor:
            return self.data
        out = _make(self.data, self.dtype, node, self.storage, self.vc)
        out._output_nr = self.output_nr
        return out

    def _raise_modified(self, node: Node) -> None:
        """torch's error for a saved tensor changed in place since it was saved."""
        if self.tensor is not None:
            t = self.tensor
            fn = t.grad_fn
            producer = f"output {t._output_nr} of {_strip(fn.name())}" if fn is not None else None
            type_str = _type_str(t.dtype, t._data.shape)
        else:
            producer = f"output {self.output_nr} of {_strip(node.name())}"
            type_str = _type_str(self.dtype, self.data.shape)
        raise RuntimeError(msg.version_mismatch(type_str, producer, self.vc[0], self.version,
                                                ANOMALY.enabled))

    @property
    def saved_version(self) -> int:
        """The tensor's version when it was saved."""
        return self.version

    @property
    def current_version(self) -> int:
        """The tensor's version now (differs after an in-place change)."""
        return self.vc[0]

    @property
    def shape(self) -> tuple:
        """The shape of the saved tensor."""
        return (self.tensor._data if self.tensor is not None else self.data).shape

    @property
    def nbytes(self) -> int:
        """The bytes of the saved buffer."""
        return (self.tensor._data if self.tensor is not None else self.data).nbytes


class Node:
    """Base of every ``grad_fn``: edges, saved values, hooks, and the call protocol."""

    __slots__ = ("next_functions", "_saved", "_seq", "__dict__", "__weakref__")
    saved_names: tuple[str, ...] = ()  # what ``_saved_<name>`` may read
    wrapped_saved: tuple[str, ...] = ()  # of those, slots that may hold a Python number
    freed_saved: tuple[str, ...] = ()  # slots of arrays (index keys) torch saves as tensors
    grad_versions: tuple[int | None, ...] | None = None  # per edge: the version of the gradient
    # torch's formula returns, when it ends with in-place steps (``zeros(...).scatter_(...)``)
    _freed = False
    _pre_hooks: list | None = None
    _post_hooks: list | None = None
    _tensor_pre_hooks: dict | None = None  # output_nr -> [hook] (Tensor.register_hook)
    _retained: dict | None = None  # output_nr -> weakref to a tensor with retain_grad()
    _n_outputs = 1

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        as_torch_node_class(cls)  # ``type(y.grad_fn)`` prints ``<class 'MulBackward0'>``

    def name(self) -> str:
        """torch's name of the node: ``MulBackward0``."""
        return type(self).__name__

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {hex(id(self))}>"

    def _sequence_nr(self) -> int:
        return self._seq

    @property
    def metadata(self) -> dict:
        """A dict for the user's own notes on this node."""
        if "metadata" not in self.__dict__:
            self.__dict__["metadata"] = {}
        return self.__dict__["metadata"]

    # ---- saved values -------------------------------------------------------------------

    def save(self, name: str, t: Tensor | None) -> None:
        """Save an input tensor under ``name`` (readable as ``_saved_<name>``)."""
        self._saved[name] = None if t is None else SavedTensor(t, False)

    def save_output(self, name: str, t: Tensor) -> None:
        """Save this node's own output (kept without a reference back to the Tensor)."""
        self._saved[name] = SavedTensor(t, True, self)

    def saved(self, name: str) -> Any:
        """Unpack one saved value: an array in plain backward, a Tensor under create_graph."""
        v = self._saved[name]
        if type(v) is SavedTensor:
            return v.unpack(self, STATE.enabled)
        if v is FREED:
            raise RuntimeError(msg.BACKWARD_TWICE)
        return v

    def _release(self) -> None:
        """Free saved tensors (backward without retain_graph)."""
        saved = self._saved
        cls = type(self)  # torch saves these numbers and keys as tensors: freed too
        wrapped = cls.wrapped_saved + cls.freed_saved if cls.freed_saved else cls.wrapped_saved
        for k, v in saved.items():
            if type(v) is SavedTensor or (v is not None and k in wrapped):
                saved[k] = FREED
                self._freed = True

    def saved_tensors_info(self) -> list[tuple[str, SavedTensor]]:
        """The saved tensors still held, by name (for the visual tools)."""
        return [(k, v) for k, v in self._saved.items() if type(v) is SavedTensor]

    def __getattr__(self, name: str) -> Any:
        """``node._saved_<name>``: a saved value as torch shows it (Tensors as Tensors)."""
        if name.startswith("_saved_") and name[7:] in type(self).saved_names:
            shown = self.__dict__.get("_shown")
            if shown is not None and name[7:] in shown:
                return shown[name[7:]]
            v = self._saved.get(name[7:])
            if type(v) is SavedTensor:
                return v.unpack(self, True)
            if v is FREED:
                raise RuntimeError(msg.BACKWARD_TWICE)
            if v is not None and name[7:] in type(self).wrapped_saved:
                return wrapped_number(v)
            return v
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | {f"_saved_{n}" for n in type(self).saved_names})

    # ---- hooks ----------------------------------------------------------------------------

    def register_hook(self, fn: Callable) -> RemovableHandle:
        """``fn(grad_inputs, grad_outputs)`` runs after this node; may return new grad_inputs."""
        if self._post_hooks is None:
            self._post_hooks = []
        self._post_hooks.append(fn)
        return RemovableHandle(self._post_hooks, fn)

    def register_prehook(self, fn: Callable) -> RemovableHandle:
        """``fn(grad_outputs)`` runs before this node; may return new grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = []
        self._pre_hooks.append(fn)
        return RemovableHandle(self._pre_hooks, fn)

    # ---- running --------------------------------------------------------------------------

    def backward(self, *grads: Any) -> tuple:
        """One gradient per edge, from one gradient per output (each op defines it)."""
        raise NotImplementedError

    def apply(self, grads: list) -> tuple:
        """Gradients for ``next_functions`` from the gradients of this node's outputs."""
        if self._freed:  # its saved values are gone (its backward may keep copies it reads)
            raise RuntimeError(msg.BACKWARD_TWICE)
        out = self.backward(*grads)
        return out if type(out) is tuple else (out,)

    def __call__(self, *grads: Tensor) -> Any:
        """Run this node's backward, as ``grad_fn(grad)`` does in torch: in the current grad
        mode, so results record a graph when saved values or ``grads`` require grad."""
        if len(grads) != self._n_outputs:
            raise TypeError(f"expected {self._n_outputs} arguments, got {len(grads)} instead")
        as_tensor = STATE.enabled
        out = self.apply([g if as_tensor else g._data for g in grads])
        res = tuple(None if g is None else g if isinstance(g, Tensor) else _wrap_grad(g)
                    for g in out)
        return res if len(res) != 1 else res[0]


# References to a gradient array that only the engine holds, as ``accumulate_grad`` sees them:
# the engine's input buffer, the argument, and getrefcount's own.
_ONLY_OURS = 3


class AccumulateGrad(Node):
    """The sink of a leaf: adds the incoming gradient into ``variable.grad``
    (``accumulate_grad``, below)."""

    __slots__ = ()

    def __init__(self, variable: Tensor) -> None:
        self.next_functions = ()
        self._saved = {}
        self._seq = float("inf")  # torch gives it the highest priority: runs as soon as ready
        self.variable = variable

    def backward(self, grad: Any) -> tuple:
        return ()  # the engine calls ``accumulate_grad`` instead

    def name(self) -> str:
        """torch's name of the leaf sink."""
        return "torch::autograd::AccumulateGrad"

    def __call__(self, *grads: Tensor) -> tuple:
        """``acc(grad)`` adds ``grad`` into the leaf's ``.grad`` and returns ``()``."""
        accumulate_grad(self.variable, grads[0], STATE.enabled)
        return ()

    def _sequence_nr(self) -> int:
        return 2**64 - 1


def dense(a: np.ndarray) -> bool:
    """torch's ``is_non_overlapping_and_dense``: the elements fill their memory exactly, in
    some order of the dims."""
    if a.flags.c_contiguous or a.flags.f_contiguous:
        return True
    expect = a.itemsize
    for stride, size in sorted((abs(st), n) for st, n in zip(a.strides, a.shape) if n != 1):
        if stride != expect:
            return False
        expect *= size
    return True


def _obeys_layout(g: np.ndarray, var: np.ndarray) -> bool:
    """torch's gradient layout contract: ``g`` may become ``var.grad`` as it is only when
    its strides match ``var``'s (a dense ``var``) or it is contiguous."""
    if g.size == 0:  # numpy zeroes an empty array's strides: compare torch's
        gst, vst = torch_strides(g), torch_strides(var)
        return all((gs != 0) if n == 1 else gs == vs for n, gs, vs in zip(g.shape, gst, vst))
    if not dense(var):
        return bool(g.flags.c_contiguous)
    for size, gs, vs in zip(g.shape, g.strides, var.strides):
        if (gs != vs) if size != 1 else gs == 0:
            return False
    return True


def _clone_obey_contract(g: Any, var: Tensor) -> Tensor:
    """A copy of gradient ``g`` laid out as ``var``: ``empty_like(var).copy_(g)`` (version 1,
    ``CopyBackwards`` when ``g`` requires grad), or a contiguous clone for a sparse layout."""
    if isinstance(g, Tensor) and g._rg:
        if dense(var._data):
            return _make(np.empty_like(var._data), var.dtype, None).copy_(g)
        return g.clone()
    data = g._data if isinstance(g, Tensor) else g
    if not dense(var._data):
        return _make(np.array(data, dtype=var.dtype.np, order="C"), var.dtype, None)
    out = _make(np.empty_like(var._data), var.dtype, None)
    np.copyto(out._data, data, casting="unsafe")
    out._vc[0] = 1
    return out


def _stolen(g: Any, var: Tensor) -> bool:
    """Whether torch would make gradient ``g`` ``var.grad`` itself: nothing else holds it
    (views of a buffer held elsewhere count as unshared: torch counts references to the
    tensor, not to its memory), and it has ``var``'s dtype and layout."""
    return (type(g) is np.ndarray and g.dtype == var.dtype.np
            and getrefcount(g) <= _ONLY_OURS + 1  # + this function's argument
            and _obeys_layout(g, var._data))


def _sole_view(g: np.ndarray) -> bool:
    """Whether view ``g`` is all there is of its buffer: it spans the whole of it and nothing
    else holds it (``(g.T @ x).T``, mm's gradient of a transposed weight), so keeping ``g``
    keeps no one else's memory (torch keeps such a gradient without a copy)."""
    b = g.base
    return (type(b) is np.ndarray and b.base is None and b.nbytes == g.nbytes
            and getrefcount(b) <= 3)  # g.base, the name b, getrefcount's argument


def accumulate_grad(var: Tensor, g: Any, create_graph: bool, version: int = 0) -> Any:
    """``var.grad += g``: what an ``AccumulateGrad`` node does with its gradient. Returns
    ``g`` as it was added (in ``var``'s dtype); ``version`` is the version ``g`` has.

    The first gradient becomes ``.grad`` itself when nothing else holds it and it has
    ``var``'s layout (torch's "gradient layout contract"), else a copy laid out as ``var``;
    later ones are added in place -- or out of place under ``create_graph``, so the sum
    records a graph. ``g`` is a Tensor under ``create_graph`` (or when a hook returned
    one), else a numpy array.
    """
    if isinstance(g, Tensor):
        if g.dtype is not var.dtype:
            g = g.to(var.dtype)
        if var._grad is None:
            d = g._data
            if not create_graph and d.base is None and d.flags.writeable \
                    and _obeys_layout(d, var._data):
                var._grad = g.detach()
            else:
                var._grad = _clone_obey_contract(g, var)
        elif create_graph:
            var._grad = var._grad + g
        else:
            if var._grad._zero:
                raise RuntimeError(msg.ZERO_TENSOR_IMMUTABLE)
            var._grad._data += g._data
            var._grad._vc[0] += 1
    elif var._grad is None:
        if isinstance(g, np.generic):  # numpy's 0-d results: a fresh 0-d tensor in torch
            g = np.asarray(g)
        if type(g) is np.ndarray and g.dtype != var.dtype.np:  # torch's engine casts each
            g = g.astype(var.dtype.np)  # gradient to its input's dtype (a wider one is ours)
        elif type(g) is np.ndarray and any(st < 0 for st in g.strides):
            g = np.ascontiguousarray(g)  # numpy's flip is a view; torch's is a new tensor
        if type(g) is ZeroGrad and _obeys_layout(g, var._data):  # a ZeroTensor kept as is
            var._grad = _make(np.array(g, dtype=var.dtype.np), var.dtype, None)
            var._grad._zero = True
        elif create_graph or not _stolen(g, var):
            var._grad = _clone_obey_contract(g, var)
        else:  # torch keeps this gradient tensor as it is, with its version
            if not g.flags.writeable or g.base is not None and not _sole_view(g):
                g = np.array(g, copy=True)  # it aliases memory something else still uses
            var._grad = _make(g, var.dtype, None)
            var._grad._vc[0] = version
    elif create_graph or var._grad._rg:
        var._grad = var._grad + _wrap_grad(g)
    else:
        if var._grad._zero:
            raise RuntimeError(msg.ZERO_TENSOR_IMMUTABLE)
        var._grad._data += g
        var._grad._vc[0] += 1
    return g


def grad_accumulator(t: Tensor) -> AccumulateGrad:
    """The leaf's AccumulateGrad node (one per leaf; the leaf holds it weakly, as torch)."""
    ref = t._acc
    acc = ref() if ref is not None else None
    if acc is None:
        acc = AccumulateGrad(t)
        if ANOMALY.enabled:
            record_forward_trace(acc)
        t._acc = weakref.ref(acc)
        hooks = t.__dict__.get("_leaf_hooks")  # hooks registered on the leaf itself
        if hooks is not None:
            acc._tensor_pre_hooks = hooks
    return acc


def new_node(cls: type[Node], next_functions: tuple) -> Node:
    """A node of ``cls`` with these edges (``ops.record.node_for`` inlines the same steps)."""
    node = cls.__new__(cls)
    node.next_functions = next_functions
    node._saved = {}
    node._seq = next(_seq)
    if ANOMALY.enabled:
        record_forward_trace(node)
    return node


def edge(t: Any) -> tuple:
    """The edge a node keeps to input ``t``: its grad_fn, a leaf's AccumulateGrad, or none."""
    fn = getattr(t, "grad_fn", None)
    if fn is not None:
        return (fn, t._output_nr)
    if getattr(t, "_rg", False) and not t._nograd_view:
        return (grad_accumulator(t), 0)
    return (None, 0)

