"""The Tensor: a numpy array plus the autograd state PyTorch keeps beside it.

Autograd state: ``requires_grad``, ``grad``, ``grad_fn`` (the node that made it,
None for a leaf), ``_version`` (bumped by every in-place change, shared with
views) and the storage it lives in (for memory accounting).

This module holds the data structure and the methods that need nothing above it. The
operations (``x.exp()``, ``x + y`` ...) and ``backward()`` live in the layers above
(``ops``, ``engine``); ``tensor_methods`` installs them on the class as methods.
"""

from __future__ import annotations

import warnings
import weakref
from operator import attrgetter
from typing import Any, Callable, Iterator

import numpy as np

from . import _dtype
from . import _messages as msg
from ._device import CPU, device
from ._dtype import dtype, float32, from_numpy_dtype
from ._grad_memory import storage_for
from ._printing import tensor_repr
from .grad_mode import STATE
from .hooks import RemovableHandle
from .memory import Storage

np.seterr(all="ignore")  # torch computes inf/nan silently; numpy would warn on each


class Size(tuple):
    """``torch.Size``: a tuple that prints as ``torch.Size([2, 3])``."""

    def __repr__(self) -> str:
        return f"torch.Size({list(self)})"

    __str__ = __repr__

    def __getitem__(self, key: Any) -> Any:
        r = tuple.__getitem__(self, key)
        return Size(r) if isinstance(key, slice) else r

    def __add__(self, other: Any) -> Size:
        return Size(tuple.__add__(self, other))

    def numel(self) -> int:
        """The product of the sizes."""
        n = 1
        for s in self:
            n *= s
        return n


# attributes torch's TensorBase defines without a setter (``del x.grad_fn`` is refused too)
_READ_ONLY = frozenset(("grad_fn", "is_leaf", "_version", "shape", "dtype", "device",
                        "output_nr", "is_cuda", "layout", "ndim", "T", "mT"))


class Tensor:
    """An n-dimensional array that can record the operations applied to it."""

    # ``dtype`` and ``grad_fn`` are properties over the ``_dtype``/``_grad_fn`` slots (below), so
    # that deleting them can be refused without a ``__delattr__``: a class that defines one
    # routes every attribute store through Python, which made building a tensor 4x slower.
    __slots__ = ("_data", "_dtype", "_grad_fn", "_rg", "_vc", "_storage", "__dict__",
                 "__weakref__")
    __array_priority__ = 1000  # numpy defers `ndarray * Tensor` to Tensor.__rmul__

    # Rarely-set state lives in the instance dict, with these class-level defaults.
    _grad: Tensor | None = None
    _output_nr = 0
    _acc = None  # weakref to the leaf's AccumulateGrad
    _base: Tensor | None = None  # the tensor this one is a view of
    _retains_grad = False
    _is_param = False
    _nograd_view = False  # a view made under no_grad of a tensor requiring grad (no edge back)
    _late_view = False  # a view whose base came to require grad after it was made (no edge)
    _zero = False  # torch's ZeroTensor (``_zero_tensor``): a gradient that is zero by construction

    def __init__(self, *args: Any) -> None:
        """Legacy constructor: ``Tensor([1, 2])`` (data) or ``Tensor(2, 3)`` (sizes)."""
        if len(args) == 1 and not isinstance(args[0], int):
            arr = np.array(args[0], dtype=np.float32)
        else:
            arr = np.empty(tuple(args), dtype=np.float32)
        _init(self, arr, float32)

    # ---- autograd attributes ------------------------------------------------------------

    @property
    def requires_grad(self) -> bool:
        """Whether operations on this tensor are recorded (set it on leaves only)."""
        return self._rg

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise RuntimeError("requires_grad must be a bool")
        if self.grad_fn is not None:
            raise RuntimeError(
                msg.NON_LEAF_REQUIRES_GRAD_FALSE if not value else msg.NON_LEAF_REQUIRES_GRAD
            )
        if value and not self.dtype.is_floating_point:
            raise RuntimeError(msg.SETTER_REQUIRES_GRAD)
        self._rg = bool(value)
        if "_plain_views" in self.__dict__:
            _views_follow(self)
        elif self._late_view:
            self._nograd_view = self._late_view = False

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Set ``requires_grad`` in place; returns self."""
        if self.grad_fn is not None:
            if requires_grad:
                return self
            raise RuntimeError(msg.NON_LEAF_REQUIRES_GRAD_FALSE)
        if requires_grad and not self.dtype.is_floating_point:
            raise RuntimeError(msg.METHOD_REQUIRES_GRAD)  # torch words this one differently
        self._rg = bool(requires_grad)
        if "_plain_views" in self.__dict__:
            _views_follow(self)
        elif self._late_view:  # now requires grad itself: gradients reach it
            self._nograd_view = self._late_view = False
        return self

    @property
    def is_leaf(self) -> bool:
        """True unless an operation that records made this tensor (``grad_fn`` is None)."""
        return self.grad_fn is None

    @is_leaf.setter
    def is_leaf(self, value: Any) -> None:
        raise AttributeError(msg.not_writable("is_leaf"))

    @property
    def grad(self) -> Tensor | None:
        """The accumulated gradient (leaves, and non-leaves with ``retain_grad()``)."""
        g = self._grad
        if g is None and self.grad_fn is not None and not self._retains_grad:
            warnings.warn(msg.NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return g

    @grad.deleter
    def grad(self) -> None:
        self._grad = None

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(
                    f"assigned grad expected to be a Tensor or None but got grad of type "
                    f"{type(value).__name__}"
                )
            if value._data.shape != self._data.shape:
                raise RuntimeError(msg.grad_size_mismatch(value._data.shape, self._data.shape))
            if value.dtype is not self.dtype:
                raise RuntimeError(msg.grad_dtype_mismatch(value.dtype, self.dtype))
        self._grad = value

    @property
    def retains_grad(self) -> bool:
        """Whether ``retain_grad()`` was called on this non-leaf."""
        return self._retains_grad

    def retain_grad(self) -> None:
        """Keep ``.grad`` for this non-leaf after backward (a no-op on leaves)."""
        if not self._rg:
            raise RuntimeError(msg.RETAIN_GRAD_NO_GRAD)
        if self.grad_fn is None or self._retains_grad:
            return
        self._retains_grad = True
        fn = self.grad_fn
        if fn._retained is None:
            fn._retained = {}
        fn._retained[self._output_nr] = weakref.ref(self)

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> RemovableHandle:
        """``hook(grad)`` runs when this tensor's gradient is computed; a return replaces it."""
        if not self._rg:
            raise RuntimeError(msg.HOOK_NO_GRAD)
        fn = self.grad_fn
        if fn is None:  # a leaf keeps its hooks; its AccumulateGrad (made later, or remade)
            table = self.__dict__.setdefault("_leaf_hooks", {})  # runs them from the same dict
            acc = self._acc() if self._acc is not None else None
            if acc is not None:
                acc._tensor_pre_hooks = table
        else:
            if fn._tensor_pre_hooks is None:
                fn._tensor_pre_hooks = {}
            table = fn._tensor_pre_hooks
            fn.__dict__.setdefault("_hook_dtypes", {})[self._output_nr] = self.dtype
        hooks = table.setdefault(self._output_nr, [])
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def register_post_accumulate_grad_hook(self, hook: Callable[[Tensor], None]
                                           ) -> RemovableHandle:
        """``hook(tensor)`` runs after backward has accumulated into this leaf's ``.grad`` (not
        under ``autograd.grad``, which accumulates nothing); it must return None."""
        if not self._rg:
            raise RuntimeError(msg.HOOK_NO_GRAD)
        if self.grad_fn is not None:
            raise RuntimeError(msg.POST_ACCUMULATE_NON_LEAF)
        hooks = self.__dict__.setdefault("_post_accumulate_hooks", [])
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    @property
    def _version(self) -> int:
        """How many in-place changes this tensor's memory has had."""
        return self._vc[0]

    @_version.setter
    def _version(self, value: Any) -> None:
        raise AttributeError(msg.not_writable("_version"))

    @property
    def data(self) -> Tensor:
        """An alias of the same memory, outside the graph, with its own version counter."""
        return _make(self._data, self.dtype, None, self._storage, Storage(0))

    @data.setter
    def data(self, value: Tensor) -> None:
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
        self._data, self.dtype, self._storage = value._data, value.dtype, value._storage

    @property
    def output_nr(self) -> int:
        """Which output of its ``grad_fn`` this tensor is."""
        return self._output_nr

    @property
    def is_cuda(self) -> bool:
        """Always False: everything lives on the CPU."""
        return False

    @property
    def device(self) -> device:
        """``device(type='cpu')``: a ``torch.device``, never equal to the string ``'cpu'``."""
        return CPU

    @property
    def is_cpu(self) -> bool:
        """Always True."""
        return True

    def get_device(self) -> int:
        """``-1``: the index torch gives a CPU tensor."""
        return -1

    @property
    def layout(self) -> str:
        """``torch.strided``, the only layout."""
        return "torch.strided"

    # ---- shape ------------------------------------------------------------------------------

    @property
    def shape(self) -> Size:
        """The size of each dim, as a ``torch.Size``."""
        return Size(self._data.shape)

    @shape.setter
    def shape(self, value: Any) -> None:
        raise AttributeError(msg.not_writable("shape"))

    def size(self, dim: int | None = None) -> Size | int:
        """The shape, or the size of dim ``dim``."""
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[_dim(dim, self._data.ndim, False)]

    def dim(self) -> int:
        """The number of dims."""
        return self._data.ndim

    ndimension = dim

    @property
    def ndim(self) -> int:
        """The number of dims."""
        return self._data.ndim

    def numel(self) -> int:
        """The number of elements."""
        return self._data.size

    nelement = numel

    def element_size(self) -> int:
        """Bytes per element."""
        return self.dtype.itemsize

    @property
    def itemsize(self) -> int:
        """Bytes per element."""
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        """Bytes of the elements this tensor shows."""
        return self._data.nbytes

    def stride(self, dim: int | None = None) -> tuple | int:
        """Steps in elements between neighbours along each dim (or along ``dim``)."""
        st = torch_strides(self._data)
        return st if dim is None else st[_dim(dim, self._data.ndim, False)]

    def is_contiguous(self) -> bool:
        """Whether the elements lie in memory in row-major order, without gaps."""
        return bool(self._data.flags.c_contiguous)

    def is_floating_point(self) -> bool:
        """Whether the dtype is a floating-point one."""
        return self.dtype.is_floating_point

    def data_ptr(self) -> int:
        """Address of the first element (equal for ``detach()``, different for ``clone()``)."""
        return self._data.__array_interface__["data"][0]

    def untyped_storage(self) -> Storage:
        """The storage this tensor's memory belongs to (shared by its views)."""
        return self._storage

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self) -> Iterator[Tensor]:
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))  # torch iterates through unbind (UnbindBackward0)

    # ---- conversion -------------------------------------------------------------------------

    def numpy(self, *, force: bool = False) -> np.ndarray:
        """The numpy array itself (shared memory); refused while it requires grad (in grad
        mode)."""
        if self._rg and STATE.enabled and not force:
            raise RuntimeError(msg.NUMPY_REQUIRES_GRAD)
        if self._zero and not force:
            raise RuntimeError(msg.ZERO_TENSOR_NUMPY)
        return self._data

    def __array__(self, dtype: Any = None) -> np.ndarray:  # no ``copy``: as torch's (numpy warns)
        if self._rg and STATE.enabled:
            raise RuntimeError(msg.NUMPY_REQUIRES_GRAD)
        if self._zero:
            raise RuntimeError(msg.ZERO_TENSOR_NUMPY)
        return self._data if dtype is None else self._data.astype(dtype)

    def item(self) -> float | int | bool:
        """The one element as a Python number."""
        if self._data.size != 1:
            raise RuntimeError(msg.ITEM_NOT_SCALAR.format(n=self._data.size))
        return self._data.reshape(()).item()

    def tolist(self) -> Any:
        """The elements as (nested) Python lists of numbers."""
        if self._zero:
            raise RuntimeError(msg.ZERO_TENSOR_TOLIST)
        return self._data.tolist()

    def _is_zerotensor(self) -> bool:
        """Whether this is a ZeroTensor (a gradient that is zero by construction)."""
        return self._zero

    def __float__(self) -> float:
        return float(self._scalar())

    def __int__(self) -> int:
        return int(self._scalar())

    def _scalar(self) -> float | int | bool:
        """The one element, for ``float()``/``int()`` (which torch words differently)."""
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        if self._rg:
            msg.warn_once("Converting a tensor with requires_grad=True to a scalar may lead to "
                          "unexpected behavior.\nConsider using tensor.detach() first.",
                          stacklevel=3)
        return self._data.reshape(()).item()

    def __index__(self) -> int:
        if self.dtype._cat == 2 or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __bool__(self) -> bool:
        if self._data.size != 1:
            raise RuntimeError(
                "Boolean value of Tensor with more than one value is ambiguous"
                if self._data.size else "Boolean value of Tensor with no values is ambiguous"
            )
        return bool(self.item())

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    def __repr__(self, *, tensor_contents: Any = None) -> str:
        fn = self.grad_fn
        return tensor_repr(
            self._data, self.dtype.name, requires_grad=self._rg,
            grad_fn_name=None if fn is None else type(fn).__name__,
        )

    def __str__(self) -> str:
        return self.__repr__()

    __hash__ = object.__hash__

    def __reduce_ex__(self, proto: int) -> Any:
        return (_rebuild, (self._data.copy(), self.dtype.name, self._rg))

    def __deepcopy__(self, memo: dict) -> Tensor:
        if self.grad_fn is not None:
            raise RuntimeError(
                "Only Tensors created explicitly by the user (graph leaves) support the "
                "deepcopy protocol at the moment.  If you were attempting to deepcopy a module, "
                "this may be because of a torch.nn.utils.weight_norm usage, see "
                "https://github.com/pytorch/pytorch/pull/103001"
            )
        new = type(self).__new__(type(self))
        _init(new, self._data.copy(), self.dtype)
        new._rg = self._rg
        if self._grad is not None:
            new._grad = self._grad.__deepcopy__(memo)
        if type(self) is not Tensor:
            new.__dict__.update({k: v for k, v in self.__dict__.items()
                                 if k not in ("_grad", "_acc")})
        memo[id(self)] = new
        return new

    # ---- graph-level copies -------------------------------------------------------------

    def detach(self) -> Tensor:
        """Same memory and version counter, no graph: a new leaf."""
        out = _make(self._data, self.dtype, None, self._storage, self._vc)
        if self._zero:
            out._zero = True
        return out

    def detach_(self) -> Tensor:
        """Make this tensor a leaf that does not require grad, in place."""
        if self._base is not None and self._base._rg:
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using "
                "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set "
                "as True, gradients are views of DDP buckets, and hence detach_() cannot be "
                "called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
            )
        self.grad_fn = None
        self._rg = False
        return self

    def cpu(self) -> Tensor:
        """This tensor (already on the CPU)."""
        return self

    def cuda(self, *args: Any, **kwargs: Any) -> Tensor:
        """torch's error: there is no CUDA here."""
        raise AssertionError("Torch not compiled with CUDA enabled")


def torch_strides(a: np.ndarray) -> tuple:
    """torch's strides of an array, in elements. numpy zeroes the strides of an empty array;
    torch gives a fresh one contiguous strides (each size counted as at least 1) and an
    expanded one (read-only here, as numpy's broadcast) zeros. A writeable empty array made
    with explicit strides (``as_strided``) carries torch's."""
    if a.size or (a.flags.writeable and any(a.strides)):
        return tuple(s // a.itemsize for s in a.strides)
    if not a.flags.writeable:
        return (0,) * a.ndim
    st, acc = [], 1
    for n in reversed(a.shape):
        st.append(acc)
        acc *= max(n, 1)
    return tuple(reversed(st))


def _dim(d: int, ndim: int, wrap_scalar: bool = True) -> int:
    """``d`` as a non-negative dim, with torch's range error (``wrap_scalar``: a 0-d tensor
    takes dim 0 or -1, as most ops allow; ``size(d)`` does not)."""
    if ndim == 0 and not wrap_scalar:
        raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
    n = max(ndim, 1)
    if not -n <= d < n:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})"
        )
    return d % n if ndim else 0


def _views_follow(base: Tensor) -> None:
    """The views made of ``base`` while it did not require grad follow its flag, as torch's
    view's ``requires_grad()`` reads its base's; they stay leaves with no edge back."""
    rg = base._rg
    for ref in base.__dict__["_plain_views"]:
        v = ref()
        if v is None or v.grad_fn is not None:
            continue
        if rg and not v._rg:
            v._rg = v._nograd_view = v._late_view = True
        elif not rg and v._late_view:
            v._rg = v._nograd_view = v._late_view = False


def _init(t: Tensor, arr: np.ndarray, dt: dtype, storage: Storage | None = None,
          vc: Storage | None = None, grad_fn: Any = None) -> None:
    """Fill in a new tensor's slots (a leaf unless ``grad_fn`` is given)."""
    t._data = arr
    t._dtype = dt
    t._grad_fn = grad_fn
    t._rg = grad_fn is not None
    if storage is None:
        storage = Storage(arr.nbytes)
    t._storage = storage
    t._vc = storage if vc is None else vc


def _make(data: np.ndarray, dt: dtype, grad_fn: Any, storage: Storage | None = None,
          vc: Storage | None = None) -> Tensor:
    """A new Tensor around ``data`` (ops.record.make inlines this for the op hot path)."""
    t = Tensor.__new__(Tensor)
    _init(t, data, dt, storage, vc, grad_fn)
    return t


def _wrap_grad(g: Any) -> Tensor:
    """A gradient array as a Tensor (arrays inside a plain backward)."""
    if type(g) is not np.ndarray:
        g = np.asarray(g)
    return _make(g, from_numpy_dtype(g.dtype), None, storage=storage_for(g))


def typename(obj: Any) -> str:
    """``torch.typename``: ``torch.FloatTensor`` for a tensor, else the qualified class name."""
    if isinstance(obj, Tensor):
        return obj.type()
    cls = type(obj)
    module = cls.__module__ or ""
    return cls.__qualname__ if module in ("", "builtins") else f"{module}.{cls.__qualname__}"


def _rebuild(data: np.ndarray, dtype_name: str, rg: bool) -> Tensor:
    """Unpickle a tensor."""
    t = _make(data, getattr(_dtype, dtype_name if dtype_name != "bool" else "bool_"), None)
    t._rg = rg
    return t


def _refuse_delete(name: str, error: type[Exception] = AttributeError,
                   text: str | None = None) -> Callable[[Tensor], None]:
    """A property deleter that refuses as torch does (``del x.grad`` is the one allowed)."""
    def refuse(self: Tensor) -> None:
        raise error(msg.not_writable(name) if text is None else text)
    return refuse


def refuse_deletes(cls: type) -> None:
    """Give the read-only properties (and ``requires_grad``, ``data``) torch's refusals.
    Run once every property exists (``tensor_methods`` adds ``T`` and ``mT``)."""
    for name in _READ_ONLY:
        prop = cls.__dict__[name]
        setattr(cls, name, prop.deleter(_refuse_delete(name)))
    cls.requires_grad = cls.requires_grad.deleter(
        _refuse_delete("requires_grad", RuntimeError, "requires_grad must be a bool"))
    cls.data = cls.data.deleter(_refuse_delete(
        "data", RuntimeError, "Deleting tensor data is not allowed. Delete tensor instead!"))


Tensor.dtype = property(attrgetter("_dtype"), Tensor._dtype.__set__,  # type: ignore[assignment]
                        doc="The tensor's dtype (``torch.float32`` ...).")
Tensor.grad_fn = property(attrgetter("_grad_fn"), Tensor._grad_fn.__set__,  # type: ignore
                          doc="The node that made this tensor (None for a leaf).")

# ``type(t)`` prints ``<class 'torch.Tensor'>`` (and ``torch.Size``), as with torch
Tensor.__module__ = Size.__module__ = "torch"

__all__ = ["Size", "Tensor", "device", "typename"]
