"""PyTorch 2.13's exact error and warning texts, in one place."""

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
RETAIN_GRAD_NO_GRAD = "can't retain_grad on Tensor that has requires_grad=False"
HOOK_NO_GRAD = "cannot register a hook on a tensor that doesn't require gradient"
ITEM_NOT_SCALAR = "a Tensor with {n} elements cannot be converted to Scalar"
NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information."
)


def version_mismatch(type_str: str, producer: str | None, version: int, expected: int) -> str:
    """``producer`` reads like ``output 0 of Sigmoid`` (None for a leaf)."""
    which = f", which is {producer}," if producer else ""
    return (
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [{type_str}]{which} is at version {version}; expected version {expected} "
        f"instead. {INPLACE_HINT}"
    )


def shape_mismatch(i: int, got: tuple, want: tuple) -> str:
    return (
        f"Mismatch in shape: grad_output[{i}] has a shape of torch.Size({list(got)}) and "
        f"output[{i}] has a shape of torch.Size({list(want)})."
    )
