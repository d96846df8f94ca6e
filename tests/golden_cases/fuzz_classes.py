"""Defect classes found by PyTorch's OpInfo database and independent fuzzers: tensors passed
where a number fits (their gradients and node names), argument errors told through a
method, and the forms of common ops that teaching code uses."""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


# ---- a 0-d tensor where a number fits: it gets a gradient -----------------------------------

case("masked_fill_tensor_value", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = torch.tensor(5.0, requires_grad=True)
    y = x.masked_fill(torch.tensor([True, False, True]), v)
    y.sum().backward()
    result = [y, y.grad_fn.name(), v.grad, x.grad]
""")
case("masked_fill_tensor_value_inplace", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = torch.tensor(5.0, requires_grad=True)
    y = x.clone()
    y.masked_fill_(torch.tensor([True, False, True]), v)
    (y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    result = [y, y.grad_fn.name(), v.grad, x.grad]
""")
case("masked_fill_value_only_broadcast_mask", """
    x = torch.tensor([1.0, 2.0, 3.0])
    v = torch.tensor(5.0, requires_grad=True)
    y = x.masked_fill(torch.tensor([[True, False, True], [True, True, True]]), v)
    (y * torch.arange(6.0).reshape(2, 3)).sum().backward()
    result = [y, v.grad]
""")
case("masked_fill_double_value_float_tensor", """
    x = torch.tensor([1., 2, 3])
    v = torch.tensor(2.5, dtype=torch.float64, requires_grad=True)
    y = x.masked_fill(torch.tensor([True, False, True]), v)
    y.sum().backward()
    result = [y, v.grad]
""")
case("masked_fill_value_read_from_itself", """
    x = torch.zeros(3)
    x.masked_fill_(torch.tensor([True, False, True]), x[1] + 1)
    x.masked_fill_(torch.tensor([True, False, True]), x[0])
    result = [x]
""")
case("masked_fill_value_create_graph", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = torch.tensor(5.0, requires_grad=True)
    y = x.masked_fill(torch.tensor([True, False, True]), v * v)
    g, = torch.autograd.grad(y.sum(), v, create_graph=True)
    g.backward()
    result = [g, v.grad]
""")
case("masked_fill_value_into_view", """
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    v = torch.tensor(5.0, requires_grad=True)
    y = x.clone()
    y[1:].masked_fill_(torch.tensor([True, False, True]), v)
    y.sum().backward()
    result = [y, v.grad, x.grad]
""")
case("masked_fill_one_element_value_refused", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x.masked_fill(torch.tensor([True, False, True]), torch.tensor([1.0]))
""")
case("tensor_bounds_one_bound_ops", """
    x = torch.tensor([-1.0, 2.0, 3.0], requires_grad=True)
    lo = torch.tensor(0.5, requires_grad=True)
    hi = torch.tensor(2.5, requires_grad=True)
    a, b, c = torch.clamp_min(x, lo), x.clamp_max(hi), torch.clamp(x, min=lo)
    (a + 2 * b + 3 * c).sum().backward()
    result = [a, b, c, lo.grad, hi.grad, x.grad]
""")
case("tensor_bounds_broadcast_clamp_min", """
    x = torch.tensor([[-1.0, 2.0], [3.0, 0.0]], requires_grad=True)
    lo = torch.tensor([0.5, 1.0], requires_grad=True)
    y = x.clamp_min(lo)
    y.sum().backward()
    result = [y, lo.grad, x.grad]
""")
case("div_rounding_mode_none_overload", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    e = torch.tensor([2.0, 3.0, -4.0], requires_grad=True)
    r = [x.div(e, rounding_mode=None), x.div(2.0, rounding_mode=None),
         torch.div(x, e, rounding_mode=None), x.div(e)]
    r[0].sum().backward()
    y = x.clone()
    y.div_(torch.tensor(2.0), rounding_mode=None)
    result = r + [y, x.grad, e.grad]
""")
case("tensor_scalars_keep_gradients", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    e = torch.tensor(2.0, requires_grad=True)
    ys = [x ** e, torch.pow(e, x), torch.add(x, e, alpha=3), x.sub(e, alpha=2), x.mul(e),
          torch.where(x > 1.5, x, e), torch.maximum(x, e), torch.fmod(x, e), x.clone().fill_(e)]
    sum(y.sum() for y in ys).backward()
    result = ys + [e.grad, x.grad]
""")
case("number_only_arguments_refuse_tensors", """
    v = torch.tensor(2.0, requires_grad=True)
    r = []
    for f in (lambda: torch.full((2,), v), lambda: torch.full_like(torch.zeros(2), v),
              lambda: torch.zeros(2).new_full((2,), v)):
        try:
            f()
        except TypeError as e:
            r.append(str(e))
    result = r
""")

# ---- argument errors through a method: positions without self ---------------------------------

_METHOD_ERRORS = [
    "x.maximum(0.5)", "x.minimum(1)", "x.atan2(0.5)", "x.atan2_(0.5)", "x.hypot(0.5)",
    "x.fmod('a')", "x.fmod_('a')", "x.lt('a')", "x.eq('a')", "x.logical_and(1)",
    "x.gather(0, [0])", "x.index_select(0, [0])", "x.scatter_add(0, torch.tensor([0]), 1.0)",
    "x.scatter_add_(0, torch.tensor([0]), 1.0)", "torch.scatter_add(x, 0, torch.tensor([0]), 1.0)",
    "x.scatter(0, torch.tensor([0]), [1.0])", "x.dot(1.0)", "torch.dot(x, 1.0)",
    "m.mm([1.0])", "torch.mm(m, [1.0])", "m.mv(1.0)", "x.outer(1.0)", "x.bmm(1.0)",
    "x.matmul(1.0)", "x.type_as(1.0)", "x.expand_as(1.0)", "x.view_as(1.0)",
    "x.reshape_as(1.0)", "x.isclose(1.0)", "x.allclose(1.0)", "x.equal(1.0)",
    "x.masked_fill(x > 0, 'a')", "torch.masked_fill(x, x > 0, 'a')",
    "x.where(x > 0, 'a')", "x.add('a')", "x.pow('a')", "x.remainder('a')",
    "x.bitwise_and('a')", "x.clamp_max('a')", "x.roll('a')",
]
for _i, _code in enumerate(_METHOD_ERRORS):
    case(f"method_argument_error_{_i:02d}", f"""
        x = torch.ones(2)
        m = torch.ones(2, 2)
        {_code}
    """)
