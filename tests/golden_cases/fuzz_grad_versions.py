"""Gradient versions and graphs the differential fuzzer found: ``cumprod``'s gradient is a
new contiguous tensor (stolen at version 0 by a contiguous leaf, copied for a transposed
one), and under create_graph torch's graph (``reversed_cumsum(y * g) / x`` without zeros,
slices copied into zeros with them); a squeeze that squeezes nothing passes its gradient on
as it is (so a leaf copies it: version 1), while ``expand`` to a 0-d shape sums it (a new
tensor, kept)."""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


WALK = """
    def walk(fn):
        seen, order, out = set(), [fn], []
        for f in order:
            kids = []
            for nf, nr in f.next_functions:
                kids.append("None" if nf is None else f"{nf.name()}:{nr}")
                if nf is not None and id(nf) not in seen:
                    seen.add(id(nf))
                    order.append(nf)
            out.append(f"{f.name()}<{','.join(kids)}>")
        return out
"""

for dt in ("float64", "float32"):
    for dim in (0, 1):
        for retain in (True, False):
            case(f"cumprod_zero_{dt}_dim{dim}_retain{retain}", f"""
                v1 = torch.tensor([[-1.8, 0.0], [-2.75, 3.57]], dtype=torch.{dt}).requires_grad_()
                v1.cumprod({dim}).sum().backward(retain_graph={retain})
                result = [v1.grad, v1.grad._version, v1.grad.stride()]
            """)
case("cumprod_zero_3d", """
    v = torch.tensor([[[0., 1.], [2., 3.]], [[4., 0.], [2., 3.]]]).requires_grad_()
    v.cumprod(1).sum().backward()
    result = [v.grad, v.grad._version, v.grad.stride()]
""")
case("cumprod_zero_create_graph_then_plain_backward", """
    x = torch.tensor([2.0, 0.0, 3.0], requires_grad=True)
    y = x.cumprod(0)
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True, retain_graph=True)
    y.sum().backward()
    result = [g._version, x.grad, x.grad._version]
""")
for data in ("[[-1.8, 0.0], [-2.75, 3.57]]", "[[-1.8, 2.0], [-2.75, 3.57]]"):
    for dim in (0, 1):
        case(f"cumprod_transposed_leaf_{'zero' if '0.0' in data else 'nonzero'}_dim{dim}", f"""
            v = torch.tensor({data}, dtype=torch.float64).t().detach().requires_grad_()
            v.cumprod({dim}).sum().backward()
            result = [v.grad, v.grad._version, v.grad.stride()]
        """)
for name, data in (("zero", "[[-1.8, 0.0], [-2.75, 3.57]]"),
                   ("nonzero", "[[-1.8, 1.0], [-2.75, 3.57]]"), ("zero_1d", "[0., 1., 2.]"),
                   ("zero_late_1d", "[1.5, 2., 0., 3.]")):
    for op in ("cumprod", "cumsum"):
        case(f"{op}_create_graph_{name}", WALK + f"""
            v1 = torch.tensor({data}, dtype=torch.float64).requires_grad_()
            g, = torch.autograd.grad(v1.{op}(0).sum(), [v1], create_graph=True)
            gg, = torch.autograd.grad((g * g).sum(), [v1])
            result = [g, g._version, g.stride(), walk(g.grad_fn) if g.grad_fn else None, gg]
        """)
case("cumprod_create_graph_backward_leaf", """
    v1 = torch.tensor([[-1.8, 0.0], [-2.75, 3.57]], dtype=torch.float64).requires_grad_()
    v1.cumprod(0).sum().backward(create_graph=True)
    result = [v1.grad, v1.grad._version, v1.grad.grad_fn.name()]
""")

VIEWS = {
    "squeeze": "v.squeeze()", "squeeze0": "v.squeeze(0)", "squeeze_dims": "v.squeeze(())",
    "squeeze_twice": "v.squeeze().squeeze()", "view": "v.view(())", "reshape": "v.reshape(())",
    "unsqueeze_squeeze": "v.unsqueeze(0).squeeze(0)", "expand": "v.expand(())",
    "expand_as": "v.expand_as(v)", "index_empty": "v[()]", "ellipsis": "v[...]",
    "view_as": "v.view_as(v)",
}
for name, expr in VIEWS.items():
    case(f"leaf0d_{name}", f"""
        out = []
        for mode in ("implicit", "explicit", "retain", "sum", "grad"):
            v = torch.tensor(-1.87).requires_grad_()
            y = {expr}
            if mode == "implicit":
                y.backward()
            elif mode == "explicit":
                y.backward(torch.ones_like(y))
            elif mode == "retain":
                y.backward(retain_graph=True)
            elif mode == "sum":
                y.sum().backward()
            g = torch.autograd.grad(y, [v])[0] if mode == "grad" else v.grad
            out.append((mode, y.grad_fn.name(), g, g._version))
        result = out
    """)
for name, expr in (("squeeze_2d", "v.squeeze()"), ("squeeze1_2d", "v.squeeze(1)"),
                   ("squeeze_dims_2d", "v.squeeze((0, 1))"), ("squeeze_size1", "v[:1].squeeze()"),
                   ("expand_same_1d", "v[0].expand(())")):
    case(f"leafnd_{name}", f"""
        v = torch.tensor([[1.5, -2.0], [0.5, 3.0]]).requires_grad_()
        y = {expr}
        y.backward(torch.ones_like(y))
        result = [y.grad_fn.name(), v.grad, v.grad._version]
    """)
case("squeeze_0d_create_graph", """
    v = torch.tensor(-1.87, dtype=torch.float64).requires_grad_()
    g, = torch.autograd.grad(v.squeeze() * v, [v], create_graph=True)
    h, = torch.autograd.grad(v.expand(()) * 2, [v], create_graph=True)
    result = [g, g._version, g.grad_fn.name(), h, h._version, h.grad_fn]
""")

# index_select's gradient of a 0-d x is a view of the one-element tensor torch fills in place:
# the view shares its version (1), also under create_graph
for cg in (True, False):
    for shape in ("()", "(1,)", "(3,)"):
        case(f"index_select_{'0d' if shape == '()' else shape[1]}_create_graph{cg}", f"""
            v4 = torch.full({shape}, 1.05, dtype=torch.float64).requires_grad_()
            v8 = v4.index_select(0, torch.tensor([0]) if {shape} else torch.tensor(0))
            g, = torch.autograd.grad(v8.sum(), [v4], allow_unused=True, create_graph={cg},
                                     retain_graph=True)
            result = [g, g._version, g.stride(), g.grad_fn]
        """)

# masked_fill's gradient of x under create_graph: torch's grad.masked_fill(mask, 0)
for x0 in (-1.97, 1.5):
    for inplace in (True, False):
        case(f"masked_fill_{'inplace' if inplace else 'out'}_pow_create_graph_{x0}", WALK + f"""
            v1 = torch.tensor({x0}).requires_grad_()
            if {inplace}:
                v3 = v1.clone()
                v3.masked_fill_(v3 > 0, 0.0)
                v3.pow_(2)
            else:
                v3 = v1.masked_fill(v1 > 0, 0.0) ** 2
            g, = torch.autograd.grad(v3.sum(), [v1], allow_unused=True, create_graph=True,
                                     retain_graph=True)
            gg, = torch.autograd.grad(g, [v1])
            result = [g, g._version, walk(g.grad_fn), gg]
        """)
case("masked_fill_tensor_value_create_graph_x", WALK + """
    v = torch.tensor([1., -2., 3.]).requires_grad_()
    w = torch.tensor(0.5).requires_grad_()
    y = v.masked_fill(v > 0, w * 2)
    g, = torch.autograd.grad((y * v).sum(), [v], create_graph=True)
    result = [g, g._version, walk(g.grad_fn)]
""")
case("masked_fill_broadcast_create_graph", WALK + """
    v = torch.tensor([[1., -2., 3.], [0.5, -1., 2.]]).requires_grad_()
    y = v.masked_fill(torch.tensor([True, False, True]), 0.0)
    g, = torch.autograd.grad((y * y).sum(), [v], create_graph=True)
    result = [g, g._version, walk(g.grad_fn)]
""")

# binary_cross_entropy_with_logits under create_graph: torch's out-of-place formula times g
# (times w), then div_ by numel for a mean (DivBackward1, version 1); t's gradient is
# -x * g with the weight multiplied in place
case("bce_logits_empty_maximum_target_create_graph", WALK + """
    v1 = torch.zeros((0,), dtype=torch.float64).requires_grad_()
    v4 = torch.maximum(v1, v1)
    v5 = F.binary_cross_entropy_with_logits(v1, v4)
    v7 = torch.autograd.grad(v5.sum(), [v1], allow_unused=True, create_graph=True)
    result = [v7[0], v7[0]._version, walk(v7[0].grad_fn)]
""")
for red in ("mean", "sum", "none"):
    for w in (False, True):
        for pw in (False, True):
            for which in (("x",), ("x", "t")) if pw else (("x",), ("t",), ("x", "t")):
                case(f"bce_logits_create_graph_{red}_w{w}_pw{pw}_{''.join(which)}", WALK + f"""
                    x = torch.tensor([0.5, -1., 2.], dtype=torch.float64)
                    t = torch.tensor([0.3, 0.9, 0.1], dtype=torch.float64)
                    ins = []
                    for v, name in ((x, "x"), (t, "t")):
                        if name in {which!r}:
                            v.requires_grad_()
                            ins.append(v)
                    kw = {{}}
                    if {w}:
                        kw["weight"] = torch.tensor([1.5, 2., 0.5], dtype=torch.float64)
                    if {pw}:
                        kw["pos_weight"] = torch.tensor([1.2, 0.7, 2.], dtype=torch.float64)
                    loss = F.binary_cross_entropy_with_logits(x, t, reduction="{red}", **kw)
                    gs = torch.autograd.grad(loss.sum(), ins, create_graph=True)
                    # t's graph under pos_weight is left out: torch's uses log_sigmoid
                    result = [(g, g._version, walk(g.grad_fn) if {not pw} or i == 0 else None)
                              for i, g in enumerate(gs)]
                """)

# a sum over size-1 dims only: torch's expand of the (unsqueezed) gradient keeps its strides,
# so the leaf keeps it (version 0); numpy's broadcast zeroes a size-1 dim's stride
for shape, dim in (("(1,)", "0"), ("(3, 1)", "1"), ("(1, 3)", "0"), ("(2, 1, 2)", "1"),
                   ("(1, 1)", "(0, 1)"), ("(2, 1)", "(1,)")):
    for kd in (False, True):
        case(f"sum_size1_dims_{shape}_{dim}_keepdim{kd}", f"""
            out = []
            for mode in ("implicit", "explicit", "mean"):
                x = torch.ones({shape}).requires_grad_()
                if mode == "implicit":
                    x.sum({dim}, keepdim={kd}).sum().backward()
                elif mode == "explicit":
                    y = x.sum({dim}, keepdim={kd})
                    y.backward(torch.ones_like(y))
                else:
                    x.mean({dim}, keepdim={kd}).sum().backward()
                out.append((mode, x.grad, x.grad._version, x.grad.stride()))
            result = out
        """)
