"""Every op and Tensor method: values, dtypes, grad_fn names, next_functions and gradients.

Inputs are written out explicitly (no random numbers). Gradients are taken with a
non-uniform upstream gradient where that catches more mistakes than ``sum()``.
"""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


# ---- unary elementwise ----------------------------------------------------------------------

# op -> a vector inside its domain (the same values are reused for every form of the op)
UNARY = {
    "exp": "[-1.0, 0.5, 2.0]",
    "log": "[0.5, 1.5, 4.0]",
    "sin": "[-1.0, 0.5, 2.0]",
    "cos": "[-1.0, 0.5, 2.0]",
    "tan": "[-1.0, 0.5, 1.25]",
    "tanh": "[-1.0, 0.5, 2.0]",
    "sigmoid": "[-1.0, 0.5, 2.0]",
    "relu": "[-1.0, 0.5, 2.0]",
    "abs": "[-1.0, 0.5, 2.0]",
    "sqrt": "[0.25, 1.5, 4.0]",
    "rsqrt": "[0.25, 1.5, 4.0]",
    "reciprocal": "[-2.0, 0.5, 4.0]",
    "sign": "[-1.5, 0.5, 2.0]",
    "square": "[-1.0, 0.5, 2.0]",
    "expm1": "[-1.0, 0.5, 2.0]",
    "log1p": "[-0.5, 0.5, 2.0]",
    "log2": "[0.5, 1.5, 4.0]",
    "neg": "[-1.0, 0.5, 2.0]",
}
# special values: inputs at the edges of each function's domain
SPECIAL = "[0.0, -0.0, -2.0, float('inf'), float('-inf'), float('nan')]"

for op, vals in UNARY.items():
    case(f"{op}_function_grad", f"""
        x = torch.tensor({vals}, requires_grad=True)
        y = torch.{op}(x)
        y.backward(torch.tensor([1.0, -2.0, 0.5]))
        result = (y, x.grad)
    """)
    case(f"{op}_method_2d", f"""
        x = torch.tensor([{vals}, {vals}], requires_grad=True)
        y = x.{op}()
        y.sum().backward()
        result = (y, x.grad, y.grad_fn.next_functions[0][0].variable is x)
    """)
    case(f"{op}_float64", f"""
        x = torch.tensor({vals}, dtype=torch.float64, requires_grad=True)
        y = x.{op}()
        (y * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)).sum().backward()
        result = (y, x.grad)
    """)
    case(f"{op}_int64", f"""
        result = torch.{op}(torch.tensor([1, 2, 4]))
    """)
    case(f"{op}_bool", f"""
        result = torch.{op}(torch.tensor([True, False]))
    """)
    case(f"{op}_0d", f"""
        x = torch.tensor({vals}[1], requires_grad=True)
        y = x.{op}()
        y.backward()
        result = (y, x.grad, y.shape)
    """)
    case(f"{op}_special_values", f"""
        x = torch.tensor({SPECIAL}, requires_grad=True)
        y = torch.{op}(x)
        y.backward(torch.ones(6))
        result = (y, x.grad)
    """)
    case(f"{op}_no_grad_input", f"""
        y = torch.tensor({vals}).{op}()
        result = (y, y.requires_grad, y.is_leaf)
    """)

case("negative_alias", """
    x = torch.tensor([1.0, -2.0], requires_grad=True)
    result = (torch.negative(x), -x, x.negative())
""")
case("absolute_alias", """
    x = torch.tensor([1.0, -2.0], requires_grad=True)
    result = (torch.absolute(x), abs(x))
""")
case("sqrt_of_zero_grad_is_inf", """
    x = torch.tensor([0.0, 4.0], requires_grad=True)
    x.sqrt().sum().backward()
    result = x.grad
""")
case("relu_abs_grad_at_zero", """
    x = torch.tensor([0.0, 0.0], requires_grad=True)
    (torch.relu(x) + torch.abs(x)).sum().backward()
    result = x.grad
""")
case("sigmoid_extremes", """
    x = torch.tensor([-100.0, -20.0, 0.0, 20.0, 100.0], requires_grad=True)
    y = x.sigmoid()
    y.sum().backward()
    result = (y, x.grad)
""")
case("exp_overflow_float32", """
    x = torch.tensor([88.0, 89.0, -104.0], requires_grad=True)
    y = x.exp()
    y.sum().backward()
    result = (y, x.grad)
""")
case("float16_unary", """
    x = torch.tensor([0.5, 1.5, 2.5], dtype=torch.float16, requires_grad=True)
    y = x.exp() + x.sin()
    y.sum().backward()
    result = (y, x.grad)
""")
case("unary_chain_grad", """
    x = torch.tensor([0.3, 0.6, 0.9], requires_grad=True)
    y = x.sin().exp().tanh().sigmoid().log()
    y.sum().backward()
    result = (y, x.grad)
""")
case("unary_int32_keeps_dtype", """
    x = torch.tensor([-3, 4], dtype=torch.int32)
    result = (x.abs(), -x, x.sign(), x.square(), x.relu(), x.exp(), x.sqrt())
""")
case("unary_uint8", """
    x = torch.tensor([3, 4], dtype=torch.uint8)
    result = (x.abs(), x.sign(), x.exp())
""")
case("unary_non_tensor_input", """
    result = torch.exp(2.0)
""")
case("unary_list_input", """
    result = torch.sin([1.0, 2.0])
""")

# ---- clamp ------------------------------------------------------------------------------------

CLAMPS = {
    "clamp_both": "x.clamp(-0.5, 1.0)",
    "clamp_min_kw": "torch.clamp(x, min=0.0)",
    "clamp_max_kw": "torch.clamp(x, max=0.0)",
    "clamp_min_fn": "torch.clamp_min(x, 0.5)",
    "clamp_max_fn": "torch.clamp_max(x, 0.5)",
    "clamp_min_method": "x.clamp_min(0.5)",
    "clamp_max_method": "x.clamp_max(0.5)",
    "clip_alias": "torch.clip(x, -0.5, 0.5)",
    "clip_method": "x.clip(-0.5, 0.5)",
    "clamp_int_bounds": "x.clamp(0, 1)",
    "clamp_at_boundaries": "x.clamp(-1.0, 2.0)",
    "clamp_tensor_min": "x.clamp(min=torch.tensor([0.0, 0.0, 1.0, 3.0]))",
    "clamp_tensor_both": "torch.clamp(x, torch.tensor([0.0, 0.0, 1.0, 3.0]), torch.tensor(1.5))",
    "clamp_tensor_broadcast": "x.clamp(max=torch.tensor(0.25))",
    "clamp_min_gt_max": "x.clamp(1.0, 0.0)",
}
for name, expr in CLAMPS.items():
    case(name, f"""
        x = torch.tensor([-1.0, 0.0, 0.5, 2.0], requires_grad=True)
        y = {expr}
        y.backward(torch.tensor([1.0, 2.0, 3.0, 4.0]))
        result = (y, x.grad)
    """)
case("clamp_tensor_bound_requires_grad", """
    x = torch.tensor([-1.0, 0.0, 0.5, 2.0], requires_grad=True)
    lo = torch.tensor([0.0, 0.5, 0.0, 3.0], requires_grad=True)
    y = torch.clamp(x, min=lo)
    y.sum().backward()
    result = (y, x.grad, lo.grad)
""")
case("clamp_int_tensor_float_bound", """
    result = (torch.tensor([1, 5, 9]).clamp(2, 6), torch.tensor([1, 5, 9]).clamp(2.5, 6))
""")
case("clamp_no_bounds", """
    result = torch.tensor([1.0]).clamp()
""")
case("clamp_nan", """
    x = torch.tensor([float('nan'), 1.0], requires_grad=True)
    y = x.clamp(0.0, 0.5)
    y.sum().backward()
    result = (y, x.grad)
""")

# ---- binary arithmetic --------------------------------------------------------------------------

ARITH = {"add": "+", "sub": "-", "mul": "*", "div": "/", "pow": "**"}
A = "[[0.5, 1.5, 2.0], [3.0, 0.25, 1.0]]"
B = "[2.0, 0.5, 3.0]"

for op, sym in ARITH.items():
    case(f"{op}_same_shape", f"""
        a = torch.tensor([0.5, 1.5, 2.0], requires_grad=True)
        b = torch.tensor([2.0, 0.5, 3.0], requires_grad=True)
        y = torch.{op}(a, b)
        y.backward(torch.tensor([1.0, -1.0, 2.0]))
        result = (y, a.grad, b.grad)
    """)
    case(f"{op}_operator", f"""
        a = torch.tensor([0.5, 1.5, 2.0], requires_grad=True)
        b = torch.tensor([2.0, 0.5, 3.0], requires_grad=True)
        y = a {sym} b
        y.sum().backward()
        result = (y, a.grad, b.grad)
    """)
    case(f"{op}_method", f"""
        a = torch.tensor([0.5, 1.5, 2.0], requires_grad=True)
        b = torch.tensor([2.0, 0.5, 3.0])
        y = a.{op}(b)
        y.sum().backward()
        result = (y, a.grad)
    """)
    case(f"{op}_broadcast_row", f"""
        a = torch.tensor({A}, requires_grad=True)
        b = torch.tensor({B}, requires_grad=True)
        y = a {sym} b
        y.backward(torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
        result = (y, a.grad, b.grad)
    """)
    case(f"{op}_broadcast_column", f"""
        a = torch.tensor({A}, requires_grad=True)
        b = torch.tensor([[2.0], [0.5]], requires_grad=True)
        y = b {sym} a
        y.sum().backward()
        result = (y, a.grad, b.grad)
    """)
    case(f"{op}_broadcast_outer", f"""
        a = torch.tensor([[1.0], [2.0]], requires_grad=True)
        b = torch.tensor([[0.5, 1.5, 3.0]], requires_grad=True)
        y = a {sym} b
        y.sum().backward()
        result = (y, a.grad, b.grad)
    """)
    case(f"{op}_broadcast_3d", f"""
        a = torch.tensor([[[1.0, 2.0]], [[3.0, 0.5]]], requires_grad=True)
        b = torch.tensor([[0.5, 1.0], [2.0, 1.5], [1.0, 0.25]], requires_grad=True)
        y = a {sym} b
        y.sum().backward()
        result = (y, a.grad, b.grad)
    """)
    case(f"{op}_scalar_right", f"""
        a = torch.tensor([0.5, 1.5, 2.0], requires_grad=True)
        y = a {sym} 2
        y.sum().backward()
        result = (y, a.grad)
    """)
    case(f"{op}_float_scalar_right", f"""
        a = torch.tensor([0.5, 1.5, 2.0], requires_grad=True)
        y = a {sym} 0.5
        y.sum().backward()
        result = (y, a.grad)
    """)
    case(f"{op}_scalar_left", f"""
        a = torch.tensor([0.5, 1.5, 2.0], requires_grad=True)
        y = 3 {sym} a
        y.sum().backward()
        result = (y, a.grad)
    """)
    case(f"{op}_float_scalar_left", f"""
        a = torch.tensor([0.5, 1.5, 2.0], requires_grad=True)
        y = 2.5 {sym} a
        y.backward(torch.tensor([1.0, 2.0, 3.0]))
        result = (y, a.grad)
    """)
    case(f"{op}_constant_left", f"""
        a = torch.tensor([0.5, 1.5, 2.0])
        b = torch.tensor([2.0, 0.5, 3.0], requires_grad=True)
        y = a {sym} b
        y.sum().backward()
        result = (y, b.grad, a.grad)
    """)
    case(f"{op}_0d_tensors", f"""
        a = torch.tensor(1.5, requires_grad=True)
        b = torch.tensor(2.0, requires_grad=True)
        y = a {sym} b
        y.backward()
        result = (y, a.grad, b.grad)
    """)
    case(f"{op}_0d_with_vector", f"""
        a = torch.tensor(1.5, requires_grad=True)
        b = torch.tensor([2.0, 0.5, 3.0], requires_grad=True)
        y = a {sym} b
        y.sum().backward()
        result = (y, a.grad, b.grad)
    """)
    case(f"{op}_int_int", f"""
        result = torch.tensor([1, 2, 3]) {sym} torch.tensor([2, 2, 1])
    """)
    case(f"{op}_int_scalar", f"""
        result = (torch.tensor([1, 2, 3]) {sym} 2, 2 {sym} torch.tensor([1, 2, 3]))
    """)
    case(f"{op}_int_float_scalar", f"""
        result = (torch.tensor([1, 2, 3]) {sym} 0.5, 0.5 {sym} torch.tensor([1, 2, 3]))
    """)
    case(f"{op}_int_tensor_float_tensor_grad", f"""
        a = torch.tensor([1, 2, 3])
        b = torch.tensor([2.0, 0.5, 3.0], requires_grad=True)
        y = a {sym} b
        y.sum().backward()
        result = (y, b.grad)
    """)
    case(f"{op}_float32_float64", f"""
        a = torch.tensor([0.5, 1.5, 2.0], requires_grad=True)
        b = torch.tensor([2.0, 0.5, 3.0], dtype=torch.float64, requires_grad=True)
        y = a {sym} b
        y.sum().backward()
        result = (y, a.grad, b.grad)
    """)
    case(f"{op}_0d_float64_with_float32", f"""
        a = torch.tensor([0.5, 1.5, 2.0], requires_grad=True)
        b = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
        y = a {sym} b
        y.sum().backward()
        result = (y, a.grad, b.grad)
    """)
    case(f"{op}_0d_float64_with_int", f"""
        result = torch.tensor([1, 2, 3]) {sym} torch.tensor(2.0, dtype=torch.float64)
    """)
    case(f"{op}_int32_int64", f"""
        result = (torch.tensor([1, 2], dtype=torch.int32) {sym} torch.tensor([2, 3]),
                  torch.tensor([1, 2], dtype=torch.int32) {sym} torch.tensor(2))
    """)
    case(f"{op}_bool_tensors", f"""
        result = torch.tensor([True, False]) {sym} torch.tensor([True, True])
    """)
    case(f"{op}_bool_and_number", f"""
        result = (torch.tensor([True, False]) {sym} 2, torch.tensor([True, False]) {sym} 1.5)
    """)
    case(f"{op}_float_and_bool", f"""
        result = torch.tensor([1.5, 2.0]) {sym} torch.tensor([True, False])
    """)
    case(f"{op}_float16", f"""
        a = torch.tensor([0.5, 1.5, 2.0], dtype=torch.float16, requires_grad=True)
        y = a {sym} 1.5
        y.sum().backward()
        result = (y, a.grad)
    """)
    case(f"{op}_shape_mismatch", f"""
        result = torch.ones(3) {sym} torch.ones(4)
    """)
    case(f"{op}_shape_mismatch_2d", f"""
        result = torch.ones(2, 3) {sym} torch.ones(3, 2)
    """)
    case(f"{op}_bad_operand", f"""
        result = torch.{op}(torch.ones(2), "a")
    """)
    case(f"{op}_same_tensor_twice", f"""
        a = torch.tensor([0.5, 1.5, 2.0], requires_grad=True)
        y = torch.{op}(a, a)
        y.sum().backward()
        result = (y, a.grad)
    """)

case("add_alpha", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    y = torch.add(a, b, alpha=2)
    y.sum().backward()
    result = (y, a.grad, b.grad, y.grad_fn._saved_alpha)
""")
case("sub_alpha", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    y = a.sub(b, alpha=0.5)
    y.sum().backward()
    result = (y, a.grad, b.grad, y.grad_fn._saved_alpha)
""")
case("add_scalar_alpha", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.add(a, 3, alpha=2)
    y.sum().backward()
    result = (y, a.grad)
""")
case("rsub_function", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.rsub(a, 5.0)
    y.sum().backward()
    result = (y, a.grad, y.grad_fn._saved_alpha)
""")
case("rsub_tensor_tensor", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 5.0], requires_grad=True)
    y = torch.rsub(a, b)
    y.sum().backward()
    result = (y, a.grad, b.grad)
""")
case("rsub_alpha", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.rsub(a, 1, alpha=3)
    y.sum().backward()
    result = (y, a.grad)
""")
case("one_minus_x", """
    x = torch.tensor([0.25, 0.75], requires_grad=True)
    y = 1 - x
    y.sum().backward()
    result = (y, x.grad)
""")
case("sub_bool_tensor_error", """
    result = torch.tensor([True]) - torch.tensor([True])
""")
case("sub_float_minus_bool_scalar", """
    result = torch.tensor([1.0]) - True
""")
case("sub_bool_minus_float", """
    result = torch.tensor([True, False]) - 1.5
""")
case("aliases_binary", """
    a = torch.tensor([4.0, 6.0])
    b = torch.tensor([2.0, 3.0])
    result = (torch.subtract(a, b), torch.multiply(a, b), torch.divide(a, b),
              torch.true_divide(a, b), a.subtract(b), a.multiply(b), a.divide(b),
              a.true_divide(b))
""")
case("div_int_int_true_division", """
    result = (torch.tensor([1, 2, 3]) / torch.tensor([2, 2, 2]), torch.tensor([3]) / 2,
              torch.div(torch.tensor([7]), 2))
""")
case("div_by_zero_float", """
    x = torch.tensor([1.0, -1.0, 0.0], requires_grad=True)
    y = x / 0.0
    y.sum().backward()
    result = (y, x.grad)
""")
case("div_int_by_zero_true_division", """
    result = torch.tensor([1, 0]) / 0
""")
case("div_rounding_trunc", """
    result = (torch.div(torch.tensor([-7.0, 7.0, 5.5]), 2, rounding_mode="trunc"),
              torch.div(torch.tensor([-7, 7, 5]), 2, rounding_mode="trunc"))
""")
case("div_rounding_floor", """
    result = (torch.div(torch.tensor([-7.0, 7.0, 5.5]), 2, rounding_mode="floor"),
              torch.div(torch.tensor([-7, 7, 5]), 2, rounding_mode="floor"))
""")
case("div_rounding_bad_mode", """
    result = torch.div(torch.tensor([1.0]), 2, rounding_mode="round")
""")
case("div_rounding_int_zero", """
    result = torch.div(torch.tensor([1]), 0, rounding_mode="floor")
""")
case("div_rounding_requires_grad", """
    x = torch.tensor([-3.5, 2.5], requires_grad=True)
    y = torch.div(x, 2, rounding_mode="floor")
    result = (y, y.requires_grad)
""")
case("div_saved_values", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([4.0, 8.0], requires_grad=True)
    y = a / b
    result = (y.grad_fn._saved_self, y.grad_fn._saved_other)
""")
case("div_scalar_saved_other", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    y = a / 2
    result = (y.grad_fn._saved_other, y.grad_fn._saved_self)
""")
case("rdiv_is_reciprocal_mul", """
    a = torch.tensor([1.0, 2.0, 4.0], requires_grad=True)
    y = 1 / a
    y.sum().backward()
    result = (y, a.grad, y.grad_fn.next_functions)
""")
case("floor_divide", """
    result = (torch.floor_divide(torch.tensor([-7.0, 7.0]), 2),
              torch.tensor([-7, 7]) // 2, torch.tensor([-7, 7]) // torch.tensor([2, -2]),
              7 // torch.tensor([2, 3]), torch.tensor([-7.5, 7.5]).floor_divide(2.0))
""")
case("floor_divide_requires_grad", """
    x = torch.tensor([-3.5, 2.5], requires_grad=True)
    y = x // 2
    result = (y, y.requires_grad)
""")
case("remainder", """
    result = (torch.remainder(torch.tensor([-7.0, 7.0, 5.5]), 2),
              torch.tensor([-7, 7]) % 3, torch.tensor([-7, 7]) % torch.tensor([3, -3]),
              torch.tensor([-1.5, 1.5]).remainder(-1.0), 5 % torch.tensor([2, 3]))
""")
case("remainder_grad", """
    x = torch.tensor([-3.5, 2.5, 7.0], requires_grad=True)
    y = x % 2
    y.sum().backward()
    result = (y, x.grad)
""")
case("remainder_by_zero", """
    result = (torch.tensor([1.0, -1.0]) % 0.0, torch.tensor([1.0]) % torch.tensor([0.0]))
""")

# ---- pow ---------------------------------------------------------------------------------------

case("pow_square_saved_exponent", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x ** 2
    y.sum().backward()
    result = (y, x.grad, y.grad_fn._saved_exponent, y.grad_fn._saved_self)
""")
case("pow_float_exponent", """
    x = torch.tensor([1.0, 2.0, 4.0], requires_grad=True)
    y = x ** 0.5
    y.sum().backward()
    result = (y, x.grad, y.grad_fn._saved_exponent)
""")
case("pow_zero_exponent", """
    x = torch.tensor([0.0, 2.0], requires_grad=True)
    y = x ** 0
    y.sum().backward()
    result = (y, x.grad)
""")
case("pow_one_exponent", """
    x = torch.tensor([0.0, 2.0], requires_grad=True)
    y = x ** 1
    y.sum().backward()
    result = (y, x.grad)
""")
case("pow_negative_exponent", """
    x = torch.tensor([0.5, 2.0], requires_grad=True)
    y = x ** -2
    y.sum().backward()
    result = (y, x.grad)
""")
case("pow_at_zero_fractional", """
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    y = x ** 0.5
    y.sum().backward()
    result = (y, x.grad)
""")
case("pow_negative_base_fractional", """
    x = torch.tensor([-1.0, -8.0], requires_grad=True)
    y = x ** (1 / 3)
    y.sum().backward()
    result = (y, x.grad)
""")
case("pow_tensor_exponent_saved", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    e = torch.tensor([2.0, 0.5, 1.0], requires_grad=True)
    y = x ** e
    y.sum().backward()
    result = (y, x.grad, e.grad, y.grad_fn._saved_exponent, y.grad_fn._saved_result)
""")
case("pow_tensor_exponent_zero_base", """
    x = torch.tensor([0.0, 0.0, 0.0], requires_grad=True)
    e = torch.tensor([2.0, 0.0, -1.0], requires_grad=True)
    y = x ** e
    y.sum().backward()
    result = (y, x.grad, e.grad)
""")
case("pow_scalar_base", """
    e = torch.tensor([0.0, 1.0, 2.5], requires_grad=True)
    y = 2 ** e
    y.sum().backward()
    result = (y, e.grad, y.grad_fn._saved_self, y.grad_fn._saved_exponent)
""")
case("pow_scalar_base_zero", """
    e = torch.tensor([0.0, 1.0, -1.0], requires_grad=True)
    y = 0.0 ** e
    y.sum().backward()
    result = (y, e.grad)
""")
case("pow_function_forms", """
    x = torch.tensor([1.0, 2.0])
    result = (torch.pow(x, 3), torch.pow(2, x), x.pow(2), torch.pow(x, torch.tensor([2.0, 3.0])))
""")
case("pow_int_negative_error", """
    result = torch.tensor([1, 2]) ** -1
""")
case("pow_int_tensor_forms", """
    result = (torch.tensor([1, 2]) ** 2.5, 2 ** torch.tensor([1, 2]), 2.5 ** torch.tensor([1, 2]),
              torch.tensor([1, 2]) ** torch.tensor([3, 2]), torch.tensor([1.0, 2]) ** torch.tensor([3, 2]),
              torch.tensor([2, 3]) ** 2)
""")
case("pow_float64_exponent_tensor", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    e = torch.tensor([2.0, 3.0], dtype=torch.float64)
    y = x ** e
    y.sum().backward()
    result = (y, x.grad)
""")
case("square_function", """
    x = torch.tensor([1.0, -2.0], requires_grad=True)
    y = torch.square(x)
    y.sum().backward()
    result = (y, x.grad, y.grad_fn._saved_exponent)
""")

# ---- maximum / minimum / where ----------------------------------------------------------------

for op in ("maximum", "minimum"):
    case(f"{op}_grad_with_ties", f"""
        a = torch.tensor([1.0, 3.0, 2.0], requires_grad=True)
        b = torch.tensor([2.0, 1.0, 2.0], requires_grad=True)
        y = torch.{op}(a, b)
        y.backward(torch.tensor([1.0, 2.0, 4.0]))
        result = (y, a.grad, b.grad)
    """)
    case(f"{op}_broadcast", f"""
        a = torch.tensor([[1.0, 3.0], [0.0, 5.0]], requires_grad=True)
        b = torch.tensor([2.0, 2.0], requires_grad=True)
        y = a.{op}(b)
        y.sum().backward()
        result = (y, a.grad, b.grad)
    """)
    case(f"{op}_scalar_error", f"""
        result = torch.{op}(torch.tensor([1.0]), 2)
    """)
    case(f"{op}_mixed_dtype", f"""
        result = torch.{op}(torch.tensor([1, 5]), torch.tensor([2.5, 2.5]))
    """)
    case(f"{op}_nan", f"""
        result = torch.{op}(torch.tensor([float('nan'), 1.0]), torch.tensor([1.0, float('nan')]))
    """)
case("max_of_two_tensors", """
    a = torch.tensor([1.0, 3.0], requires_grad=True)
    b = torch.tensor([2.0, 2.0], requires_grad=True)
    y = torch.max(a, b)
    z = torch.min(a, b)
    (y + z).sum().backward()
    result = (y, z, a.grad, b.grad)
""")
case("where_grad", """
    x = torch.tensor([-1.0, 2.0, 3.0], requires_grad=True)
    w = torch.tensor([10.0, 20.0, 30.0], requires_grad=True)
    y = torch.where(x > 0, x, w)
    y.backward(torch.tensor([1.0, 2.0, 3.0]))
    result = (y, x.grad, w.grad, y.grad_fn._saved_condition)
""")
case("where_scalar_other", """
    x = torch.tensor([-1.0, 2.0, 3.0], requires_grad=True)
    y = torch.where(x > 0, x, 0.0)
    y.sum().backward()
    result = (y, x.grad)
""")
case("where_scalar_self", """
    x = torch.tensor([-1.0, 2.0, 3.0], requires_grad=True)
    y = torch.where(x > 0, 1.0, x)
    y.sum().backward()
    result = (y, x.grad)
""")
case("where_broadcast", """
    x = torch.tensor([[1.0], [2.0]], requires_grad=True)
    w = torch.tensor([5.0, 6.0, 7.0], requires_grad=True)
    y = torch.where(torch.tensor([True, False, True]), x, w)
    y.sum().backward()
    result = (y, x.grad, w.grad)
""")
case("where_method", """
    x = torch.tensor([-1.0, 2.0], requires_grad=True)
    y = x.where(x > 0, torch.tensor(0.0))
    y.sum().backward()
    result = (y, x.grad)
""")
case("where_dtype_promotion", """
    result = (torch.where(torch.tensor([True, False]), torch.tensor([1, 2]), 0.5),
              torch.where(torch.tensor([True, False]), torch.tensor([1, 2]), torch.tensor([1.5, 2.5], dtype=torch.float64)),
              torch.where(torch.tensor([True, False]), 1.0, 0.0),
              torch.where(torch.tensor([True, False]), 1, 0))
""")
case("where_one_argument", """
    result = (torch.where(torch.tensor([True, False, True])), torch.where(torch.tensor([[0, 1], [2, 0]])))
""")
case("where_int_condition_error", """
    result = torch.where(torch.tensor([1, 0]), torch.tensor([1.0, 2.0]), 0.0)
""")
case("where_shape_error", """
    result = torch.where(torch.tensor([True, False, True]), torch.ones(2), torch.ones(2))
""")

# ---- comparisons and logic -----------------------------------------------------------------------

for op, sym in {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}.items():
    case(f"{op}_compare", f"""
        a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        b = torch.tensor([2.0, 2.0, 2.0])
        result = (a {sym} b, torch.{op}(a, 2), a.{op}(b), a {sym} 2.5, 2 {sym} a,
                  torch.tensor([1, 2, 3]) {sym} 2.5, (a {sym} b).requires_grad)
    """)
    case(f"{op}_broadcast", f"""
        result = torch.tensor([[1], [2]]) {sym} torch.tensor([1.0, 2.0, 3.0])
    """)
    case(f"{op}_nan", f"""
        result = torch.tensor([float('nan'), 1.0]) {sym} torch.tensor([float('nan'), 1.0])
    """)
    case(f"{op}_shape_error", f"""
        result = torch.ones(2) {sym} torch.ones(3)
    """)
case("compare_with_none", """
    result = (torch.tensor([1.0]) == None, torch.tensor([1.0]) != None)
""")
case("compare_with_string", """
    result = torch.tensor([1.0]) == "a"
""")
for op, sym in {"and": "&", "or": "|", "xor": "^"}.items():
    case(f"bitwise_{op}", f"""
        result = (torch.tensor([True, False, True]) {sym} torch.tensor([True, True, False]),
                  torch.tensor([12, 10]) {sym} torch.tensor([10, 6]),
                  torch.tensor([True, False]) {sym} torch.tensor([2, 3]),
                  torch.tensor([12, 10], dtype=torch.int32) {sym} 3,
                  torch.bitwise_{op}(torch.tensor([5]), torch.tensor([3])),
                  torch.tensor([True]) {sym} True)
    """)
    case(f"bitwise_{op}_float_error", f"""
        result = torch.tensor([1.0]) {sym} torch.tensor([1.0])
    """)
case("bitwise_not", """
    result = (~torch.tensor([True, False]), ~torch.tensor([1, -2]),
              torch.bitwise_not(torch.tensor([3], dtype=torch.uint8)))
""")
case("bitwise_not_float_error", """
    result = ~torch.tensor([1.0])
""")
case("bitwise_not_fn_float_error", """
    result = torch.bitwise_not(torch.tensor([1.0]))
""")
case("logical_not", """
    result = (torch.logical_not(torch.tensor([1.0, 0.0, -2.0])), torch.tensor([0, 3]).logical_not(),
              torch.tensor([True, False]).logical_not())
""")
case("isclose_allclose_equal", """
    a = torch.tensor([1.0, 2.0, float('nan')])
    b = torch.tensor([1.0, 2.00001, float('nan')])
    result = (torch.isclose(a, b), torch.isclose(a, b, equal_nan=True), a.isclose(b, rtol=0, atol=0),
              torch.allclose(a[:2], b[:2]), a[:2].allclose(b[:2], rtol=0.0, atol=0.0),
              torch.allclose(a, b, equal_nan=True), torch.equal(a[:2], a[:2].clone()),
              torch.equal(torch.tensor([1.0, 2.0]), torch.tensor([1, 2])),
              torch.equal(torch.ones(2), torch.ones(3)), a.equal(a))
""")
case("isclose_requires_grad", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    r = torch.isclose(a, torch.tensor([1.0, 2.5]))
    result = (r, r.requires_grad, torch.allclose(a, a))
""")
case("isclose_int", """
    result = torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 3]))
""")
case("all_any", """
    x = torch.tensor([[True, False], [True, True]])
    result = (x.all(), x.any(), x.all(dim=1), x.any(0), x.all(1, keepdim=True),
              torch.tensor([1.0, 0.0]).all(), torch.tensor([0, 2]).any(),
              torch.tensor([], dtype=torch.bool).all(), torch.tensor([], dtype=torch.bool).any())
""")
case("all_any_functions", """
    x = torch.tensor([[True, False], [True, True]])
    result = (torch.all(x), torch.any(x, dim=0), torch.all(torch.tensor([1, 2])))
""")

# ---- reductions ---------------------------------------------------------------------------------

M = "[[1.0, -2.0, 3.0], [4.0, 0.5, -1.0]]"

for op in ("sum", "mean"):
    case(f"{op}_all", f"""
        x = torch.tensor({M}, requires_grad=True)
        y = x.{op}()
        y.backward()
        result = (y, x.grad, y.grad_fn._saved_self_sym_sizes)
    """)
    case(f"{op}_function", f"""
        x = torch.tensor({M}, requires_grad=True)
        y = torch.{op}(x)
        y.backward(torch.tensor(2.0))
        result = (y, x.grad)
    """)
    for dim in ("0", "1", "-1", "(0, 1)", "[1]", "(-1, 0)"):
        tag = dim.replace("(", "").replace(")", "").replace("[", "list").replace("]", "")
        tag = tag.replace(", ", "_").replace("-", "m")
        case(f"{op}_dim_{tag}", f"""
            x = torch.tensor({M}, requires_grad=True)
            y = x.{op}({dim})
            (y * torch.arange(1, y.numel() + 1).reshape(y.shape)).sum().backward()
            result = (y, x.grad, y.grad_fn._saved_dim, y.grad_fn._saved_keepdim)
        """)
    case(f"{op}_keepdim", f"""
        x = torch.tensor({M}, requires_grad=True)
        y = x.{op}(dim=1, keepdim=True)
        y.backward(torch.tensor([[1.0], [2.0]]))
        result = (y, x.grad, y.grad_fn._saved_self_sym_sizes)
    """)
    case(f"{op}_0d", f"""
        x = torch.tensor(3.0, requires_grad=True)
        y = x.{op}()
        y.backward()
        result = (y, x.grad, x.{op}(0), x.{op}(-1, keepdim=True))
    """)
    case(f"{op}_0d_dim_grad", f"""
        x = torch.tensor(3.0, requires_grad=True)
        y = x.{op}(0)
        y.backward()
        result = (y, x.grad)
    """)
    case(f"{op}_3d", f"""
        x = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
        y = x.{op}((0, 2))
        y.backward(torch.tensor([1.0, 2.0, 3.0]))
        result = (y, x.grad)
    """)
    case(f"{op}_dim_out_of_range", f"""
        result = torch.ones(2, 3).{op}(2)
    """)
    case(f"{op}_repeated_dim", f"""
        result = torch.ones(2, 3).{op}((0, 0))
    """)
    case(f"{op}_empty", f"""
        result = (torch.tensor([]).{op}(), torch.zeros(0, 3).{op}(0))
    """)
    case(f"{op}_float64", f"""
        x = torch.tensor({M}, dtype=torch.float64, requires_grad=True)
        y = x.{op}(0)
        y.sum().backward()
        result = (y, x.grad)
    """)
case("sum_int_bool_dtypes", """
    result = (torch.tensor([1, 2, 3]).sum(), torch.tensor([True, True, False]).sum(),
              torch.tensor([1, 2], dtype=torch.int32).sum(), torch.tensor([1, 2], dtype=torch.uint8).sum(),
              torch.tensor([1, 2], dtype=torch.int8).sum(0), torch.tensor([1, 2]).sum(dtype=torch.float64),
              torch.tensor([1.5, 2.5]).sum(dtype=torch.float64), torch.tensor([[True], [False]]).sum(1))
""")
case("sum_dtype_grad", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.sum(dtype=torch.float64)
    y.backward()
    result = (y, x.grad)
""")
case("sum_float16", """
    x = torch.tensor([1.0, 2.0, 3.5], dtype=torch.float16, requires_grad=True)
    y = x.sum()
    y.backward()
    result = (y, x.grad)
""")
case("mean_int_error", """
    result = torch.tensor([1, 2]).mean()
""")
case("mean_bool_error", """
    result = torch.tensor([True, False]).mean()
""")
case("mean_int_dtype", """
    result = (torch.tensor([1, 2]).mean(dtype=torch.float32), torch.mean(torch.tensor([1, 2]), 0, dtype=torch.float64))
""")
case("mean_saved_numel", """
    x = torch.ones(2, 3, requires_grad=True)
    result = (x.mean().grad_fn._saved_self_sym_numel, x.mean(1).grad_fn._saved_self_sym_numel)
""")

for op in ("max", "min"):
    case(f"{op}_all_ties", f"""
        x = torch.tensor([[1.0, 4.0, 4.0], [-2.0, 4.0, -2.0]], requires_grad=True)
        y = x.{op}()
        y.backward()
        result = (y, x.grad)
    """)
    case(f"{op}_all_function", f"""
        x = torch.tensor([3.0, -1.0, 2.0], requires_grad=True)
        y = torch.{op}(x)
        y.backward(torch.tensor(5.0))
        result = (y, x.grad, y.grad_fn._saved_result, y.grad_fn._saved_self)
    """)
    case(f"{op}_dim", f"""
        x = torch.tensor([[1.0, 4.0, 4.0], [-2.0, 0.0, -2.0]], requires_grad=True)
        r = x.{op}(1)
        r.values.backward(torch.tensor([1.0, 2.0]))
        result = (r, r[0], r[1], r.values, r.indices, x.grad, type(r).__name__)
    """)
    case(f"{op}_dim_keepdim", f"""
        x = torch.tensor([[1.0, 4.0], [-2.0, 5.0], [3.0, 3.0]], requires_grad=True)
        values, indices = torch.{op}(x, dim=0, keepdim=True)
        values.sum().backward()
        result = (values, indices, x.grad, values.grad_fn._saved_indices, values.grad_fn._saved_dim)
    """)
    case(f"{op}_dim_negative", f"""
        x = torch.tensor([[1.0, 4.0], [-2.0, 5.0]], requires_grad=True)
        r = torch.{op}(x, -1)
        r.values.sum().backward()
        result = (r, x.grad)
    """)
    case(f"{op}_dim_0d", f"""
        x = torch.tensor(2.0, requires_grad=True)
        r = x.{op}(0)
        r.values.backward()
        result = (r, x.grad)
    """)
    case(f"{op}_int", f"""
        x = torch.tensor([[3, 1], [2, 7]])
        result = (x.{op}(), x.{op}(1), x.{op}(dim=0, keepdim=True))
    """)
    case(f"{op}_nan", f"""
        x = torch.tensor([1.0, float('nan'), 3.0])
        result = (x.{op}(), x.{op}(0))
    """)
    case(f"{op}_empty_error", f"""
        result = torch.tensor([]).{op}()
    """)
    case(f"{op}_other_kw_tensor", f"""
        result = torch.{op}(torch.tensor([1.0, 5.0]), torch.tensor([3.0, 3.0]))
    """)
    case(f"{op}_dim_out_of_range", f"""
        result = torch.ones(2).{op}(1)
    """)
    case(f"am{op[1:]}_dims", f"""
        x = torch.tensor([[1.0, 4.0, 4.0], [4.0, 0.0, -2.0]], requires_grad=True)
        y = x.am{op[1:]}(1)
        y.backward(torch.tensor([1.0, 2.0]))
        result = (y, x.grad, y.grad_fn._saved_dim, y.grad_fn._saved_keepdim)
    """)
    case(f"am{op[1:]}_all_ties", f"""
        x = torch.tensor([[1.0, 4.0, 4.0], [4.0, -2.0, -2.0]], requires_grad=True)
        y = torch.am{op[1:]}(x)
        y.backward()
        result = (y, x.grad, y.grad_fn._saved_dim)
    """)
    case(f"am{op[1:]}_tuple_keepdim", f"""
        x = torch.arange(12.0).reshape(2, 3, 2).requires_grad_()
        y = torch.am{op[1:]}(x, (0, 2), keepdim=True)
        y.sum().backward()
        result = (y, x.grad)
    """)
    case(f"arg{op}", f"""
        x = torch.tensor([[1.0, 4.0, 4.0], [-2.0, 0.0, -2.0]])
        result = (x.arg{op}(), torch.arg{op}(x, dim=1), x.arg{op}(0, keepdim=True),
                  torch.tensor(3.0).arg{op}(), torch.tensor([2, 9, 9]).arg{op}(),
                  torch.tensor([1.0, float('nan')]).arg{op}())
    """)
case("max_repr_return_type", """
    x = torch.tensor([[1.0, 4.0], [3.0, 2.0]], requires_grad=True)
    result = repr(x.max(0))
""")

for op in ("var", "std"):
    case(f"{op}_all", f"""
        x = torch.tensor([1.0, 2.0, 4.0, 7.0], requires_grad=True)
        y = x.{op}()
        y.backward()
        result = (y, x.grad, y.grad_fn._saved_correction, y.grad_fn._saved_dim)
    """)
    case(f"{op}_dim_unbiased_false", f"""
        x = torch.tensor({M}, requires_grad=True)
        y = torch.{op}(x, 1, unbiased=False)
        y.backward(torch.tensor([1.0, 2.0]))
        result = (y, x.grad)
    """)
    case(f"{op}_correction_keepdim", f"""
        x = torch.tensor({M}, requires_grad=True)
        y = x.{op}(dim=0, correction=0, keepdim=True)
        y.sum().backward()
        result = (y, x.grad, y.grad_fn._saved_keepdim)
    """)
    case(f"{op}_positional_unbiased", f"""
        x = torch.tensor([1.0, 2.0, 4.0])
        result = (x.{op}(False), x.{op}(True), torch.{op}(x, 0, True, True))
    """)
    case(f"{op}_single_element", f"""
        x = torch.tensor([3.0], requires_grad=True)
        y = x.{op}()
        y.backward()
        result = (y, x.grad)
    """)
    case(f"{op}_int_error", f"""
        result = torch.tensor([1, 2]).{op}()
    """)
    case(f"{op}_float64_2d", f"""
        x = torch.tensor({M}, dtype=torch.float64, requires_grad=True)
        y = x.{op}((0, 1))
        y.backward()
        result = (y, x.grad)
    """)

case("prod_all", """
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    y = x.prod()
    y.backward()
    result = (y, x.grad)
""")
case("prod_one_zero", """
    x = torch.tensor([2.0, 0.0, 3.0], requires_grad=True)
    y = torch.prod(x)
    y.backward()
    result = (y, x.grad)
""")
case("prod_two_zeros", """
    x = torch.tensor([2.0, 0.0, 0.0], requires_grad=True)
    y = x.prod()
    y.backward()
    result = (y, x.grad)
""")
case("prod_dim", """
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 0.0, 6.0]], requires_grad=True)
    y = x.prod(1)
    y.backward(torch.tensor([1.0, 2.0]))
    result = (y, x.grad, y.grad_fn._saved_dim, y.grad_fn._saved_keepdim)
""")
case("prod_dim_keepdim", """
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = torch.prod(x, 0, keepdim=True)
    y.sum().backward()
    result = (y, x.grad)
""")
case("prod_int_bool", """
    result = (torch.tensor([2, 3]).prod(), torch.tensor([True, False]).prod(),
              torch.tensor([2, 3], dtype=torch.int32).prod())
""")

for op in ("softmax", "log_softmax"):
    case(f"{op}_dim0", f"""
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x.{op}(0)
        y.backward(torch.tensor([1.0, 0.0, -1.0]))
        result = (y, x.grad, y.grad_fn._saved_dim)
    """)
    case(f"{op}_function_dims", f"""
        x = torch.tensor({M}, requires_grad=True)
        y = torch.{op}(x, dim=1)
        z = torch.{op}(x, -2)
        (y * torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
        result = (y, z, x.grad)
    """)
    case(f"{op}_large_values", f"""
        x = torch.tensor([1000.0, 1001.0, -1000.0], requires_grad=True)
        y = x.{op}(0)
        y.sum().backward()
        result = (y, x.grad)
    """)
    case(f"{op}_int_error", f"""
        result = torch.tensor([1, 2]).{op}(0)
    """)
    case(f"{op}_dtype_arg", f"""
        x = torch.tensor([1, 2])
        y = torch.tensor([1.0, 2.0], requires_grad=True)
        r = y.{op}(0, dtype=torch.float64)
        r.sum().backward()
        result = (x.{op}(0, dtype=torch.float32), r, y.grad)
    """)
    case(f"{op}_missing_dim", f"""
        result = torch.tensor([1.0, 2.0]).{op}()
    """)
    case(f"{op}_0d", f"""
        x = torch.tensor(2.0, requires_grad=True)
        y = x.{op}(0)
        y.backward()
        result = (y, x.grad)
    """)
    case(f"{op}_inf", f"""
        result = torch.tensor([float('-inf'), 0.0, float('-inf')]).{op}(0)
    """)
case("logsumexp", """
    x = torch.tensor({M}, requires_grad=True)
    y = x.logsumexp(1)
    y.backward(torch.tensor([1.0, 2.0]))
    result = (y, x.grad, y.grad_fn._saved_dim, y.grad_fn._saved_keepdim)
""".replace("{M}", M))
case("logsumexp_function_keepdim", """
    x = torch.tensor([[1000.0, 1000.0], [-5.0, 3.0]], requires_grad=True)
    y = torch.logsumexp(x, dim=(0, 1), keepdim=True)
    y.sum().backward()
    result = (y, x.grad)
""")
case("logsumexp_int_and_inf", """
    result = (torch.tensor([1, 2]).logsumexp(0), torch.tensor([float('-inf'), float('-inf')]).logsumexp(0),
              torch.tensor([float('inf'), 1.0]).logsumexp(0))
""")
case("norm_method", """
    x = torch.tensor([3.0, -4.0], requires_grad=True)
    y = x.norm()
    y.backward()
    result = (y, x.grad, x.detach().norm(1), x.detach().norm(3))
""")
case("norm_p1_grad", """
    x = torch.tensor([3.0, -4.0, 0.0], requires_grad=True)
    y = x.norm(1)
    y.backward()
    result = (y, x.grad)
""")
case("norm_dim", """
    x = torch.tensor([[3.0, 4.0], [6.0, 8.0]], requires_grad=True)
    y = x.norm(dim=1)
    y.sum().backward()
    result = (y, x.grad)
""")
case("norm_of_zero_grad", """
    x = torch.tensor([0.0, 0.0], requires_grad=True)
    y = x.norm()
    y.backward()
    result = (y, x.grad)
""")

# ---- linear algebra --------------------------------------------------------------------------------

case("mm_grad", """
    a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    b = torch.tensor([[1.0, 0.5], [-1.0, 2.0], [0.0, 1.0]], requires_grad=True)
    y = torch.mm(a, b)
    y.backward(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    result = (y, a.grad, b.grad, y.grad_fn._saved_self, y.grad_fn._saved_mat2)
""")
case("mm_operator_transpose", """
    m = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    y = m @ m.t()
    y.sum().backward()
    result = (y, m.grad)
""")
case("mm_one_side_constant", """
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    b = torch.tensor([[1.0, 0.0], [1.0, 1.0]])
    y = a.mm(b)
    z = b.mm(a)
    (y + z).sum().backward()
    result = (y, z, a.grad)
""")
case("mm_saved_sizes", """
    a = torch.ones(2, 3, requires_grad=True)
    b = torch.ones(3, 4, requires_grad=True)
    y = a @ b
    result = (y.grad_fn._saved_self_sym_sizes, y.grad_fn._saved_mat2_sym_sizes,
              y.grad_fn._saved_self_sym_strides, y.grad_fn._saved_mat2_sym_strides)
""")
case("mm_int", """
    result = torch.tensor([[1, 2]]) @ torch.tensor([[3], [4]])
""")
case("mm_dtype_mismatch", """
    result = torch.tensor([[1.0, 2.0]]) @ torch.tensor([[1], [2]])
""")
case("mm_float64", """
    a = torch.tensor([[1.0, 2.0]], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([[3.0], [4.0]], dtype=torch.float64, requires_grad=True)
    y = a @ b
    y.backward(torch.ones(1, 1, dtype=torch.float64))
    result = (y, a.grad, b.grad)
""")
case("mv_grad", """
    a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    v = torch.tensor([1.0, -1.0, 0.5], requires_grad=True)
    y = torch.mv(a, v)
    y.backward(torch.tensor([1.0, 2.0]))
    result = (y, a.grad, v.grad, y.grad_fn._saved_self, y.grad_fn._saved_vec)
""")
case("mv_operator", """
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    v = torch.tensor([1.0, -1.0])
    y = a @ v
    y.sum().backward()
    result = (y, a.grad, a.mv(v))
""")
case("mv_dtype_mismatch", """
    result = torch.tensor([[1.0, 2.0]]) @ torch.tensor([1, 2])
""")
case("dot_grad", """
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = torch.tensor([4.0, -5.0, 6.0], requires_grad=True)
    y = torch.dot(a, b)
    y.backward(torch.tensor(2.0))
    result = (y, a.grad, b.grad, y.grad_fn._saved_self, y.grad_fn._saved_tensor, a @ b, a.dot(b))
""")
case("dot_dtype_mismatch", """
    result = torch.tensor([1.0, 2.0]) @ torch.tensor([1, 2])
""")
case("dot_int", """
    result = torch.dot(torch.tensor([1, 2]), torch.tensor([3, 4]))
""")
case("vector_matrix", """
    v = torch.tensor([1.0, 2.0], requires_grad=True)
    m = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    y = v @ m
    y.backward(torch.tensor([1.0, 0.0, -1.0]))
    result = (y, v.grad, m.grad, y.grad_fn._saved_dim, y.grad_fn._saved_self_sym_sizes)
""")
case("bmm_grad", """
    a = torch.arange(12.0).reshape(2, 2, 3).requires_grad_()
    b = torch.arange(6.0).reshape(2, 3, 1).requires_grad_()
    y = torch.bmm(a, b)
    y.sum().backward()
    result = (y, a.grad, b.grad, a.bmm(b))
""")
case("matmul_3d_2d", """
    a = torch.arange(12.0).reshape(2, 2, 3).requires_grad_()
    b = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], requires_grad=True)
    y = a @ b
    y.sum().backward()
    result = (y, a.grad, b.grad)
""")
case("matmul_3d_1d", """
    a = torch.arange(12.0).reshape(2, 2, 3).requires_grad_()
    v = torch.tensor([1.0, 0.0, -1.0], requires_grad=True)
    y = torch.matmul(a, v)
    y.sum().backward()
    result = (y, a.grad, v.grad)
""")
case("matmul_2d_3d", """
    m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    b = torch.arange(12.0).reshape(2, 2, 3).requires_grad_()
    y = m @ b
    y.sum().backward()
    result = (y, m.grad, b.grad)
""")
case("matmul_1d_3d", """
    v = torch.tensor([1.0, -1.0], requires_grad=True)
    b = torch.arange(12.0).reshape(2, 2, 3).requires_grad_()
    y = v @ b
    y.sum().backward()
    result = (y, v.grad, b.grad)
""")
case("matmul_batch_broadcast", """
    a = torch.arange(12.0).reshape(2, 1, 2, 3).requires_grad_()
    b = torch.arange(18.0).reshape(3, 3, 2).requires_grad_()
    y = a @ b
    y.sum().backward()
    result = (y, a.grad, b.grad)
""")
case("matmul_3d_3d", """
    a = torch.arange(12.0).reshape(2, 2, 3).requires_grad_()
    b = torch.arange(12.0).reshape(2, 3, 2).requires_grad_()
    y = a.matmul(b)
    y.sum().backward()
    result = (y, a.grad, b.grad)
""")
case("matmul_rmatmul_numpy", """
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    result = a.__rmatmul__(torch.tensor([[1.0, 0.0], [0.0, 2.0]]))
""")
for name, expr in {
    "mm_shape_error": "torch.ones(2, 3) @ torch.ones(2, 3)",
    "mv_shape_error": "torch.ones(2, 3) @ torch.ones(2)",
    "dot_shape_error": "torch.ones(3) @ torch.ones(2)",
    "vm_shape_error": "torch.ones(3) @ torch.ones(2, 3)",
    "bmm_shape_error": "torch.ones(2, 2, 3) @ torch.ones(2, 2, 3)",
    "matmul_3d_2d_shape_error": "torch.ones(2, 2, 3) @ torch.ones(2, 3)",
    "matmul_batch_error": "torch.ones(2, 2, 3) @ torch.ones(3, 3, 2)",
    "matmul_0d_error": "torch.tensor(1.0) @ torch.ones(2)",
    "mm_3d_error": "torch.mm(torch.ones(2, 2, 3), torch.ones(3, 2))",
    "mm_1d_error": "torch.mm(torch.ones(3), torch.ones(3, 2))",
    "bmm_2d_error": "torch.bmm(torch.ones(2, 3), torch.ones(3, 2))",
    "mv_torch_shape_error": "torch.mv(torch.ones(2, 3), torch.ones(2))",
    "dot_2d_error": "torch.dot(torch.ones(2, 3), torch.ones(2))",
    "trace_1d_error": "torch.trace(torch.ones(3))",
    "matmul_scalar_error": "torch.ones(2) @ 2",
}.items():
    case(name, f"result = {expr}\n")
case("trace_grad", """
    m = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    y = m.trace()
    y.backward(torch.tensor(3.0))
    result = (y, m.grad, y.grad_fn._saved_self_sym_sizes, torch.trace(m.detach()))
""")
case("trace_int", """
    result = (torch.trace(torch.tensor([[1, 2], [3, 4]])),
              torch.trace(torch.ones(2, 2, dtype=torch.int32)))
""")
case("outer_grad", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, -1.0, 0.5], requires_grad=True)
    y = torch.outer(a, b)
    y.sum().backward()
    result = (y, a.grad, b.grad, a.outer(b))
""")
case("addmm", """
    bias = torch.tensor([1.0, -1.0], requires_grad=True)
    x = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    w = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], requires_grad=True)
    y = torch.addmm(bias, x, w)
    y.sum().backward()
    result = (y, bias.grad, x.grad, w.grad)
""")

# ---- views and reshaping ----------------------------------------------------------------------

V = "torch.arange(6.0).reshape(2, 3).requires_grad_()"
G = "torch.arange(1.0, 7.0)"
VIEWS = {
    "view_2d": "x.view(3, 2)",
    "view_tuple": "x.view((6,))",
    "view_infer": "x.view(-1, 2)",
    "view_as": "x.view_as(torch.ones(3, 2))",
    "reshape_contiguous": "x.reshape(3, 2)",
    "reshape_tuple_infer": "x.reshape((-1,))",
    "reshape_noncontiguous": "x.t().reshape(6)",
    "reshape_as": "x.reshape_as(torch.ones(1, 6))",
    "reshape_function": "torch.reshape(x, (3, -1))",
    "flatten_all": "x.flatten()",
    "flatten_function": "torch.flatten(x.view(1, 2, 3), 1)",
    "flatten_range": "x.view(1, 2, 3).flatten(0, 1)",
    "flatten_same_dim": "x.flatten(1, 1)",
    "unflatten": "x.flatten().unflatten(0, (3, 2))",
    "unflatten_infer": "x.unflatten(1, (3, -1))",
    "permute": "x.permute(1, 0)",
    "permute_tuple_negative": "x.permute((-1, 0))",
    "permute_function": "torch.permute(x, (1, 0))",
    "transpose": "x.transpose(0, 1)",
    "transpose_function": "torch.transpose(x, -1, -2)",
    "transpose_same_dim": "x.transpose(1, 1)",
    "swapaxes": "x.swapaxes(0, 1)",
    "t_method": "x.t()",
    "t_function": "torch.t(x)",
    "T_property": "x.T",
    "mT_property": "x.mT",
    "unsqueeze_0": "x.unsqueeze(0)",
    "unsqueeze_last": "x.unsqueeze(-1)",
    "unsqueeze_middle": "torch.unsqueeze(x, 1)",
    "squeeze_all": "x.view(1, 2, 1, 3).squeeze()",
    "squeeze_dim": "x.view(1, 2, 3).squeeze(0)",
    "squeeze_dim_not_one": "x.squeeze(0)",
    "squeeze_tuple": "x.view(1, 2, 1, 3).squeeze((0, 2))",
    "squeeze_function": "torch.squeeze(x.view(2, 1, 3), 1)",
    "squeeze_nothing": "x.squeeze()",
    "expand": "x[:, :1].expand(2, 4)",
    "expand_new_dims": "x.expand(2, 2, 3)",
    "expand_minus_one": "x[:1].expand(-1, 3).expand(4, -1, -1)",
    "expand_tuple": "x[:1].expand((2, 3))",
    "expand_as": "x[0].expand_as(torch.ones(4, 3))",
    "clone": "x.clone()",
    "clone_function": "torch.clone(x)",
    "contiguous_noop": "x.contiguous()",
    "contiguous_copy": "x.t().contiguous()",
    "flip": "x.flip(0)",
    "flip_dims": "torch.flip(x, (0, 1))",
    "flip_negative": "x.flip([-1])",
    "narrow": "x.narrow(1, 1, 2)",
    "narrow_function": "torch.narrow(x, 0, 1, 1)",
    "select": "x.select(1, 2)",
    "select_negative": "torch.select(x, 0, -1)",
    "repeat": "x.repeat(2, 1)",
    "repeat_new_dims": "x.repeat(2, 1, 2)",
    "repeat_tuple": "x.repeat((1, 2))",
}
for name, expr in VIEWS.items():
    case(name, f"""
        x = {V}
        y = {expr}
        y.backward({G}[:y.numel()].reshape(y.shape) if y.numel() <= 6 else torch.ones(y.shape))
        result = (y, x.grad, y.is_contiguous(), y._base is x, y.shape)
    """)
case("view_incompatible_stride", """
    result = torch.arange(6.0).reshape(2, 3).t().view(6)
""")
case("view_bad_size", """
    result = torch.arange(6.0).view(4, 2)
""")
case("view_two_infers", """
    result = torch.arange(6.0).view(-1, -1)
""")
case("reshape_bad_size", """
    result = torch.arange(6.0).reshape(5)
""")
case("view_infer_bad", """
    result = torch.arange(6.0).view(-1, 4)
""")
case("reshape_saved_sizes", """
    x = torch.ones(2, 3, requires_grad=True)
    result = (x.view(3, 2).grad_fn._saved_self_sym_sizes, x.t().reshape(6).grad_fn._saved_self_sym_sizes,
              x.t().reshape(6).grad_fn.next_functions)
""")
case("reshape_0d", """
    x = torch.tensor(2.0, requires_grad=True)
    y = x.reshape(1, 1)
    z = x.view(-1)
    (y.sum() + z.sum()).backward()
    result = (y, z, x.grad, x.flatten(), x.unsqueeze(0), x.squeeze(), x.t(), x.T)
""")
case("permute_errors", """
    result = torch.ones(2, 3).permute(0)
""")
case("permute_duplicate", """
    result = torch.ones(2, 3).permute(0, 0)
""")
case("transpose_out_of_range", """
    result = torch.ones(2, 3).transpose(0, 2)
""")
case("t_3d_error", """
    result = torch.ones(2, 3, 4).t()
""")
case("T_3d_warning", """
    x = torch.arange(24.0).reshape(2, 3, 4)
    result = x.T.shape
""")
case("T_1d", """
    result = torch.arange(3.0).T
""")
case("mT_1d_error", """
    result = torch.arange(3.0).mT
""")
case("mT_3d", """
    x = torch.arange(12.0).reshape(2, 3, 2).requires_grad_()
    y = x.mT
    y.sum().backward()
    result = (y, y.grad_fn._saved_dim0, y.grad_fn._saved_dim1)
""")
case("t_1d", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.t()
    y.sum().backward()
    result = (y, x.grad)
""")
case("unsqueeze_out_of_range", """
    result = torch.ones(2).unsqueeze(2)
""")
case("squeeze_saved", """
    x = torch.ones(1, 2, 1, requires_grad=True)
    result = (x.squeeze().grad_fn._saved_self_sym_sizes, x.squeeze(0).grad_fn._saved_dim,
              x.squeeze((0, 2)).grad_fn._saved_dim, x.unsqueeze(-1).grad_fn._saved_dim)
""")
case("expand_errors", """
    result = torch.ones(2, 3).expand(2, 4)
""")
case("expand_fewer_dims", """
    result = torch.ones(2, 3).expand(3)
""")
case("expand_grad_sums", """
    x = torch.tensor([[1.0], [2.0]], requires_grad=True)
    y = x.expand(2, 3)
    y.backward(torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
    result = (y, x.grad, y.grad_fn._saved_self_sym_sizes, y.is_contiguous(), y.stride())
""")
case("flatten_errors", """
    result = torch.ones(2, 3, 4).flatten(2, 1)
""")
case("narrow_errors", """
    result = torch.ones(3).narrow(0, 2, 2)
""")
case("select_out_of_range", """
    result = torch.ones(2, 3).select(1, 3)
""")
case("select_0d_error", """
    result = torch.tensor(1.0).select(0, 0)
""")
case("repeat_fewer_dims_error", """
    result = torch.ones(2, 3).repeat(2)
""")
case("repeat_grad", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.repeat(3)
    y.backward(torch.arange(6.0))
    result = (y, x.grad, y.grad_fn._saved_repeats)
""")
case("flip_grad", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.flip(0)
    y.backward(torch.tensor([1.0, 2.0, 3.0]))
    result = (y, x.grad, y.grad_fn._saved_dims)
""")
case("clone_independent_storage", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.clone()
    result = (y, y.data_ptr() == x.data_ptr(), y.is_leaf, y.grad_fn.next_functions)
""")
case("view_shares_storage", """
    x = torch.arange(6.0)
    y = x.view(2, 3)
    y[0, 0] = 100.0
    result = (x, y, y.data_ptr() == x.data_ptr(), y._version, x._version)
""")
case("strides_of_views", """
    x = torch.arange(24.0).reshape(2, 3, 4)
    result = (x.stride(), x.t().stride() if x.dim() == 2 else x.transpose(0, 2).stride(),
              x[:, 1].stride(), x.permute(2, 0, 1).stride(), x.unsqueeze(1).stride(),
              x[..., ::2].stride(), x.stride(1), x.stride(-1), x.is_contiguous(),
              x.transpose(1, 2).is_contiguous())
""")

# ---- indexing ------------------------------------------------------------------------------------

INDEX = {
    "index_int": "x[1]",
    "index_negative": "x[-1]",
    "index_two_ints": "x[1, 2]",
    "index_slice": "x[1:]",
    "index_slice_step": "x[:, ::2]",
    "index_slice_negative": "x[:, -2:]",
    "index_slice_empty": "x[:, 2:1]",
    "index_slice_full": "x[:]",
    "index_slice_past_end": "x[:, 1:10]",
    "index_ellipsis": "x[...]",
    "index_ellipsis_int": "x[..., 0]",
    "index_none": "x[None]",
    "index_none_middle": "x[:, None, 1]",
    "index_list": "x[[0, 1, 1]]",
    "index_list_2d": "x[:, [2, 0]]",
    "index_two_lists": "x[[0, 1], [2, 2]]",
    "index_tensor": "x[torch.tensor([1, 0])]",
    "index_tensor_0d": "x[torch.tensor(1)]",
    "index_bool_mask": "x[x > 2]",
    "index_bool_row_mask": "x[torch.tensor([False, True])]",
    "index_mixed_int_slice_list": "x[1, [0, 2]]",
    "index_repeated": "x[[1, 1, 1], 0]",
    "index_true": "x[True]",
    "index_ellipsis_none": "x[..., None]",
    "index_int_then_slice": "x[0][1:]",
}
for name, expr in INDEX.items():
    case(name, f"""
        x = torch.arange(6.0).reshape(2, 3).requires_grad_()
        y = {expr}
        y.backward(torch.arange(1.0, y.numel() + 1).reshape(y.shape))
        result = (y, x.grad, y.shape, y._base is x)
    """)
case("index_saved", """
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    a, b = x[1], x[:, 1:3]
    result = (a.grad_fn._saved_dim, a.grad_fn._saved_index, a.grad_fn._saved_self_sym_sizes,
              b.grad_fn._saved_dim, b.grad_fn._saved_start, b.grad_fn._saved_end,
              b.grad_fn._saved_step, x[:, ::2].grad_fn._saved_step, x[1:].grad_fn._saved_end)
""")
case("index_saved_indices", """
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    y = x[[1, 0]]
    result = (y.grad_fn._saved_indices, y.grad_fn._saved_self_sym_sizes)
""")
for name, expr in {
    "index_out_of_range": "torch.ones(2, 3)[2]",
    "index_out_of_range_dim1": "torch.ones(2, 3)[0, 5]",
    "index_list_out_of_range": "torch.ones(2, 3)[[0, 4]]",
    "index_too_many": "torch.ones(2, 3)[0, 0, 0]",
    "index_0d": "torch.tensor(1.0)[0]",
    "index_float": "torch.ones(3)[1.0]",
    "index_float_tensor": "torch.ones(3)[torch.tensor([1.0])]",
    "index_mask_shape": "torch.ones(3)[torch.tensor([True, False])]",
    "index_string": "torch.ones(3)['a']",
}.items():
    case(name, f"result = {expr}\n")
case("index_step_negative", """
    result = torch.arange(4.0)[::-1]
""")
case("index_0d_ellipsis_none", """
    x = torch.tensor(5.0, requires_grad=True)
    result = (x[...], x[None], x[..., None])
""")
case("index_int_tensor_types", """
    x = torch.arange(4.0)
    result = (x[torch.tensor([1, 3], dtype=torch.int32)], x[torch.tensor([1, 2], dtype=torch.uint8)],
              x[np.array([0, 2])])
""")
case("len_iter_0d", """
    x = torch.arange(6.0).reshape(2, 3)
    result = (len(x), [r for r in x], list(torch.arange(3)))
""")
case("len_0d_error", """
    result = len(torch.tensor(1.0))
""")
case("iter_0d_error", """
    result = list(torch.tensor(1.0))
""")
case("iter_requires_grad", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    parts = list(x)
    (parts[0] * 3 + parts[1]).backward()
    result = (parts, x.grad)
""")

# ---- joining and splitting ----------------------------------------------------------------------

case("cat_grad", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0, 5.0], requires_grad=True)
    y = torch.cat([a, b])
    y.backward(torch.arange(1.0, 6.0))
    result = (y, a.grad, b.grad, y.grad_fn._saved_dim)
""")
case("cat_dim1_constant", """
    a = torch.ones(2, 1, requires_grad=True)
    b = torch.arange(4.0).reshape(2, 2)
    y = torch.cat((a, b), dim=1)
    y.backward(torch.arange(6.0).reshape(2, 3))
    result = (y, a.grad)
""")
case("cat_negative_dim_aliases", """
    a, b = torch.ones(2, 1), torch.zeros(2, 2)
    result = (torch.cat([a, b], -1), torch.concat([a, b], 1), torch.concatenate([a, b], dim=1))
""")
case("cat_dtype_promotion", """
    result = (torch.cat([torch.tensor([1, 2]), torch.tensor([1.5])]),
              torch.cat([torch.tensor([1.0]), torch.tensor([2.0], dtype=torch.float64)]),
              torch.cat([torch.tensor([True]), torch.tensor([2], dtype=torch.int32)]))
""")
case("cat_promotion_grad", """
    a = torch.tensor([1.0], requires_grad=True)
    b = torch.tensor([2.0], dtype=torch.float64, requires_grad=True)
    y = torch.cat([a, b])
    y.backward(torch.tensor([1.0, 2.0], dtype=torch.float64))
    result = (y, a.grad, b.grad)
""")
case("cat_empty_legacy", """
    result = (torch.cat([torch.tensor([]), torch.ones(2, 2)]), torch.cat([torch.ones(0), torch.ones(2)]))
""")
for name, expr in {
    "cat_size_error": "torch.cat([torch.ones(2, 2), torch.ones(3, 3)])",
    "cat_ndim_error": "torch.cat([torch.ones(2, 2), torch.ones(2)])",
    "cat_empty_list_error": "torch.cat([])",
    "cat_0d_error": "torch.cat([torch.tensor(1.0), torch.tensor(2.0)])",
    "cat_dim_error": "torch.cat([torch.ones(2), torch.ones(2)], 1)",
    "cat_not_tensor": "torch.cat([torch.ones(2), [1.0]])",
    "stack_size_error": "torch.stack([torch.ones(2), torch.ones(3)])",
    "stack_empty_error": "torch.stack([])",
    "stack_dim_error": "torch.stack([torch.ones(2), torch.ones(2)], 3)",
}.items():
    case(name, f"result = {expr}\n")
case("stack_grad", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    y = torch.stack([a, b])
    y.backward(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    result = (y, a.grad, b.grad, y.grad_fn._saved_dim)
""")
case("stack_dims", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0])
    y = torch.stack((a, b), dim=1)
    z = torch.stack([a, b], -1)
    y.backward(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    result = (y, z, a.grad)
""")
case("stack_0d_and_promotion", """
    result = (torch.stack([torch.tensor(1.0), torch.tensor(2.0)]),
              torch.stack([torch.tensor([1]), torch.tensor([2.5])]))
""")
case("unbind_grad", """
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    a, b = x.unbind()
    (a * 2 + b).sum().backward()
    result = (a, b, x.grad, a.grad_fn._saved_dim, torch.unbind(x.detach(), 1))
""")
case("unbind_one_used", """
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    parts = torch.unbind(x, dim=1)
    parts[2].sum().backward()
    result = (parts, x.grad)
""")
case("split_int", """
    x = torch.arange(5.0).requires_grad_()
    parts = x.split(2)
    (parts[0].sum() + 2 * parts[2].sum()).backward()
    result = (parts, x.grad, parts[1].grad_fn._saved_split_size, parts[0].grad_fn._saved_dim)
""")
case("split_sizes", """
    x = torch.arange(6.0).reshape(3, 2).requires_grad_()
    parts = torch.split(x, [1, 2])
    parts[1].sum().backward()
    result = (parts, x.grad)
""")
case("split_dim1", """
    x = torch.arange(6.0).reshape(2, 3)
    result = (x.split(2, dim=1), torch.split(x, 1, -1), x.split(5))
""")
case("split_sizes_error", """
    result = torch.arange(5.0).split([2, 2])
""")
case("chunk", """
    x = torch.arange(5.0).requires_grad_()
    parts = x.chunk(2)
    parts[1].sum().backward()
    result = (parts, x.grad, torch.chunk(torch.arange(6.0).reshape(2, 3), 3, 1),
              torch.arange(4.0).chunk(3), torch.arange(2.0).chunk(5))
""")

# ---- dtype conversion ------------------------------------------------------------------------

case("to_dtype_grad", """
    x = torch.tensor([1.5, 2.5], requires_grad=True)
    y = x.to(torch.float64)
    y.backward(torch.tensor([1.0, 2.0], dtype=torch.float64))
    result = (y, x.grad, y.grad_fn.next_functions)
""")
case("to_same_dtype_is_self", """
    x = torch.tensor([1.5, 2.5], requires_grad=True)
    result = (x.to(torch.float32) is x, x.float() is x, x.to(dtype=torch.float32) is x,
              x.to("cpu") is x, x.to(torch.float32, copy=True) is x, x.type(torch.float32) is x)
""")
case("to_copy_flag", """
    x = torch.tensor([1.5, 2.5], requires_grad=True)
    y = x.to(torch.float32, copy=True)
    result = (y, y is x)
""")
case("casts", """
    x = torch.tensor([1.7, -2.5, 0.0])
    result = (x.double(), x.half(), x.long(), x.int(), x.bool(), x.float(),
              x.to(torch.int8), x.to(torch.uint8), x.type(torch.int16), x.type(),
              x.long().type(), torch.tensor([True]).type())
""")
case("casts_requires_grad", """
    x = torch.tensor([1.7, -2.5], requires_grad=True)
    a, b, c = x.long(), x.bool(), x.half()
    result = (a, b, c, a.requires_grad, b.requires_grad, c.requires_grad, c.grad_fn)
""")
case("type_string", """
    x = torch.tensor([1.7, -2.5])
    result = (x.type('torch.DoubleTensor'), x.type('torch.LongTensor'))
""")
case("type_as", """
    x = torch.tensor([1.5, 2.5], requires_grad=True)
    y = x.type_as(torch.tensor([1], dtype=torch.int32))
    z = x.type_as(torch.tensor([1.0], dtype=torch.float64))
    z.sum().backward()
    result = (y, z, x.grad)
""")
case("to_other_tensor", """
    x = torch.tensor([1.5, 2.5])
    result = (x.to(torch.tensor([1], dtype=torch.int64)), x.to("cpu", torch.float64))
""")
case("int_to_float_requires_grad", """
    x = torch.tensor([1, 2]).float().requires_grad_()
    y = (x * x).sum()
    y.backward()
    result = (y, x.grad)
""")
case("float_to_int_values", """
    result = (torch.tensor([-1.5, 1.5, 2.999, -0.5]).long(), torch.tensor([300.0]).to(torch.uint8)
              if False else torch.tensor([255.0]).to(torch.uint8), torch.tensor([0.0, 0.1]).bool())
""")

# ---- construction methods ------------------------------------------------------------------------

case("new_factories", """
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    result = (x.new_zeros(2, 3), x.new_ones((2,)), x.new_full((2,), 7), x.new_tensor([1, 2]),
              x.new_tensor([1.5]), x.new_zeros(2, dtype=torch.int64), x.new_ones(1, requires_grad=True),
              x.new_empty(2).shape, x.new_empty((2, 1)).dtype)
""")
case("new_tensor_from_int_tensor", """
    x = torch.tensor([1, 2])
    result = (x.new_tensor([1.5, 2.5]), x.new_ones(2), x.new_full((1,), 2.5))
""")

# ---- in-place method values (autograd behaviour is in inplace.py) ---------------------------------

INPLACE_METHODS = {
    "add_": "x.add_(torch.tensor([1.0, 2.0, 3.0]))",
    "add_scalar_": "x.add_(2)",
    "add_alpha_": "x.add_(torch.ones(3), alpha=3)",
    "sub_": "x.sub_(0.5)",
    "mul_": "x.mul_(torch.tensor([2.0, 3.0, 4.0]))",
    "div_": "x.div_(2)",
    "pow_": "x.pow_(2)",
    "neg_": "x.neg_()",
    "exp_": "x.exp_()",
    "log_": "x.log_()",
    "sin_": "x.sin_()",
    "cos_": "x.cos_()",
    "tanh_": "x.tanh_()",
    "sigmoid_": "x.sigmoid_()",
    "relu_": "x.relu_()",
    "abs_": "x.abs_()",
    "sqrt_": "x.sqrt_()",
    "clamp_": "x.clamp_(0.0, 1.0)",
    "clip_": "x.clip_(max=1.0)",
    "clamp_min_": "x.clamp_min_(1.0)",
    "clamp_max_": "x.clamp_max_(1.0)",
    "zero_": "x.zero_()",
    "fill_": "x.fill_(7)",
    "fill_tensor_": "x.fill_(torch.tensor(2.5))",
    "copy_": "x.copy_(torch.tensor([9.0, 8.0, 7.0]))",
    "copy_broadcast_": "x.copy_(torch.tensor(4))",
}
for name, expr in INPLACE_METHODS.items():
    case(f"inplace_value_{name}", f"""
        x = torch.tensor([0.5, 1.0, 4.0])
        r = {expr}
        result = (x, x._version, r is x)
    """)
AUGMENTED = {"iadd": "x += 1", "isub": "x -= torch.tensor([1.0, 1.0, 1.0])", "imul": "x *= 2",
             "itruediv": "x /= 4", "ipow": "x **= 2"}
for name, stmt in AUGMENTED.items():
    case(f"inplace_value_{name}", f"""
        x = torch.tensor([0.5, 1.0, 4.0])
        ident = id(x)
        {stmt}
        result = (x, x._version, id(x) == ident)
    """)
case("inplace_int_tensor_float_result_error", """
    x = torch.tensor([1, 2])
    x.add_(1.5)
    result = x
""")
case("inplace_int_div_error", """
    x = torch.tensor([1, 2])
    x /= 2
    result = x
""")
case("inplace_int_mul_int", """
    x = torch.tensor([1, 2])
    x *= 3
    x += torch.tensor([1, 1], dtype=torch.int32)
    result = x
""")
case("inplace_broadcast_error", """
    x = torch.ones(3)
    x.add_(torch.ones(2, 3))
    result = x
""")
case("inplace_float_into_int_copy", """
    x = torch.tensor([1, 2])
    x.copy_(torch.tensor([2.7, -1.2]))
    result = x
""")
case("inplace_float_add_double", """
    x = torch.tensor([1.0, 2.0])
    x.add_(torch.tensor([0.1, 0.2], dtype=torch.float64))
    result = x
""")
case("uniform_normal_shapes", """
    x = torch.zeros(2, 3)
    r = x.uniform_(-1, 1)
    ok = bool(((x >= -1) & (x <= 1)).all())
    y = torch.zeros(4, dtype=torch.float64).normal_(0, 1)
    result = (r is x, ok, x._version, y.dtype, y.shape)
""")

# ---- tensor attributes and conversion ------------------------------------------------------

case("shape_attributes", """
    x = torch.zeros(2, 3, 4)
    result = (x.shape, x.size(), x.size(1), x.size(-1), x.dim(), x.ndim, x.ndimension(),
              x.numel(), x.nelement(), x.element_size(), x.itemsize, x.nbytes, torch.numel(x),
              x.is_floating_point(), torch.is_floating_point(x), torch.is_tensor(x), x.shape[0],
              x.shape.numel(), tuple(x.shape), x.is_cuda, x.device, str(x.device))
""")
case("size_out_of_range", """
    result = torch.zeros(2, 3).size(2)
""")
case("item_and_tolist", """
    result = (torch.tensor(2.5).item(), torch.tensor([3]).item(), torch.tensor(True).item(),
              torch.tensor([[1.5]]).item(), torch.tensor([[1, 2], [3, 4]]).tolist(),
              torch.tensor([0.1, 0.2]).tolist(), torch.tensor(1.5, dtype=torch.float64).tolist(),
              torch.tensor(0.1).item())
""")
case("item_requires_grad", """
    x = torch.tensor(1.5, requires_grad=True)
    result = (x.item(), (x * 2).item(), float(x), int(x * 2))
""")
case("python_number_conversions", """
    result = (float(torch.tensor([2.5])), int(torch.tensor(3.9)), int(torch.tensor(-3.9)),
              bool(torch.tensor([0.0])), bool(torch.tensor(2)), [1, 2, 3][torch.tensor(1)],
              round(float(torch.tensor(2.567)), 2))
""")
case("index_float_tensor_error", """
    result = [1, 2, 3][torch.tensor(1.0)]
""")
case("bool_many_error", """
    result = bool(torch.tensor([1.0, 2.0]))
""")
case("bool_empty_error", """
    result = bool(torch.tensor([]))
""")
case("float_many_error", """
    result = float(torch.tensor([1.0, 2.0]))
""")
case("numpy_roundtrip", """
    x = torch.tensor([1.0, 2.0])
    a = x.numpy()
    a[0] = 10.0
    t = torch.from_numpy(np.array([1, 2], dtype=np.int32))
    result = (x, a, t, torch.as_tensor(np.array([1.5])), np.asarray(x), x.detach().numpy().dtype)
""")
case("numpy_requires_grad_error", """
    result = torch.tensor([1.0], requires_grad=True).numpy()
""")
case("numpy_force", """
    result = torch.tensor([1.0], requires_grad=True).numpy(force=True)
""")
case("np_array_of_requires_grad", """
    result = np.array(torch.tensor([1.0], requires_grad=True))
""")
case("contiguous_after_t", """
    x = torch.arange(6.0).reshape(2, 3)
    y = x.t()
    result = (y.is_contiguous(), y.contiguous().is_contiguous(), y.contiguous().stride(), y.stride(),
              y.contiguous() is y, x.contiguous() is x)
""")
case("numel_of_empty", """
    x = torch.zeros(0, 3)
    result = (x.numel(), x.shape, x.sum(), x.sum(0), x.sum(1), len(x))
""")
