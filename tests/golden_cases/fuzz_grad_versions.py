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
