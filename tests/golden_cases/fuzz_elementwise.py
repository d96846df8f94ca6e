"""Elementwise ops, comparisons, clamp and factories where differential fuzzing found
differences from torch: each case is a minimal program for one class of defect."""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


def raises(name: str, expr: str) -> None:
    """A case whose single expression is expected to raise."""
    case(name, f"result = {expr}\n")


SPECIAL = "[1.5, -2.5, 0.0, -0.0, float('nan'), float('inf'), -float('inf'), 3.0]"
OTHER = "[2.0, 0.0, 0.0, -1.0, 1.0, 2.0, float('inf'), float('nan')]"

# ---- two-tensor functions: values at special points, nodes, gradients, dtypes -------------

for _op in ("atan2", "hypot", "fmod", "remainder"):
    case(f"{_op}_special_values_and_grads", f"""
        x = torch.tensor({SPECIAL}, requires_grad=True)
        y = torch.tensor({OTHER}, requires_grad=True)
        z = torch.{_op}(x, y)
        z.backward(torch.arange(1.0, 9.0))
        result = (z, x.grad, y.grad)
    """)
    case(f"{_op}_broadcast_and_promote", f"""
        x = torch.tensor([[1.5, -2.5, 0.7]], requires_grad=True)
        y = torch.tensor([[2.0], [-3.0]], dtype=torch.float64, requires_grad=True)
        z = torch.{_op}(x, y)
        z.sum().backward()
        result = (z, x.grad, y.grad)
    """)
    raises(f"{_op}_shapes_do_not_broadcast",
           f"torch.{_op}(torch.ones(2, 3), torch.ones(4))")

case("atan2_hypot_fmod_saved_values", """
    x = torch.tensor([1.5, -2.5], requires_grad=True)
    y = torch.tensor([2.0, 3.0], requires_grad=True)
    h = torch.hypot(x, y)
    result = (torch.atan2(x, y).grad_fn._saved_other, h.grad_fn._saved_result,
              torch.fmod(x, y).grad_fn._saved_self, torch.fmod(x, 2).grad_fn.name())
""")
case("atan2_of_integers_and_bools", """
    i = torch.tensor([3, -4, 0])
    b = torch.tensor([True, False, True])
    result = (torch.atan2(i, i), torch.atan2(b, b), torch.atan2(i, torch.tensor([1.5, 2.0, 0.5])))
""")
case("fmod_remainder_integers_and_scalars", """
    i = torch.tensor([7, -7, 0, 5, -5])
    f = torch.tensor([1.5, -2.5, 0.0], requires_grad=True)
    result = (torch.fmod(i, 2), torch.fmod(i, -2), torch.remainder(i, 3), torch.fmod(i, 2.5),
              torch.fmod(f, 2.0), torch.remainder(f, -2), torch.remainder(2.0, f))
""")
raises("fmod_integer_by_zero", "torch.fmod(torch.tensor([3, 4]), torch.tensor([1, 0]))")
raises("remainder_integer_by_zero", "torch.remainder(torch.tensor([3, 4]), 0)")
raises("remainder_bools", "torch.remainder(torch.tensor([True]), torch.tensor([True]))")
raises("fmod_bools", "torch.fmod(torch.tensor([True]), torch.tensor([True]))")
raises("hypot_integers", "torch.hypot(torch.tensor([3]), torch.tensor([4]))")
raises("hypot_number_other", "torch.hypot(torch.ones(3, requires_grad=True), 0.0)")
raises("atan2_number_other", "torch.atan2(torch.ones(3), 2)")
raises("atan2_number_input", "torch.atan2(2.0, torch.ones(3))")
raises("fmod_number_input", "torch.fmod(2, torch.ones(3))")
raises("remainder_string_other", "torch.remainder(torch.ones(3), 'a')")
raises("maximum_number_input", "torch.maximum(3, torch.ones(3))")
raises("maximum_number_other", "torch.maximum(torch.ones(3), 0.5)")
case("floor_division_as_torch", """
    a = torch.tensor([1.5, 2.0, 7.0, 7.0, float('inf'), -float('inf'), 1.5, 0.1])
    b = torch.tensor([0.1, 0.1, -0.7, 0.1, 2.0, -0.7, -float('inf'), float('inf')])
    result = (torch.div(a, b, rounding_mode='floor'), torch.floor_divide(a, b),
              torch.remainder(a, b), torch.div(a, b, rounding_mode='trunc'))
""")
case("div_rounded_gradient_broadcast", """
    x = torch.tensor([[2.5]], requires_grad=True)
    y = torch.tensor([2.0, 3.0], requires_grad=True)
    z = torch.div(x, y, rounding_mode='floor')
    z.sum().backward()
    result = (z, x.grad, y.grad)
""")

# ---- one-tensor functions ----------------------------------------------------------------

for _op in ("frac", "sgn", "nan_to_num"):
    case(f"{_op}_special_values_and_grads", f"""
        x = torch.tensor({SPECIAL}, requires_grad=True)
        y = x.{_op}()
        y.backward(torch.arange(1.0, 9.0))
        # sgn's gradient is torch's unallocated zero tensor: read through a sum
        result = (y, torch.zeros(8) + x.grad, torch.{_op}(x.detach().double()))
    """)
    raises(f"{_op}_of_a_number", f"torch.{_op}(2.0)")
case("nan_to_num_arguments_and_dtypes", """
    x = torch.tensor([float('nan'), float('inf'), -float('inf'), 1.0], dtype=torch.float64)
    result = (torch.nan_to_num(x, nan=1.0, posinf=2.0, neginf=-3.0), torch.nan_to_num(x),
              torch.nan_to_num(torch.tensor([1, 2])), torch.nan_to_num(torch.tensor([True])),
              torch.nan_to_num(x.float(), posinf=1e300))
""")
raises("frac_of_integers", "torch.frac(torch.tensor([1, 2]))")
case("sgn_of_integers_and_bools", """
    result = (torch.sgn(torch.tensor([3, -4, 0])), torch.tensor([True, False]).sgn(),
              torch.sgn(torch.tensor([1.5], requires_grad=True)).grad_fn._saved_result)
""")
case("roll_forms_and_grads", """
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    ys = (x.roll(1), x.roll(1, 0), torch.roll(x, (1, -2), (0, 1)), x.roll([1], []),
          x.roll((1, 2), (1, 1)))
    sum((y * torch.arange(6.0).reshape(2, 3)).sum() for y in ys).backward()
    result = ys + (x.grad, ys[2].grad_fn._saved_shifts, ys[2].grad_fn._saved_dims,
                   ys[0].grad_fn._saved_dims)
""")
raises("roll_misaligned", "torch.ones(3).roll((1, 2), 0)")
raises("roll_no_shifts", "torch.ones(3).roll([], [])")
raises("roll_float_shift", "torch.ones(3).roll(1.5, 0)")
raises("roll_dim_out_of_range", "torch.ones(3).roll(1, 5)")
raises("roll_zero_dim_with_dim", "torch.tensor(1.0).roll(1, 0)")
raises("square_of_a_number", "torch.square(2)")

# ---- gradients at nan: only the losing side of max/min is masked -------------------------

case("maximum_minimum_grads_at_nan_and_ties", f"""
    x = torch.tensor({SPECIAL}, requires_grad=True)
    y = torch.tensor({OTHER}, requires_grad=True)
    torch.maximum(x, y).sum().backward()
    gmax = (x.grad, y.grad)
    x.grad = y.grad = None
    torch.minimum(x, y).sum().backward()
    result = gmax + (x.grad, y.grad)
""")

# ---- clamp ---------------------------------------------------------------------------------

case("clamp_signed_zero_nan_and_bounds", f"""
    x = torch.tensor({SPECIAL}, requires_grad=True)
    ys = (x.clamp(min=0), x.clamp(max=0), x.clamp(-1, 1), x.clamp(float('nan')), x.clamp(1, -1),
          (x * 1).clamp_(-1, 1))
    sum(y.sum() for y in ys).backward()
    result = ys + (x.grad,)
""")
case("clamp_tensor_bounds_promote_and_broadcast", """
    x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
    lo = torch.tensor([[0.5], [1.5]], dtype=torch.float64, requires_grad=True)
    y = x.clamp(lo, 1.8)
    y.sum().backward()
    result = (y, x.grad, lo.grad, torch.tensor([1, 2, 3]).clamp(torch.tensor([1.5])))
""")
case("clamp_zero_dim_tensor_bound_reads_as_number", """
    f = torch.ones(3, requires_grad=True)
    result = (f.clamp(torch.tensor(0.5, dtype=torch.float64), 2.0),
              torch.tensor([1, 2]).clamp(torch.tensor(0.5), 2), f.clamp(0.0, torch.tensor(0.5)))
""")
raises("clamp_tensor_and_number_bounds", "torch.ones(3).clamp(torch.tensor([0.0]), 2.0)")
raises("clamp_grad_tensor_and_number_bounds",
       "torch.clamp(torch.ones(3), torch.tensor(0.0, requires_grad=True), 2.0)")
raises("clamp_tensor_bounds_do_not_broadcast",
       "torch.ones(3).clamp(torch.zeros(4, 1), torch.zeros(4))")
raises("clamp_inplace_float_bound_on_long", "torch.ones(3, dtype=torch.long).clamp_(0.5)")
raises("clamp_min_inplace_on_bool", "torch.ones(3, dtype=torch.bool).clamp_min_(2)")
raises("clamp_inplace_tensor_bound_on_long",
       "torch.ones(3, dtype=torch.long).clamp_(torch.tensor(0.5))")
raises("clamp_bool_kernel", "torch.ones(3, dtype=torch.bool).clamp(min=True)")
raises("clamp_string_bound", "torch.clamp(torch.ones(3), 1, 'a')")
raises("clamp_method_string_bound", "torch.ones(3).clamp_min('a')")

# ---- comparisons, isclose, where ---------------------------------------------------------

raises("isclose_float_double", "torch.isclose(torch.ones(3), torch.ones(3, dtype=torch.float64))")
raises("isclose_zero_dim_mismatch",
       "torch.isclose(torch.tensor(0.97), torch.ones(2, 3, dtype=torch.float64))")
raises("allclose_float_long", "torch.allclose(torch.ones(3), torch.ones(3, dtype=torch.long))")
raises("isclose_number_other", "torch.isclose(torch.ones(3), 1.5)")
raises("isclose_negative_rtol", "torch.isclose(torch.ones(3), torch.ones(3), rtol=-0.123456789)")
raises("isclose_shapes", "torch.isclose(torch.zeros(1, 0), torch.zeros(2, 3, 4))")
case("isclose_values_and_versions", """
    a = torch.tensor([float('nan'), 1.0, float('inf'), 1e10, 0.0])
    b = torch.tensor([float('nan'), 1.0000001, float('inf'), 1.00001e10, 1e-9])
    r = (torch.isclose(a, b), torch.isclose(a, b, equal_nan=True),
         torch.isclose(a, b, rtol=0, atol=0), torch.isclose(torch.tensor([1, 100]),
         torch.tensor([1, 101]), rtol=0.01), torch.isclose(torch.tensor([True]), torch.tensor([False]), atol=1.5))
    result = r + tuple(t._version for t in r)
""")
raises("where_three_way_broadcast",
       "torch.where(torch.zeros(2, 1) > 0, torch.zeros(3), torch.zeros(4))")
raises("where_string_other", "torch.where(torch.ones(3) > 0, torch.ones(3), 'a')")
raises("where_none_other", "torch.where(torch.ones(3) > 0, None)")
raises("eq_number_input", "torch.eq(2, torch.ones(3))")
raises("logical_and_number", "torch.logical_and(torch.ones(3), 2)")
raises("bitwise_double", "torch.tensor([1, 2]) & torch.tensor([1.0, 2.0], dtype=torch.float64)")
raises("bitwise_shapes", "torch.tensor([1, 2, 3]) & torch.tensor([1, 2])")
case("compare_with_other_types", """
    t = torch.ones(3)
    result = (t == "a", t == None, t != None)  # noqa: E711
""")

# ---- argument checks of arithmetic -------------------------------------------------------

raises("add_float_alpha_integers", "torch.add(torch.ones(3, dtype=torch.long), 2, alpha=0.5)")
raises("sub_float_alpha_integers", "torch.tensor([1, 2]).sub(torch.tensor([1, 2]), alpha=0.5)")
raises("add_bool_alpha", "torch.add(torch.ones(3), torch.ones(3), alpha=True)")
raises("add_string_alpha", "torch.add(torch.ones(3), torch.ones(3), alpha='a')")
raises("inplace_result_type", "torch.ones(3, dtype=torch.long).add_(1.5)")
raises("bool_matmul_dot", "torch.tensor([True]) @ torch.tensor([True])")
raises("bool_matmul_mm", "torch.ones(2, 2, dtype=torch.bool) @ torch.ones(2, 2, dtype=torch.bool)")
raises("bool_matmul_mv", "torch.ones(2, 2, dtype=torch.bool) @ torch.ones(2, dtype=torch.bool)")
raises("bool_matmul_bmm",
       "torch.ones(2, 2, 2, dtype=torch.bool) @ torch.ones(2, 2, 2, dtype=torch.bool)")

# ---- masked_fill -------------------------------------------------------------------------

raises("masked_fill_inplace_broadcast_shape",
       "torch.zeros(1).masked_fill_(torch.zeros(3, 1) > 0, 1.0)")
raises("masked_fill_shapes", "torch.zeros(2, 3).masked_fill(torch.zeros(4) > 0, 1.0)")
raises("masked_fill_inplace_shapes", "torch.zeros(2, 3).masked_fill_(torch.zeros(4) > 0, 1.0)")
raises("masked_fill_value_dims",
       "torch.zeros(2, 3).masked_fill(torch.zeros(3) > 0, torch.tensor([1.0]))")
raises("masked_fill_overflow", "torch.zeros(2, dtype=torch.long).masked_fill(torch.tensor([True, False]), 1e30)")
case("masked_fill_broadcasts_its_input", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.masked_fill(torch.tensor([[True], [False]]), -1.0)
    y.backward(torch.arange(6.0).reshape(2, 3))
    result = (y, x.grad, torch.zeros(3, dtype=torch.uint8).masked_fill(torch.ones(3) > 0, -1))
""")

# ---- factories: numbers a dtype cannot hold ------------------------------------------------

for _name, _expr in {
    "full_inf_int64": "torch.full((2,), float('inf'), dtype=torch.int64)",
    "full_nan_int32": "torch.full((2,), float('nan'), dtype=torch.int32)",
    "full_int8_range": "torch.full((2,), 128, dtype=torch.int8)",
    "full_uint8_range": "torch.full((2,), 300, dtype=torch.uint8)",
    "full_uint8_negative_float": "torch.full((2,), -2.5, dtype=torch.uint8)",
    "full_float32_range": "torch.full((2,), 1e40, dtype=torch.float32)",
    "full_half_range": "torch.full((2,), 1e5, dtype=torch.float16)",
    "full_huge_int": "torch.full((2,), 2**64)",
    "full_none": "torch.full((2,), None)",
    "full_int_size": "torch.full(2, 3.0)",
    "full_float_size": "torch.full((2.0,), 1.0)",
    "full_like_overflow": "torch.full_like(torch.ones(2, dtype=torch.long), 1e30)",
    "fill_overflow": "torch.zeros(2, dtype=torch.uint8).fill_(300)",
    "tensor_nan_int64": "torch.tensor([float('nan')], dtype=torch.int64)",
    "tensor_uint8_range": "torch.tensor([300], dtype=torch.uint8)",
    "tensor_huge_int": "torch.tensor([2**63])",
    "arange_infinite": "torch.arange(0, float('inf'))",
    "arange_bool": "torch.arange(5, dtype=torch.bool)",
    "arange_string": "torch.arange('a')",
}.items():
    raises(_name, _expr)
case("factories_that_wrap_or_truncate", """
    result = (torch.full((2,), -1, dtype=torch.uint8), torch.full((2,), 2.5, dtype=torch.int64),
              torch.full((2,), float('inf'), dtype=torch.float32),
              torch.full((2,), 1e300, dtype=torch.float16), torch.tensor([-1], dtype=torch.uint8),
              torch.tensor([2.7, -2.7], dtype=torch.int64), torch.tensor([1e40]),
              torch.arange(0, 10, 2.5, dtype=torch.int64), torch.arange(10, 0, -3))
""")

# ---- in-place forms: every op has one; torch checks shape and result dtype first ----------

case("inplace_unary_forms", """
    x = torch.tensor([0.25, 0.5, 0.75]) * 1
    for name in ("reciprocal_", "rsqrt_", "log1p_", "expm1_", "sign_", "exp2_", "log2_", "sinh_",
                 "asin_", "frac_", "sgn_", "nan_to_num_", "tan_", "erf_"):
        getattr(x, name)()
    i = torch.tensor([7, -7, 5])
    i //= 2
    i %= 3
    i &= 3
    i |= 4
    i ^= 1
    result = (x, x._version, i, i._version)
""")
for _name, _expr in {
    "inplace_int_exp": "torch.tensor([1, 2]).exp_()",
    "inplace_int_true_divide": "torch.tensor([1, 2]).div_(torch.tensor([1, 2]))",
    "inplace_int_floordiv_float": "torch.tensor([1, 2]).__ifloordiv__(0.5)",
    "inplace_bool_mod": "torch.tensor([True]).remainder_(torch.tensor([3]))",
    "inplace_zero_dim_broadcast": "torch.tensor(3).fmod_(torch.tensor([1, 0]))",
    "inplace_bitwise_float": "torch.tensor([1, 2]).bitwise_and_(torch.tensor([1.0, 2.0]))",
    "inplace_bool_sub_first": "torch.tensor([True]).sub_(torch.ones(2, 3))",
    "inplace_int_atan2": "torch.tensor([1, 2]).atan2_(torch.tensor([1, 2]))",
}.items():
    raises(_name, _expr)

# ---- pow and division of integers and bools ------------------------------------------------

case("pow_integer_and_bool_bases", """
    e = torch.tensor([3, -4, 0, 5, -1])
    result = (2 ** e, -3 ** e, 0 ** e, True ** e, torch.tensor([True, False]) ** 2,
              torch.tensor([2, -1, 1]) ** torch.tensor([-1, -3, -2]))
""")
raises("pow_bool_base_bool_exponent", "True ** torch.tensor([True, False])")
raises("pow_bool_negative", "torch.tensor([True, False]) ** -3")
case("pow_bool_exponent_backward", """
    x = torch.tensor([1.5, 2.0], requires_grad=True)
    y = x ** torch.tensor([True, False])
    y.sum().backward()
""")
raises("sub_bool_tensor_python_bool", "torch.tensor([True]) - True")
raises("floor_divide_bools", "torch.tensor([True]) // torch.tensor([True])")
raises("div_trunc_bools", "torch.div(torch.tensor([True]), True, rounding_mode='trunc')")
case("atan2_bool_input_backward", """
    y = torch.tensor([1.5, 2.0], requires_grad=True)
    torch.atan2(torch.tensor([True, False]), y).sum().backward()
""")
case("fmod_remainder_grads_in_result_dtype", """
    y = torch.tensor([0.3, 0.7, -0.3], requires_grad=True)
    torch.fmod(torch.tensor(3), y).sum().backward()
    g1 = y.grad
    y.grad = None
    torch.remainder(torch.tensor(3), y).sum().backward()
    result = (g1, y.grad)
""")
case("elu_leaky_relu_grads_at_nan", """
    x = torch.tensor([float('nan'), -1.0, 2.0], requires_grad=True)
    (F.elu(x) + F.leaky_relu(x, 0.2)).sum().backward()
    result = x.grad
""")
raises("gelu_of_integers", "F.gelu(torch.tensor([1, -2]))")
raises("gelu_of_a_number", "F.gelu(1.0)")
raises("roll_without_shifts", "torch.roll(torch.ones(3))")
raises("roll_none_shifts", "torch.roll(torch.ones(3), None)")
raises("tensor_of_integer_tensors", "torch.tensor([torch.tensor([1, 2])])")
raises("tensor_of_float_tensors", "torch.tensor([torch.tensor([1.0, 2.0])])")
