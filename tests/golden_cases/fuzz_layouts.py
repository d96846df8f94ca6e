"""Layouts and zeros the differential fuzzer found different: the strides of the copies that
scatter, index_fill, cat and stack write from transposed or expanded inputs (and the views
that then work or fail), and which zero amin/amax return when 0.0 and -0.0 tie."""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


# ---- scatter and index_fill: the layout of their copy of the input --------------------------

case("scatter_int32_index_transposed_then_view", """
    v1 = torch.tensor([[2.2, 0.01, -1.14], [-0.0, -0.73, -0.05]]).t().requires_grad_()
    v4 = torch.scatter(v1, 1, torch.tensor([[0, 0], [1, 0]], dtype=torch.int32),
                       v1.detach() * 2)
    v7 = v4.view(-1)
    v7.backward(torch.arange(6.0))
    result = [v4, v4.stride(), v7, v1.grad, v1.grad.stride()]
""")
case("scatter_family_strides", """
    t = torch.tensor([[2.2, 0.01, -1.14], [-0.0, -0.73, -0.05]]).t()
    e = torch.tensor([[1.0, 2.0]]).expand(3, 2)
    p = torch.arange(24.0).reshape(2, 3, 4).permute(2, 0, 1)
    i = torch.tensor([[0, 0], [1, 0]])
    src = torch.ones(3, 2)
    result = []
    for x in (t, e):
        result += [torch.scatter(x, 1, i, src).stride(), torch.scatter(x, 1, i, 1.5).stride(),
                   torch.scatter_add(x, 1, i, src).stride(),
                   x.scatter(1, i, src, reduce="add").stride()]
    result += [torch.scatter(p, 1, torch.zeros(4, 2, 3, dtype=torch.long), p).stride(),
               torch.scatter_add(p, 2, torch.zeros(4, 2, 3, dtype=torch.long), p).stride()]
""")
case("scatter_backward_transposed_grad", """
    x = torch.zeros(2, 3).t().requires_grad_()
    y = torch.scatter(x, 1, torch.tensor([[1], [0], [1]]), 5.0)
    y.backward(torch.ones(2, 3).t())
    result = [y.stride(), x.grad, x.grad.stride()]
""")
case("index_fill_keeps_dense_layout", """
    t = torch.tensor([[2.2, 0.01, -1.14], [-0.0, -0.73, -0.05]]).t()
    e = torch.tensor([[1.0, 2.0]]).expand(3, 2)
    p = torch.arange(24.0).reshape(2, 3, 4).permute(2, 0, 1)
    i = torch.tensor([1])
    result = [torch.index_fill(t, 1, i, 2.0).stride(), torch.index_fill(e, 1, i, 2.0),
              torch.index_fill(e, 1, i, 2.0).stride(), torch.index_fill(p, 2, i, 0.0).stride()]
""")

# ---- cat and stack write row-major results ----------------------------------------------------

case("stack_transposed_contiguous_is_itself", """
    v1 = torch.arange(24.0).reshape(2, 3, 4).div(7).requires_grad_()
    v2 = v1.transpose(0, 1)
    v3 = torch.stack([v2, v2], 0)
    v9 = v3.contiguous()
    v9.view(-1).backward(torch.arange(48.0))
    result = [v3.stride(), v9 is v3, v9.grad_fn.name(), v1.grad]
""")
case("cat_stack_strides_non_contiguous", """
    v = torch.arange(24.0).reshape(2, 3, 4)
    v2 = v.transpose(0, 1)
    q = v.permute(2, 0, 1)
    e = torch.tensor([[1.0, 2.0]]).expand(3, 2)
    result = [torch.stack([v2, v2], d).stride() for d in range(4)]
    result += [torch.cat([v2, v2], d).stride() for d in range(3)]
    result += [torch.cat([v2], 0).stride(), torch.stack([v2], 0).stride(),
               torch.cat([v2, v2.contiguous()], 1).stride(), torch.cat([e, e], 1).stride(),
               torch.stack([q, q]).stride(), torch.cat([q, q], 0).stride(),
               torch.hstack([v2, v2]).stride(), torch.vstack([v2, v2]).stride()]
""")

# ---- amin/amax: the first of tied zeros -------------------------------------------------------

case("amin_tied_zeros_atan2", """
    v2 = torch.tensor([[-1.74, 0.0, -0.09, 0.05]], dtype=torch.float64).t().requires_grad_()
    v4 = v2 @ v2.mT
    v5 = v4.amin(-2)
    v6 = torch.atan2(v5, torch.tensor(-2.0, dtype=torch.float64))
    v6.sum().backward()
    result = [v4, v5, v6, v2.grad]
""")
case("amin_amax_tied_zeros_first_wins", """
    result = []
    for vals in ([0.0, -0.0], [-0.0, 0.0], [0.0, -0.0, 0.0], [-0.0, 0.0, -0.0],
                 [-0.0, 1.0, 0.0, -1.0, -0.0, 0.0], [0.0, -0.0] * 3):
        for dt in (torch.float32, torch.float64):
            x = torch.tensor(vals, dtype=dt)
            m = torch.stack([x, x.flip(0)])
            result += [x.amin(), x.amax(), x.min(), x.max(), x.amin(0), x.amax(0),
                       m.amin(1), m.amax(1), m.t().contiguous().amin(0),
                       m.t().amin(0), m.t().amax(0, keepdim=True)]
""")
case("amin_amax_tied_zeros_memory_order", """
    x = torch.tensor([[0.0, -0.0], [-0.0, 0.0], [-0.0, -0.0]])
    p = torch.tensor([[[0.0, -0.0, 0.0], [-0.0, 0.0, 0.0]], [[-0.0, -0.0, 0.0], [0.0, 0.0, -0.0]]])
    result = [x.amin(), x.t().amin(), x.t().amax(), x.t().amin(1), x.t().amin(0),
              p.permute(2, 1, 0).amin((0, 1)), p.permute(1, 2, 0).amax((1, 2)),
              p.permute(2, 0, 1).amin(), p.transpose(0, 2).amax(-1)]
""")
case("amin_tied_zeros_gradient", """
    x = torch.tensor([[-0.0, 0.0, 1.0], [0.0, -0.0, -0.0]], requires_grad=True)
    y = x.amin(1)
    y.backward(torch.tensor([1.0, 3.0]))
    z = x.t().amax(1)
    result = [y, x.grad, z]
""")
