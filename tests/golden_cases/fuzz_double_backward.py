"""Double backward: the graph a gradient records under ``create_graph=True``, and its values.

torch writes each backward formula with ATen ops, some of them backward functions of their
own (``tanh_backward``, ``mse_loss_backward`` ...) whose nodes are ``TanhBackwardBackward0``
and so on; scalars inside a formula are the scalar ops (``MulBackward1``, ``AddBackward1``).
Each case compares the gradient's graph (names along ``next_functions``), its values, and the
next derivatives' values (and, for a few, their graphs too).
"""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


def unary(name: str, expr: str, values: str = "[0.5, -1.5, 2.0]", third: bool = True) -> None:
    """``expr`` of x: its gradient's graph with a grad_output w that requires grad, and the
    next two derivatives (their graphs as well; the third one only with ``third``)."""
    if not third:
        case(name, f"""
            x = torch.tensor({values}, requires_grad=True)
            w = torch.tensor([0.3, 0.7, -1.1], requires_grad=True)
            (g,) = torch.autograd.grad({expr}, x, grad_outputs=w * 1.0, create_graph=True)
            h = torch.autograd.grad((g * g).sum(), [w])
            result = (g, h)
        """)
        return
    case(name, f"""
        x = torch.tensor({values}, requires_grad=True)
        w = torch.tensor([0.3, 0.7, -1.1], requires_grad=True)
        (g,) = torch.autograd.grad({expr}, x, grad_outputs=w * 1.0, create_graph=True)
        h = torch.autograd.grad((g * g).sum(), [x, w], create_graph=True)
        k = torch.autograd.grad((h[0] * h[1]).sum(), [x, w], allow_unused=True,
                                materialize_grads=True)
        result = (g, h, k)
    """)


# ---- the fused backward functions -----------------------------------------------------------
unary("tanh_backward", "x.tanh()")
unary("sigmoid_backward", "x.sigmoid()")
unary("threshold_backward_relu", "x.relu()")
unary("abs_sgn", "x.abs()", third=False)  # torch's d/dx is a lazy zero tensor
unary("leaky_relu_backward", "F.leaky_relu(x, 0.2)")
unary("gelu_backward", "F.gelu(x)")
unary("elu_backward", "F.elu(x, alpha=0.5)")
unary("softplus_backward", "F.softplus(x)")
unary("softplus_backward_at_threshold", "F.softplus(x, beta=2.0, threshold=1.0)")
case("gelu_tanh_backward", """
    x = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
    (g,) = torch.autograd.grad(F.gelu(x, approximate='tanh').sum(), x, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), x)
    result = (g, h)
""")
case("relu_grad_requires_grad", """
    x = torch.tensor([0.5, -1.0, 0.0], requires_grad=True)
    (g,) = torch.autograd.grad(x.relu().sum(), x, create_graph=True)
    node = g.grad_fn
    result = (g, g.requires_grad, node._saved_threshold, node._saved_self,
              sorted(a for a in dir(node) if a.startswith('_saved_')))
""")
case("tanh_backward_saved", """
    x = torch.tensor([0.5, -1.0], requires_grad=True)
    (g,) = torch.autograd.grad(x.tanh().sum(), x, create_graph=True)
    node = g.grad_fn
    result = (node._saved_grad_output, node._saved_output,
              sorted(a for a in dir(node) if a.startswith('_saved_')))
""")

# ---- formulas with scalars: the scalar ops' nodes --------------------------------------------
unary("exp2_scalar_factor", "x.exp2()")
unary("log2_scalar_factor", "x.log2()", "[0.5, 1.5, 2.0]")
unary("log10_scalar_factor", "x.log10()", "[0.5, 1.5, 2.0]")
unary("log1p_add_scalar", "x.log1p()", "[0.5, 1.5, 2.0]")
unary("expm1_add_scalar", "x.expm1()")
unary("rsqrt_pow", "x.rsqrt()", "[0.5, 1.5, 2.0]")
unary("sqrt_mul_scalar", "x.sqrt()", "[0.5, 1.5, 2.0]")
unary("tan_pow", "x.tan()")
unary("asin_rsqrt", "(x / 3).asin()")
unary("atan_add_scalar", "x.atan()")
unary("erf_exp", "torch.erf(x)")
unary("silu_formula", "F.silu(x)")
unary("mul_scalar_twice", "x * 3 * 2")
unary("div_scalar", "x / 3")

# ---- pow -----------------------------------------------------------------------------------------
unary("pow_tensor_tensor", "x.abs() ** w")
unary("pow_scalar_base", "2 ** x")
unary("pow_zero_base", "0 ** x.abs()")
unary("pow_cube", "x.pow(3)")

# ---- softmax and losses ---------------------------------------------------------------------------
unary("softmax_backward_data", "x.softmax(0)")
unary("log_softmax_backward_data", "x.log_softmax(0)")
unary("softmax_dim1_sum", "(x.view(3, 1) * w).softmax(1).sum(1)")
unary("log_softmax_dim0_mean", "(x.view(3, 1) * w).log_softmax(0).mean(1)")
unary("mse_loss_none", "F.mse_loss(x, w, reduction='none')")
unary("mse_loss_mean", "F.mse_loss(x, w).expand(3)")
unary("mse_loss_sum", "F.mse_loss(x, w, reduction='sum').expand(3)", third=False)
unary("mse_loss_target_grad", "F.mse_loss(x, x * 0.5).expand(3)")

# ---- reductions and views ---------------------------------------------------------------------------
unary("sum_dims_unsqueeze", "(x.view(3, 1, 1) * w).sum((1, 2))")
unary("mean_dims_unsqueeze", "(x.view(3, 1, 1) * w).mean((0, 2)).expand(3)")
unary("sum_keepdim_expand", "x.sum(0, keepdim=True).expand(3) * w")
case("expand_to_scalar_sum_to", """
    x = torch.tensor(1.5, requires_grad=True)
    w = torch.tensor([0.3, 0.7, -1.1], requires_grad=True)
    (g,) = torch.autograd.grad(x.tanh().expand(3), x, grad_outputs=w * 1.0, create_graph=True)
    (h,) = torch.autograd.grad(g, w)
    result = (g, h)
""")
case("mm_transpose", """
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    b = torch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
    ga, gb = torch.autograd.grad((a @ b).sum(), [a, b], create_graph=True)
    result = (ga, gb)
""")
case("mm_column_major_input", """
    v = torch.tensor([[0.66, -2.91, -0.72, -0.65]]).t().requires_grad_()
    y = torch.reciprocal(torch.stack([(v @ v.mT).sum(0, keepdim=True)] * 2, 1))
    (g,) = torch.autograd.grad(y.sum(), [v], create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), [v])
    result = (g, h)
""")
case("mm_tril_transposed_leaf", """
    v = torch.tensor([[0.48], [0.3], [0.27]], dtype=torch.float64).t().requires_grad_()
    t = v.tril()
    (g,) = torch.autograd.grad((t @ t.mT).sum(), [v], create_graph=True)
    result = g
""")
case("remainder_floor_div", """
    x = torch.tensor([[1.27, 0.5, 0.45], [-0.31, -3.34, -2.52]], dtype=torch.float64,
                     requires_grad=True)
    y = torch.tensor([0.7, -1.1, 2.0], dtype=torch.float64, requires_grad=True)
    gx, gy = torch.autograd.grad(torch.remainder(x, y).cumsum(1).sum(), [x, y],
                                 create_graph=True)
    result = (gx, gy)
""")
case("maximum_where_masked_fill", """
    x = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
    w = torch.tensor([0.3, -1.5, -1.1], requires_grad=True)
    gx, gw = torch.autograd.grad(torch.maximum(x, w), [x, w], grad_outputs=w * 1.0,
                                 create_graph=True)
    h = torch.autograd.grad((gx * gw).sum(), [x, w], allow_unused=True)
    result = (gx, gw, h)
""")
case("minimum_same_operand", """
    x = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
    w = torch.tensor([0.3, 0.7, -1.1], requires_grad=True)
    (g,) = torch.autograd.grad(torch.minimum(x, x), [x], grad_outputs=w * 1.0,
                               create_graph=True)
    result = g
""")
case("cross_entropy_nll_loss_backward", """
    x = torch.tensor([[0.5, -1.5, 2.0], [0.3, 0.7, -1.1]], requires_grad=True)
    (g,) = torch.autograd.grad(F.cross_entropy(x, torch.tensor([1, 2])), [x], create_graph=True)
    (h,) = torch.autograd.grad((g * g).sum(), [x])
    result = (g, h, g.grad_fn.next_functions[0][0]._saved_reduction)
""")
case("nll_loss_weighted_ignore_index", """
    x = torch.tensor([[0.5, -1.5, 2.0], [0.3, 0.7, -1.1]], requires_grad=True)
    w = torch.tensor([0.5, 2.0, 1.0])
    y = F.nll_loss(x.log_softmax(1), torch.tensor([1, -100]), weight=w, reduction='sum')
    (g,) = torch.autograd.grad(y, [x], create_graph=True)
    (h,) = torch.autograd.grad((g * g).sum(), [x])
    result = (g, h)
""")
unary("bce_with_logits_mean", "F.binary_cross_entropy_with_logits(x, torch.tensor([0., 1., 1.]))"
      ".expand(3)")
unary("bce_with_logits_weighted_sum", "F.binary_cross_entropy_with_logits(x, torch.tensor("
      "[0., 1., 1.]), weight=torch.tensor([0.5, 2.0, 1.0]), reduction='sum').expand(3)")
unary("bce_backward_mean", "F.binary_cross_entropy(x.sigmoid(), torch.tensor([0., 1., 1.]))"
      ".expand(3)")
unary("bce_backward_weighted_sum", "F.binary_cross_entropy(x.sigmoid(), torch.tensor("
      "[0., 1., 1.]), weight=torch.tensor([0.5, 2.0, 1.0]), reduction='sum').expand(3)",
      third=False)
unary("bce_backward_none", "F.binary_cross_entropy(x.sigmoid(), torch.tensor([0., 1., 1.]),"
      " reduction='none')")
case("bce_backward_saved", """
    p = torch.tensor([0.2, 0.6, 0.9], requires_grad=True)
    y = F.binary_cross_entropy(p, torch.tensor([0., 1., 1.]), weight=torch.tensor([1., 2., 3.]))
    (g,) = torch.autograd.grad(y, p, create_graph=True)
    n = g.grad_fn
    result = (g, n._saved_reduction, n._saved_self, n._saved_target, n._saved_weight,
              n._saved_grad_output)
""")
