"""``gradcheck`` / ``gradgradcheck``: compare backward with finite differences.

For every input ``x`` that requires grad and every differentiable output ``y``:

* numerical Jacobian, one input element at a time (central differences, see
  :mod:`.numerical`): ``J[k, :] = (f(x + eps e_k) - f(x - eps e_k)) / (2 eps)``
* analytical Jacobian, one output element at a time (one backward per row):
  ``J[:, j] = grad(y, x, grad_outputs=e_j)``

Both are laid out as (number of input elements, number of output elements), as in
PyTorch, and must agree within ``|a - n| <= atol + rtol |n|``. A mismatch raises
``GradcheckError`` with PyTorch's message (or returns False with
``raise_exception=False``). Run it in float64: float32 round-off is larger than
the default tolerances.
"""

from __future__ import annotations

import warnings
from typing import Any, Callable

import numpy as np

from .._dtype import float64, promote
from ..engine import grad as autograd_grad
from ..grad_mode import no_grad
from ..node import Node
from ..ops.record import node_for
from ..tensor import Tensor, _make
from .numerical import central_differences, slope

__all__ = ["GradcheckError", "get_analytical_jacobian", "get_numerical_jacobian", "gradcheck",
           "gradgradcheck"]


class GradcheckError(RuntimeError):
    """Error raised by :func:`gradcheck` and :func:`gradgradcheck`."""


FAILED_NONDET_MSG = """\n
NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `nondet_tol=<tol>` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_nondet_tol=<tol>`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_nondet_tol=<tol>`
"""


def _as_tuple(x: Any) -> tuple:
    """A tuple, a list or a single value, as a tuple."""
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _is_float(t: Any) -> bool:
    """Whether ``t`` is a floating-point Tensor (the outputs that have a Jacobian)."""
    return isinstance(t, Tensor) and t.dtype.is_floating_point


def _diff_inputs(inputs: tuple) -> list[Tensor]:
    """The inputs that require grad."""
    return [t for t in inputs if isinstance(t, Tensor) and t.requires_grad]


def _zeros_like(t: Tensor) -> Tensor:
    """Zeros of t's shape and dtype, outside the graph."""
    return _make(np.zeros(t._data.shape, dtype=t.dtype.np), t.dtype, None)


def _differentiable_outputs(x: Any) -> tuple:
    """The outputs that require grad."""
    return tuple(o for o in _as_tuple(x) if o.requires_grad)


# ---- checks on the inputs --------------------------------------------------------------------

def _check_inputs(tupled_inputs: tuple) -> None:
    """Warn about inputs that are not float64; refuse overlapping ones, or none to check."""
    any_requires_grad = False
    for idx, inp in enumerate(tupled_inputs):
        if isinstance(inp, Tensor) and inp.requires_grad:
            if inp.dtype is not float64:
                warnings.warn(
                    f"Input #{idx} requires gradient and is not a double precision floating "
                    "point or complex. This check will likely fail if all the inputs are not of "
                    "double precision floating point or complex. ", stacklevel=3,
                )
            if not all(st > 0 or sz <= 1 for st, sz in zip(inp._data.strides, inp._data.shape)):
                raise RuntimeError(
                    f"The {idx}th input has a dimension with stride 0. gradcheck only supports "
                    "inputs that are non-overlapping to be able to compute the numerical "
                    "gradients correctly. You should call .contiguous on the input before "
                    "passing it to gradcheck."
                )
            any_requires_grad = True
    if not any_requires_grad:
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, but none of them "
            "have requires_grad=True."
        )


# ---- numerical Jacobian ----------------------------------------------------------------------

def _check_same_dtype_and_shape(a: Tensor, b: Tensor, eps: float, idx: tuple) -> None:
    """The outputs at x - eps and at x + eps must agree in shape and dtype."""
    on_index = f"on index {idx} "
    if a.shape != b.shape:
        raise AssertionError(
            f"Expected `func` to return outputs with the same shape when inputs are perturbed "
            f"{on_index}by {eps}, but got: shapes {a.shape} and {b.shape}."
        )
    if a.dtype is not b.dtype:
        raise AssertionError(
            f"Expected `func` to return outputs with the same dtype when inputs are perturbed "
            f"{on_index}by {eps}, but got: dtypes {a.dtype} and {b.dtype}."
        )


def _outputs_of(fn: Callable, inputs: tuple) -> tuple:
    """Copies of ``fn``'s outputs (the inputs are perturbed in place next)."""
    return tuple(o.clone() for o in _as_tuple(fn(*inputs)))


def _numerical_jacobian_wrt(fn: Callable, inputs: tuple, outputs: tuple, x: Tensor,
                            eps: float) -> tuple[Tensor, ...]:
    """One Jacobian per float output, rows = elements of ``x``."""
    data = x._data  # perturbed in place, like torch's ``x.data`` (no version bump)
    float_outs = [o for o in outputs if _is_float(o)]
    jac = [np.zeros((data.size, o._data.size), dtype=o.dtype.np) for o in float_outs]
    steps = central_differences(lambda: _outputs_of(fn, inputs), data, eps)
    for d_idx, (idx, outa, outb) in enumerate(steps):
        k = 0
        for a, b in zip(outa, outb):
            _check_same_dtype_and_shape(a, b, eps, idx)
            if not _is_float(a):
                continue
            col = slope(a._data, b._data, eps)
            jac[k][d_idx] = np.asarray(col, dtype=a.dtype.np).reshape(-1)
            k += 1
    return tuple(_make(j, o.dtype, None) for j, o in zip(jac, float_outs))


def _get_numerical_jacobian(fn: Callable, inputs: tuple, outputs: tuple | None = None,
                            eps: float = 1e-3) -> list[tuple[Tensor, ...]]:
    """For each input that requires grad: a tuple with one Jacobian per output."""
    if outputs is None:
        outputs = _as_tuple(fn(*_as_tuple(inputs)))
    return [_numerical_jacobian_wrt(fn, inputs, outputs, x, eps) for x in _diff_inputs(inputs)]


def _check_grad_out(grad_out: float, fn_name: str) -> None:
    """The deprecated helpers accept only the default ``grad_out``."""
    if grad_out != 1.0:
        raise ValueError(
            f"Expected grad_out to be 1.0. {fn_name} no longer supports values of "
            "grad_out != 1.0."
        )


def get_numerical_jacobian(fn: Callable, inputs: Any, target: Any = None, eps: float = 1e-3,
                           grad_out: float = 1.0) -> tuple:
    """Deprecated helper kept for compatibility: numerical Jacobians of ``fn(inputs)``."""
    _check_grad_out(grad_out, "get_numerical_jacobian")
    inputs = _as_tuple(inputs)
    jacobians = _get_numerical_jacobian(lambda *a: fn(a), inputs, eps=eps)
    return tuple(j[0] for j in jacobians)


# ---- analytical Jacobian ---------------------------------------------------------------------

def _analytical_rows(inputs: list[Tensor], output: Tensor) -> list[list[Tensor | None]]:
    """Row j of each input's Jacobian: the gradient for the j-th output element."""
    rows: list[list[Tensor | None]] = [[] for _ in inputs]
    base = np.zeros(output._data.shape, dtype=output.dtype.np)
    flat = base.reshape(-1)
    for j in range(flat.size):
        flat[:] = 0
        flat[j] = 1
        grads = autograd_grad(output, inputs, _make(base.copy(), output.dtype, None),
                              retain_graph=True, allow_unused=True)
        for i, g in enumerate(grads):
            rows[i].append(None if g is None else g.clone())
    return rows


def _stack(rows: list[list[Tensor | None]], inputs: list[Tensor],
           numel_output: int) -> tuple[list[Tensor], bool, bool]:
    """Columns into (input numel, output numel) Jacobians; size and dtype checks."""
    jacobians = []
    sizes_ok = types_ok = True
    for inp, col_list in zip(inputs, rows):
        jac = np.zeros((inp._data.size, numel_output), dtype=inp.dtype.np)
        for j, t in enumerate(col_list):
            if t is None:
                continue
            if t.shape != inp.shape:
                sizes_ok = False
            elif t.dtype is not inp.dtype:
                types_ok = False
            if t._data.size != inp._data.size:
                raise AssertionError(
                    f"Expected out_jacobian column to have {t._data.size} elements, but got "
                    f"{inp._data.size}"
                )
            jac[:, j] = t._data.reshape(-1)
        jacobians.append(_make(jac, inp.dtype, None))
    return jacobians, sizes_ok, types_ok


def _jacobians_equal(j1: list[Tensor], j2: list[Tensor], atol: float) -> bool:
    """Whether two lists of Jacobians agree within ``atol``."""
    for a, b in zip(j1, j2):
        if a._data.size and np.abs(a._data - b._data).max() > atol:
            return False
    return True


def _analytical_jacobian(inputs: tuple, output: Tensor,
                         nondet_tol: float) -> tuple[list[Tensor], bool, bool, bool]:
    """(Jacobians, reentrant, sizes_ok, types_ok). Computed twice: backward must give the
    same result for the same grad_output (within ``nondet_tol``)."""
    diff = _diff_inputs(inputs)
    jac1, sizes_ok, types_ok = _stack(_analytical_rows(diff, output), diff, output.numel())
    jac2, _, _ = _stack(_analytical_rows(diff, output), diff, output.numel())
    return jac1, _jacobians_equal(jac1, jac2, nondet_tol), sizes_ok, types_ok


def _check_analytical_jacobian_attributes(inputs: tuple, output: Tensor, nondet_tol: float,
                                          check_grad_dtypes: bool) -> list[Tensor]:
    """The analytical Jacobians of ``output``, after torch's checks on them."""
    jac1, reentrant, sizes_ok, types_ok = _analytical_jacobian(inputs, output, nondet_tol)
    # (torch reports these two checks under each other's message; kept identical)
    if not sizes_ok and check_grad_dtypes:
        raise GradcheckError("Gradient has dtype mismatch")
    if not types_ok:
        raise GradcheckError("Analytical gradient has incorrect size")
    if not reentrant:
        raise GradcheckError(
            "Backward is not reentrant, i.e., running backward with same input and grad_output "
            "multiple times gives different values, although analytical gradient matches "
            f"numerical gradient.The tolerance for nondeterminism was {nondet_tol}."
            + FAILED_NONDET_MSG
        )
    return jac1


def get_analytical_jacobian(inputs: Any, output: Tensor, nondet_tol: float = 0.0,
                            grad_out: float = 1.0) -> tuple:
    """Deprecated helper: (jacobians, reentrant, types_ok, sizes_ok)."""
    _check_grad_out(grad_out, "get_analytical_jacobian")
    jac, reentrant, sizes_ok, types_ok = _analytical_jacobian(_as_tuple(inputs), output,
                                                              nondet_tol)
    return tuple(jac), reentrant, types_ok, sizes_ok


# ---- the checks ------------------------------------------------------------------------------

def _allclose(a: Tensor, b: Tensor, rtol: float, atol: float) -> bool:
    """|a - b| <= atol + rtol |b| everywhere (in the wider of the two dtypes)."""
    dt = promote(a.dtype, b.dtype).np
    x, y = a._data.astype(dt), b._data.astype(dt)
    return bool(np.all(np.abs(x - y) <= atol + rtol * np.abs(y)))


def _notallclose_msg(analytical: Tensor, numerical: Tensor, output_idx: int,
                     input_idx: int) -> str:
    """torch's message for a Jacobian mismatch."""
    return (
        f"Jacobian mismatch for output {output_idx:d} with respect to input {input_idx:d},\n"
        f"numerical:{numerical}\nanalytical:{analytical}\n"
    )


def _check_no_differentiable_outputs(func: Callable, inputs: tuple, func_out: tuple,
                                     eps: float) -> bool:
    """Without differentiable outputs, the numerical gradient must be zero."""
    for per_input in _get_numerical_jacobian(func, inputs, func_out, eps=eps):
        for jacobian in per_input:
            if np.count_nonzero(jacobian._data) > 0:
                raise GradcheckError("Numerical gradient for function expected to be zero")
    return True


def _slow_gradcheck(func: Callable, func_out: Any, tupled_inputs: tuple, outputs: tuple,
                    eps: float, rtol: float, atol: float, check_grad_dtypes: bool,
                    nondet_tol: float) -> bool:
    """Every numerical Jacobian against its analytical one (torch's "slow mode")."""
    func_out = _as_tuple(func_out)
    if not outputs:
        return _check_no_differentiable_outputs(func, tupled_inputs, func_out, eps)
    per_input = _get_numerical_jacobian(func, tupled_inputs, func_out, eps=eps)
    numerical = list(zip(*per_input)) if per_input else []
    numerical = [nj for o, nj in zip(func_out, numerical) if o.requires_grad]
    for i, o in enumerate(outputs):
        analytical = _check_analytical_jacobian_attributes(tupled_inputs, o, nondet_tol,
                                                           check_grad_dtypes)
        for j, (a, n) in enumerate(zip(analytical, numerical[i])):
            if not _allclose(a, n, rtol, atol):
                raise GradcheckError(_notallclose_msg(a, n, i, j))
    return True


def _test_backward_mul_by_grad_output(outputs: tuple, inputs: tuple) -> bool:
    """With zero grad_outputs every input gradient must be zero."""
    diff = _diff_inputs(inputs)
    if not diff:
        raise GradcheckError("no Tensors requiring grad found in input")
    zeros = [_zeros_like(o) for o in outputs]
    grads = autograd_grad(list(outputs), diff, zeros, allow_unused=True)
    for gi, di in zip(grads, diff):
        if gi is None:
            continue
        if np.any(gi._data != 0):
            raise GradcheckError("backward not multiplied by grad_output")
        if gi.dtype is not di.dtype:
            raise GradcheckError("grad is incorrect type")
        if gi.shape != di.shape:
            raise GradcheckError("grad is incorrect size")
    return True


class UndefinedGradBackward(Node):
    """Sends an undefined (None) gradient to its input, whatever it receives."""

    def backward(self, g: Any) -> Any:
        return None


def _undefined_grad(t: Tensor) -> Tensor:
    """An alias of ``t`` whose node sends no gradient back."""
    node = node_for(UndefinedGradBackward, t)
    return _make(t._data, t.dtype, node, t._storage, t._vc)


def _test_undefined_backward_mode(func: Callable, outputs: tuple, inputs: tuple) -> bool:
    """Backward must accept undefined output gradients (treat them as zeros)."""
    diff = _diff_inputs(inputs)
    if not diff:
        raise GradcheckError("no Tensors requiring grad found in input")

    def warn_bc_breaking() -> None:
        warnings.warn(
            "Backwards compatibility: New undefined gradient support checking feature is "
            "enabled by default, but it may break existing callers of this function. If this is "
            'true for you, you can call this function with "check_undefined_grad=False" to '
            "disable the feature", stacklevel=3,
        )

    def check(outs: list[Tensor]) -> bool:
        zeros = [_zeros_like(o) for o in outs]
        try:
            grads = autograd_grad(outs, diff, zeros, allow_unused=True)
        except RuntimeError as e:
            warn_bc_breaking()
            raise GradcheckError(
                "Expected backward function to handle undefined output grads. Please look at "
                '"Notes about undefined output gradients" in "tools/autograd/derivatives.yaml"'
            ) from e
        for gi in grads:
            if gi is not None and np.any(gi._data != 0):
                warn_bc_breaking()
                raise GradcheckError(
                    "Expected all input grads to be undefined or zero when all output grads are "
                    'undefined or zero. Please look at "Notes about undefined output gradients" '
                    'in "tools/autograd/derivatives.yaml"'
                )
        return True

    to_check = [[_undefined_grad(o) for o in _differentiable_outputs(func(*inputs))]]
    if len(to_check[0]) > 1:  # undefine one output at a time too
        for k in range(len(outputs)):
            outs = _differentiable_outputs(func(*inputs))
            to_check.append([_undefined_grad(o) if i == k else o for i, o in enumerate(outs)])
    return all(check(outs) for outs in to_check)


def _gradcheck_helper(func: Callable, inputs: Any, eps: float, atol: float, rtol: float,
                      nondet_tol: float, check_undefined_grad: bool,
                      check_grad_dtypes: bool) -> bool:
    """All of gradcheck's checks; each raises GradcheckError on failure."""
    tupled_inputs = _as_tuple(inputs)
    _check_inputs(tupled_inputs)
    func_out = func(*tupled_inputs)
    outputs = _differentiable_outputs(func_out)
    _slow_gradcheck(func, func_out, tupled_inputs, outputs, eps, rtol, atol, check_grad_dtypes,
                    nondet_tol)
    _test_backward_mul_by_grad_output(outputs, tupled_inputs)
    if check_undefined_grad:
        _test_undefined_backward_mode(func, outputs, tupled_inputs)
    return True


def _unsupported(flag: str, what: str) -> NotImplementedError:
    """The error for a check this engine cannot run."""
    return NotImplementedError(f"gradcheck: {flag}=True needs {what}, which autograd_lab does "
                               "not implement")


def gradcheck(func: Callable, inputs: Any, *, eps: float = 1e-6, atol: float = 1e-5,
              rtol: float = 1e-3, raise_exception: bool = True, nondet_tol: float = 0.0,
              check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
              check_batched_grad: bool = False, check_batched_forward_grad: bool = False,
              check_forward_ad: bool = False, check_backward_ad: bool = True,
              fast_mode: bool = False, masked: bool | None = None) -> bool:
    """True if backward's Jacobians match central finite differences (see the module doc).

    ``fast_mode`` is accepted and runs the full (slow-mode) comparison.
    """
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError(
            "Expected at least one of check_forward_ad or check_backward_ad to be True"
        )
    if check_batched_grad and not check_backward_ad:
        raise AssertionError(
            "Setting check_batched_grad=True requires check_backward_ad to be True"
        )
    if check_batched_forward_grad and not check_forward_ad:
        raise AssertionError(
            "Setting check_batched_forward_grad=True requires check_forward_ad to be True"
        )
    if check_forward_ad:
        raise _unsupported("check_forward_ad", "forward-mode AD")
    if check_batched_grad:
        raise _unsupported("check_batched_grad", "vmap")
    try:
        return _gradcheck_helper(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad,
                                 check_grad_dtypes)
    except GradcheckError:
        if raise_exception:
            raise
        return False


def gradgradcheck(func: Callable, inputs: Any, grad_outputs: Any = None, *, eps: float = 1e-6,
                  atol: float = 1e-5, rtol: float = 1e-3, gen_non_contig_grad_outputs: bool = False,
                  raise_exception: bool = True, nondet_tol: float = 0.0,
                  check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
                  check_batched_grad: bool = False, check_fwd_over_rev: bool = False,
                  check_rev_over_rev: bool = True, fast_mode: bool = False,
                  masked: bool = False) -> bool:
    """gradcheck of the gradient: checks second derivatives (backward of backward).

    Without ``grad_outputs``, random ones in [-1, 1) are drawn (from the global generator).
    """
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError(
            "Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True"
        )
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError(
            "Setting check_undefined_grad=True requires check_rev_over_rev to be True"
        )
    if check_batched_grad and not check_rev_over_rev:
        raise AssertionError(
            "Setting check_batched_grad=True requires check_rev_over_rev to be True"
        )
    tupled_inputs = _as_tuple(inputs)
    if grad_outputs is None:
        outputs = _differentiable_outputs(func(*tupled_inputs))
        tupled_grad_outputs = tuple(_random_grad_output(x) for x in outputs)
    else:
        tupled_grad_outputs = _as_tuple(grad_outputs)
    num_outputs = len(tupled_grad_outputs)
    diff_input_idx = {i for i, x in enumerate(tupled_inputs)
                      if isinstance(x, Tensor) and x.requires_grad}
    diff_grad_output_idx = {i for i, x in enumerate(tupled_grad_outputs) if x.requires_grad}

    def new_func(*args: Any) -> tuple:
        input_args = tuple(x.requires_grad_() if i in diff_input_idx else x
                           for i, x in enumerate(args[:-num_outputs]))
        outputs = _differentiable_outputs(func(*input_args))
        grad_outs = tuple(x.requires_grad_() if i in diff_grad_output_idx else x
                          for i, x in enumerate(args[-num_outputs:]))
        diff_args = tuple(x for i, x in enumerate(input_args) if i in diff_input_idx)
        grads = autograd_grad(outputs, diff_args, grad_outs, create_graph=True,
                              allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(new_func, tupled_inputs + tupled_grad_outputs, eps=eps, atol=atol,
                     rtol=rtol, raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_undefined_grad=check_undefined_grad,
                     check_grad_dtypes=check_grad_dtypes, check_batched_grad=check_batched_grad,
                     fast_mode=fast_mode, check_forward_ad=check_fwd_over_rev,
                     check_backward_ad=check_rev_over_rev, masked=masked)


def _random_grad_output(x: Tensor) -> Tensor:
    """``make_tensor(low=-1, high=1, requires_grad=True)`` for one output."""
    from ..random import uniform_

    dt = x.dtype if x.dtype.is_floating_point else float64
    t = _make(np.empty(x._data.shape, dtype=dt.np), dt, None)
    with no_grad():
        uniform_(t, -1.0, 1.0)
    t._rg = True
    return t

