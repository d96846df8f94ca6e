"""Graph nodes: the ``grad_fn`` objects of PyTorch.

A ``Node`` is one recorded operation. Its ``next_functions`` point at the nodes
that produced its inputs (``AccumulateGrad`` for a leaf, ``None`` for a constant),
and ``backward`` maps the gradient of its output(s) to gradients of its inputs.

Saved values are version-checked: a node remembers the version of every tensor
it saved, and refuses to run if one was modified in place since then. After a
backward without ``retain_graph`` the saved tensors are freed.

``AccumulateGrad`` is the sink of a leaf: it owns adding a gradient into ``.grad``
(``accumulate_grad``; which tensor becomes the first ``.grad`` is ``_grad_layout``'s).

Backward formulas are written once and run on numpy arrays (plain backward) or on
Tensors (``create_graph=True``): operators work on both, and the helpers in
``ops.common`` dispatch on the type. Grad mode tells a node which one to use.

Layer: imports ``tensor`` and the modules below it, never ops or the engine (under
``create_graph`` it adds gradients with Tensor methods, which need no import).
"""

from __future__ import annotations

import itertools
import weakref
from typing import Any, Callable

from . import _messages as msg
from ._grad_layout import first_grad
from ._saved_display import wrapped_number
from ._torch_names import as_torch_node_class
from .anomaly_mode import ANOMALY, record_forward_trace
from .grad_mode import STATE
from .hooks import RemovableHandle
from .tensor import Tensor, _make, _wrap_grad

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
                 "packed", "unpack_hook", "meta")

    def __init__(self, t: Tensor, is_output: bool, node: Node | None = None) -> None:
        self.vc = t._vc
        self.version = t._vc[0]
        self.packed = None
        if _saved_tensors_hooks:  # the hook's result is all that is kept, as in torch
            pack, self.unpack_hook = _saved_tensors_hooks[-1]
            self.packed = pack(t)
            # not even the version counter: it is the storage too, and would keep it counted
            self.tensor = self.data = self.storage = self.vc = None
            self.dtype, self.output_nr = t._dtype, t._output_nr
            self.meta = (t._data.shape, t._data.nbytes)
            return
        if is_output:  # its producer is the node that saves it (no reference back: no cycle)
            self.tensor = None
            self.data, self.storage, self.dtype = t._data, t._storage, t._dtype
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
        """The tensor's version now (differs after an in-place change; under saved-tensor
        hooks only the hook's result is kept, so the version it had when saved)."""
        return self.version if self.vc is None else self.vc[0]

    @property
    def shape(self) -> tuple:
        """The shape of the saved tensor."""
        if self.packed is not None:
            return self.meta[0]
        return (self.tensor._data if self.tensor is not None else self.data).shape

    @property
    def nbytes(self) -> int:
        """The bytes of the saved buffer (of the tensor packed, under saved-tensor hooks)."""
        if self.packed is not None:
            return self.meta[1]
        return (self.tensor._data if self.tensor is not None else self.data).nbytes


_NRS = {1: (0,), 2: (0, 0), 3: (0, 0, 0)}  # the common output numbers, shared by every node


class Node:
    """Base of every ``grad_fn``: edges, saved values, hooks, and the call protocol.

    The edges are kept as two flat tuples, the nodes (``_fns``) and the output numbers
    (``_nrs``, usually a shared constant): one object per node instead of a ``(fn, nr)``
    pair per edge, so a long graph gives the cyclic collector fewer objects to walk.
    ``next_functions`` builds torch's pairs from them when asked (torch builds its tuple on
    every access too)."""

    __slots__ = ("_fns", "_nrs", "_saved", "_seq", "__dict__", "__weakref__")
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

    @property
    def next_functions(self) -> tuple:
        """``((node, output_nr), ...)``: one pair per input, ``(None, 0)`` for a constant."""
        return tuple(zip(self._fns, self._nrs))

    @next_functions.setter
    def next_functions(self, edges: tuple) -> None:
        self._fns = tuple([fn for fn, _ in edges])
        nrs = tuple([nr for _, nr in edges])
        self._nrs = _NRS.get(len(nrs), nrs) if not any(nrs) else nrs

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


class AccumulateGrad(Node):
    """The sink of a leaf: adds the incoming gradient into ``variable.grad``
    (``accumulate_grad``, below)."""

    __slots__ = ()

    def __init__(self, variable: Tensor) -> None:
        self._fns = self._nrs = ()
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


def accumulate_grad(var: Tensor, g: Any, create_graph: bool, version: int = 0) -> Any:
    """``var.grad += g``: what an ``AccumulateGrad`` node does with its gradient. Returns
    ``g`` as it was added (in ``var``'s dtype); ``version`` is the version ``g`` has.

    The first gradient becomes ``.grad`` (itself or a copy: torch's layout contract, in
    ``_grad_layout``); later ones are added in place -- or out of place under
    ``create_graph``, so the sum records a graph. ``g`` is a Tensor under ``create_graph``
    (or when a hook returned one), else a numpy array.
    """
    is_tensor = isinstance(g, Tensor)
    if is_tensor and g.dtype is not var.dtype:
        g = g.to(var.dtype)
    if var._grad is None:
        var._grad, g = first_grad(var, g, create_graph, version)
    elif create_graph or (var._grad._rg and not is_tensor):
        var._grad = var._grad + (g if is_tensor else _wrap_grad(g))
    else:
        if var._grad._zero:
            raise RuntimeError(msg.ZERO_TENSOR_IMMUTABLE)
        var._grad._data += g._data if is_tensor else g
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

