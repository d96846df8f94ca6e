"""Differences PyTorch's OpInfo database found (``scripts/oracle/opinfo_conformance.py``):
Python numbers as ``input`` of the arithmetic functions, the fused rounding of
``tanh_backward``, the zero gradients of the samplers, ``torch.zero_`` and the other forms
listed below. Where the last bit matters, values are compared as ``float.hex`` strings."""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


# ---- a Python number as input beside a number -------------------------------------------------

case("numbers_as_input_arithmetic", """
    r = []
    for f in (torch.add, torch.sub, torch.mul, torch.div, torch.true_divide, torch.floor_divide,
              torch.multiply, torch.subtract, torch.divide):
        for a, b in ((-8.478373527526855, -1.765825867652893), (3, 2), (True, 2), (3, 2.5),
                     (-8, 6), (2.5, True)):
            v = f(a, b)
            r.append((f.__name__, v.dtype, v.shape, v.item().hex() if v.is_floating_point()
                      else v.item()))
    result = r
""")
case("numbers_as_input_bool_and_alpha", """
    result = [torch.add(True, True), torch.mul(True, False), torch.add(2, 3, alpha=2),
              torch.div(7, 2, rounding_mode='floor'), torch.div(-7.5, 2, rounding_mode='trunc'),
              torch.add(2, torch.tensor([1, 2])), torch.mul(2.5, torch.tensor([1, 2]))]
""")
case("numbers_as_input_bool_sub_refused", """
    torch.sub(True, 2)
""")

# ---- tanh's backward rounds 1 - y*y once (a fused multiply-add) -------------------------------

case("tanh_backward_fused_float32", """
    x = torch.linspace(-2.5, 2.5, 41).requires_grad_()
    y = torch.tanh(x)
    g = torch.linspace(-1.3, 1.7, 41)
    gx, = torch.autograd.grad(y, x, g, create_graph=True)
    gg, = torch.autograd.grad(gx, x, torch.linspace(0.7, -0.9, 41))
    result = [[v.hex() for v in y.tolist()], [v.hex() for v in gx.tolist()],
              [v.hex() for v in gg.tolist()], gx.grad_fn]
""")
case("tanh_backward_fused_float64", """
    # points where float64 tanh itself rounds alike in both (numpy's and SLEEF's)
    k = [k for k in range(-20, 21) if abs(k) not in (12, 13, 15, 19)]
    x = (torch.tensor(k, dtype=torch.float64) / 8).requires_grad_()
    y = x.tanh()
    g = torch.linspace(-1.3, 1.7, len(k), dtype=torch.float64)
    gx, = torch.autograd.grad(y, x, g)
    result = [[v.hex() for v in (g * (1 - y.detach() * y.detach())).tolist()],
              [v.hex() for v in gx.tolist()]]
""")
case("tanh_module_backward_fused", """
    x = torch.tensor([[0.3, -1.2, 2.0], [0.05, 0.9, -0.6]], requires_grad=True)
    torch.nn.Tanh()(x).sum().backward()
    result = [v.hex() for v in x.grad.flatten().tolist()]
""")

# ---- samplers record a node whose gradient is zero --------------------------------------------

case("normal_and_bernoulli_zero_gradients", """
    torch.manual_seed(0)
    m = torch.tensor([0.0, 1.0], requires_grad=True)
    s = torch.tensor([1.0, 2.0], requires_grad=True)
    outs = [torch.normal(m, s), torch.normal(m, 2.0), torch.normal(1.0, s),
            torch.normal(m, torch.tensor([1.0, 1.0])), torch.bernoulli(m.sigmoid()),
            m.sigmoid().bernoulli()]
    r = []
    for o in outs:
        gs = torch.autograd.grad(o.sum(), [m, s], allow_unused=True)
        r.append((o, o.grad_fn, o.grad_fn.next_functions, gs))
    result = r
""")
case("normal_broadcast_zero_gradients", """
    torch.manual_seed(0)
    m = torch.zeros(1, 3, requires_grad=True)
    s = torch.ones(2, 1, requires_grad=True)
    o = torch.normal(m, s)
    o.backward(torch.ones(2, 3))
    result = [o, m.grad, s.grad, o.requires_grad]
""")
case("normal_zero_gradient_create_graph", """
    torch.manual_seed(0)
    m = torch.tensor([0.5, 1.0], requires_grad=True)
    g, = torch.autograd.grad(torch.normal(m, 1.0).sum(), m, create_graph=True)
    result = [g, g.requires_grad, g.grad_fn]
""")
case("bernoulli_with_p_not_differentiable", """
    torch.manual_seed(0)
    m = torch.tensor([0.2, 0.7], requires_grad=True)
    o = torch.bernoulli(m, 0.3)
    r = [o, o.grad_fn.name(), o.requires_grad]
    try:
        o.sum().backward()
    except RuntimeError as e:
        r.append(str(e))
    result = r
""")
case("samplers_under_no_grad", """
    torch.manual_seed(0)
    m = torch.tensor([0.2, 0.7], requires_grad=True)
    with torch.no_grad():
        result = [torch.normal(m, 1.0).requires_grad, torch.bernoulli(m).requires_grad]
""")
case("normal_number_mean_device", """
    torch.manual_seed(0)
    result = torch.normal(1.6, 0.3, [2, 3], dtype=torch.float64, device='cpu')
""")

# ---- torch.zero_ ------------------------------------------------------------------------------

case("zero_function", """
    x = torch.tensor([[1.5, -2.0], [3.0, 4.0]], requires_grad=True)
    y = x.clone()
    z = torch.zero_(y)
    z.sum().backward()
    result = [z is y, z, z.grad_fn, x.grad, y._version]
""")

# ---- integer linspace: start and end cast first, a double step, truncated fused values -------

case("linspace_integer_dtypes", """
    result = [torch.linspace(4.3, -3, 50, dtype=torch.int64),
              torch.linspace(4.3, 50, 50, dtype=torch.int64),
              torch.linspace(-2.7, 9.9, 13, dtype=torch.int32),
              torch.linspace(0, 10, 7, dtype=torch.int64), torch.linspace(10, 0, 7, dtype=torch.int16),
              torch.linspace(1, 255, 10, dtype=torch.uint8), torch.linspace(-7, 7, 1, dtype=torch.int64),
              torch.linspace(torch.tensor(4.3), torch.tensor(-3), 9, dtype=torch.int64)]
""")

# ---- index_select of a 0-d tensor stays 0-d ---------------------------------------------------

case("index_select_scalar_input", """
    x = torch.tensor(2.5, requires_grad=True)
    r = []
    for idx in (torch.tensor([0]), torch.tensor(0)):
        y = torch.index_select(x, 0, idx)
        g, = torch.autograd.grad(y * 3, x)
        r.append((y, g, y.grad_fn))
    result = r
""")
case("index_select_scalar_input_two_indices", """
    torch.index_select(torch.tensor(2.5), 0, torch.tensor([0, 0]))
""")

# ---- cat with a legacy empty (0,) tensor along a dim only the others have ---------------------

case("cat_legacy_empty_in_dim_1", """
    a = torch.zeros(0, requires_grad=True)
    b = torch.ones(2, 3, requires_grad=True)
    y = torch.cat([a, b], dim=1)
    ga, gb = torch.autograd.grad(y, [a, b], torch.arange(6.0).view(2, 3))
    result = [y, ga, gb]
""")

# ---- scatter with reduce= (deprecated in torch, but still there; no derivative) ---------------

case("scatter_reduce_add_multiply", """
    x = torch.zeros(3, 4)
    idx = torch.tensor([[0, 1, 2, 0], [1, 1, 1, 1]])
    src = torch.arange(8.0).view(2, 4)
    result = [torch.scatter(x, 0, idx, src, reduce='add'),
              torch.scatter(x + 1, 0, idx, src, reduce='multiply'),
              torch.scatter(x, 0, idx, 2.5, reduce='add'),
              x.scatter(0, idx, src, reduce='add'),
              torch.scatter(torch.full((3,), 3), 0, torch.tensor([0, 0]), torch.tensor([2, 5]),
                            reduce='multiply')]
""")
case("scatter_reduce_not_differentiable", """
    x = torch.zeros(3, 4, requires_grad=True)
    idx = torch.tensor([[0, 1, 2, 0], [1, 1, 1, 1]])
    src = torch.arange(8.0).view(2, 4).requires_grad_()
    ys = [torch.scatter(x, 0, idx, src, reduce='add'), torch.scatter(x, 0, idx, 2.5, reduce='multiply'),
          torch.scatter(x.detach(), 0, idx, src, reduce='add')]
    r = [(y.grad_fn.name(), y.grad_fn.next_functions) for y in ys]
    try:
        ys[0].sum().backward()
    except RuntimeError as e:
        r.append(str(e))
    result = r
""")
case("scatter_reduce_unknown", """
    torch.scatter(torch.zeros(3), 0, torch.tensor([0]), torch.ones(1), reduce='mean')
""")

# ---- maximum/minimum: the masked gradient stays in its dtype before it is summed back ---------

case("maximum_minimum_broadcast_grad_float32", """
    torch.manual_seed(0)
    a = torch.randn(10, 1, 5, requires_grad=True)
    b = torch.randn(10, 5, requires_grad=True)
    g = torch.randn(10, 10, 5)
    r = []
    for f in (torch.maximum, torch.minimum, torch.max, torch.min):
        ga, gb = torch.autograd.grad(f(a, b), [a, b], g)
        r.append(([v.hex() for v in ga.flatten().tolist()], [v.hex() for v in gb.flatten().tolist()],
                  ga.dtype))
    result = r
""")
case("maximum_grad_signed_zeros_and_ties", """
    a = torch.tensor([1.0, 2.0, 3.0, float('nan')], requires_grad=True)
    b = torch.tensor([2.0, 2.0, 1.0, 0.0], requires_grad=True)
    ga, gb = torch.autograd.grad(torch.maximum(a, b), [a, b], torch.tensor([-1.0, -3.0, -2.0, 5.0]))
    result = [[v.hex() for v in ga.tolist()], [v.hex() for v in gb.tolist()]]
""")

# ---- binary_cross_entropy: torch's backward formulas when the target requires grad ------------

case("bce_target_requires_grad_grads", """
    p = torch.tensor([[0.2, 0.7, 0.45], [0.9, 0.05, 0.6]], dtype=torch.float64, requires_grad=True)
    t = torch.tensor([[0.0, 1.0, 0.3], [0.8, 0.1, 1.0]], dtype=torch.float64, requires_grad=True)
    w = torch.tensor([0.5, 2.0, 1.5], dtype=torch.float64)
    r = []
    for kw in ({}, {'reduction': 'sum'}, {'reduction': 'none', 'weight': w}, {'weight': w}):
        out = torch.nn.functional.binary_cross_entropy(p, t, **kw)
        v = torch.ones_like(out) * 0.75
        gp, gt = torch.autograd.grad(out, [p, t], v, create_graph=True)
        ggp, ggt = torch.autograd.grad([gp, gt], [p, t], [torch.full_like(p, 0.3), torch.full_like(t, -0.6)])
        r.append(([x.hex() for x in gp.flatten().tolist()], [x.hex() for x in gt.flatten().tolist()],
                  ggp, ggt, gp.grad_fn.name()))
    result = r
""")
case("bce_target_requires_grad_float32", """
    p = torch.tensor([0.2, 0.7, 0.45, 0.9, 0.05], requires_grad=True)
    t = torch.tensor([0.0, 1.0, 0.3, 0.8, 0.1], requires_grad=True)
    torch.nn.functional.binary_cross_entropy(p, t).backward()
    result = [[v.hex() for v in p.grad.tolist()], [v.hex() for v in t.grad.tolist()]]
""")
case("bce_with_logits_grad_order", """
    torch.manual_seed(0)
    x = torch.randn(4, 5, requires_grad=True)
    t = torch.rand(4, 5, requires_grad=True)
    w = torch.rand(4, 5)
    pw = torch.rand(5) * 4
    r = []
    for kw in ({}, {'reduction': 'sum'}, {'weight': w}):  # to the last bit
        out = torch.nn.functional.binary_cross_entropy_with_logits(x, t, **kw)
        gx, gt = torch.autograd.grad(out, [x, t], torch.full_like(out, 0.7))
        r.append(([v.hex() for v in gx.flatten().tolist()], [v.hex() for v in gt.flatten().tolist()]))
    for kw in ({'pos_weight': pw}, {'weight': w, 'pos_weight': pw, 'reduction': 'none'}):
        out = torch.nn.functional.binary_cross_entropy_with_logits(x, t, **kw)
        r.append(torch.autograd.grad(out, [x, t], torch.full_like(out, 0.7)))
    result = r
""")

# ---- softmax/log_softmax backward over a dim with inner elements: torch's fused sums ----------

case("softmax_backward_inner_dim_fused", """
    # inputs constant along the softmax dim: the forward values are exact in both, so the
    # gradients show the backward's own rounding
    torch.manual_seed(0)
    r = []
    for dt in (torch.float32, torch.float64):
        g = torch.randn(3, 5, 4, dtype=dt)
        for f in (torch.softmax, torch.log_softmax):
            for d in (0, 1):
                shape = [3, 5, 4]
                shape[d] = 1
                x = torch.randn(*shape, dtype=dt).expand(3, 5, 4).clone().requires_grad_()
                y = f(x, d)
                gx, = torch.autograd.grad(y, x, g)
                r.append(([v.hex() for v in y.flatten().tolist()],
                          [v.hex() for v in gx.flatten().tolist()]))
    result = r
""")


# ---- topk with ties: the order libstdc++'s selection and sort leave --------------------------

case("topk_ties_integer", """
    torch.manual_seed(0)
    x = torch.randint(0, 4, (3, 40))
    r = []
    for k, largest, srt in ((3, True, True), (7, False, True), (12, True, False), (40, True, True),
                            (1, False, True), (0, True, True)):
        v, i = torch.topk(x, k, 1, largest, srt)
        r.append((v, i))
    result = r
""")
case("topk_ties_partial_sort_path", """
    x = torch.tensor([3, 1, 3, 2, 3, 1, 1] * 20)
    result = [torch.topk(x, 2), torch.topk(x, 2, largest=False), torch.topk(x, 3),
              x.topk(2, sorted=False)]
""")
case("topk_ties_float_nan_and_grad", """
    x = torch.tensor([[1.0, float('nan'), 2.0, 2.0, float('nan'), 0.5, 2.0, 1.0]] * 2,
                     requires_grad=True)
    v, i = torch.topk(x, 5, dim=1)
    v2, i2 = torch.topk(x, 4, dim=1, largest=False, sorted=False)
    g, = torch.autograd.grad((v * torch.arange(5.0)).sum() + v2.sum(), x)
    result = [v, i, v2, i2, g]
""")

# ---- norm's backward in torch's order: g * (x / norm) for p = 2; the max-norm's mask ----------

case("norm_backward_order_and_double_backward", """
    torch.manual_seed(0)
    x = torch.randn(5, 5, requires_grad=True)
    r = []
    for args in ((2,), (2, 1), (2, 0, True), (float('inf'),), (float('inf'), 1)):
        n = torch.norm(x, *args)
        g = torch.linspace(-1.5, 2.0, n.numel()).view(n.shape)
        twice = args in ((2,), (2, 1), (2, 0, True))
        gx, = torch.autograd.grad(n, x, g, create_graph=twice)
        r.append([v.hex() for v in gx.flatten().tolist()])
        if twice:
            gg, = torch.autograd.grad(gx, x, torch.linspace(0.3, -0.8, 25).view(5, 5))
            r.append([v.hex() for v in gg.flatten().tolist()])
    for args in ((1.5, 1), (3,), (-1, 1), (0.5,)):  # here the forward norms round differently
        r.append(torch.autograd.grad(torch.norm(x, *args).sum(), x))
    result = r
""")
case("norm_inf_ties_and_nan_grad", """
    x = torch.tensor([[3.0, -3.0, 1.0], [2.0, float('nan'), -2.0]], requires_grad=True)
    g1, = torch.autograd.grad(torch.norm(x[0], float('inf')), x)
    g2, = torch.autograd.grad(torch.norm(x, float('inf'), 1).sum(), x)
    result = [g1, g2]
""")

# ---- float32 sigmoid and silu: SLEEF's exp on the vector part, libm's on the scalar tail ------

case("sigmoid_silu_vector_exp_float32", """
    # 71 elements: two steps of 32 run the vector formula, the last 7 the scalar one
    x = torch.linspace(-9.0, 9.0, 71).requires_grad_()
    g = torch.linspace(1.3, -1.1, 71)
    r = []
    for f in (torch.sigmoid, torch.nn.functional.silu):
        y = f(x)
        gx, = torch.autograd.grad(y, x, g)
        r.append([[v.hex() for v in y.tolist()], [v.hex() for v in gx.tolist()]])
    xt = torch.linspace(-6.0, 6.0, 40 * 33).reshape(33, 40).t()  # transposed: memory order
    r.append([v.hex() for v in torch.sigmoid(xt).flatten().tolist()])
    result = r
""")
case("sigmoid_silu_vector_exp_rows_float32", """
    # a slice of rows: each row of 40 is its own loop (32 vector, 8 scalar)
    x = torch.linspace(-7.0, 7.0, 50 * 30).reshape(30, 50)[:, :40]
    result = [[v.hex() for v in f(x).flatten().tolist()]
              for f in (torch.sigmoid, torch.nn.functional.silu)]
""")

# ---- elu's backward at NaN: the vector formula gives NaN, the scalar tail passes the gradient -

case("elu_backward_nan_vector_part", """
    r = []
    for dt, n in ((torch.float32, 40), (torch.float64, 20), (torch.float32, 20)):
        x = torch.full((n,), float('nan'), dtype=dt).requires_grad_()
        y = torch.nn.functional.elu(x, alpha=0.8)
        gx, = torch.autograd.grad(y, x, torch.ones(n, dtype=dt), create_graph=True)
        gg, = torch.autograd.grad(gx, x, torch.ones(n, dtype=dt))
        r.append((gx.isnan().tolist(), gg.isnan().tolist()))
    result = r
""")

# ---- gelu: oneDNN's derivative (contiguous float32, approximate='none'); SLEEF's tanh on the
# ---- vector part and glibc's tanhf on the scalar tail (approximate='tanh') --------------------

case("gelu_backward_onednn_float32", """
    x = torch.linspace(-5.0, 5.0, 100).reshape(10, 10).requires_grad_()
    g = torch.linspace(0.9, -1.2, 100).reshape(10, 10)
    y = torch.nn.functional.gelu(x)
    gx, = torch.autograd.grad(y, x, g)
    edges = torch.tensor([float('inf'), -float('inf'), 0.0, -0.0, 1e30, -1e30, 5.54, -5.6])
    result = [[v.hex() for v in y.flatten().tolist()], [v.hex() for v in gx.flatten().tolist()],
              [str(v) for v in torch.nn.functional.gelu(edges).tolist()]]
""")
case("gelu_tanh_vector_and_tail_float32", """
    r = []
    for n in (100, 63, 31):  # 96 vector + 4 scalar; 32 + 31; all scalar
        x = torch.linspace(-6.0, 6.0, n).requires_grad_()
        y = torch.nn.functional.gelu(x, approximate='tanh')
        gx, = torch.autograd.grad(y, x, torch.linspace(1.1, -0.8, n))
        r.append([[v.hex() for v in y.tolist()], [v.hex() for v in gx.tolist()]])
    result = r
""")
