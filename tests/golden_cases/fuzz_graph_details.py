"""Graph details: the nodes torch records for item assignment (``CopyBackwards``,
``CopySlices`` under create_graph, bool keys, index writes into views), create_graph graphs
through matrix products, gradient versions, and the order in which leaves receive their
gradients (torch's ready queue is a binary heap)."""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})

case("setitem_0d_ellipsis", """
    x = torch.tensor(1.0, requires_grad=True)
    v = torch.tensor(3.0, requires_grad=True)
    y = x * 1
    y[...] = v
    result = [y.grad_fn.name(), y.grad_fn, y]
""")
case("setitem_0d_ellipsis_leafless", """
    y = torch.tensor(1.0)
    v = torch.tensor(3.0, requires_grad=True)
    y[...] = v
    result = [y.grad_fn.name(), y.grad_fn, y]
""")
case("setitem_create_graph", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = torch.tensor(5.0, requires_grad=True)
    y = x * 2
    y[1] = v * v
    g = torch.autograd.grad(y.sum(), [x, v], create_graph=True)
    result = [g, g[0].grad_fn, g[1].grad_fn]
""")
case("setitem_create_graph2", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y[1] = 7.0
    g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    result = [g, g.grad_fn]
""")
case("mask_assign_0d", """
    x = torch.tensor(1.0, requires_grad=True)
    y = x * 1
    y[torch.tensor(True)] = 5.0
    result = [y, y.grad_fn]
""")
case("mask_assign_0d_tensor", """
    x = torch.tensor(1.0, requires_grad=True)
    v = torch.tensor(2.0, requires_grad=True)
    y = x * 1
    y[torch.tensor(True)] = v
    y.backward()
    result = [y, y.grad_fn, x.grad, v.grad]
""")
case("mask_assign_1d", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    y[torch.tensor([True, False])] = 5.0
    result = [y, y.grad_fn]
""")
case("mm_create_graph", """
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    b = torch.tensor([[0.5, -1.0], [2.0, 1.0]], requires_grad=True)
    y = a.mm(b)
    g = torch.autograd.grad(y.sum(), [a, b], create_graph=True)
    result = [g, g[0].grad_fn, g[1].grad_fn]
""")
case("mm_create_graph_vec", """
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    v = torch.tensor([0.5, -1.0], requires_grad=True)
    y = a @ v
    g = torch.autograd.grad(y.sum(), [a, v], create_graph=True)
    w = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    z = (v[:, None] @ w)
    h = torch.autograd.grad(z.sum(), [v, w], create_graph=True)
    result = [g, h]
""")
case("div_grad_version", """
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = torch.tensor([2.0, 4.0], requires_grad=True)
    (x / y).sum().backward()
    r = [x.grad._version, y.grad._version]
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([[2.0], [4.0]], requires_grad=True)
    (a / b).sum().backward()
    r += [a.grad._version, b.grad._version]
    c = torch.tensor(2.0, requires_grad=True)
    (a.detach() / c).sum().backward()
    r += [c.grad._version]
    result = r
""")
case("bool_keys_get", """
    r = []
    for key in ("True", "False", "torch.tensor(True)", "torch.tensor(False)"):
        for shape in ((), (2,)):
            x = torch.tensor(1.0, requires_grad=True)
            y = (x * torch.ones(shape))
            k = eval(key)
            z = y[k]
            r.append([key, shape, z, z.grad_fn])
    result = r
""")
case("bool_key_assign_grads", """
    x = torch.tensor(1.0, requires_grad=True)
    v = torch.tensor(2.0, requires_grad=True)
    y = x * 1
    y[torch.tensor(True)] = v
    w = x * 1
    w[True] = v * 2
    (y + w).backward()
    result = [y, w, x.grad, v.grad]
""")
case("adv_into_view", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    v = y[0:2]
    v[torch.tensor([0])] = 5.0
    y.sum().backward()
    result = [y, v, y.grad_fn, v.grad_fn, x.grad]
""")
case("matmul_cg", """
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    v = torch.tensor([0.5, -1.0], requires_grad=True)
    w = torch.tensor([[1.0, 2.0, 3.0], [0.0, 1.0, 2.0]], requires_grad=True)
    b3 = torch.arange(8.).reshape(2, 2, 2).requires_grad_()
    r = []
    for f in (lambda: torch.mv(a, v), lambda: a @ v, lambda: v @ w, lambda: v @ v, lambda: torch.outer(v, v),
              lambda: a.mm(w), lambda: b3 @ v, lambda: v @ b3, lambda: b3 @ a, lambda: a @ b3, lambda: b3 @ b3,
              lambda: torch.dot(v, v), lambda: torch.bmm(b3, b3)):
        y = f()
        ins = [t for t in (a, v, w, b3)]
        gs = torch.autograd.grad(y.sum(), ins, create_graph=True, allow_unused=True)
        r.append([y.grad_fn] + [g.grad_fn if g is not None else None for g in gs])
    result = r
""")
case("accumulate_order", """
    r = []
    for n, make in ((4, lambda xs: torch.stack(xs)), (5, lambda xs: torch.stack(xs)), (8, lambda xs: torch.stack(xs)),
                    (4, lambda xs: torch.cat(xs)), (6, lambda xs: torch.cat(xs)), (4, lambda xs: xs[0] + xs[1] + xs[2] + xs[3]),
                    (4, lambda xs: torch.stack([x * 2 for x in xs])), (3, lambda xs: torch.stack(xs).sum() + xs[1] * 3),
                    (4, lambda xs: torch.cat(xs).split(2)[1])):
        xs = [torch.tensor([float(i)], requires_grad=True) for i in range(n)]
        seen = []
        for i, x in enumerate(xs):
            x.register_hook(lambda g, i=i: seen.append(i))
        make(xs).sum().backward()
        r.append(seen)
    result = r
""")
case("bool_key_writes", """
    r = []
    for key in ("True", "False", "torch.tensor(True)", "(True, 1)", "(..., True)", "(torch.tensor(True), 0)"):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 1
        y[eval(key)] = 5.0
        y.sum().backward()
        r.append([key, y.detach(), x.grad, y._version])
    result = r
""")
case("copy_and_fill_gradients_are_constants", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    s = torch.tensor([1.0, float('nan'), 3.0], requires_grad=True)
    y = x * 2
    y.copy_(s)
    g = torch.autograd.grad((y * y).sum(), [x, s], create_graph=True)
    z = x * 2
    z.fill_(2.0)
    h = torch.autograd.grad((z * z).sum(), [x], create_graph=True)
    w = x * float('inf')
    w.zero_()
    k = torch.autograd.grad(w.sum(), [x])
    result = [g, h, k]
""")


# ---- index_fill with a number or a 0-d tensor value ---------------------------------------------
case("index_fill_forms", """
    x = torch.tensor([[1.0, 2.0, 3.0], [4., 5., 6.]], requires_grad=True)
    v = torch.tensor(5.0, requires_grad=True)
    a = x.index_fill(1, torch.tensor([0, 2, 0]), v)
    b = torch.index_fill(x, 0, torch.tensor(1), -1)
    c = x.clone()
    c.index_fill_(0, torch.tensor([1]), v * 2)
    (a * torch.arange(6.).reshape(2, 3)).sum().backward(retain_graph=True)
    (b.sum() + c.sum()).backward()
    result = [a, b, c, x.grad, v.grad]
""")
case("index_fill_errors", """
    x = torch.tensor([[1.0, 2.0, 3.0], [4., 5., 6.]])
    r = []
    for f in (lambda: x.index_fill(1, torch.tensor([0.]), 1.), lambda: x.index_fill(1, torch.tensor([3]), 1.),
              lambda: x.index_fill(1, torch.tensor([[0]]), 1.), lambda: x.index_fill(1, torch.tensor([0]), torch.tensor([1.])),
              lambda: x.index_fill(2, torch.tensor([0]), 1.), lambda: x.index_fill(1, torch.tensor([-1]), 1.),
              lambda: x.index_fill(1, torch.tensor([0], dtype=torch.int32), 1.), lambda: torch.tensor(1.).index_fill(0, torch.tensor([0]), 2.),
              lambda: x.long().index_fill(1, torch.tensor([0]), 1.5), lambda: x.index_fill(1, torch.tensor([], dtype=torch.long), 1.)):
        try:
            r.append(f())
        except Exception as e:
            r.append(f"{type(e).__name__}: {e}")
    result = r
""")
case("index_fill_create_graph", """
    x = torch.tensor([[1.0, 2.0, 3.0], [4., 5., 6.]], requires_grad=True)
    v = torch.tensor(5.0, requires_grad=True)
    y = x.index_fill(1, torch.tensor([0, 2]), v * v)
    g = torch.autograd.grad((y * y).sum(), [x, v], create_graph=True)
    result = [g, g[0].grad_fn, g[1].grad_fn]
""")


# ---- matrix norms of every order; the singular values differentiated twice --------------------
case("matrix_norm_ords", """
    x = torch.tensor([[[1.0, -2.0, 0.5], [3.0, -4.0, 1.0]], [[0.5, 2.0, -1.0], [1.0, 0.0, 2.0]]], requires_grad=True)
    r = []
    for o in (1, -1, 2, -2, float('inf'), float('-inf'), 'fro', 'nuc'):
        for dim, keep in (((-2, -1), False), ((0, 2), True), ((2, 1), False)):
            y = torch.linalg.matrix_norm(x, o, dim, keep)
            g, = torch.autograd.grad(y.sum(), x)
            # (the singular vectors' rounding noise is LAPACK's own: 2-norm gradients compared on 3 dims only)
            r.append([str(o), y, g if o not in (2, -2, 'nuc') or dim == (-2, -1) else None])
    result = r
""")
case("matrix_norm_ord_errors", """
    r = []
    for f in (lambda: torch.linalg.matrix_norm(torch.ones(2, 2), 3), lambda: torch.linalg.matrix_norm(torch.ones(2, 2), 'x'),
              lambda: torch.linalg.matrix_norm(torch.ones(2), 1), lambda: torch.linalg.matrix_norm(torch.ones(2, 2, dtype=torch.long), 1),
              lambda: torch.linalg.matrix_norm(torch.ones(2, 2, dtype=torch.long), 2)):
        try:
            r.append(f())
        except Exception as e:
            r.append(f"{type(e).__name__}: {e}")
    result = r
""")
case("nuc_double_backward", """
    x = torch.tensor([[1.0, 2.0, 0.5], [3.0, -4.0, 1.0]], dtype=torch.float64, requires_grad=True)
    g, = torch.autograd.grad(torch.norm(x, 'nuc'), x, create_graph=True)
    (g * torch.tensor([[1.0, 0.5, -1.0], [2.0, 0.0, 1.0]], dtype=torch.float64)).sum().backward()
    y = torch.tensor([[1.0, 2.0], [3.0, -4.0], [0.5, 1.0]], dtype=torch.float64, requires_grad=True)
    h, = torch.autograd.grad(torch.linalg.svdvals(y).pow(2).sum(), y, create_graph=True)
    (h * h).sum().backward()



    result = [g, x.grad, h, y.grad]
""")
