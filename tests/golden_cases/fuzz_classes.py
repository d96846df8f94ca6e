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


# ---- N-d losses: (N, C, d1, ...) inputs -------------------------------------------------------
case("loss_ce_nd", """
    x = torch.tensor([[[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]], [[0.1, 0.2, 0.3], [-2.0, 1.5, 0.25]]], requires_grad=True)  # N=2, C=2, d=3
    t = torch.tensor([[0, 1, 1], [1, 0, 0]])
    y = F.cross_entropy(x, t)
    y.backward()
    result = [y, x.grad]
""")
case("loss_ce_nd_weight_ignore", """
    x = torch.tensor([[[0.5, -1.0, 2.0], [1.0, 0.0, -0.5], [0.3, 0.3, 0.1]], [[0.1, 0.2, 0.3], [-2.0, 1.5, 0.25], [0., 1., 2.]]], requires_grad=True)
    t = torch.tensor([[0, 2, 1], [1, -100, 2]])
    w = torch.tensor([1.0, 2.0, 0.5])
    r = []
    for red in ('mean', 'sum', 'none'):
        y = F.cross_entropy(x, t, weight=w, reduction=red)
        r.append(y)
    y = F.cross_entropy(x, t, weight=w)
    y.backward()
    result = r + [x.grad]
""")
case("loss_ce_nd_smooth", """
    x = torch.tensor([[[0.5, -1.0, 2.0], [1.0, 0.0, -0.5], [0.3, 0.3, 0.1]], [[0.1, 0.2, 0.3], [-2.0, 1.5, 0.25], [0., 1., 2.]]], requires_grad=True)
    t = torch.tensor([[0, 2, 1], [1, 0, 2]])
    r = [F.cross_entropy(x, t, label_smoothing=0.1, reduction=red) for red in ('mean','sum','none')]
    r[0].backward()
    result = r + [x.grad]
""")
case("loss_ce_nd_prob", """
    x = torch.tensor([[[0.5, -1.0], [1.0, 0.0]], [[0.1, 0.2], [-2.0, 1.5]]], requires_grad=True)
    p = torch.softmax(torch.tensor([[[1.0, 2.0], [0.5, 0.0]], [[0.3, 0.2], [-1.0, 1.0]]]), 1)
    r = [F.cross_entropy(x, p, reduction=red) for red in ('mean','sum','none')]
    r[0].backward()
    result = r + [x.grad]
""")
case("loss_nll_nd", """
    x = torch.tensor([[[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]], [[0.1, 0.2, 0.3], [-2.0, 1.5, 0.25]]], requires_grad=True)
    t = torch.tensor([[0, 1, 1], [1, 0, 0]])
    r = [F.nll_loss(x, t, reduction=red) for red in ('mean','sum','none')]
    r[0].backward()
    result = r + [x.grad]
""")
case("loss_nll_4d", """
    x = torch.arange(24.).reshape(1, 3, 2, 4).requires_grad_()
    t = torch.tensor([[[0, 1, 2, 1], [2, 2, 0, -100]]])
    r = [F.nll_loss(x, t, reduction=red) for red in ('mean','sum','none')]
    r[0].backward()
    result = r + [x.grad]
""")
case("loss_ce_shape_err", """
    F.cross_entropy(torch.zeros(1, 3, 2), torch.tensor([1]))
""")
case("loss_nll_shape_err", """
    F.nll_loss(torch.zeros(1, 3, 2), torch.tensor([[1, 0, 1]]))
""")
case("loss_nd_errors_and_forms", """
    x4 = torch.zeros(2, 3, 2, 2)
    x3 = torch.zeros(2, 3, 4)
    r = []
    for f in (lambda: F.nll_loss(x4, torch.zeros(2, 2, 2, dtype=torch.int32)),
              lambda: F.nll_loss(x4, torch.zeros(2, 2, 3, dtype=torch.long)),
              lambda: F.nll_loss(x4, torch.zeros(2, 4, dtype=torch.long)),
              lambda: F.nll_loss(x4, torch.zeros(2, 2, 2, dtype=torch.long), weight=torch.ones(2)),
              lambda: F.nll_loss(x3, torch.zeros(2, 4, dtype=torch.long), weight=torch.ones(2)),
              lambda: F.nll_loss(x4, torch.full((2, 2, 2), 3)),
              lambda: F.nll_loss(x4.long(), torch.zeros(2, 2, 2, dtype=torch.long)),
              lambda: F.nll_loss(x3, torch.zeros(3, 4, dtype=torch.long)),
              lambda: F.nll_loss(torch.zeros(2, 3, 0), torch.zeros(2, 0, dtype=torch.long)),
              lambda: F.nll_loss(torch.zeros(2, 3, 0), torch.zeros(2, 0, dtype=torch.long), reduction='none'),
              lambda: F.nll_loss(torch.zeros(2, 3, 1, 2, 2), torch.zeros(2, 1, 2, 2, dtype=torch.long), reduction='none'),
              lambda: F.nll_loss(x4, torch.zeros(2, 2, 2, dtype=torch.uint8)),
              lambda: F.cross_entropy(x3, torch.zeros(2, 4, dtype=torch.int32)),
              lambda: F.nll_loss(x3, torch.zeros(2, 4, dtype=torch.long), ignore_index=0),
              lambda: F.nll_loss(x3, torch.zeros(2, 4, dtype=torch.long), weight=torch.ones(3, 1)),
              lambda: F.nll_loss(x3, torch.zeros(2, 4, 1, dtype=torch.long))):
        try:
            r.append(f())
        except Exception as e:
            r.append(f"{type(e).__name__}: {e}")
    result = r
""")
case("loss_nd_none_and_double_backward", """
    x = torch.tensor([[[[0.5, -1.0], [2.0, 0.1]], [[1.0, 0.0], [-0.5, 0.3]], [[0.2, 0.4], [0.6, -0.8]]]],
                     requires_grad=True)
    t = torch.tensor([[[0, 2], [1, -100]]])
    w = torch.tensor([0.5, 2.0, 1.0])
    y = F.cross_entropy(x, t, weight=w, reduction='none')
    z = F.nll_loss(x.flatten(2), t.flatten(1), weight=w)
    g, = torch.autograd.grad(z, x, create_graph=True)
    (g * x).sum().backward()
    result = [y, z, g, x.grad]
""")
case("loss_nd_nll_modules", """
    x = torch.randn(2, 4, 3, 2, requires_grad=True)
    t = torch.tensor([[[0, 1], [2, 3], [3, 0]], [[1, 1], [0, 2], [2, 3]]])
    a = nn.CrossEntropyLoss(label_smoothing=0.2)(x, t)
    b = nn.NLLLoss(reduction='sum')(torch.log_softmax(x, 1), t)
    (a + b).backward()
    result = [a, b, x.grad]
""")

# ---- narrow with a tensor start ----------------------------------------------------------------
case("narrow_t", """
    x = torch.arange(6.).requires_grad_()
    y = x.narrow(0, torch.tensor(2), 3)
    z = torch.narrow(x, 0, torch.tensor(-2, dtype=torch.int32), 2)
    (y.sum() + 2 * z.sum()).backward()
    result = [y, z, x.grad]
""")
case("narrow_errors", """
    r = []
    x = torch.arange(6.)
    for f in (lambda: x.narrow(0, torch.tensor([2]), 3), lambda: x.narrow(0, torch.tensor(2.0), 3),
              lambda: x.narrow(0, torch.tensor(True), 3), lambda: x.narrow(0, 7, 1),
              lambda: x.narrow(0, -7, 1), lambda: x.narrow(0, torch.tensor(7), 1),
              lambda: x.narrow(0, -2, 3), lambda: x.narrow(0, 2, -1), lambda: torch.tensor(1.).narrow(0, 0, 1)):
        try:
            r.append(f())
        except Exception as e:
            r.append(f"{type(e).__name__}: {e}")
    result = r
""")

# ---- index dtypes and 0-d inputs: gather, scatter, index_select, embedding ----------------------
case("gather_i32", """
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    i = torch.tensor([[0, 0], [1, 0]], dtype=torch.int32)
    y = torch.gather(x, 1, i)
    y.sum().backward()
    result = [y, x.grad]
""")
case("gather_0d", """
    x = torch.tensor(3.0, requires_grad=True)
    y = torch.gather(x, 0, torch.tensor(0))
    y.backward()
    result = [y, x.grad]
""")
case("gather_0d_1elem", """
    x = torch.tensor(3.0, requires_grad=True)
    y = torch.gather(x, 0, torch.tensor([0, 0]))
    y.sum().backward()
    result = [y, x.grad]
""")
case("scatter_0d", """
    x = torch.tensor(3.0, requires_grad=True)
    s = torch.tensor(5.0, requires_grad=True)
    y = torch.scatter(x, 0, torch.tensor(0), s)
    y.backward()
    result = [y, x.grad, s.grad]
""")
case("scatter_add_0d", """
    x = torch.tensor(3.0, requires_grad=True)
    s = torch.tensor(5.0, requires_grad=True)
    y = torch.scatter_add(x, 0, torch.tensor(0), s)
    y.backward()
    result = [y, x.grad, s.grad]
""")
case("scatter_i32", """
    x = torch.zeros(2, 3, requires_grad=True)
    s = torch.arange(6.).reshape(2, 3).requires_grad_()
    i = torch.tensor([[0, 2, 1], [1, 0, 2]], dtype=torch.int32)
    y = x.scatter(1, i, s)
    z = x.scatter_add(1, i, s)
    (y.sum() + (z * 2).sum()).backward()
    result = [y, z, x.grad, s.grad]
""")
case("scatter_value_i32", """
    x = torch.zeros(2, 3, requires_grad=True)
    i = torch.tensor([[0, 2], [1, 0]], dtype=torch.int32)
    y = x.scatter(1, i, 1.5)
    y.sum().backward()
    result = [y, x.grad]
""")
case("index_select_i32", """
    x = torch.arange(6.).reshape(2, 3).requires_grad_()
    y = x.index_select(1, torch.tensor([2, 0, 2], dtype=torch.int32))
    y.sum().backward()
    result = [y, x.grad]
""")
case("index_select_0d", """
    x = torch.tensor(3.0, requires_grad=True)
    y = x.index_select(0, torch.tensor(0))
    y.backward()
    result = [y, x.grad]
""")
case("index_select_0d_index", """
    x = torch.arange(6.).reshape(2, 3).requires_grad_()
    y = x.index_select(1, torch.tensor(1))
    y.sum().backward()
    result = [y, x.grad]
""")
case("embedding_i32", """
    w = torch.arange(12.).reshape(4, 3).requires_grad_()
    y = F.embedding(torch.tensor([[0, 2], [3, 0]], dtype=torch.int32), w)
    y.sum().backward()
    result = [y, w.grad]
""")
case("embedding_0d", """
    w = torch.arange(12.).reshape(4, 3).requires_grad_()
    y = F.embedding(torch.tensor(2), w)
    y.sum().backward()
    result = [y, w.grad]
""")
case("embedding_u8", """
    w = torch.arange(12.).reshape(4, 3).requires_grad_()
    y = F.embedding(torch.tensor([1, 2], dtype=torch.uint8), w)
""")
case("embedding_i16", """
    w = torch.arange(12.).reshape(4, 3).requires_grad_()
    y = F.embedding(torch.tensor([1, 2], dtype=torch.int16), w)
""")
case("gather_i16", """
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    y = torch.gather(x, 1, torch.tensor([[0, 0], [1, 0]], dtype=torch.int16))
""")
case("index_select_i16", """
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    y = x.index_select(1, torch.tensor([0], dtype=torch.int16))
""")
case("index_select_2d_index", """
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    y = x.index_select(1, torch.tensor([[0]]))
""")

# ---- repeat_interleave with a tensor of repeats -----------------------------------------------
case("rep_int_t", """
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = x.repeat_interleave(torch.tensor([1, 2]), dim=0)
    z = torch.repeat_interleave(x, torch.tensor(2))
    w = torch.repeat_interleave(x, torch.tensor([2]), dim=1)
    (y.sum() + (z*2).sum() + (w*3).sum()).backward()
    result = [y, z, w, x.grad]
""")
case("rep_int_only_t", """
    y = torch.repeat_interleave(torch.tensor([1, 0, 3]))
    result = [y]
""")
case("rep_int_t_flat", """
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = x.repeat_interleave(torch.tensor([1, 0, 2, 1]))
    y.sum().backward()
    result = [y, x.grad]
""")
case("rep_int_t_errs", """
    r = []
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    for f in (lambda: x.repeat_interleave(torch.tensor([1, 2, 3]), dim=0), lambda: x.repeat_interleave(torch.tensor([1, -2]), dim=0),
              lambda: x.repeat_interleave(torch.tensor([1., 2.]), dim=0), lambda: x.repeat_interleave(torch.tensor([[1, 2]]), dim=0),
              lambda: x.repeat_interleave(torch.tensor([1, 2]), dim=0, output_size=3), lambda: x.repeat_interleave(torch.tensor([1, 2]), dim=0, output_size=4)):
        try:
            r.append(f())
        except Exception as e:
            r.append(f"{type(e).__name__}: {e}")
    result = r
""")
case("scatter_0d_create_graph", """
    x = torch.tensor(3.0, requires_grad=True)
    s = torch.tensor([5.0, 2.0], requires_grad=True)
    y = torch.scatter_add(x * 1, 0, torch.tensor([0, 0]), s * s)
    g = torch.autograd.grad(y, [x, s], create_graph=True)
    (g[0] + g[1].sum()).backward()
    z = torch.gather(x * 2, 0, torch.tensor([0, 0, 0]))
    gz, = torch.autograd.grad(z.sum(), x, create_graph=True)
    result = [y, g, s.grad, z, gz]
""")


# ---- the nuclear norm ---------------------------------------------------------------------------
case("nuc", """
    x = torch.tensor([[1.0, 2.0, 0.5], [3.0, -4.0, 1.0]], requires_grad=True)
    n = torch.norm(x, 'nuc')
    n.backward()
    result = [n, x.grad]
""")
case("nuc_linalg", """
    x = torch.tensor([[1.0, 2.0, 0.5], [3.0, -4.0, 1.0]], dtype=torch.float64, requires_grad=True)
    n = torch.linalg.matrix_norm(x, ord='nuc')
    n.backward()
    result = [n, x.grad]
""")
case("nuc_batch", """
    x = torch.tensor([[[1.0, 2.0], [3.0, -4.0]], [[0.5, 0.0], [1.0, 2.0]]], requires_grad=True)
    n = torch.linalg.matrix_norm(x, ord='nuc', keepdim=True)
    n.sum().backward()
    result = [n, x.grad]
""")
case("nuc_forms", """
    x = torch.tensor([[[1.0, 2.0], [3.0, -4.0]], [[0.5, 0.0], [1.0, 2.0]]], requires_grad=True)
    a = torch.linalg.matrix_norm(x, ord='nuc', dim=(0, 2))
    b = torch.norm(x, 'nuc', dim=(0, 1), keepdim=True)
    c = torch.linalg.matrix_norm(x)
    d = x[0].norm(p='nuc')
    (a.sum() + b.sum() * 2 + c.sum() + d).backward()
    result = [a, b, c, d, x.grad, torch.linalg.svdvals(x[1])]
""")
case("nuc_errors", """
    r = []
    x = torch.ones(2, 2, 2)
    for f in (lambda: torch.norm(x, 'nuc'), lambda: torch.norm(torch.ones(3), 'nuc'),
              lambda: torch.linalg.matrix_norm(torch.ones(3), 'nuc'),
              lambda: torch.linalg.matrix_norm(torch.ones(3, 3, dtype=torch.long), 'nuc'),
              lambda: torch.linalg.matrix_norm(x, 'nuc', dim=(1, 1)),
              lambda: torch.linalg.matrix_norm(x, 'nuc', dim=(0, 1, 2)),
              lambda: torch.linalg.matrix_norm(x, 'foo'),
              lambda: torch.norm(torch.ones(2, 3), 'nuc', dtype=torch.float64)):
        try:
            r.append(f())
        except Exception as e:
            r.append(f"{type(e).__name__}: {e}")
    result = r
""")
case("nuc_create_graph", """
    x = torch.tensor([[1.0, 2.0], [3.0, -4.0]], requires_grad=True)
    g, = torch.autograd.grad(torch.norm(x, 'nuc'), x, create_graph=True)
    y = torch.tensor([[1.0, 2.0, 0.5], [3.0, -4.0, 1.0]], requires_grad=True)
    h, = torch.autograd.grad(torch.norm(y, 'nuc'), y, create_graph=True)
    z = torch.tensor([[1.0, 2.0], [3.0, -4.0], [0.5, 1.0]], requires_grad=True)
    k, = torch.autograd.grad(torch.norm(z, 'nuc'), z, create_graph=True)
    result = [g, h, k]
""")

# ---- where with a uint8 condition; torch.return_types; kernel names and error types -----------
case("where_u8", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = torch.where(torch.tensor([1, 0, 1], dtype=torch.uint8), x, x * 2)
    result = [y]
""")
case("return_types_attr", """
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    m = x.max(0)
    m.foo
""")
case("return_types_attr2", """
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    m = torch.sort(x)
    m.value
""")
case("mse_long", """
    F.mse_loss(torch.tensor([1, 2]), torch.tensor([1, 3]))
""")
case("softmax_int2", """
    torch.tensor([[1, 2]]).softmax(0)
""")
case("log_softmax_int", """
    torch.log_softmax(torch.tensor([[1, 2]]), 0)
""")
case("return_types_more", """
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    m = x.max(0)
    r = []
    for f in (lambda: setattr(m, 'foo', 1), lambda: setattr(m, 'values', 1), lambda: delattr(m, 'indices'), lambda: m[2], lambda: x.topk(1).bar, lambda: x.median(0).values, lambda: type(m).__name__, lambda: type(m).__module__, lambda: m.count(1)):
        try:
            r.append(f())
        except Exception as e:
            r.append(f"{type(e).__name__}: {e}")
    result = r
""")
case("kernel_names", """
    r = []
    for f in (lambda: F.cross_entropy(torch.tensor([[1, 2]]), torch.tensor([0])),
              lambda: F.cross_entropy(torch.tensor([[[1, 2]]]), torch.tensor([[0, 1]])),
              lambda: F.cross_entropy(torch.tensor([1, 2]), torch.tensor(0)),
              lambda: torch.softmax(torch.tensor(1), 0), lambda: torch.softmax(torch.tensor([[1]]), -1),
              lambda: torch.softmax(torch.tensor([[1]]), 0), lambda: torch.log_softmax(torch.zeros(2, 2, 2, dtype=torch.long), 1),
              lambda: F.mse_loss(torch.tensor([1.]), torch.tensor([1])),
              lambda: F.mse_loss(torch.tensor([True]), torch.tensor([True])),
              lambda: F.mse_loss(torch.tensor([1, 2]), torch.tensor([1, 3])),
              lambda: torch.softmax(torch.zeros(2, 3, dtype=torch.long), 1, dtype=torch.float32)):
        try:
            r.append(f())
        except Exception as e:
            r.append(f"{type(e).__name__}: {e}")
    result = r
""")


# ---- legacy constructors, Tensor.new, attribute deletion ----------------------------------------
case("legacy_ctors", """
    r = []
    for code in ("torch.FloatTensor(2, 3).shape", "torch.FloatTensor([1, 2])", "torch.LongTensor([1, 2])", "torch.DoubleTensor([[1, 2]])",
                 "torch.IntTensor([1, 2])", "torch.BoolTensor([True, False])", "torch.Tensor([1, 2])", "torch.Tensor(2).shape",
                 "torch.Tensor()", "torch.FloatTensor()", "torch.Tensor(2, 3).dtype", "torch.LongTensor(3).dtype", "torch.ByteTensor([1, 2])",
                 "torch.Tensor([[1, 2], [3, 4]])", "torch.Tensor(torch.Size([2, 2])).shape", "torch.FloatTensor(torch.tensor([1., 2.]))",
                 "torch.LongTensor([1.7, 2])", "torch.Tensor([1, 2]).requires_grad", "torch.Tensor(2.5)", "torch.Tensor('a')",
                 "torch.LongTensor(torch.tensor([1., 2.]))", "torch.Tensor([1, 2], dtype=torch.float64)", "torch.FloatTensor(2, 3).type()",
                 "isinstance(torch.tensor([1.]), torch.FloatTensor)", "isinstance(torch.tensor([1]), torch.FloatTensor)",
                 "torch.HalfTensor([1])", "torch.ShortTensor([1])", "torch.CharTensor([1])", "torch.Tensor(0).shape", "torch.Tensor(-1)",
                 "torch.Tensor(torch.tensor(1.))", "torch.Tensor(np.array([1., 2.]))", "torch.FloatTensor([1, 2]).requires_grad_()",
                 "torch.Tensor([1, 2]).grad_fn", "torch.Tensor((1, 2))"):
        try:
            r.append([code, eval(code)])
        except Exception as e:
            r.append([code, f"{type(e).__name__}: {e}"])
    result = r
""")

case("tensor_new", """
    r = []
    x = torch.tensor([1.0, 2.0], dtype=torch.float64)
    i = torch.tensor([1, 2])
    for code in ("x.new(2, 3).shape", "x.new(2, 3).dtype", "x.new([1, 2])", "i.new([1.5, 2])", "x.new()", "x.new(torch.Size([2])).shape",
                 "x.new_tensor([1, 2])", "i.new_tensor([1.5])", "x.new_tensor([1, 2], dtype=torch.int32)", "x.new_tensor(x)",
                 "x.new(x)", "x.new_tensor([1, 2], requires_grad=True)", "x.new('a')", "x.new(2.5)", "x.new([[1], [2]]).shape",
                 "x.new_zeros(2)", "x.new_ones((2, 1))", "x.new_full((2,), 3)", "x.new_empty(2).shape", "i.new_ones(2)"):
        try:
            r.append([code, eval(code)])
        except Exception as e:
            r.append([code, f"{type(e).__name__}: {e}"])
    result = r
""")

case("del_attrs", """
    r = []
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.sum().backward()
    for code in ("del x.grad", "del x.requires_grad", "del x.grad_fn", "del x.data", "del x.is_leaf", "del x._version", "del x.shape", "del x.foo", "del x.names", "del x.dtype"):
        try:
            exec(code)
            r.append([code, "ok", x.grad])
        except Exception as e:
            r.append([code, f"{type(e).__name__}: {e}"])
    result = r
""")
case("legacy_ctor_training_step", """
    w = torch.FloatTensor([[0.5, -1.0], [2.0, 0.25]]).requires_grad_()
    x = torch.Tensor([[1, 2], [3, 4]])
    y = torch.LongTensor([1, 0])
    loss = F.cross_entropy(x @ w, y)
    loss.backward()
    a = torch.FloatTensor(w.detach())
    a.add_(1)
    result = [loss, w.grad, a, w, isinstance(w, torch.FloatTensor), isinstance(y, torch.FloatTensor),
              repr(torch.FloatTensor), torch.LongTensor.dtype]
""")
case("legacy_ctor_of_a_tensor_that_requires_grad_is_an_alias", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    r = []
    for make in (torch.Tensor, torch.FloatTensor, x.new):
        y = make(x)
        r.append([y, y.grad_fn.name(), y.grad_fn.next_functions[0][0].name(), y.is_leaf,
                  y._version])
    y = torch.Tensor(x)
    (y * torch.tensor([3.0, 4.0])).sum().backward()
    r.append(x.grad)
    with torch.no_grad():
        z = torch.Tensor(x)
    r.append([z.grad_fn, z.requires_grad, z.is_leaf])
    h = x * 2
    v = torch.Tensor(h)
    r.append([v.grad_fn.name(), v.grad_fn.next_functions[0][0].name()])
    result = r
""")
case("legacy_ctor_alias_shares_the_version_counter", """
    w = torch.tensor([1.0, 2.0])
    a = torch.Tensor(w)
    a.add_(1)
    result = [w, w._version, a._version, a.is_leaf, a.grad_fn]
""")
case("index_select_out_of_range_by_dim", """
    r = []
    x2 = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    for x, d, i in ((torch.tensor(5.0), 0, [1]), (torch.tensor([5.0, 6.0]), 0, [2]),
                    (torch.tensor([5.0, 6.0]), 0, [-1]), (x2, 0, [2]), (x2, 1, [5]),
                    (x2.t(), 1, [5]), (torch.ones(2, 2, 2), 2, [3]),
                    (torch.ones(2, 2, 2), 1, [3])):
        try:
            x.index_select(d, torch.tensor(i, dtype=torch.int32))
        except Exception as e:
            r.append(f"{type(e).__name__}: {e}")
    result = r
""")
case("scatter_out_of_bounds_on_one_element", """
    r = []
    for x, i in ((torch.tensor([2.0]), torch.tensor(1, dtype=torch.int32)),
                 (torch.tensor(2.0), torch.tensor(1)), (torch.tensor([2.0]), torch.tensor([-1]))):
        try:
            x.scatter(0, i, torch.tensor([3.0]) if x.dim() else torch.tensor(3.0))
        except Exception as e:
            r.append(f"{type(e).__name__}: {e}")
    result = r
""")
case("clamp_with_tensor_bounds_and_nan", """
    x = torch.tensor([1.0, 2.0, 3.0, float('nan'), 0.0], requires_grad=True)
    m = torch.tensor([1.0, 1.0, 5.0, 0.0, float('nan')], requires_grad=True)
    g = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0])
    r = []
    for op in (torch.clamp_max, torch.clamp_min):
        x.grad = m.grad = None
        y = op(x, m)
        y.backward(g)
        r.append([y, x.grad, m.grad])
    result = r
""")
case("gather_and_scatter_with_an_empty_index_of_any_dtype", """
    r = []
    for dt in (torch.uint8, torch.int16, torch.bool, torch.float32):
        r.append(torch.gather(torch.ones(5), 0, torch.tensor([], dtype=dt)))
    r.append(torch.gather(torch.ones(2, 3), 1, torch.tensor([[]], dtype=torch.uint8)))
    for op in (torch.scatter, torch.scatter_add):
        r.append(op(torch.ones(5), 0, torch.tensor([], dtype=torch.uint8), torch.ones(5)))
    x = torch.ones(5, requires_grad=True)
    g = torch.gather(x, 0, torch.tensor([], dtype=torch.uint8))
    g.sum().backward()
    r.append([g.grad_fn.name(), x.grad])
    g = torch.gather(x, 0, torch.zeros(2, 0, dtype=torch.uint8))
    g.sum().backward()
    r.append([g.shape, x.grad])
    r.append(torch.gather(torch.ones(2, 3), 0, torch.zeros(0, 5, dtype=torch.int64)).shape)
    try:
        torch.gather(torch.ones(5), 0, torch.tensor([1], dtype=torch.uint8))
    except Exception as e:
        r.append(f"{type(e).__name__}: {e}")
    result = r
""")


# ---- a wider 0-d operand is cast to the result dtype before the op, not after -----------------

case("zero_dim_float64_operand_computed_in_float32", """
    x = torch.tensor([0.82, -0.64, 2.97, 1e-9], requires_grad=True)
    y = torch.tensor(0.82, dtype=torch.float64)
    tiny = torch.tensor(1e-9, dtype=torch.float64)
    r = [torch.remainder(x, y), torch.fmod(x, y), x - y, x == y, x + tiny == x,
         torch.floor_divide(x, y), torch.atan2(x, y), torch.maximum(x, y), x * y, x / y,
         x.remainder(torch.tensor(-0.01, dtype=torch.float64))]
    (torch.remainder(x, y) + x * y).sum().backward()
    r.append(x.grad)
    result = r
""")
case("zero_dim_wider_operand_integers_and_rhs", """
    a = torch.tensor([250, 7, 3], dtype=torch.uint8)
    i = torch.tensor(257, dtype=torch.int64)
    x = torch.tensor([0.1, 0.2, 0.3])
    d = torch.tensor(0.1, dtype=torch.float64, requires_grad=True)
    out = torch.remainder(d, torch.tensor([0.3, 0.7, 1.1]))
    out.sum().backward()
    result = [a + i, a * i, torch.remainder(a, torch.tensor(3, dtype=torch.int64)),
              d - x, (d - x).dtype, out, d.grad]
""")
