"""The layout and version of gradient tensors: whether ``AccumulateGrad`` keeps the incoming
gradient (its version) or copies it into the leaf's layout (version 1), in-place sums in the
engine's input buffer (+1), and which branch each backward formula takes (column-major
``mm``, shortcuts returning the gradient itself, ``CopySlices``). Empty tensors included:
their strides are torch's, not numpy's."""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


# ---- strides of empty tensors ---------------------------------------------------------------

case("empty_strides", """
    result = [torch.zeros(s).stride() for s in [(0,), (1, 0), (0, 3), (2, 0, 3), (0, 1)]]
    result += [torch.zeros(1, 0).t().stride(), torch.ones(()).expand(0).stride(),
               torch.zeros(1, 0).is_contiguous()]
""")

# ---- mm / addmm: torch's column-major branch ------------------------------------------------

case("mm_column_major_leaf_versions", """
    a = torch.tensor([[-0.36, -2.41], [1.33, 0.0]]).t().requires_grad_()
    (a @ a.mT).sum().backward()
    b = torch.tensor([[1.0, 2.0, 3.0]]).t().requires_grad_()
    g, = torch.autograd.grad(torch.mm(b, b.t()).sum(), [b])
    c = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]).t().requires_grad_()
    w = torch.tensor([[0.5, -1.0], [2.0, 0.25], [1.0, 3.0]]).requires_grad_()
    torch.mm(c, w).sum().backward()
    result = (a.grad, a.grad._version, a.grad.stride(), g._version, g.stride(),
              c.grad._version, c.grad.stride(), w.grad._version)
""")
case("mm_empty_leaf_versions", """
    a = torch.zeros((1, 0)).requires_grad_()
    (a @ a.mT).sum().backward()
    b = torch.zeros((1, 0), dtype=torch.float64).requires_grad_()
    g, = torch.autograd.grad(torch.mm(b, b.t()).sum(), [b])
    result = (a.grad._version, a.grad.stride(), g._version, g.stride())
""")
case("addmm_column_major_mat1_version", """
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).t().requires_grad_()
    bias = torch.tensor([0.5, -0.5], requires_grad=True)
    w = torch.tensor([[1.0, 0.0], [0.5, 2.0]], requires_grad=True)
    torch.addmm(bias, x, w.t()).sum().backward()
    result = (x.grad, x.grad._version, x.grad.stride(), w.grad._version, w.grad.stride())
""")
case("mm_column_major_create_graph_graph", """
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]]).t().requires_grad_()
    b = torch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
    ga, gb = torch.autograd.grad((a @ b).sum(), [a, b], create_graph=True)
    result = (ga, gb, ga._version)
""")

# ---- empty gradients: expanded (zero strides) or contiguous ---------------------------------

for op in ("trunc()", "floor()", "sign()", "round()", "cumsum(-1)", "flip(0)", "roll(1, 0)",
           "double()"):
    case(f"empty_grad_{op.split('(')[0]}_version", f"""
        a = torch.zeros((0,)).requires_grad_()
        a.{op}.sum().backward()
        b = torch.zeros((1, 0)).requires_grad_()
        b.{op}.sum().backward()
        result = (a.grad._version, a.grad.stride(), b.grad._version, b.grad.stride())
    """)
case("empty_grad_reshape_view_versions", """
    a = torch.zeros((1, 0), dtype=torch.float64).requires_grad_()
    a.reshape(-1).sum().backward()
    b = torch.zeros((1, 0)).requires_grad_()
    b.view(-1).exp().sum().backward()
    c = torch.zeros((1, 0)).requires_grad_()
    s = c.squeeze()
    s.sum().backward(retain_graph=True)
    s.sum().backward()
    result = (a.grad._version, b.grad._version, c.grad._version)
""")
case("empty_grad_fill_versions", """
    a = torch.zeros((0,)).requires_grad_()
    x = a.clone()
    x.fill_(0.5)
    x.sum().backward()
    b = torch.zeros((1, 0), dtype=torch.float64).requires_grad_()
    y = b.clone()
    y.zero_()
    y.sum().backward()
    result = (a.grad._version, b.grad._version)
""")
case("empty_grad_sign_double_version", """
    a = torch.zeros((1, 0)).requires_grad_()
    a.sign().double().sum().backward()
    result = (a.grad._version, a.grad.dtype)
""")
case("fill_backward_zeros_not_nan", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    x = a * 1
    x.fill_(3.0)
    x.backward(torch.tensor([float('inf'), float('nan')]))
    result = (a.grad, a.grad._version)
""")

# ---- formula shortcuts: the gradient itself --------------------------------------------------

case("cumsum_size1_dim_returns_grad", """
    a = torch.tensor([[[-0.12, -0.15, 2.12]], [[0.0, -0.3, -1.13]]], requires_grad=True)
    a.cumsum(-2).sum().backward()
    b = torch.tensor(0.5, requires_grad=True)
    b.cumsum(0).backward()
    c = torch.tensor([[1.0, 2.0]], requires_grad=True)
    g, = torch.autograd.grad(c.cumsum(0).sum(), [c], create_graph=True)
    result = (a.grad, a.grad._version, b.grad._version, g)
""")
case("prod_zero_size1_dim_returns_grad", """
    a = torch.tensor([[-0.0, 2.29, -1.58, 0.15]], requires_grad=True)
    a.prod(-2).sum().backward()
    b = torch.tensor([[-1.05, 0.0, -1.63, -0.16]], requires_grad=True)
    b.prod(-2, keepdim=True).sum().backward()
    c = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    c.prod(-2).sum().backward()
    result = (a.grad, a.grad._version, b.grad._version, c.grad, c.grad._version)
""")

# ---- maximum / minimum: in-place steps, then the engine's sum_to / cast ---------------------

case("maximum_same_tensor_versions", """
    a = torch.tensor(-0.16, dtype=torch.float64, requires_grad=True)
    g, = torch.autograd.grad(torch.maximum(a, a).sum(), [a])
    b = torch.tensor(0.92, requires_grad=True)
    torch.minimum(b, b).sum().backward()
    c = torch.tensor(0.93, requires_grad=True)
    torch.maximum(c, c * c).sum().backward()
    result = (g, g._version, b.grad, b.grad._version, c.grad, c.grad._version)
""")
case("maximum_broadcast_and_cast_versions", """
    a = torch.tensor([[-0.53, 2.26, 1.9, 0.79]]).t().requires_grad_()
    b = torch.tensor([[-0.22, 0.0, 1.29, 1.8]], requires_grad=True)
    torch.maximum(b, a).sum().backward()
    c = torch.tensor([-1.48, -3.61, 0.89], dtype=torch.float64, requires_grad=True)
    d = torch.tensor([[0.0, 0.43, 3.74], [1.39, 0.49, -0.4]], requires_grad=True)
    torch.minimum(c, d).sum().backward()
    e = torch.tensor([[2.17, 0.5, 0.73, 0.0]], requires_grad=True)
    torch.minimum(e, torch.tensor(1)).sum().backward()
    f = torch.tensor([[1.95, float('nan')]]).t().requires_grad_()
    gf, = torch.autograd.grad(torch.maximum(f, torch.tensor([-3, 4])).sum(), [f],
                              create_graph=True)
    result = (a.grad._version, b.grad._version, c.grad._version, d.grad._version,
              e.grad._version, gf._version)
""")

# ---- layouts of forward results that decide the gradient's ----------------------------------

case("clone_preserves_layout", """
    xs = [torch.zeros(2, 3).t(), torch.zeros(4, 6).t()[::2], torch.zeros(3, 1).expand(3, 4),
          torch.zeros(4).expand(2, 4), torch.zeros(2, 3, 4).permute(2, 0, 1),
          torch.zeros(2, 1, 3).expand(2, 5, 3).transpose(0, 2)]
    result = [x.clone().stride() for x in xs] + [torch.zeros(2, 3).t().contiguous().stride(),
                                                 torch.zeros(2, 3).t().reshape(6).stride()]
""")
case("clone_inplace_on_transposed_leaf_versions", """
    a = torch.tensor([[0.0, -1.47, 0.6], [2.87, -0.19, 1.0]]).t().requires_grad_()
    x = a.clone()
    x.clamp_(min=0)
    x.sum().backward()
    b = torch.tensor([[1.53, -3.05], [1.46, 1.23]], dtype=torch.float64).t().requires_grad_()
    y = b.clone()
    y.abs_()
    y.sum().backward()
    result = (a.grad, a.grad._version, b.grad._version, b.grad.stride())
""")
case("softmax_family_contiguous_results", """
    out = []
    for fn in ("softmax", "log_softmax"):
        for d in (0, 1):
            x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).t().requires_grad_()
            y = getattr(x, fn)(d)
            y.sum().backward()
            out.append((y.stride(), x.grad.stride(), x.grad._version))
    z = torch.zeros(2, 3, 4).permute(2, 0, 1)
    result = (out, z.log_softmax(1).stride(), z.softmax(2).stride())
""")
case("masked_fill_contiguous_result", """
    x = torch.tensor([[-0.0, -0.0], [0.22, -1.16]]).t().requires_grad_()
    y = x.clone()
    y.masked_fill_(y > 0, 0.0)
    y.sum().backward()
    z = torch.zeros(2, 3).t()
    result = (x.grad._version, z.masked_fill(z > 0, 1.0).stride())
""")
case("relu_grad_follows_input_layout", """
    x = torch.tensor([[-1.33, 0.0, -1.21], [1.24, 0.25, 0.49]]).t().requires_grad_()
    x.relu().log_softmax(-1).sum().backward()
    result = (x.grad, x.grad._version, x.grad.stride())
""")

# ---- CopySlices: the base's layout, copy_ then copy_ into the region (version 2) ------------

for op, stmt in (("relu", "x[0].relu_()"), ("sigmoid", "x[0].sigmoid_()"),
                 ("setitem", "x[0] = 2.0"), ("zero", "x[0].zero_()"),
                 ("clamp", "x[0].clamp_(-1, 1)"), ("fill", "x[0].fill_(0.5)")):
    for tr in (False, True):
        case(f"copyslices_version_{op}_{'transposed' if tr else 'contiguous'}", f"""
            a = torch.tensor([[0.66, -0.61, 1.5], [0.15, 0.73, -2.0]])
            a = (a.t() if {tr} else a).requires_grad_()
            x = a.clone()
            {stmt}
            x.sum().backward()
            result = (a.grad, a.grad._version, a.grad.stride())
        """)
case("copyslices_empty_version", """
    a = torch.zeros((1, 0)).requires_grad_()
    x = a.clone()
    x[0].fill_(0.5)
    x.sum().backward()
    result = (a.grad._version, a.grad.stride())
""")

# ---- empty gradients through unsqueeze / squeeze / casts and the input buffer ---------------

case("empty_grad_squeeze_unsqueeze_versions", """
    a = torch.zeros((1, 0), dtype=torch.float64).requires_grad_()
    a.squeeze().mean(-1).backward()
    b = torch.zeros((0,)).requires_grad_()
    b.unsqueeze(0).sum().backward()
    c = torch.zeros((1, 0)).requires_grad_()
    c[None, 0:2].sum().backward()
    c.sum().backward()
    result = (a.grad._version, a.grad.stride(), b.grad._version, c.grad._version)
""")
case("empty_grad_cast_summed_in_place", """
    a = torch.zeros((1, 0)).requires_grad_()
    (a - a).double().sum().backward()
    result = (a.grad._version, a.grad.stride())
""")
case("cat_legacy_empty_inputs_versions", """
    a = torch.zeros((0,)).requires_grad_()
    torch.cat([a, a], 0).sum().backward()
    b = torch.zeros((0,)).requires_grad_()
    c = torch.tensor([1.0, 2.0], requires_grad=True)
    torch.cat([b, c]).sum().backward()
    result = (a.grad._version, b.grad._version, c.grad._version, c.grad)
""")
case("max_dim_of_0d_version", """
    a = torch.tensor(0.31, requires_grad=True)
    v, i = a.min(0)
    g, = torch.autograd.grad(v.sum(), [a], create_graph=True)
    b = torch.tensor(0.5, requires_grad=True)
    b.max(0)[0].backward()
    result = (g, g._version, b.grad._version)
""")
case("stack_of_0d_grads_are_views", """
    a = torch.tensor(1.08, requires_grad=True)
    torch.stack([a, a], 0).sum().backward()
    b = torch.tensor([1.0, 2.0], requires_grad=True)
    c = torch.tensor([3.0, 4.0], requires_grad=True)
    torch.stack([b, c, b], 1).sum().backward()
    result = (a.grad, a.grad._version, b.grad._version, c.grad._version)
""")
case("relu_backward_masks_inf_and_negative_gradients", """
    x = torch.tensor([[-1.0, 2.0, 0.0, -3.0], [4.0, -0.0, float('nan'), 1.0]], requires_grad=True)
    x.relu().backward(torch.tensor([[float('inf'), 1.0, -2.0, -5.0], [-1.0, -4.0, 3.0, float('nan')]]))
    y = torch.tensor(-2.0, requires_grad=True)
    y.relu().backward(torch.tensor(-1.0))
    result = (x.grad, repr(x.grad), y.grad, repr(y.grad))
""")
