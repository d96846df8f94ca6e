"""``torch.autograd.functional``: Jacobians, Hessians and their products, from a function.

Everything is built from ``autograd.grad``:

* ``vjp(f, x, v)``: one backward, ``v^T J``.
* ``jvp(f, x, v)``: ``J v`` by the double-backward trick: ``g -> J^T g`` is linear in
  ``g``, and backpropagating ``v`` through it gives ``J v``.
* ``jacobian``: one backward per output element (each gives a row of ``J``).
* ``hessian``: the Jacobian of the gradient (``create_graph=True`` inside).
* ``hvp``/``vhp``: gradient of ``grad(f) . v`` (and the double-backward trick for ``hvp``).

Inputs may be a Tensor or a tuple of Tensors; outputs keep the same nesting as
in PyTorch (a Tensor for a Tensor, tuples of tuples for tuples).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..engine import grad as autograd_grad
from ..grad_mode import STATE, enable_grad, set_grad_enabled
from ..ops.join_split import stack
from ..tensor import Tensor, _make

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]


def _as_tuple(inp: Any, arg_name: str, fn_name: str) -> tuple[bool, tuple]:
    """(whether ``inp`` was a tuple, ``inp`` as a tuple of Tensors), with torch's errors."""
    is_tuple = True
    if not isinstance(inp, tuple):
        inp = (inp,)
        is_tuple = False
    for i, el in enumerate(inp):
        if not isinstance(el, Tensor):
            if is_tuple:
                raise TypeError(
                    f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of "
                    f"Tensors but the value at index {i} has type {type(el)}."
                )
            raise TypeError(
                f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors "
                f"but the given {arg_name} has type {type(el)}."
            )
    return is_tuple, inp


def _tuple_postprocess(res: Any, to_unpack: Any) -> Any:
    """Undo ``_as_tuple``: a lone Tensor where the user gave one (per level, for pairs)."""
    if isinstance(to_unpack, tuple):
        if not to_unpack[1]:
            res = tuple(el[0] for el in res)
        if not to_unpack[0]:
            res = res[0]
    elif not to_unpack:
        res = res[0]
    return res


def _grad_preprocess(inputs: tuple, create_graph: bool, need_graph: bool) -> tuple:
    """Fresh leaves (or, under create_graph, differentiable aliases) of the inputs."""
    res = []
    for inp in inputs:
        if create_graph and inp.requires_grad:
            res.append(inp.view_as(inp))
        else:
            res.append(inp.detach().requires_grad_(need_graph))
    return tuple(res)


def _grad_postprocess(inputs: tuple, create_graph: bool) -> tuple:
    """Results detached from the graph, unless create_graph (nested tuples too)."""
    if isinstance(inputs[0], Tensor):
        return inputs if create_graph else tuple(inp.detach() for inp in inputs)
    return tuple(_grad_postprocess(inp, create_graph) for inp in inputs)


def _validate_v(v: tuple, other: tuple, is_other_tuple: bool) -> None:
    """``v`` must match ``other`` in count and in each shape."""
    if len(other) != len(v):
        if is_other_tuple:
            raise RuntimeError(
                f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}."
            )
        raise RuntimeError("The given v should contain a single Tensor.")
    for idx, (el_v, el_other) in enumerate(zip(v, other)):
        if el_v.size() != el_other.size():
            prepend = f"Entry {idx} in " if is_other_tuple else ""
            raise RuntimeError(
                f"{prepend}v has invalid size: should be {el_other.size()} but got "
                f"{el_v.size()}."
            )


def _check_requires_grad(inputs: tuple, input_type: str, strict: bool) -> None:
    """In strict mode, each of ``inputs`` must depend on the inputs (torch's errors)."""
    if not strict:
        return
    for i, inp in enumerate(inputs):
        if inp is None:
            raise RuntimeError(
                f"The output of the user-provided function is independent of input {i}. This "
                "is not allowed in strict mode."
            )
        if inp.requires_grad:
            continue
        if input_type == "hessian":
            raise RuntimeError(
                f"The hessian of the user-provided function with respect to input {i} is "
                "independent of the input. This is not allowed in strict mode. You should ensure "
                "that your function is thrice differentiable and that the hessian depends on the "
                "inputs."
            )
        if input_type == "jacobian":
            raise RuntimeError(
                "While computing the hessian, found that the jacobian of the user-provided "
                f"function with respect to input {i} is independent of the input. This is not "
                "allowed in strict mode. You should ensure that your function is twice "
                "differentiable and that the jacobian depends on the inputs (this would be "
                "violated by a linear function for example)."
            )
        if input_type == "grad_inputs":
            raise RuntimeError(
                f"The gradient with respect to input {i} is independent of the inputs of the "
                "user-provided function. This is not allowed in strict mode."
            )
        raise RuntimeError(
            f"Output {i} of the user-provided function does not require gradients. The outputs "
            "must be computed in a differentiable manner from the input when running in strict "
            "mode."
        )


def _autograd_grad(outputs: tuple, inputs: tuple, grad_outputs: tuple | None = None,
                   create_graph: bool = False, retain_graph: bool | None = None) -> tuple:
    """``autograd.grad`` over the outputs that require grad; None where unused."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    new_outputs, new_grad_outputs = [], []
    for out, g in zip(outputs, grad_outputs):
        if out is not None and out.requires_grad:
            new_outputs.append(out)
            new_grad_outputs.append(g)
    if not new_outputs:
        return (None,) * len(inputs)
    return autograd_grad(new_outputs, list(inputs), new_grad_outputs, allow_unused=True,
                         create_graph=create_graph, retain_graph=retain_graph)


_STRICT_NONE = {
    "back": "The output of the user-provided function is independent of input {i}. This is "
            "not allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the "
                  "grad_outputs when using the double backward trick to compute forward mode "
                  "gradients. This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. "
                   "This is not allowed in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry "
                         "{i} in the grad_jacobian. This is not allowed in strict mode as it "
                         "prevents from using the double backward trick to replace forward mode "
                         "AD.",
}


def _zeros_like(t: Tensor) -> Tensor:
    """Zeros of t's shape and dtype, outside the graph."""
    return _make(np.zeros(t._data.shape, dtype=t.dtype.np), t.dtype, None)


def _fill_in_zeros(grads: tuple, refs: tuple, strict: bool, create_graph: bool,
                   stage: str) -> tuple:
    """Zeros (shaped like ``refs``) for unused gradients; strict mode refuses them."""
    res = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_STRICT_NONE[stage].format(i=i))
            g = _zeros_like(refs[i])
        elif strict and create_graph and not g.requires_grad:
            what = "jacobian" if "double" not in stage else "hessian"
            raise RuntimeError(
                f"The {what} of the user-provided function is independent of input {i}. This is "
                "not allowed in strict mode when create_graph=True."
            )
        res.append(g)
    return tuple(res)


def _prepared_inputs(inputs: Any, fn_name: str, create_graph: bool) -> tuple[bool, tuple]:
    """``_as_tuple`` of the inputs, as fresh leaves that require grad."""
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", fn_name)
    return is_inputs_tuple, _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)


def _outputs_of(func: Callable, inputs: tuple, fn_name: str,
                strict: bool) -> tuple[bool, tuple]:
    """``func(*inputs)`` as (whether a tuple, a tuple), checked as torch does."""
    is_outputs_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function",
                                          fn_name)
    _check_requires_grad(outputs, "outputs", strict=strict)
    return is_outputs_tuple, outputs


def _backprop_v(outputs: tuple, inputs: tuple, v: Any, refs: tuple, strict: bool,
                create_graph: bool, stage: str) -> tuple:
    """The last backward of every product: ``v`` from ``outputs`` to ``inputs``, recorded
    only under create_graph; zeros (shaped like ``refs``) where nothing arrived."""
    with set_grad_enabled(True if create_graph else STATE.enabled):
        grads = _autograd_grad(outputs, inputs, v, create_graph=create_graph)
        return _fill_in_zeros(grads, refs, strict, create_graph, stage)


def _results(outputs: tuple, is_outputs_tuple: bool, res: tuple, is_res_tuple: bool,
             create_graph: bool) -> tuple:
    """(outputs, product), detached unless create_graph, nested as the user gave them."""
    outputs = _grad_postprocess(outputs, create_graph)
    res = _grad_postprocess(res, create_graph)
    return (_tuple_postprocess(outputs, is_outputs_tuple),
            _tuple_postprocess(res, is_res_tuple))


def vjp(func: Callable, inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple:
    """``(func(inputs), v^T J)``: a vector-Jacobian product (one backward)."""
    with enable_grad():
        is_inputs_tuple, inputs = _prepared_inputs(inputs, "vjp", create_graph)
        is_outputs_tuple, outputs = _outputs_of(func, inputs, "vjp", strict)
        if v is not None:
            _, v = _as_tuple(v, "v", "vjp")
            v = _grad_preprocess(v, create_graph=create_graph, need_graph=False)
            _validate_v(v, outputs, is_outputs_tuple)
        elif len(outputs) != 1 or outputs[0].nelement() != 1:
            raise RuntimeError(
                "The vector v can only be None if the user-provided function returns a single "
                "Tensor with a single element."
            )
    res = _backprop_v(outputs, inputs, v, inputs, strict, create_graph, "back")
    return _results(outputs, is_outputs_tuple, res, is_inputs_tuple, create_graph)


def jvp(func: Callable, inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple:
    """``(func(inputs), J v)``: a Jacobian-vector product (double-backward trick)."""
    with enable_grad():
        is_inputs_tuple, inputs = _prepared_inputs(inputs, "jvp", create_graph)
        v = _v_for_inputs(v, inputs, is_inputs_tuple, create_graph, "jvp")
        is_outputs_tuple, outputs = _outputs_of(func, inputs, "jvp", strict)
        grad_outputs = tuple(_zeros_like(out).requires_grad_(True) for out in outputs)
        grad_inputs = _autograd_grad(outputs, inputs, grad_outputs, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict=strict)
    res = _backprop_v(grad_inputs, grad_outputs, v, outputs, strict, create_graph, "back_trick")
    return _results(outputs, is_outputs_tuple, res, is_outputs_tuple, create_graph)


def _check_strategy(strategy: str, create_graph: bool, strict: bool, vectorize: bool) -> None:
    """torch's errors for ``jacobian``'s ``strategy``; forward mode is not implemented."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
            'function has more outputs than inputs, "forward-mode" tends to be more performant. '
            'Otherwise, prefer to use "reverse-mode".'
        )
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError(
                "torch.autograd.functional.jacobian: `create_graph=True` and "
                '`strategy="forward-mode"` are not supported together (yet). Please either set '
                '`create_graph=False` or `strategy="reverse-mode"`.'
            )
        if strict:
            raise RuntimeError(
                "torch.autograd.functional.jacobian: `strict=True` and "
                '`strategy="forward-mode"` are not supported together (yet). Please either set '
                '`strict=False` or `strategy="reverse-mode"`.'
            )
        if not vectorize:
            raise NotImplementedError(
                "Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                "only implemented for `vectorize=True`."
            )
        raise NotImplementedError("forward-mode AD is not implemented in autograd_lab; use "
                                  'strategy="reverse-mode"')


def jacobian(func: Callable, inputs: Any, create_graph: bool = False, strict: bool = False,
             vectorize: bool = False, strategy: str = "reverse-mode") -> Any:
    """The Jacobian of ``func`` at ``inputs``: shape ``output.shape + input.shape``.

    ``vectorize`` is accepted; the rows are always computed one backward at a time.
    """
    _check_strategy(strategy, create_graph, strict, vectorize)
    with enable_grad():
        is_inputs_tuple, inputs = _prepared_inputs(inputs, "jacobian", create_graph)
        is_outputs_tuple, outputs = _outputs_of(func, inputs, "jacobian", strict)
        if vectorize and strict:
            raise RuntimeError(
                "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are "
                "not supported together. Please either set `strict=False` or "
                "`vectorize=False`."
            )
        jac = tuple(_jacobian_of(i, out, inputs, create_graph, strict)
                    for i, out in enumerate(outputs))
        jac = _grad_postprocess(jac, create_graph)
        return _tuple_postprocess(jac, (is_outputs_tuple, is_inputs_tuple))


def _jacobian_of(i: int, out: Tensor, inputs: tuple, create_graph: bool,
                 strict: bool) -> tuple[Tensor, ...]:
    """Output ``i``'s Jacobian with respect to each input: one backward per element."""
    rows: tuple[list, ...] = tuple([] for _ in range(len(inputs)))
    flat = out.reshape(-1)
    for j in range(out.nelement()):
        vj = _autograd_grad((flat[j],), inputs, retain_graph=True, create_graph=create_graph)
        for el_idx, (rows_el, vj_el, inp_el) in enumerate(zip(rows, vj, inputs)):
            if vj_el is not None:
                if strict and create_graph and not vj_el.requires_grad:
                    raise RuntimeError(
                        "The jacobian of the user-provided function is independent of "
                        f"input {i}. This is not allowed in strict mode when create_graph=True."
                    )
                rows_el.append(vj_el)
            else:
                if strict:
                    raise RuntimeError(
                        f"Output {i} of the user-provided function is independent of "
                        f"input {el_idx}. This is not allowed in strict mode."
                    )
                rows_el.append(_zeros_like(inp_el))
    return tuple(_stack_rows(rows_el, out, inp) for rows_el, inp in zip(rows, inputs))


def _stack_rows(rows: list[Tensor], out: Tensor, inp: Tensor) -> Tensor:
    """One Jacobian block, ``out.shape + inp.shape``, from its rows."""
    shape = tuple(out.shape) + tuple(inp.shape)
    if not rows:  # an output with no elements
        return _make(np.zeros(shape, dtype=inp.dtype.np), inp.dtype, None)
    return stack(rows, 0).view(shape)


def hessian(func: Callable, inputs: Any, create_graph: bool = False, strict: bool = False,
            vectorize: bool = False, outer_jacobian_strategy: str = "reverse-mode") -> Any:
    """The Hessian of a scalar function: the Jacobian of its gradient."""
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def ensure_single_output_function(*inp: Tensor) -> Tensor:
        is_out_tuple, t_out = _outputs_of(func, inp, "hessian", strict)
        _scalar_output(t_out, is_out_tuple, "hessian")
        return t_out[0].squeeze()

    def jac_func(*inp: Tensor) -> Any:
        jac = jacobian(ensure_single_output_function, inp, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
        return jac

    res = jacobian(jac_func, inputs, create_graph=create_graph, strict=strict,
                   vectorize=vectorize, strategy=outer_jacobian_strategy)
    return _tuple_postprocess(res, (is_inputs_tuple, is_inputs_tuple))


def _scalar_output(outputs: tuple, is_outputs_tuple: bool, name: str) -> None:
    """``hessian``, ``vhp`` and ``hvp`` need a function with one single-element output."""
    if is_outputs_tuple or not isinstance(outputs[0], Tensor):
        raise RuntimeError(f"The function given to {name} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(
            f"The Tensor returned by the function given to {name} should contain a single element"
        )


def _v_for_inputs(v: Any, inputs: tuple, is_inputs_tuple: bool, create_graph: bool,
                  name: str) -> Any:
    """The vector ``v`` (shaped like the inputs) as a tuple of constants."""
    if v is not None:
        _, v = _as_tuple(v, "v", name)
        v = _grad_preprocess(v, create_graph=create_graph, need_graph=False)
        _validate_v(v, inputs, is_inputs_tuple)
    elif len(inputs) != 1 or inputs[0].nelement() != 1:
        raise RuntimeError(
            "The vector v can only be None if the input to the user-provided function is a "
            "single Tensor with a single element."
        )
    return v


def vhp(func: Callable, inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple:
    """``(func(inputs), v^T H)`` for a scalar function."""
    with enable_grad():
        is_inputs_tuple, inputs = _prepared_inputs(inputs, "vhp", create_graph)
        v = _v_for_inputs(v, inputs, is_inputs_tuple, create_graph, "vhp")
        is_outputs_tuple, outputs = _outputs_of(func, inputs, "vhp", strict)
        _scalar_output(outputs, is_outputs_tuple, "vhp")
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
    res = _backprop_v(jac, inputs, v, inputs, strict, create_graph, "double_back")
    return _results(outputs, is_outputs_tuple, res, is_inputs_tuple, create_graph)


def hvp(func: Callable, inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple:
    """``(func(inputs), H v)`` for a scalar function (double-backward trick)."""
    with enable_grad():
        is_inputs_tuple, inputs = _prepared_inputs(inputs, "hvp", create_graph)
        v = _v_for_inputs(v, inputs, is_inputs_tuple, create_graph, "hvp")
        is_outputs_tuple, outputs = _outputs_of(func, inputs, "hvp", strict)
        _scalar_output(outputs, is_outputs_tuple, "hvp")
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
        grad_jac = tuple(_zeros_like(inp).requires_grad_(True) for inp in inputs)
        double_back = _autograd_grad(jac, inputs, grad_jac, create_graph=True)
        _check_requires_grad(jac, "hessian", strict=strict)  # (jac, not double_back: as torch)
    res = _backprop_v(double_back, grad_jac, v, inputs, strict, create_graph,
                      "double_back_trick")
    return _results(outputs, is_outputs_tuple, res, is_inputs_tuple, create_graph)
