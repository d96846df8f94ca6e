"""Engine mechanics found by differential fuzzing: the versions of gradients, in-place checks
(saved operands, memory overlap, views of leaves, multi-output views), indexing's node
sequences, item assignment, view regeneration after an in-place change, and error texts of
``autograd.grad``, ``size`` and a node called directly."""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


# ---- the version of a gradient ------------------------------------------------------------------

case("grad_version_sum_twice_zero", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = []
    x.sum().backward()            # an expanded gradient: copied into .grad (copy_: version 1)
    v.append(x.grad._version)
    x.sum().backward()            # added in place
    v.append(x.grad._version)
    x.grad.zero_()
    v.append(x.grad._version)
    result = v
""")
case("grad_version_fresh_gradient_kept", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = []
    for f in (lambda: (x * 2).sum(), lambda: x.exp().sum(), lambda: x[0]):
        x.grad = None
        f().backward()
        v.append(x.grad._version)
    result = v
""")
case("grad_version_input_buffer_summed_in_place", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = []
    for f in (lambda: x * x, lambda: x * x * x, lambda: x.exp() + x.exp(), lambda: x + x):
        x.grad = None
        f().sum().backward()
        v.append(x.grad._version)
    result = v
""")
case("grad_version_scalars_and_given_gradients", """
    s = torch.tensor(2.0, requires_grad=True)
    s.backward()                   # the root gradient is held by the caller: copied
    t = torch.tensor(2.0, requires_grad=True)
    (t * 3).backward()
    u = torch.tensor(1.5, requires_grad=True)
    u.sum().backward()
    w = torch.tensor([2.0, 3.0], requires_grad=True)
    w.backward(torch.ones(2))
    result = [s.grad._version, t.grad._version, u.grad._version, w.grad._version]
""")
case("grad_version_transposed_leaf", """
    z = torch.tensor([[1.5, 2.0], [3.0, 4.0]]).t().requires_grad_()
    v = []
    for f in (lambda: z, lambda: z.exp(), lambda: z * 2, lambda: z * z):
        z.grad = None
        f().sum().backward()
        v.append(z.grad._version)
    result = v
""")
case("grad_version_create_graph", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x.sum().backward(create_graph=True)
    a = (x.grad._version, x.grad.grad_fn)
    x.sum().backward(create_graph=True)
    b = x.grad._version
    x.grad = None
    (x * x).sum().backward(create_graph=True)
    c = (x.grad._version, type(x.grad.grad_fn).__name__)
    result = [a, b, c]
""")
case("grad_version_retain_grad_and_autograd_grad", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    (y * y).sum().backward()
    v = [y.grad._version]
    for f in (lambda: x.sum(), lambda: (x * x).sum(), lambda: (x * x * x).sum()):
        v.append(torch.autograd.grad(f(), x)[0]._version)
    v.append(torch.autograd.grad((x * x).sum(), x, create_graph=True)[0]._version)
    result = v
""")

# ---- in-place changes: saved operands, overlap -----------------------------------------------------

case("inplace_own_saved_operand_div", """
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = a.clone()
    v.div_(v)
    v.sum().backward()
""")
case("inplace_own_saved_operand_mul_after_change", """
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = a.clone()
    v.mul_(2)
    v.mul_(v)
    v.sum().backward()
""")
case("inplace_own_operand_not_saved_add", """
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = a.clone()
    v.add_(v)
    v.sub_(v.detach() * 0)
    v.sum().backward()
    result = a.grad
""")
case("inplace_saved_detached_alias", """
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = a.clone()
    v.div_(v.detach())
    v.sum().backward()
""")
case("inplace_pow_own_exponent", """
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = a.clone()
    v.pow_(v)
    v.sum().backward()
""")
case("overlap_partial_operand", """
    v = torch.ones(3)
    v.mul_(v[0])
""")
case("overlap_partial_copy", """
    v = torch.ones(4)
    v[1:].copy_(v[:3])
""")
case("overlap_before_shape_error", """
    v = torch.tensor([-1.13, -1.1, 2.13, 0.8])
    v[0].copy_(v)
""")
case("overlap_expanded_operand_allowed", """
    v = torch.ones(3)
    v.div_(v[:1].expand(3))
    w = torch.zeros(3)
    w.copy_(torch.ones(1).expand(3))
    result = (v, w, v._version, w._version)
""")
case("overlap_written_to_expanded", """
    v = torch.zeros(3, 1).expand(3, 3)
    v.add_(1)
""")
case("copy_shape_errors", """
    errors = []
    for dst, src in (((), (3,)), ((2,), (3,)), ((3,), (2, 3))):
        try:
            torch.zeros(dst).copy_(torch.ones(src))
        except RuntimeError as e:
            errors.append(str(e))
    result = errors
""")
case("masked_fill_shapes", """
    errors = []
    for dst, mask in (((1,), (3, 1)), ((2,), (3,))):
        try:
            torch.zeros(dst).masked_fill_(torch.ones(mask) > 0, 0.0)
        except RuntimeError as e:
            errors.append(str(e))
    x = torch.zeros(2, requires_grad=True)
    y = x.masked_fill(torch.ones(3, 1) > 0, 1.0)
    y.sum().backward()
    result = (errors, y, x.grad)
""")

# ---- in-place changes of views ----------------------------------------------------------------

case("view_of_leaf_inplace_messages", """
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    out = []
    for f in (lambda: a[0].relu_(), lambda: a.t().sigmoid_(), lambda: a.view(4).tanh_(),
              lambda: a[0].copy_(torch.ones(2)), lambda: a.view(4).copy_(torch.ones(2)),
              lambda: a[:, :].add_(1), lambda: a[0:1].zero_()):
        try:
            f()
        except RuntimeError as e:
            out.append(str(e))
    result = out
""")
case("multi_output_view_inplace", """
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    a.clone().unbind(0)[1].mul_(2)
""")
case("view_regenerated_after_base_inplace", """
    x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    b = x.clone()
    v = b.reshape(3, 1)
    w = b[1:]
    b.relu_()
    (v.sum() + w.sum()).backward()
    result = (v.grad_fn, w.grad_fn, v.grad_fn.next_functions[0][0] is b.grad_fn, x.grad)
""")
case("view_regenerated_after_sibling_inplace", """
    x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    b = x.clone()
    v = b[0:2]
    w = b[1]
    w.mul_(3)
    v.sum().backward()
    result = (v.grad_fn, w.grad_fn, b.grad_fn, x.grad)
""")

# ---- indexing and item assignment ------------------------------------------------------------------

case("indexing_whole_slices_skipped", """
    b = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
    keys = [(slice(None), slice(None)), (None, slice(0, 3)), (None, slice(0, 2)),
            (Ellipsis, slice(0, 2)), (slice(0, 5), slice(None)), (slice(-3, None), 0),
            (slice(0, 3), [0]), (slice(None), slice(None, 0)), (slice(0, 2), slice(0, 2))]
    result = [b[k] for k in keys] + [b[:], b[0:3]]
""")
case("indexing_list_key_read_as_tuple", """
    x = torch.zeros(2, 3, 4)
    x[[slice(None), slice(None), [1, 3]]] = 2.0
    y = torch.arange(6.0).reshape(2, 3)
    result = (x, y[[slice(None), 0]], y[[0, 1]])
""")
case("indexing_0d_errors", """
    s = torch.tensor(2.0)
    out = []
    for k in (0, slice(None), (0,), (slice(None), slice(None)), (None, 0), (Ellipsis, 0)):
        try:
            s[k]
        except IndexError as e:
            out.append(str(e))
    result = (out, s[...], s[None], s[None, ...])
""")
case("setitem_whole_tensor_copy_or_fill", """
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
    s = torch.tensor(2.0, requires_grad=True)
    out = []
    for src, key, val in ((a, Ellipsis, 7.0), (s, Ellipsis, 7.0), (a, slice(None), 7.0),
                          (a, (slice(None), slice(None)), 7.0), (s, (), 7.0), (a, 0, 7.0),
                          (s, None, 7.0)):
        b = src.clone()
        b[key] = val
        out.append(b)
    c = s.clone()
    c[...] = torch.tensor(3.0, requires_grad=True)
    d = a.clone()
    d[:, :] = torch.tensor([1.0, 2.0], requires_grad=True)
    d.sum().backward()
    result = (out, c, d, a.grad)
""")
case("setitem_whole_leaf_error", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    a[:] = 3.0
""")

# ---- errors and small mechanics -------------------------------------------------------------------

case("autograd_grad_checks_outputs_first", """
    c = torch.tensor([1.0, 2.0, 3.0])
    torch.autograd.grad(c.sum(), [c])
""")
case("size_of_0d_dim", """
    out = []
    for f in (lambda: torch.tensor(1.0).size(-1), lambda: torch.tensor(1.0).stride(0)):
        try:
            f()
        except IndexError as e:
            out.append(str(e))
    result = out
""")
case("node_called_with_wrong_count", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    (a * 2).grad_fn(torch.ones(2), torch.ones(2))
""")
case("numpy_of_requires_grad_under_no_grad", """
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with torch.no_grad():
        n = a.numpy()
    result = n.tolist()
""")
case("del_grad", """
    b = torch.tensor([1.0], requires_grad=True)
    b.sum().backward()
    del b.grad
    result = b.grad
""")
case("permute_backward_create_graph_1d", """
    a = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0], requires_grad=True)
    g, = torch.autograd.grad(a.T.abs()[3:5].mean(), [a], create_graph=True)
    result = (g.detach(), g.requires_grad, type(g.grad_fn).__name__)
""")
case("mT_of_0d_is_itself", """
    s = torch.tensor(2.0, requires_grad=True)
    result = (s.mT is s, s.mT)
""")
case("view_leaf_of_non_grad_base_inplace", """
    v1 = torch.tensor([[0.83, -0.25, 0.51], [-0.03, 0.0, -0.56]]).t().requires_grad_()
    out = []
    for f in (lambda: v1.sigmoid_(), lambda: v1[0].relu_(), lambda: v1.copy_(v1)):
        try:
            f()
        except RuntimeError as e:
            out.append(str(e))
    w = torch.tensor([1.0, 2.0])
    ww = w[0]
    w.requires_grad_()
    try:
        ww.add_(1)
    except RuntimeError as e:
        out.append(str(e))
    result = out
""")
case("grad_version_empty_leaf", """
    v2 = torch.zeros((0,)).requires_grad_()
    v2.sum().backward()
    v3 = torch.zeros((2, 0)).requires_grad_()
    (v3 * 2).sum().backward()
    result = (v2.grad._version, v3.grad._version)
""")

# ---- saved values freed after backward -----------------------------------------------------------

case("freed_after_backward_indexing_family", """
    x = torch.tensor([[0.5, -1.2, 2.0], [1.5, 0.3, -0.7]], requires_grad=True)
    idx = torch.tensor([1, 0])
    out = []
    for f in (lambda: x.index_select(1, idx), lambda: x[idx], lambda: x[:, [0, 2]],
              lambda: x[x > 0], lambda: x.gather(1, torch.tensor([[0], [1]])),
              lambda: x.scatter(1, torch.tensor([[0], [1]]), 2.0),
              lambda: x.scatter_add(1, torch.tensor([[0], [1]]), torch.ones(2, 1)),
              lambda: x.masked_fill(x > 0, 0.0)):
        y = f()
        y.sum().backward()
        try:
            y.sum().backward()
            out.append("twice")
        except RuntimeError as e:
            out.append(str(e)[:60])
    result = out
""")
case("freed_after_backward_index_put", """
    x = torch.tensor([[0.5, -1.2, 2.0], [1.5, 0.3, -0.7]], requires_grad=True)
    y = x.clone()
    y[torch.tensor([1])] = 1.0
    y.sum().backward()
    y.sum().backward()
""")
case("scatter_src_larger_than_index", """
    x = torch.tensor([[0.5, -1.2, 2.0], [1.5, 0.3, -0.7]], requires_grad=True)
    c = torch.tensor([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]])
    c.scatter_add(1, torch.tensor([[0], [1]]), x).sum().backward()
""")

# ---- hooks ------------------------------------------------------------------------------------------

case("hooks_multi_output_none_gradients", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    seen = []
    a, b, c = x.unbind(0)
    a.register_hook(lambda g: seen.append(("a", g)))
    b.register_hook(lambda g: seen.append(("b", g)))
    a.grad_fn.register_prehook(lambda gs: seen.append(("pre", gs)))
    a.grad_fn.register_hook(lambda gi, go: seen.append(("post", gi, go)))
    (a * 2).backward()
    p, q = x.split(2)
    q.register_hook(lambda g: seen.append(("q", g)))
    p.sum().backward()
    result = (seen, x.grad)
""")

# ---- more gradient versions: formulas with in-place steps, views in the input buffer ----------

case("grad_version_formulas_with_inplace_steps", """
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]], requires_grad=True)
    c = torch.tensor([[1.0, 0.0, 3.0], [2.0, 5.0, 8.0]])
    v = []
    for f in (lambda: torch.maximum(x, c), lambda: torch.minimum(c, x), lambda: x.max(),
              lambda: x.min(0)[0], lambda: x.max(1, keepdim=True)[0], lambda: x.sort(1)[0],
              lambda: x.topk(2, 1)[0], lambda: x[[0, 1]], lambda: x[c > 1],
              lambda: x.index_select(1, torch.tensor([0, 2])),
              lambda: x.gather(1, torch.tensor([[0], [1]])), lambda: torch.maximum(x, x * 0),
              lambda: x.mean(), lambda: x.mean(1), lambda: x.flip(0), lambda: x.cumsum(1),
              lambda: x.amin(-1), lambda: x.amax()):
        x.grad = None
        f().sum().backward()
        v.append(x.grad._version)
    g, = torch.autograd.grad(x[:, [0, 0]].sum(), [x], create_graph=True)
    result = (v, g._version)
""")
case("grad_version_views_summed_out_of_place", """
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    c = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    v = []
    for f in (lambda: torch.mm(x, c.t()) + torch.mm(c, x.t()), lambda: x * c + (x.t() * c.t()).t(),
              lambda: (x.t() * c.t()).t() + x * c, lambda: x.exp() + x.t().exp().t(),
              lambda: x.t() * x.t(), lambda: x.view(6) * x.view(6), lambda: x[0] * x[0],
              lambda: x @ x.mT):
        x.grad = None
        f().sum().backward()
        v.append(x.grad._version)
    result = v
""")
case("reshape_alias_of_non_contiguous", """
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    ys = [x.t().reshape(3, 2), x.t().reshape(3, 1, 2), x.t().reshape(6), x.t().t().reshape(6),
          x.t().reshape(3, 2).reshape(6), x.t().view(3, 2)]
    ys[0].sum().backward()
    result = (ys, x.grad)
""")
case("matmul_1d_2d_result_version", """
    x = torch.ones(3, requires_grad=True)
    y = torch.ones(3, 2)
    z = x @ y
    w = torch.ones(3) @ torch.ones(3, 1)
    result = (z, z._version, w._version, (torch.ones(2, 3) @ x)._version)
""")
case("create_graph_through_inplace_on_view", """
    v3 = torch.tensor([[-1.15, -3.05], [-0.05, 2.45]], requires_grad=True)
    v5 = torch.where(torch.eq(v3, torch.trunc(v3)), v3, torch.trunc(v3)) * v3
    v5[0].sigmoid_()
    g, = torch.autograd.grad(v5.sum(), [v3], create_graph=True)
    result = (g.detach(), g.requires_grad, torch.autograd.grad(g.sum(), v3))
""")
case("hooks_and_retained_grads_in_tensor_dtype", """
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]], requires_grad=True)
    seen = []
    x.register_hook(lambda g: seen.append(("leaf", g.dtype)))
    h = x * 1
    h.register_hook(lambda g: seen.append(("h", g.dtype)))
    h.retain_grad()
    h.amin(-1).sum().backward()
    y = x.double()
    y.register_hook(lambda g: seen.append(("y", g.dtype)))
    g, = torch.autograd.grad((y * 2).sum(), x, create_graph=True)
    result = (seen, h.grad.dtype, x.grad.dtype, g.dtype)
""")
case("index_array_out_of_bounds_messages", """
    z = torch.zeros(2, 3, 4)
    x = torch.zeros(2, 0)
    out = []
    for f in (lambda: z[:, :, [9]], lambda: z[[0], :, [9]], lambda: z[None, :, [9]],
              lambda: z[:, [1], [9]], lambda: z[:, [-4]], lambda: x[:, [0, 0]],
              lambda: x[[3]], lambda: torch.zeros(0, 2)[[3]],
              lambda: torch.tensor(1.0).unbind(-1), lambda: torch.tensor(1.0).unbind(1)):
        try:
            out.append(f().shape)
        except IndexError as e:
            out.append(str(e))
    result = out
""")
