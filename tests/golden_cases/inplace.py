"""In-place changes: version counters, history rewriting, CopySlices, the version-mismatch
errors for saved inputs and outputs, leaf errors, ``no_grad`` and the ``.data`` trap."""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


# ---- version counters ------------------------------------------------------------------------

case("version_sequence_from_facts", """
    x = torch.tensor([1.0, 2.0, 3.0])
    v = [x._version]
    x.add_(1)
    v.append(x._version)
    x[0] = 5.0
    v.append(x._version)
    x.data.add_(1)
    v.append(x._version)
    result = (v, x)
""")
case("version_every_inplace_method", """
    x = torch.tensor([0.5, 1.0, 2.0])
    versions = []
    for f in (lambda: x.add_(1), lambda: x.sub_(1), lambda: x.mul_(2), lambda: x.div_(2),
              lambda: x.pow_(1), lambda: x.neg_(), lambda: x.abs_(), lambda: x.exp_(),
              lambda: x.log_(), lambda: x.sqrt_(), lambda: x.sin_(), lambda: x.cos_(),
              lambda: x.tanh_(), lambda: x.sigmoid_(), lambda: x.relu_(), lambda: x.clamp_(0, 1),
              lambda: x.clamp_min_(0), lambda: x.clamp_max_(1), lambda: x.clip_(0, 1),
              lambda: x.zero_(), lambda: x.fill_(2), lambda: x.copy_(torch.ones(3))):
        f()
        versions.append(x._version)
    result = (versions, x)
""")
case("version_augmented_assignment", """
    x = torch.tensor([1.0, 2.0])
    v = []
    x += 1
    v.append(x._version)
    x -= 1
    v.append(x._version)
    x *= 3
    v.append(x._version)
    x /= 3
    v.append(x._version)
    x **= 2
    v.append(x._version)
    result = (v, x)
""")
case("version_item_assignment_forms", """
    x = torch.zeros(3, 4)
    v = []
    x[0] = 1.0
    v.append(x._version)
    x[:, 1] = torch.tensor([1.0, 2.0, 3.0])
    v.append(x._version)
    x[1, 2] = 7
    v.append(x._version)
    x[x > 2] = -1.0
    v.append(x._version)
    x[[0, 2]] = 9.0
    v.append(x._version)
    x[...] = 0.5
    v.append(x._version)
    result = (v, x)
""")
case("version_shared_with_views", """
    x = torch.zeros(2, 3)
    a = x[0]
    b = x.view(6)
    c = x.t()
    a.add_(1)
    b[5] = 2.0
    result = ([t._version for t in (x, a, b, c)], x)
""")
case("version_detach_shared_data_not", """
    x = torch.zeros(3)
    d = x.detach()
    dd = x.data
    d.add_(1)
    dd.add_(1)
    result = (x._version, d._version, dd._version, x)
""")
case("version_out_of_place_unchanged", """
    x = torch.zeros(3)
    y = x + 1
    z = x.view(3)
    w = x.clone()
    w.add_(1)
    result = (x._version, y._version, z._version, w._version)
""")
case("version_of_grad_accumulation", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).sum().backward()
    v1 = x.grad._version
    (x * 2).sum().backward()
    result = (v1, x.grad._version, x._version)
""")

# ---- rewriting history on non-leaves ----------------------------------------------------------

INPLACE = {
    "add_": ("h.add_(torch.tensor([1.0, 2.0, 3.0]))", "AddBackward0"),
    "add_scalar": ("h.add_(1)", "AddBackward0"),
    "sub_": ("h.sub_(w)", "SubBackward0"),
    "mul_": ("h.mul_(w)", "MulBackward0"),
    "mul_scalar": ("h.mul_(3)", "MulBackward0"),
    "div_": ("h.div_(w)", "DivBackward0"),
    "pow_": ("h.pow_(2)", "PowBackward0"),
    "pow_tensor": ("h.pow_(w)", "PowBackward1"),
    "neg_": ("h.neg_()", "NegBackward0"),
    "exp_": ("h.exp_()", "ExpBackward0"),
    "log_": ("h.log_()", "LogBackward0"),
    "sin_": ("h.sin_()", "SinBackward0"),
    "cos_": ("h.cos_()", "CosBackward0"),
    "tanh_": ("h.tanh_()", "TanhBackward0"),
    "sigmoid_": ("h.sigmoid_()", "SigmoidBackward0"),
    "relu_": ("h.relu_()", "ReluBackward0"),
    "abs_": ("h.abs_()", "AbsBackward0"),
    "sqrt_": ("h.sqrt_()", "SqrtBackward0"),
    "clamp_": ("h.clamp_(1.0, 3.0)", "ClampBackward1"),
    "clamp_min_": ("h.clamp_min_(2.0)", "ClampMinBackward0"),
    "clamp_max_": ("h.clamp_max_(2.0)", "ClampMaxBackward0"),
    "zero_": ("h.zero_()", "ZeroBackward0"),
    "fill_": ("h.fill_(2.0)", "FillBackward0"),
    "copy_": ("h.copy_(w)", "CopyBackwards"),
    "copy_constant": ("h.copy_(torch.tensor([7.0, 8.0, 9.0]))", "CopyBackwards"),
    "iadd": ("h += w", "AddBackward0"),
    "isub": ("h -= 1", "SubBackward0"),
    "imul": ("h *= w", "MulBackward0"),
    "itruediv": ("h /= 2", "DivBackward0"),
    "ipow": ("h **= 3", "PowBackward0"),
}
for name, (stmt, _node) in INPLACE.items():
    case(f"nonleaf_{name}", f"""
        x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
        w = torch.tensor([2.0, 3.0, 4.0], requires_grad=True)
        h = x * 1
        old = h.grad_fn
        {stmt}
        h.backward(torch.tensor([1.0, 2.0, 3.0]))
        result = (h, x.grad, w.grad, h.grad_fn.next_functions[0][0] is old, h._version, h.is_leaf)
    """)
    case(f"leaf_error_{name}", f"""
        h = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
        w = torch.tensor([2.0, 3.0, 4.0])
        {stmt}
        result = h
    """)
    case(f"leaf_no_grad_{name}", f"""
        h = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
        w = torch.tensor([2.0, 3.0, 4.0])
        with torch.no_grad():
            {stmt}
        result = (h, h._version, h.is_leaf, h.requires_grad)
    """)
    case(f"constant_with_grad_operand_{name}", f"""
        h = torch.tensor([0.5, 1.0, 2.0])
        w = torch.tensor([2.0, 3.0, 4.0], requires_grad=True)
        {stmt}
        result = (h, h.requires_grad, h.is_leaf, h._version)
    """)

case("inplace_returns_self", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    r = h.mul_(2)
    result = (r is h, r)
""")
case("inplace_chain_grad", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 0.5
    h.add_(1).mul_(0.5).exp_()
    h.sum().backward()
    result = (h, x.grad, h._version)
""")
case("inplace_on_leaf_data_ok", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.data.mul_(2)
    y = (x * x).sum()
    y.backward()
    result = (x, x.grad, x._version)
""")
case("inplace_dtype_promotion_on_grad_tensor", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    h.add_(torch.tensor([1, 2]))
    h.mul_(torch.tensor([2.0, 2.0], dtype=torch.float64))
    h.sum().backward()
    result = (h, x.grad)
""")

# ---- version mismatch errors --------------------------------------------------------------------

case("modified_saved_output_sigmoid", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.sigmoid()
    y.mul_(2)
    y.sum().backward()
    result = x.grad
""")
case("modified_saved_output_exp_add", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.exp()
    y.add_(1)
    y.sum().backward()
    result = x.grad
""")
case("modified_saved_output_item_assignment", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.sigmoid()
    y[0] = 0.0
    y.sum().backward()
    result = x.grad
""")
case("modified_saved_input_add_output", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x + 0
    y = h * h
    h.add_(1)
    y.sum().backward()
    result = x.grad
""")
case("modified_saved_input_mul_output", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x * 1
    y = h.sin()
    h.mul_(2)
    y.sum().backward()
    result = x.grad
""")
case("modified_saved_leaf", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * x
    with torch.no_grad():
        x.add_(1)
    y.sum().backward()
    result = x.grad
""")
case("modified_saved_constant", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    c = torch.tensor([4.0, 5.0, 6.0])
    y = x * c
    c.add_(1)
    y.sum().backward()
    result = x.grad
""")
case("modified_unsaved_constant_ok", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    c = torch.tensor([4.0, 5.0, 6.0])
    y = x + c
    c.add_(1)
    y.sum().backward()
    result = x.grad
""")
case("modified_saved_2d_float64", """
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, requires_grad=True)
    h = x.tanh()
    h.zero_()
    h.sum().backward()
    result = x.grad
""")
case("modified_saved_int_version_two", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.exp()
    y.add_(1)
    y.add_(1)
    y.sum().backward()
    result = x.grad
""")
case("modified_saved_view_base", """
    x = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    h = x + 0
    y = h.t() @ h
    h.add_(1)
    y.sum().backward()
    result = x.grad
""")
case("modified_saved_via_view", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x * 1
    y = h * h
    h[1:].mul_(2)
    y.sum().backward()
    result = x.grad
""")
case("modified_saved_0d", """
    x = torch.tensor(2.0, requires_grad=True)
    y = x.exp()
    y += 1
    y.backward()
    result = x.grad
""")
case("modified_saved_int_tensor_operand", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    c = torch.tensor([3, 4])
    y = x * c
    c.add_(1)
    y.sum().backward()
    result = x.grad
""")
case("modified_but_saved_by_other_branch_ok", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    y = h + 1
    h.add_(5)
    (y.sum() + h.sum()).backward()
    result = (x.grad, h, y)
""")
case("modified_error_read_saved_attr", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.add_(1)
    result = y.grad_fn.next_functions[0][0]._saved_result
""")
case("modified_error_autograd_grad", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    z = y.sum()
    y.mul_(2)
    result = torch.autograd.grad(z, x)
""")
case("data_trap_silent_wrong_grad", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.exp()
    y.data.zero_()
    y.sum().backward()
    result = (x.grad, y._version)
""")
case("data_trap_leaf", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * x
    x.data.zero_()
    y.sum().backward()
    result = (x.grad, x._version)
""")
case("detach_inplace_is_caught", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.exp()
    y.detach().zero_()
    y.sum().backward()
    result = x.grad
""")

# ---- leaves and views of leaves -------------------------------------------------------------

case("leaf_iadd_error", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x += 1
    result = x
""")
case("leaf_add_error", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.add_(1)
    result = x
""")
case("leaf_item_assignment_error", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x[0] = 5.0
    result = x
""")
case("leaf_slice_assignment_error", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x[:1] = 5.0
    result = x
""")
case("leaf_mask_assignment_error", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x[x > 1] = 5.0
    result = x
""")
case("leaf_index_list_assignment_error", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x[[0]] = 5.0
    result = x
""")
case("leaf_view_inplace_error", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    v = x[1:]
    v.mul_(2)
    result = x
""")
case("leaf_view_method_inplace_error", """
    x = torch.tensor([[1.0, 2.0]], requires_grad=True)
    v = x.view(2)
    v.zero_()
    result = x
""")
case("leaf_detach_inplace_ok", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.detach().mul_(2)
    result = (x, x._version)
""")
case("leaf_no_requires_grad_ok", """
    x = torch.tensor([1.0, 2.0])
    x += 1
    x[0] = 7.0
    x.mul_(2)
    result = (x, x._version, x.is_leaf)
""")
case("leaf_no_grad_item_assignment", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.no_grad():
        x[0] = 5.0
        x[x > 1] = 3.0
        x[1:] += 1
    result = (x, x._version, x.requires_grad)
""")
case("leaf_error_keeps_version", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    try:
        x.add_(1)
    except RuntimeError as e:
        print(e)
    result = (x, x._version)
""")
case("sgd_step_in_no_grad", """
    w = torch.tensor([1.0, -1.0], requires_grad=True)
    for _ in range(3):
        loss = ((w - 2) ** 2).sum()
        loss.backward()
        with torch.no_grad():
            w -= 0.25 * w.grad
        w.grad = None
    result = (w, w._version, w.is_leaf)
""")
case("sgd_step_grad_zero", """
    w = torch.tensor([1.0, -1.0], requires_grad=True)
    for _ in range(2):
        loss = (w * w).sum()
        loss.backward()
        with torch.no_grad():
            w.sub_(0.1 * w.grad)
        w.grad.zero_()
    result = (w, w.grad)
""")

# ---- item assignment on non-leaves: CopySlices ------------------------------------------------

case("copyslices_basic", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x * 2
    h[0] = 5.0
    h.sum().backward()
    result = (h, x.grad, h.grad_fn, h.grad_fn.next_functions, h._version, h.grad_fn.name())
""")
case("copyslices_value_requires_grad", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = torch.tensor(10.0, requires_grad=True)
    h = x * 2
    h[1] = v
    h.backward(torch.tensor([1.0, 2.0, 3.0]))
    result = (h, x.grad, v.grad, h.grad_fn.next_functions)
""")
case("copyslices_value_tensor_broadcast", """
    x = torch.zeros(2, 3, requires_grad=True)
    v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x + 1
    h[1:] = v
    (h * torch.arange(6.0).reshape(2, 3)).sum().backward()
    result = (h, x.grad, v.grad)
""")
case("copyslices_slice_value", """
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    h = x.exp()
    h[1:3] = torch.tensor([0.0, 0.0])
    h.sum().backward()
    result = (h, x.grad)
""")
case("copyslices_view_inplace", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x * 2
    v = h[1:]
    v.mul_(3)
    h.sum().backward()
    result = (h, v, x.grad, h.grad_fn, v.grad_fn, v.grad_fn.next_functions, h.grad_fn.next_functions)
""")
case("copyslices_view_inplace_grad_through_view", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x * 2
    v = h[1:]
    v.mul_(3)
    v.sum().backward()
    result = (v, x.grad)
""")
case("copyslices_view_exp_inplace", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x * 1
    h[:2].exp_()
    h.backward(torch.tensor([1.0, 2.0, 3.0]))
    result = (h, x.grad)
""")
case("copyslices_transpose_view", """
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    h = x * 1
    h.t()[0].mul_(10)
    h.backward(torch.ones(2, 3))
    result = (h, x.grad)
""")
case("copyslices_select_row_with_other_grad", """
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    w = torch.tensor([10.0, 20.0], requires_grad=True)
    h = x * 1
    h[0].mul_(w)
    h.sum().backward()
    result = (h, x.grad, w.grad)
""")
case("copyslices_mask_assignment", """
    x = torch.tensor([-1.0, 2.0, -3.0], requires_grad=True)
    h = x * 2
    h[h < 0] = 0.0
    h.sum().backward()
    result = (h, x.grad, h.grad_fn)
""")
case("copyslices_index_list_assignment", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x * 2
    h[[0, 2]] = torch.tensor([7.0, 8.0])
    h.sum().backward()
    result = (h, x.grad, h.grad_fn, h.grad_fn.next_functions)
""")
case("copyslices_index_list_value_grad", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = torch.tensor([7.0, 8.0], requires_grad=True)
    h = x * 2
    h[[0, 2]] = v
    h.backward(torch.tensor([1.0, 2.0, 3.0]))
    result = (h, x.grad, v.grad)
""")
case("copyslices_constant_base_grad_value", """
    h = torch.zeros(3)
    v = torch.tensor(5.0, requires_grad=True)
    h[1] = v
    (h * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    result = (h, v.grad, h.grad_fn, h.is_leaf, h.requires_grad)
""")
case("copyslices_twice", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x * 2
    h[0] = 5.0
    h[2] = 6.0
    h.sum().backward()
    result = (h, x.grad, h.grad_fn.next_functions, h._version)
""")
case("copyslices_then_op", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x * 2
    h[0] = 5.0
    y = (h * h).sum()
    y.backward()
    result = (y, x.grad)
""")
case("copyslices_augmented_on_slice", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x * 2
    h[1:] += 10
    h.sum().backward()
    result = (h, x.grad, h.grad_fn)
""")
case("copyslices_saved_input_modified_by_item", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x * 1
    y = h.exp()
    h[0] = 2.0
    y.sum().backward()
    result = (x.grad, h)
""")
case("copyslices_saved_output_modified_by_item", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.exp()
    y[0] = 2.0
    y.sum().backward()
    result = x.grad
""")
case("setitem_int_tensor_value", """
    x = torch.zeros(3)
    x[0] = 2
    x[1] = torch.tensor(3)
    x[2] = True
    result = x
""")
case("setitem_on_int_tensor", """
    x = torch.zeros(3, dtype=torch.int64)
    x[0] = 2.7
    x[1:] = torch.tensor([1.5, -1.5])
    result = x
""")
case("setitem_shape_error", """
    x = torch.zeros(3)
    x[:2] = torch.tensor([1.0, 2.0, 3.0])
    result = x
""")
case("setitem_index_error", """
    x = torch.zeros(3)
    x[3] = 1.0
    result = x
""")
case("setitem_view_updates_base", """
    x = torch.zeros(2, 3)
    r = x[1]
    r[0] = 4.0
    c = x[:, 2]
    c += 1
    result = (x, r, c, x._version)
""")
