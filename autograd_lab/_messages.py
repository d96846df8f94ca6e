"""PyTorch 2.13's exact error and warning texts, in one place."""

from __future__ import annotations

import warnings
from typing import Any

BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)
INPLACE_HINT = (
    "Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
    "with torch.autograd.set_detect_anomaly(True, check_nan=False)."
)
INPLACE_HINT_ANOMALY = (
    "Hint: the backtrace further above shows the operation that failed to compute its gradient. "
    "The variable in question was changed in there or anywhere later. Good luck!"
)
ZERO_TENSOR_IMMUTABLE = (
    "ZeroTensors are immutable. Please use the materialized zero tensor obtained using .clone() "
    "if you want a mutable tensor."
)
MASKED_FILL_EXPANDED = (
    "Use of masked_fill_ on expanded tensors is deprecated. Please clone() the tensor before "
    "performing this operation. This also applies to advanced indexing e.g. tensor[mask] = scalar"
)
ZERO_TENSOR_COPY = (
    "ZeroTensors are immutable. Please materialize the tensor using `.clone()`, if you want a "
    "mutable zero tensor."
)
ZERO_TENSOR_NUMPY = (
    " Cannot convert a ZeroTensor to numpy. Set force=True if you need the zero array."
)
ZERO_TENSOR_TOLIST = "tolist() shouldn't be called on a tensor with unallocated storage"
LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF_INPLACE = (
    "a view of a leaf Variable that requires grad is being used in an in-place operation."
)
IMPLICIT_NON_SCALAR = "grad can be implicitly created only for scalar outputs"
NUMPY_REQUIRES_GRAD = (
    "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
)
NO_GRAD_FN = "element {i} of tensors does not require grad and does not have a grad_fn"
UNUSED_INPUT = (
    "The differentiated Tensor at index {i} appears to not have been used in the graph. "
    "Set allow_unused=True if this is the desired behavior."
)
NON_LEAF_REQUIRES_GRAD = "you can only change requires_grad flags of leaf variables."
NON_LEAF_REQUIRES_GRAD_FALSE = (
    NON_LEAF_REQUIRES_GRAD + " If you want to use a computed variable in a subgraph that doesn't "
    "require differentiation use var_no_grad = var.detach()."
)
FACTORY_REQUIRES_GRAD = "Only Tensors of floating point and complex dtype can require gradients"
METHOD_REQUIRES_GRAD = "only Tensors of floating point dtype can require gradients"
SETTER_REQUIRES_GRAD = "only Tensors of floating point and complex dtype can require gradients"
NO_GRAD_VIEW_INPLACE = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. "
    "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your "
    "code by moving both the view and the inplace either both inside the no_grad block (if you "
    "don't want the inplace to be tracked) or both outside (if you want the inplace to be "
    "tracked)."
)
PARTIAL_OVERLAP = (
    "unsupported operation: some elements of the input tensor and the written-to tensor refer "
    "to a single memory location. Please clone() the tensor before performing the operation."
)
INTERNAL_OVERLAP = (
    "unsupported operation: more than one element of the written-to tensor refers to a single "
    "memory location. Please clone() the tensor before performing the operation."
)


def multi_view_inplace(nr: int, op: str) -> str:
    """torch's error for an in-place change of one of the views a multi-view op returned."""
    return (f"Output {nr} of {op} is a view and is being modified inplace. This view is the "
            "output of a function that returns multiple views. Such functions do not allow the "
            "output views to be modified inplace. You should replace the inplace operation by "
            "an out-of-place one.")


def multi_view_regenerated(nr: int, op: str) -> str:
    """torch's error for using a multi-view op's view after its base changed in place."""
    return (f"Output {nr} of {op} is a view and its base or another view of its base has been "
            "modified inplace. This view is the output of a function that returns multiple "
            "views. Such functions do not allow the output views to be modified inplace. You "
            "should replace the inplace operation by an out-of-place one.")


RETAIN_GRAD_NO_GRAD = "can't retain_grad on Tensor that has requires_grad=False"
HOOK_NO_GRAD = "cannot register a hook on a tensor that doesn't require gradient"
POST_ACCUMULATE_NON_LEAF = "post accumulate grad hooks cannot be registered on non-leaf tensors"
ITEM_NOT_SCALAR = "a Tensor with {n} elements cannot be converted to Scalar"
NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information."
)


def version_mismatch(type_str: str, producer: str | None, version: int, expected: int,
                     anomaly: bool = False) -> str:
    """``producer`` reads like ``output 0 of Sigmoid`` (None for a leaf); the hint differs
    when anomaly detection is on (it has just printed the forward traceback)."""
    which = f", which is {producer}," if producer else ""
    return (
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [{type_str}]{which} is at version {version}; expected version {expected} "
        f"instead. {INPLACE_HINT_ANOMALY if anomaly else INPLACE_HINT}"
    )


def shape_mismatch(i: int, got: tuple, want: tuple) -> str:
    """A ``grad_tensors`` entry whose shape differs from its output's."""
    return (
        f"Mismatch in shape: grad_output[{i}] has a shape of torch.Size({list(got)}) and "
        f"output[{i}] has a shape of torch.Size({list(want)})."
    )


_CPP_TYPE = {"bool": "bool", "uint8": "unsigned char", "int8": "signed char", "int16": "short int",
             "int32": "int", "int64": "long int", "float16": "c10::Half", "float32": "float",
             "float64": "double"}
_SCALAR_TYPE = {"bool": "Bool", "uint8": "Byte", "int8": "Char", "int16": "Short", "int32": "Int",
                "int64": "Long", "float16": "Half", "float32": "Float", "float64": "Double"}


def scalar_name(dt: Any) -> str:
    """torch's ScalarType name of a dtype, as its messages print it: ``Float``, ``Long`` ..."""
    return _SCALAR_TYPE[dt.name]


def cpp_name(dt: Any) -> str:
    """The C++ type of a dtype, as kernel messages print it: ``float``, ``long int`` ..."""
    return _CPP_TYPE[dt.name]


def grad_size_mismatch(got: tuple, want: tuple) -> str:
    """An assigned ``.grad`` whose shape differs from the tensor's."""
    return (
        f"attempting to assign a gradient of size '{list(got)}' to a tensor of size "
        f"'{list(want)}'. Please ensure that the gradient and the tensor are the same size"
    )


def grad_dtype_mismatch(got: Any, want: Any) -> str:
    """An assigned ``.grad`` whose dtype differs from the tensor's."""
    return (
        f"attempting to assign a gradient with dtype '{cpp_name(got)}' to a tensor with "
        f"grad_dtype '{scalar_name(want)}'. The gradient must match the tensor's grad_dtype "
        "(defaults to the tensor's dtype). You can set the tensor's grad_dtype attribute with a "
        "specific dtype, or None to allow any dtype. Set grad_dtype with caution. Diverging the "
        "dtypes of a tensor and its gradient may break downstream systems that assume they match."
    )


CREATE_GRAPH_BACKWARD = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter "
    "and its gradient which can cause a memory leak. We recommend using autograd.grad when "
    "creating the graph to avoid this. If you have to use this function, make sure to reset the "
    ".grad fields of your parameters to None after use to break the cycle and avoid the leak."
)
WHERE_UINT8 = ("where received a uint8 condition tensor. This behavior is deprecated and will be "
               "removed in a future version of PyTorch. Use a boolean condition instead.")
SCATTER_REDUCE_DEPRECATED = (
    "The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in "
    "a future PyTorch release. Use torch.scatter_reduce instead for more reduction options.")
_WARNED_ONCE: set[str] = set()  # warnings torch gives once per process (TORCH_WARN_ONCE)


def warn_once(text: str, stacklevel: int = 2) -> None:
    """Warn with ``text`` the first time only, as torch's once-per-process warnings do."""
    if text not in _WARNED_ONCE:
        _WARNED_ONCE.add(text)
        warnings.warn(text, UserWarning, stacklevel=stacklevel + 1)


def broadcast_error(a: tuple, b: tuple) -> RuntimeError:
    """torch's message for shapes that do not broadcast."""
    n = max(len(a), len(b))
    pa, pb = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    for i in range(n - 1, -1, -1):
        if pa[i] != pb[i] and pa[i] != 1 and pb[i] != 1:
            return RuntimeError(
                f"The size of tensor a ({pa[i]}) must match the size of tensor b ({pb[i]}) "
                f"at non-singleton dimension {i}"
            )
    return RuntimeError(f"shapes {list(a)} and {list(b)} cannot be broadcast")


# ---- argument checking of the elementwise ops ---------------------------------------------

def must_be_tensor(op: str, x: Any, position: int = 2, name: str | None = None) -> TypeError:
    """torch's error for a non-Tensor where only a Tensor fits: ``atan2(): argument 'other'
    (position 2) must be Tensor, not float``."""
    name = name or ("input" if position == 1 else "other")
    return TypeError(f"{op}(): argument '{name}' (position {position}) must be Tensor, not "
                     f"{type(x).__name__}")


TENSOR_TENSOR = "(Tensor input, Tensor other, *, Tensor out = None)"
RSUB_SIGNATURES = ("(Tensor input, Tensor other, *, Number alpha = 1)",
                   "(Tensor input, Number other, Number alpha = 1)")
TENSOR_NUMBER = "(Tensor input, Number other, *, Tensor out = None)"
NUMBER_TENSOR = "(Number self, Tensor other)"
WHERE_SIGNATURES = ("(Tensor condition)",
                    "(Tensor condition, Tensor input, Tensor other, *, Tensor out = None)",
                    "(Tensor condition, Number self, Tensor other)",
                    "(Tensor condition, Tensor input, Number other)",
                    "(Tensor condition, Number self, Number other)")


def _fits(kind: str, v: Any) -> bool:
    """Whether torch's error marks ``v`` as fitting a parameter of type ``kind``: by the
    Python type's name, so a ``Number`` parameter fits nothing (no type is named so)."""
    if kind == "Tensor":
        return type(v).__name__ in ("Tensor", "Parameter")
    return False


def invalid_arguments(op: str, got: tuple, *signatures: str) -> TypeError:
    """torch's overload-resolution error: ``eq() received an invalid combination of
    arguments - got (int, Tensor), but expected one of: ...``. ``got`` holds the arguments;
    a signature without ``out`` that takes as many arguments says which ones did not fit."""
    names = [type(a).__name__ for a in got]
    lines = ""
    for sig in signatures:
        lines += f" * {sig}\n"
        params = [p for p in sig.strip("()").split(", ") if p != "*"]
        if "out = None" not in sig and len(params) == len(got):
            # torch marks every argument given for an optional parameter
            marked = [n if _fits(p.split()[0], v) and "= None" not in p else f"!{n}!"
                      for p, v, n in zip(params, got, names)]
            lines += ("      didn't match because some of the arguments have invalid types: "
                      f"({', '.join(marked)})\n")
    return TypeError(f"{op}() received an invalid combination of arguments - got "
                     f"({', '.join(names)}), but expected one of:\n{lines}")


def not_implemented_for(kernel: str, dt: Any) -> NotImplementedError:
    """A CPU kernel that has no version for a dtype: ``"hypot_cpu" not implemented for
    'Long'``."""
    return NotImplementedError(f'"{kernel}" not implemented for \'{scalar_name(dt)}\'')


def not_writable(name: str) -> str:
    """torch's error for setting or deleting a read-only Tensor attribute."""
    return f"attribute '{name}' of 'torch._C.TensorBase' objects is not writable"


def cannot_convert(type_name: str) -> RuntimeError:
    """A Python number out of a dtype's range (``torch.full((2,), 1e40, dtype=torch.int64)``)."""
    return RuntimeError(f"value cannot be converted to type {type_name} without overflow")


ZERO_DIVISION = "ZeroDivisionError"  # integer division or modulo by zero
INTEGRAL_ALPHA = "For integral input tensors, argument alpha must not be a floating point number."
BOOL_NEGATION = (
    "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert "
    "a mask, use the `~` or `logical_not()` operator instead."
)
BOOL_SUB_BOTH = (
    "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
    "`logical_xor()` operator instead."
)
BOOL_SUB = (
    "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
    "invert a mask, use the `~` or `logical_not()` operator instead."
)
