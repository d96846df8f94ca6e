"""Differences the differential fuzzer found outside gradient versions: views made before
their base required grad, the ZeroTensor gradient of ``sgn``, multi-output views after an
in-place change, writes into expanded views, double-backward node names, and numpy's
warnings."""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


# ---- a view made before its base required grad ------------------------------------------------

case("late_view_requires_grad", """
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    views = [x.expand(2, 2, 2), x[::2], x.split(1, 0)[0], x.view(-1), x.diagonal(), x[0, 0],
             x.t(), x.unbind(1)[1], x.squeeze(), x[None]]
    x.requires_grad_()
    result = [(v.requires_grad, v.is_leaf, v.grad_fn) for v in views]
""")
case("late_view_no_edge_back", """
    x = torch.tensor([1.0, 2.0])
    v = x[:]
    x.requires_grad_()
    y = v * 2
    w = v[0]
    result = [y.grad_fn, w.grad_fn, w.requires_grad, v.exp().grad_fn, v.clone().grad_fn]
""")
case("late_view_own_flag_then_base_off", """
    x = torch.tensor([1.0, 2.0])
    v = x[:]
    x.requires_grad_()
    v.requires_grad_()
    w = v[0]
    x.requires_grad_(False)
    result = [w.grad_fn, v.requires_grad]
""")
case("late_view_follows_base_off", """
    x = torch.tensor([1.0, 2.0])
    v = x[1:]
    x.requires_grad = True
    r = [v.requires_grad]
    x.requires_grad = False
    r.append(v.requires_grad)
    result = r
""")
case("late_view_inplace_refused", """
    x = torch.tensor([1.0, 2.0])
    v = x[:]
    x.requires_grad_()
    v.add_(1)
""")
case("late_view_backward_without_edge", """
    x = torch.tensor([1.0, 2.0])
    v = x[:]
    x.requires_grad_()
    v.sum().backward()
    result = [x.grad, v.grad]
""")
case("late_view_of_data_and_meshgrid", """
    x = torch.tensor([[2.0, -2.5], [0.5, 1.0]], requires_grad=True)
    d = x.data
    s = d[1:]
    d.requires_grad_()
    a = torch.tensor(0.5)
    m, _ = torch.meshgrid(a, a, indexing='ij')
    a.requires_grad_()
    result = [torch.nan_to_num(s).grad_fn, m[:, [0, 0]].grad_fn, m.clone().grad_fn,
              s.tril().grad_fn, torch.minimum(s, s).grad_fn]
""")

# ---- sgn's gradient is a ZeroTensor -----------------------------------------------------------

case("sgn_grad_is_zero_tensor", """
    x = torch.tensor([1.0, -2.0, 0.0], requires_grad=True)
    torch.sgn(x).sum().backward()
    g = x.grad
    r = [repr(g), g._is_zerotensor(), g._version, g[0].item(), g[1:]._is_zerotensor(),
         g.clone()._is_zerotensor(), (g + 0)._is_zerotensor(), g.detach()._is_zerotensor(),
         g.numpy(force=True)]
    for f in (g.tolist, g.numpy, lambda: g.add_(1), g.zero_, lambda: g.copy_(g),
              lambda: g.mul_(2)):
        try:
            r.append(f())
        except RuntimeError as e:
            r.append(str(e))
    result = r
""")
case("sgn_grad_accumulate_twice", """
    x = torch.tensor([1.0, -2.0], requires_grad=True)
    torch.sgn(x).sum().backward()
    torch.sgn(x).sum().backward()
""")
case("sgn_grad_added_to_ordinary_grad", """
    x = torch.tensor([1.0, -2.0], requires_grad=True)
    (x * 2).sum().backward()
    torch.sgn(x).sum().backward()
    result = [x.grad, x.grad._is_zerotensor()]
""")
case("sgn_grad_through_other_nodes", """
    x = torch.tensor([1.0, -2.0], requires_grad=True)
    fs = [lambda: torch.sgn(x.clone()).sum(), lambda: torch.sgn(x[:1]).sum(),
          lambda: torch.sgn(x * 2).sum(), lambda: torch.sgn(x.double()).sum(),
          lambda: x.abs().sum(), lambda: torch.sgn(x).sum() + torch.sgn(x).sum(),
          lambda: torch.sgn(x.view(2, 1)).sum(), lambda: torch.sgn(x.exp()).sum()]
    r = []
    for f in fs:
        g, = torch.autograd.grad(f(), [x])
        r.append(g._is_zerotensor())
    g, = torch.autograd.grad(torch.sgn(x).sum(), [x], create_graph=True)
    r.append((g._is_zerotensor(), g.requires_grad, g.grad_fn))
    result = r
""")

# ---- views regenerated after an in-place change through any alias -----------------------------

case("multi_view_after_base_inplace", """
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    r = []
    for make in (lambda y: y.unbind(0), lambda y: y.split(1, 0), lambda y: y.chunk(2, 1),
                 lambda y: y.unbind(1)[:1]):
        y = x * 1
        v = make(y)
        y.add_(1)
        try:
            r.append(v[0].grad_fn)
        except RuntimeError as e:
            r.append(str(e))
        r.append((v[0].requires_grad, v[0]._version, type(v[0]).__name__))
    result = r
""")
case("multi_view_single_output_after_inplace", """
    x = torch.tensor([[1.0], [2.0]], requires_grad=True)
    y = x * 1
    v = y.unbind(1)
    y.clamp_(min=0)
    v[0] * 2
""")
case("multi_view_single_output_inplace", """
    x = torch.tensor([[1.0], [2.0]], requires_grad=True)
    v = (x * 1).unbind(1)
    v[0].add_(1)
""")
case("multi_view_after_detached_alias_changed", """
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    v = x.split(1, 0)
    x.detach().mul_(2)
    v[1].grad_fn
""")
case("view_regenerated_after_alias_inplace", """
    x = torch.tensor([[1.5, -2.0], [0.5, 3.0]], requires_grad=True)
    a = x[None]
    b = x.flatten()
    x.detach().zero_()
    y = (x * 1).view(-1)
    c = y.view(2, 2)
    y.detach()[0].zero_()
    s = x.sqrt()
    q = s.squeeze()
    s.clamp_(-1, 1)
    z = x.reciprocal()
    w = z.squeeze()
    z[0].pow_(2)
    result = [a.grad_fn, b.grad_fn, c.grad_fn, q.grad_fn, w.grad_fn, w.grad_fn.next_functions]
""")

# ---- writing into expanded views --------------------------------------------------------------

case("expanded_view_writes", """
    a = torch.tensor([[1.0, 2.0]])
    r = []
    for f in ("e.copy_(torch.ones(2, 1, 2))", "e.zero_()", "e.fill_(3)", "e.add_(1)",
              "e.clamp_(min=0)", "e.normal_()", "e.uniform_()", "e.copy_(e)",
              "e[0].copy_(e[1])", "e.mul_(2)", "e.exp_()", "e[0].add_(1)", "e[1].clamp_(min=0)"):
        e = a.expand(2, 1, 2)
        try:
            eval(f)
            r.append((f, e._version, a.tolist()))
        except RuntimeError as err:
            r.append((f, str(err)))
    result = r
""")
case("expanded_view_masked_fill_warns", """
    a = torch.tensor([[1.0, 2.0]])
    e = a.expand(2, 1, 2)
    e.masked_fill_(e > 1, 0.0)
    result = [a, e._version]
""")
case("expanded_nonleaf_write_through_select", """
    x = torch.tensor(0.5, requires_grad=True)
    y = x * x
    e = y.expand(2, 3)
    e[0].add_(1)
    e.sum().backward()
    result = [y, e, e.grad_fn, y.grad_fn, x.grad]
""")
case("meshgrid_outputs_writable", """
    m, n = torch.meshgrid(torch.tensor([1.0, -2.0]), torch.tensor([3.0]), indexing='xy')
    m.abs_()
    n.fill_(2)
    result = [m, n]
""")
case("copy_into_itself_expanded", """
    e = torch.tensor([[1.0, 2.0]]).expand(2, 1, 2)
    e.copy_(e)
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    y.copy_(y)
    result = [e._version, y.grad_fn, y._version]
""")

# ---- small forward differences ----------------------------------------------------------------

case("mean_of_0d_with_dim_is_a_new_tensor", """
    x = torch.tensor(-1.25, requires_grad=True)
    m = x.mean(0, keepdim=True)
    m.clamp_(min=0)
    n = x.mean(-1)
    with torch.no_grad():
        n.fill_(0.5)
    result = [x, m, n, m.grad_fn]
""")
case("var_of_empty_warns_by_numel", """
    x = torch.zeros((2, 0))
    result = [x.var(-2), x.var(-1), x.std(-2), torch.zeros((1, 0)).var(0)]
""")
case("var_backward_of_empty_no_numpy_warning", """
    x = torch.zeros((0,), requires_grad=True)
    x.var().backward()
    y = torch.zeros((1, 0), requires_grad=True)
    g, = torch.autograd.grad(y.var(), [y])
    result = [x.grad, g]
""")
case("advanced_index_result_contiguous", """
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    r = []
    for k in (lambda: x[:, [0, 0]], lambda: x.t()[:, [0, 0]], lambda: x[:, [[0, 1], [1, 0]]],
              lambda: x[[0, 1], :][:, [1]], lambda: x[..., [2, 0]], lambda: x[None, :, [1]]):
        y = k()
        r.append((y.stride(), y.is_contiguous(), y.view(-1)))
    result = r
""")
case("permute_backward_of_0d_create_graph", """
    x = torch.tensor(-1.25, requires_grad=True)
    g, = torch.autograd.grad(x.permute(()).sum(), [x], create_graph=True)
    result = [g, g.grad_fn]
""")

# ---- double backward of the piecewise losses ------------------------------------------------

_PIECEWISE = """
    import sys
    x = torch.tensor([[0.3, -2.0, 1.5], [0.0, 0.7, -0.2]], dtype=torch.float64, requires_grad=True)
    t = torch.tensor([[0.1, 0.5, -1.5], [0.0, 1.0, 0.3]], dtype=torch.float64, requires_grad=True)
    l = LOSS(x * 1, t, **KW)
    gx, gt = torch.autograd.grad(l.sum(), [x, t], create_graph=True)
    h = (gx * torch.arange(6.).reshape(2, 3) + gt).sum()
    a, b = torch.autograd.grad(h, [x, t], create_graph=True, allow_unused=True)
    go = torch.ones(() if KW.get("reduction") != "none" else (2, 3), dtype=torch.float64,
                    requires_grad=True)
    gx2, = torch.autograd.grad(l, [x], go, create_graph=True)
    q, = torch.autograd.grad((gx2 * torch.arange(6.).reshape(2, 3)).sum(), [go], create_graph=True)
    result = [gx, gt, q, gx.grad_fn, gt.grad_fn, q.grad_fn]
    if kw.get("beta") != 0.0:  # (l1_loss's: a ZeroTensor through the product, in torch)
        result += [a, b]
"""
for _i, (_loss, _kw) in enumerate([
        ("F.huber_loss", "{}"), ("F.smooth_l1_loss", "{}"),
        ("F.huber_loss", "{'reduction': 'sum'}"), ("F.smooth_l1_loss", "{'reduction': 'none'}"),
        ("F.huber_loss", "{'delta': 0.5, 'reduction': 'none'}"),
        ("F.smooth_l1_loss", "{'beta': 0.0}"),
        ("F.smooth_l1_loss", "{'beta': 2.0, 'reduction': 'sum'}")]):
    case(f"piecewise_loss_double_backward_{_i}",
         _PIECEWISE.replace("LOSS", _loss).replace("KW", "kw").replace(
             "    import sys", f"    kw = {_kw}"))
case("piecewise_loss_double_backward_0d", """
    x = torch.tensor(0.5, requires_grad=True)
    g, = torch.autograd.grad(F.smooth_l1_loss(x, x * 2, reduction='sum'), [x], create_graph=True)
    h, = torch.autograd.grad(F.huber_loss(x, x * 3), [x], create_graph=True)
    result = [g, h, g.grad_fn, h.grad_fn]
""")

# ---- std/var backward under create_graph: torch's std_backward and var_backward -----------------

case("std_var_double_backward_graphs", """
    base = torch.tensor([[[0.3, -2.0, 1.5, 0.2], [0.0, 0.7, -0.2, 0.1], [1.0, 1.0, 1.0, 1.0]],
                         [[1.3, -1.0, 0.5, 0.2], [2.0, 0.7, -1.2, 0.1], [0.5, 0.5, 0.5, 0.5]]],
                        dtype=torch.float64)
    r = []
    for f in (lambda x: x.std(), lambda x: x.var(), lambda x: x.std(0), lambda x: x.var(-1),
              lambda x: x.std(-1, keepdim=True), lambda x: x.std((0, 2)),
              lambda x: x.var((0, 1), correction=0), lambda x: x[0, 0].std(0),
              lambda x: x.std(1, correction=3),
              lambda x: x[0, 2].std()):
        x = base.clone().requires_grad_()
        g, = torch.autograd.grad(f(x).sum(), [x], create_graph=True)
        r.append((g, g.grad_fn))  # (second derivatives differ from torch's in the last bits)
    result = r
""")

# ---- the nodes of view and index backward formulas under create_graph ---------------------------

case("view_and_index_backward_nodes", """
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    fs = [lambda: x[0], lambda: x[:, 1], lambda: x[1:], lambda: x[:, ::2], lambda: x[[0, 0]],
          lambda: x.index_select(1, torch.tensor([0, 2, 0])), lambda: x[0, 1:],
          lambda: x[None, 0], lambda: x.narrow(1, 0, 2), lambda: x[:, [0, 0]], lambda: x[0][1],
          lambda: x.select(1, -1), lambda: x.diagonal(), lambda: x[x > 2]]
    r = []
    for f in fs:
        y = f()
        g, = torch.autograd.grad((y * y).sum(), [x], create_graph=True)
        h, = torch.autograd.grad((g * torch.arange(6.).reshape(2, 3)).sum(), [x])
        r.append((g, g.grad_fn, h))
    result = r
""")
case("embedding_double_backward_node", """
    w = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, -6.0]], requires_grad=True)
    r = []
    for pad in (None, 0, 1):
        y = F.embedding(torch.tensor([[1, 0], [2, 1]]), w, padding_idx=pad)
        g, = torch.autograd.grad((y * y).sum(), [w], create_graph=True)
        h, = torch.autograd.grad((g * torch.arange(6.).reshape(3, 2)).sum(), [w])
        r.append((g, g.grad_fn, h))
    result = r
""")
case("setitem_on_view_regenerates_it", """
    x = torch.tensor(0.5, requires_grad=True)
    v2 = x * 1
    v6 = v2.expand(2, *v2.shape)
    v6[0] = 2.0
    w = torch.tensor([0.5, 1.0], requires_grad=True) * 1
    a = w[None]
    a[0] = 2.0
    b = w[None]
    b[0, 1] = 3.0
    result = [v6.grad_fn, v6.grad_fn.next_functions, v2.grad_fn, a.grad_fn, b.grad_fn, w.grad_fn]
""")
case("expanded_view_changed_gradients_add_up", """
    v1 = torch.tensor([-1.25, 2.0], requires_grad=True)
    r = []
    v2 = v1.clone()
    v3 = v2.expand(2, *v2.shape)
    v3[0].add_(1)
    r.append(torch.autograd.grad(v3.sum(), [v1]))
    v2 = v1.clone()
    v3 = v2.expand(3, *v2.shape)
    v3[0].mul_(2)
    g, = torch.autograd.grad((v3 * torch.arange(6.).reshape(3, 2, 1)).sum(), [v1],
                             create_graph=True)
    r.append(g)
    result = r
""")
case("expanded_view_filled_backward_refused", """
    v1 = torch.tensor([-1.25, 2.0], requires_grad=True)
    v3 = v1.clone().expand(2, 2)
    v3.zero_()
    torch.autograd.grad(v3.sum(), [v1])
""")
case("sgn_grad_of_transposed_leaf_is_ordinary", """
    x = torch.tensor([[-0.5, 0.75], [1.5, 1.25]]).t().requires_grad_()
    torch.sgn(x).sum().backward()
    result = [x.grad, x.grad._is_zerotensor(), x.grad.stride()]
""")

# ---- prod backward under create_graph: torch's prod_backward --------------------------------------

case("prod_double_backward_graphs", """
    r = []
    for vals in ([[1.5, -2.0], [0.5, 3.0]], [[1.5, 0.0], [0.5, 3.0]], [[0.0, 0.0], [0.5, 3.0]]):
        for f in (lambda x: x.prod(), lambda x: x.prod(0), lambda x: x.prod(1, keepdim=True),
                  lambda x: x[0, 0].prod(), lambda x: x[:0].prod(), lambda x: x[:, :0].prod(1)):
            x = torch.tensor(vals, dtype=torch.float64, requires_grad=True)
            g, = torch.autograd.grad(f(x).sum(), [x], create_graph=True)
            h = None
            if g.requires_grad:
                h, = torch.autograd.grad((g * torch.arange(4.).reshape(2, 2)).sum(), [x],
                                         allow_unused=True)
            r.append((g, g.grad_fn, h))
    result = r
""")
case("sgn_grad_of_empty_is_zero_tensor", """
    x = torch.zeros((1, 0), requires_grad=True)
    (torch.sgn(x) * 1).sum().backward()
    y = torch.zeros((0,), requires_grad=True)
    torch.sgn(y.clone()).sum().backward()
    result = [x.grad._is_zerotensor(), y.grad._is_zerotensor(), repr(x.grad)]
""")

# ---- norm backward under create_graph: torch's norm_backward (graphs) ---------------------------

case("norm_double_backward_graphs", """
    r = []
    for vals in ([[1.5, -2.0, 0.0], [0.5, 3.0, -3.0]], [[0.0, 0.0, 0.0], [0.5, 3.0, -3.0]]):
        for p in (1, 2, float('inf'), float('-inf'), -1, 0.5, 1.5, 3, 0):
            for f in (lambda x: x.norm(p), lambda x: x.norm(p, dim=1),
                      lambda x: x.norm(p, dim=0, keepdim=True), lambda x: x[0, 0].norm(p),
                      lambda x: x.norm(p, dim=(0, 1))):
                x = torch.tensor(vals, dtype=torch.float64, requires_grad=True)
                g, = torch.autograd.grad(f(x).sum(), [x], create_graph=True, allow_unused=True)
                r.append(None if g is None else g.grad_fn)
    result = r
""")

case("bmm_double_backward_graphs", """
    r = []
    for shp in ((2, 1, 3), (2, 3, 4)):
        x = torch.arange(float(shp[0] * shp[1] * shp[2])).reshape(shp).requires_grad_()
        y = x @ x.mT
        g, = torch.autograd.grad(y.sum(), [x], create_graph=True)
        r.append((y.grad_fn, g, g.grad_fn))
    w = torch.arange(24.).reshape(2, 3, 4).requires_grad_()
    g, = torch.autograd.grad(torch.bmm(w, w.mT).sum(), [w], create_graph=True)
    r.append((g, g.grad_fn))
    result = r
""")

case("amax_amin_double_backward_graphs", """
    r = []
    for vals in ([[1.5, -2.0, 1.5], [0.5, 3.0, -3.0]], [[1.0, float('nan'), 2.0], [1.0, 2.0, 3.0]]):
        for f in (lambda x: x.amax(), lambda x: x.amin(1), lambda x: x.amax(0, keepdim=True),
                  lambda x: x[0, 0].amax(), lambda x: x.amax((0, 1)),
                  lambda x: x.amin(-1).erf()):
            x = torch.tensor(vals, dtype=torch.float64, requires_grad=True)
            g, = torch.autograd.grad(f(x).sigmoid().sum(), [x], create_graph=True)
            r.append((g, g.grad_fn))
    result = r
""")

case("comparison_in_promoted_dtype", """
    a = torch.tensor(-0.95, dtype=torch.float64)
    b = torch.tensor([-0.19, -0.95], dtype=torch.float32)
    i = torch.tensor([1, 2])
    f16 = torch.tensor([1.0, 2.5], dtype=torch.float16)
    result = [torch.eq(a, b), a == b, b == a, torch.ne(a, b), a < b, torch.le(b, a),
              i == torch.tensor(1.5), i < torch.tensor([1.5, 2.5]),
              f16 == torch.tensor(2.5, dtype=torch.float64),
              torch.tensor(16777217) == torch.tensor([16777216.0]),
              torch.tensor([0.1], dtype=torch.float64) == torch.tensor(0.1)]
""")

case("mm_with_one_inner_element_keeps_signed_zeros", """
    a = torch.tensor([[0.0], [1.0], [-2.0]])
    b = torch.tensor([[-1.0, 0.0, 3.0]])
    x = torch.tensor([[0.0], [1.0], [-2.0]], requires_grad=True)
    y = x @ x.t()
    y.sum().backward()
    result = [torch.mm(a, b), a @ b, torch.mm(a, b).reciprocal(), torch.atan2(torch.mm(a, b), a),
              y, x.grad]
""")
