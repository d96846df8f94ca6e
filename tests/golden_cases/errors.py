"""Every error and warning of the reference facts, and bad input of every kind: the
exception type and exact text, and what was (or was not) changed before it was raised."""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


def raises(name: str, expr: str) -> None:
    """A case whose single expression is expected to raise."""
    case(name, f"result = {expr}\n")


# ---- the reference facts, one case each -----------------------------------------------------

case("fact01_backward_twice", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    y.backward()
""")
case("fact01_saved_after_free", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.exp()
    y.sum().backward()
    result = y.grad_fn._saved_result
""")
case("fact02_output_of_sigmoid", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = torch.sigmoid(x)
    y.mul_(2)
    y.sum().backward()
""")
case("fact02_output_of_add", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    a = x + 1
    b = a * a
    a.add_(1)
    b.sum().backward()
""")
case("fact02_output_of_exp", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.exp()
    y.add_(1)
    y.sum().backward()
""")
case("fact02_leaf", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x * x).sum()
    with torch.no_grad():
        x.mul_(2)
    y.backward()
""")
case("fact03_leaf_iadd", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x += 1
""")
case("fact03_leaf_add_", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x.add_(1)
""")
case("fact03_weight_isub", """
    weight = torch.ones(2, 3, requires_grad=True)
    weight -= 0.1
""")
case("fact03_view_of_leaf_item", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x[0] = 5.0
""")
case("fact03_allowed_under_no_grad", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with torch.no_grad():
        x += 1
        x[0] = 5.0
        x.add_(1)
    result = x
""")
case("fact04_implicit_non_scalar", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * 2).backward()
""")
case("fact04_shape_mismatch", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * 2).backward(torch.tensor([1.0, 1.0]))
""")
case("fact04_shape_mismatch_2d", """
    x = torch.ones(2, 3, requires_grad=True)
    (x * 2).backward(torch.ones(3, 2))
""")
case("fact05_numpy_requires_grad", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x.numpy()
""")
case("fact05_numpy_of_non_leaf", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * 2).numpy()
""")
case("fact05_detach_numpy_ok", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    result = (x * 2).detach().numpy()
""")
case("fact06_no_grad_fn", """
    x = torch.tensor([1.0, 2.0, 3.0])
    x.sum().backward()
""")
case("fact06_no_grad_fn_under_no_grad", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with torch.no_grad():
        y = (x * 2).sum()
    y.backward()
""")
case("fact06_no_grad_fn_second_root", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    torch.autograd.backward([(x * 2).sum(), torch.tensor(1.0)])
""")
case("fact07_unused_index_1", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    torch.autograd.grad((a * 2).sum(), [a, b])
""")
case("fact07_unused_index_0", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    torch.autograd.grad((b * 2).sum(), [a, b])
""")
case("fact08_requires_grad_non_leaf", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y.requires_grad = False
""")
case("fact08_requires_grad_method_non_leaf", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * 2).requires_grad_(False)
""")
case("fact09_factory_int", """
    torch.tensor([1, 2, 3], requires_grad=True)
""")
case("fact09_factory_zeros_long", """
    torch.zeros(3, dtype=torch.long, requires_grad=True)
""")
case("fact09_method_int", """
    torch.tensor([1, 2, 3]).requires_grad_()
""")
case("fact09_setter_int", """
    x = torch.tensor([1, 2, 3])
    x.requires_grad = True
""")
case("fact10_retain_grad", """
    torch.tensor([1.0, 2.0]).retain_grad()
""")
case("fact10_register_hook", """
    torch.tensor([1.0, 2.0]).register_hook(lambda g: g)
""")
case("fact10_item_many", """
    torch.tensor([1.0, 2.0, 3.0, 4.0]).item()
""")
case("fact10_item_empty", """
    torch.tensor([]).item()
""")
case("fact10_item_2d", """
    torch.ones(2, 3).item()
""")
case("fact12_broadcast", """
    torch.ones(3) + torch.ones(4)
""")
case("fact12_broadcast_dim1", """
    torch.ones(2, 3) * torch.ones(2, 4)
""")
case("fact12_matmul", """
    torch.ones(2, 3) @ torch.ones(2, 3)
""")
case("warning_non_leaf_grad", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.sum().backward()
    result = y.grad
""")
case("warning_non_leaf_grad_no_backward", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    result = (x * 2).sum().grad
""")
case("warning_no_grad_for_leaf_or_retained", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    c = torch.tensor([1.0])
    result = (x.grad, y.grad, c.grad)
""")
case("warning_create_graph_backward", """
    x = torch.tensor(2.0, requires_grad=True)
    (x ** 2).backward(create_graph=True)
    result = x.grad
""")
case("warning_T_on_1d_no_warning", """
    result = torch.ones(3).T
""")
case("warning_T_on_3d", """
    result = torch.ones(2, 3, 4).T.shape
""")
case("warning_tensor_of_tensor", """
    result = torch.tensor(torch.ones(2))
""")
case("warning_std_dof", """
    result = torch.tensor([1.0]).std()
""")
case("warning_var_dof", """
    result = torch.ones(2, 1).var(1)
""")

# ---- shapes and dims --------------------------------------------------------------------------

for name, expr in {
    "broadcast_three_dims": "torch.ones(2, 3, 4) + torch.ones(3, 3, 4)",
    "broadcast_sub": "torch.ones(5) - torch.ones(2)",
    "broadcast_div": "torch.ones(2, 2) / torch.ones(3)",
    "broadcast_pow": "torch.ones(2) ** torch.ones(3)",
    "broadcast_where": "torch.where(torch.ones(2, dtype=torch.bool), torch.ones(3), torch.ones(3))",
    "broadcast_maximum": "torch.maximum(torch.ones(2), torch.ones(3))",
    "broadcast_eq": "torch.ones(2) == torch.ones(3)",
    "sum_dim_out_of_range": "torch.ones(2, 3).sum(dim=3)",
    "sum_dim_negative_out_of_range": "torch.ones(2, 3).sum(dim=-3)",
    "mean_dim_out_of_range": "torch.ones(2, 3).mean(5)",
    "max_dim_out_of_range": "torch.ones(2, 3).max(dim=2)",
    "argmax_dim_out_of_range": "torch.ones(2, 3).argmax(dim=2)",
    "softmax_dim_out_of_range": "torch.ones(2, 3).softmax(dim=2)",
    "unsqueeze_dim_out_of_range": "torch.ones(2, 3).unsqueeze(4)",
    "squeeze_dim_out_of_range": "torch.ones(2, 3).squeeze(2)",
    "transpose_dim_out_of_range": "torch.ones(2, 3).transpose(0, 3)",
    "select_dim_out_of_range": "torch.ones(2, 3).select(2, 0)",
    "cat_dim_out_of_range": "torch.cat([torch.ones(2, 3)], dim=2)",
    "stack_dim_out_of_range": "torch.stack([torch.ones(2)], dim=3)",
    "flatten_dim_out_of_range": "torch.ones(2, 3).flatten(0, 2)",
    "size_dim_out_of_range": "torch.ones(2, 3).size(-3)",
    "stride_dim_out_of_range": "torch.ones(2, 3).stride(2)",
    "sum_on_0d_dim_1": "torch.tensor(1.0).sum(1)",
    "var_dim_out_of_range": "torch.ones(2, 3).var(2)",
    "logsumexp_dim_out_of_range": "torch.ones(2, 3).logsumexp(2)",
    "view_wrong_numel": "torch.ones(2, 3).view(4)",
    "view_non_contiguous": "torch.ones(2, 3).t().view(6)",
    "reshape_wrong_numel": "torch.ones(2, 3).reshape(2, 2)",
    "reshape_negative_dim": "torch.ones(6).reshape(-2, 3)",
    "view_two_minus_ones": "torch.ones(6).view(-1, -1)",
    "expand_wrong_size": "torch.ones(2, 3).expand(4, 3)",
    "expand_fewer_sizes": "torch.ones(2, 3).expand(3)",
    "expand_negative_new_dim": "torch.ones(3).expand(-1, 3)",
    "permute_wrong_length": "torch.ones(2, 3).permute(1, 0, 2)",
    "permute_repeated": "torch.ones(2, 3).permute(1, 1)",
    "t_on_3d": "torch.ones(2, 3, 4).t()",
    "mT_on_1d": "torch.ones(3).mT",
    "repeat_too_few": "torch.ones(2, 3).repeat(2)",
    "narrow_too_long": "torch.ones(3).narrow(0, 1, 5)",
    "narrow_negative_length": "torch.ones(3).narrow(0, 1, -1)",
    "split_zero": "torch.ones(3).split(0)",
    "chunk_zero": "torch.ones(3).chunk(0)",
    "unflatten_wrong": "torch.ones(6).unflatten(0, (4, 2))",
    "cat_mismatch": "torch.cat([torch.ones(2, 3), torch.ones(2, 4)])",
    "cat_mismatch_dim1": "torch.cat([torch.ones(2, 3), torch.ones(3, 3)], dim=1)",
    "cat_rank_mismatch": "torch.cat([torch.ones(2, 3), torch.ones(3)])",
    "stack_mismatch": "torch.stack([torch.ones(2, 3), torch.ones(3, 2)])",
    "mm_inner_mismatch": "torch.mm(torch.ones(2, 3), torch.ones(4, 2))",
    "mm_vector": "torch.mm(torch.ones(3), torch.ones(3, 2))",
    "mm_second_vector": "torch.mm(torch.ones(2, 3), torch.ones(3))",
    "mv_wrong_rank": "torch.mv(torch.ones(3), torch.ones(3))",
    "mv_mismatch": "torch.mv(torch.ones(2, 3), torch.ones(4))",
    "dot_mismatch": "torch.dot(torch.ones(3), torch.ones(4))",
    "dot_2d": "torch.dot(torch.ones(2, 2), torch.ones(2, 2))",
    "bmm_batch_mismatch": "torch.bmm(torch.ones(2, 2, 3), torch.ones(3, 3, 2))",
    "bmm_inner_mismatch": "torch.bmm(torch.ones(2, 2, 3), torch.ones(2, 4, 2))",
    "bmm_2d": "torch.bmm(torch.ones(2, 3), torch.ones(2, 3, 2))",
    "matmul_vector_mismatch": "torch.ones(3) @ torch.ones(4)",
    "matmul_matrix_vector_mismatch": "torch.ones(2, 3) @ torch.ones(4)",
    "matmul_vector_matrix_mismatch": "torch.ones(4) @ torch.ones(3, 2)",
    "matmul_batched_mismatch": "torch.ones(2, 2, 3) @ torch.ones(2, 4, 2)",
    "matmul_batched_broadcast_fail": "torch.ones(2, 2, 3) @ torch.ones(3, 3, 2)",
    "matmul_0d": "torch.ones(3) @ torch.tensor(2.0)",
    "trace_3d": "torch.trace(torch.ones(2, 2, 2))",
    "outer_2d": "torch.outer(torch.ones(2, 2), torch.ones(2))",
}.items():
    raises(name, expr)

# ---- dtypes ------------------------------------------------------------------------------------

for name, expr in {
    "mm_float_long": "torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.long)",
    "mm_float_double": "torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.float64)",
    "mv_float_double": "torch.ones(2, 2) @ torch.ones(2, dtype=torch.float64)",
    "dot_float_double": "torch.ones(2) @ torch.ones(2, dtype=torch.float64)",
    "bmm_float_double": "torch.ones(1, 2, 2) @ torch.ones(1, 2, 2, dtype=torch.float64)",
    "mean_long": "torch.tensor([1, 2]).mean()",
    "mean_long_dim": "torch.tensor([[1, 2]]).mean(1)",
    "var_long": "torch.tensor([1, 2]).var()",
    "std_long": "torch.tensor([1, 2]).std()",
    "softmax_long": "torch.tensor([1, 2]).softmax(0)",
    "log_softmax_long": "torch.tensor([1, 2]).log_softmax(0)",
    "neg_bool": "-torch.tensor([True, False])",
    "sub_bool": "torch.tensor([True]) - torch.tensor([False])",
    "sub_bool_scalar": "torch.tensor([True]) - 1",
    "rsub_bool": "1 - torch.tensor([True])",
    "abs_bool": "torch.tensor([True]).abs()",
    "relu_bool": "torch.tensor([True]).relu()",
    "bitwise_and_float": "torch.tensor([1.0]) & torch.tensor([1.0])",
    "bitwise_or_float_int": "torch.tensor([1.0]) | torch.tensor([1])",
    "bitwise_xor_float_scalar": "torch.tensor([1]) ^ 1.5",
    "invert_float": "~torch.tensor([1.5])",
    "int_pow_negative": "torch.tensor([2]) ** -2",
    "int_pow_negative_tensor": "torch.tensor([2]) ** torch.tensor([-2])",
    "where_condition_float": "torch.where(torch.tensor([1.0, 0.0]), torch.ones(2), torch.zeros(2))",
    "index_with_float_tensor": "torch.ones(3)[torch.tensor([0.0, 1.0])]",
    "index_with_float_list": "torch.ones(3)[[0.0, 1.0]]",
    "index_with_float": "torch.ones(3)[1.5]",
    "inplace_add_float_into_long": "torch.tensor([1, 2]).add_(0.5)",
    "inplace_div_long": "torch.tensor([1, 2]).div_(2)",
    "inplace_mul_float_into_bool": "torch.tensor([True]).mul_(1.5)",
    "inplace_add_long_into_bool": "torch.tensor([True]).add_(torch.tensor([2]))",
    "inplace_sqrt_long": "torch.tensor([4]).sqrt_()",
    "inplace_exp_long": "torch.tensor([4]).exp_()",
    "set_default_dtype_int": "torch.set_default_dtype(torch.int64)",
    "from_numpy_bad_dtype": "torch.from_numpy(np.array(['a']))",
    "from_numpy_not_array": "torch.from_numpy([1, 2])",
    "tensor_of_strings": "torch.tensor(['a', 'b'])",
    "tensor_of_none": "torch.tensor(None)",
    "tensor_ragged": "torch.tensor([[1, 2], [3]])",
    "tensor_of_dict": "torch.tensor({'a': 1})",
    "tensor_mixed_list_tensor_ragged": "torch.tensor([torch.ones(2), torch.ones(3)])",
}.items():
    raises(name, expr)

# ---- factories ----------------------------------------------------------------------------------

for name, expr in {
    "zeros_negative": "torch.zeros(-1)",
    "zeros_negative_2d": "torch.zeros(2, -3)",
    "zeros_float_size": "torch.zeros(2.5)",
    "ones_string_size": "torch.ones('a')",
    "arange_zero_step": "torch.arange(0, 5, 0)",
    "arange_wrong_sign": "torch.arange(0, 5, -1)",
    "linspace_negative_steps": "torch.linspace(0, 1, -1)",
    "full_no_fill": "torch.full((2,))",
    "eye_negative": "torch.eye(-1)",
    "randn_negative": "torch.randn(-2)",
    "device_cuda": "torch.zeros(2, device='cuda')",
    "device_bogus": "torch.zeros(2, device='bogus')",
    "tensor_cuda_method": "torch.zeros(2).cuda()",
}.items():
    raises(name, expr)
case("factory_edge_values", """
    result = (torch.zeros(0), torch.zeros(2, 0), torch.ones(()), torch.zeros([]),
              torch.arange(0), torch.arange(5, 0, -2), torch.arange(0.0, 1.0, 0.25),
              torch.linspace(0, 1, 1), torch.linspace(0, 1, 0), torch.eye(2, 3),
              torch.full((2,), True), torch.full((1,), 7), torch.full((1,), 2.5))
""")

# ---- conversion and scalars -------------------------------------------------------------------

for name, expr in {
    "item_two_elements": "torch.tensor([1.0, 2.0]).item()",
    "float_of_vector": "float(torch.ones(2))",
    "int_of_vector": "int(torch.ones(3))",
    "bool_of_vector": "bool(torch.ones(2))",
    "bool_of_empty": "bool(torch.ones(0))",
    "len_of_0d": "len(torch.tensor(1.0))",
    "iter_0d": "iter(torch.tensor(1.0))",
    "index_python_list_with_float": "[1, 2][torch.tensor(1.0)]",
    "index_python_list_with_vector": "[1, 2][torch.tensor([1])]",
    "numpy_grad": "torch.ones(2, requires_grad=True).numpy()",
    "np_asarray_grad": "np.asarray(torch.ones(2, requires_grad=True))",
    "format_vector": "f'{torch.ones(2):.2f}'",
}.items():
    raises(name, expr)
case("format_0d_ok", """
    x = torch.tensor(3.14159)
    result = (f'{x:.2f}', f'{x}', '{:>8.3f}'.format(torch.tensor(2.5)), f'{torch.tensor(3):d}')
""")
case("if_on_vector", """
    x = torch.tensor([1.0, 2.0])
    if x > 1:
        print('yes')
""")
case("while_on_0d_ok", """
    x = torch.tensor(3.0)
    n = 0
    while x > 0:
        x = x - 1
        n += 1
    result = (n, x)
""")

# ---- indexing ---------------------------------------------------------------------------------

for name, expr in {
    "index_out_of_bounds": "torch.ones(3)[3]",
    "index_negative_out_of_bounds": "torch.ones(3)[-4]",
    "index_second_dim_out_of_bounds": "torch.ones(2, 3)[:, 3]",
    "index_too_many_indices": "torch.ones(3)[0, 0]",
    "index_0d_int": "torch.tensor(2.0)[0]",
    "index_list_out_of_bounds": "torch.ones(3)[[0, 3]]",
    "index_tensor_out_of_bounds": "torch.ones(3)[torch.tensor([5])]",
    "index_mask_wrong_shape": "torch.ones(3)[torch.tensor([True, False])]",
    "index_mask_2d_wrong_shape": "torch.ones(2, 3)[torch.ones(3, 2, dtype=torch.bool)]",
    "index_two_ellipsis": "torch.ones(2, 3)[..., ...]",
    "index_string_key": "torch.ones(3)['x']",
    "index_none_tensor_mix_out": "torch.ones(2, 3)[None, 2]",
    "index_step_zero": "torch.ones(3)[::0]",
    "index_step_negative": "torch.ones(3)[::-1]",
    "select_index_out_of_range": "torch.ones(2, 3).select(0, 2)",
    "setitem_out_of_bounds": "torch.ones(3).__setitem__(3, 0.0)",
    "setitem_shape_mismatch": "torch.ones(3).__setitem__(slice(0, 2), torch.ones(3))",
    "setitem_string": "torch.ones(3).__setitem__(0, 'a')",
}.items():
    raises(name, expr)

# ---- autograd misuse --------------------------------------------------------------------------

case("grad_on_non_requires_grad_input", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    c = torch.tensor([1.0, 2.0])
    torch.autograd.grad((x * c).sum(), [x, c])
""")
case("grad_non_scalar_output", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    torch.autograd.grad(x * 2, x)
""")
case("grad_outputs_shape_mismatch", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    torch.autograd.grad(x * 2, x, grad_outputs=torch.ones(3))
""")
case("grad_outputs_count_mismatch", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    torch.autograd.grad([(x * 2).sum(), (x * 3).sum()], x, grad_outputs=[torch.tensor(1.0)])
""")
case("backward_gradient_not_tensor", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).backward([1.0, 1.0])
""")
case("backward_grad_tensors_count_mismatch", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    torch.autograd.backward([(x * 2).sum(), (x * 3).sum()], [torch.tensor(1.0)])
""")
case("backward_twice_through_shared_sum", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x.exp()
    h.sum().backward()
    (h * 2).sum().backward()
""")
case("backward_after_graph_freed_partially", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x.sigmoid()
    y = h.sum()
    y.backward()
    h.sum().backward()
""")
case("backward_error_then_state", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    try:
        y.backward()
    except RuntimeError as e:
        print(type(e).__name__)
    result = (x.grad, torch.is_grad_enabled())
""")
case("hook_raises", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    def hook(g):
        raise ValueError('hook failed')
    y.register_hook(hook)
    y.sum().backward()
""")
case("hook_raises_grad_mode_restored", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: 1 / 0)
    try:
        y.sum().backward()
    except ZeroDivisionError as e:
        print('caught', e)
    result = (torch.is_grad_enabled(), x.grad)
""")
case("hook_returns_wrong_type", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: 'oops')
    y.sum().backward()
""")
case("retain_grad_non_requires_grad", """
    torch.ones(2).retain_grad()
""")
case("detach_view_inplace", """
    x = torch.ones(2, 3, requires_grad=True)
    v = x[0]
    v.detach_()
""")
case("grad_assign_mismatch_shape", """
    x = torch.ones(2, requires_grad=True)
    x.grad = torch.ones(3)
""")
case("grad_assign_mismatch_dtype", """
    x = torch.ones(2, requires_grad=True)
    x.grad = torch.ones(2, dtype=torch.float64)
""")
case("grad_assign_list", """
    x = torch.ones(2, requires_grad=True)
    x.grad = [1.0, 1.0]
""")
case("deepcopy_non_leaf", """
    import copy
    x = torch.ones(2, requires_grad=True)
    copy.deepcopy(x * 2)
""")
case("deepcopy_leaf_ok", """
    import copy
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = copy.deepcopy(x)
    result = (y, y is x, y.requires_grad, y.data_ptr() == x.data_ptr())
""")

# ---- wrong argument types ----------------------------------------------------------------------

for name, expr in {
    "add_string": "torch.ones(2) + 'a'",
    "add_list": "torch.add(torch.ones(2), [1, 2])",
    "mul_none": "torch.ones(2) * None",
    "radd_string": "'a' + torch.ones(2)",
    "exp_of_list": "torch.exp([1.0])",
    "exp_of_number": "torch.exp(1.0)",
    "sum_of_list": "torch.sum([1.0, 2.0])",
    "matmul_with_list": "torch.ones(2) @ [1.0, 2.0]",
    "cat_of_tensor": "torch.cat(torch.ones(2, 2))",
    "view_with_float": "torch.ones(4).view(2.0, 2)",
    "reshape_with_string": "torch.ones(4).reshape('a')",
    "clamp_no_bounds": "torch.ones(2).clamp()",
    "pow_string": "torch.ones(2) ** 'a'",
    "maximum_number": "torch.maximum(torch.ones(2), 1.0)",
}.items():
    raises(name, expr)
