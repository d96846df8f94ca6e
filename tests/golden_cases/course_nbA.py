"""What notebooks 01-03 state about torch: a frozen layer behind a trainable one, a loss that
leaves the graph through ``.item()``, the four partials of 03's exercise, and the gradients
autograd returns where a function has no derivative (kinks, ties, an infinite slope)."""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


# ---- 01 · a frozen layer records a graph when something upstream requires grad -----------------

case("frozen_layer_first_or_after_a_trainable_one", """
    data = torch.tensor([1.0, 2.0])
    w_frozen = torch.tensor([0.5, -1.0])
    w_train = torch.tensor([2.0, 3.0], requires_grad=True)
    h = data * w_frozen
    print("frozen layer first:", h.grad_fn, h.requires_grad)
    h = data * w_train
    out = h * w_frozen
    print("frozen layer after:", out.grad_fn.name(), out.requires_grad)
    out.sum().backward()
    result = (h.grad_fn.name(), w_train.grad, w_frozen.grad)
""")

# ---- 02 · a loss computed from .item() has no graph ---------------------------------------------

case("loss_from_item_has_no_graph", """
    w = torch.tensor(2.0, requires_grad=True)
    pred = w * 3.0
    loss = torch.tensor((pred.item() - 1.0) ** 2)
    print(loss, loss.grad_fn, loss.requires_grad)
    loss.backward()
""")
case("loss_kept_on_tensors", """
    w = torch.tensor(2.0, requires_grad=True)
    pred = w * 3.0
    loss = (pred - 1.0) ** 2
    names, fn = [], loss.grad_fn
    while fn is not None:
        names.append(type(fn).__name__)
        fn = fn.next_functions[0][0] if fn.next_functions else None
    loss.backward()
    result = (names, loss, w.grad)
""")

# ---- 03 · exercise 2's partials, as autograd computes them --------------------------------------

case("four_partials_of_abc_plus_log_cd", """
    a, b, c, d = (torch.tensor(v, requires_grad=True) for v in (2.0, 3.0, 4.0, 5.0))
    f = a * b * c + torch.log(c * d)
    f.backward()
    result = [a.grad, b.grad, c.grad, d.grad]
""")

# ---- 03 · gradients at points without a derivative ----------------------------------------------

case("kink_relu_versus_clamp_at_zero", """
    x = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
    r = torch.relu(x)
    r.sum().backward()
    relu_grad = x.grad
    x.grad = None
    c = x.clamp(min=0)
    c.sum().backward()
    result = (r, relu_grad, c, x.grad)
""")
case("kink_abs_and_sqrt_at_zero", """
    out = []
    for fn, values in ((torch.abs, [-1.0, 0.0, 1.0]), (torch.sqrt, [0.0, 1.0, 4.0]),
                       (torch.relu, [-0.0, 0.0])):
        x = torch.tensor(values, requires_grad=True)
        y = fn(x)
        y.sum().backward()
        out.append((y.grad_fn.name(), x.grad))
    result = out
""")
case("kink_ties_of_max", """
    out = []
    for name, fn in (("max", lambda x: x.max()), ("amax", lambda x: x.amax()),
                     ("max_dim", lambda x: x.max(dim=0).values), ("min", lambda x: x.min()),
                     ("three_ties", lambda x: x.max())):
        values = [3.0, 3.0, 3.0, 2.0] if name == "three_ties" else [1.0, 3.0, 3.0, 2.0]
        if name == "min":
            values = [1.0, 3.0, 1.0, 2.0]
        x = torch.tensor(values, requires_grad=True)
        y = fn(x)
        y.sum().backward()
        out.append((name, y.grad_fn.name(), x.grad))
    v = torch.tensor([1.0, 3.0, 3.0, 2.0])
    result = (out, v.max(dim=0).indices, v.argmax())
""")
case("kink_ties_of_max_along_a_dim", """
    x = torch.tensor([[1.0, 4.0, 4.0], [2.0, 2.0, 2.0]], requires_grad=True)
    x.amax(dim=1).sum().backward()
    amax_grad = x.grad
    x.grad = None
    m = x.max(dim=1)
    m.values.sum().backward()
    result = (amax_grad, m.indices, x.grad)
""")
case("kink_maximum_of_equal_tensors", """
    a = torch.tensor([2.0, 1.0], requires_grad=True)
    b = torch.tensor([2.0, 0.0], requires_grad=True)
    m = torch.maximum(a, b)
    m.sum().backward()
    result = (m, a.grad, b.grad)
""")
case("kink_infinite_slope_meets_a_zero", """
    x = torch.tensor([0.0, 0.0], requires_grad=True)
    (x * x).sum().sqrt().backward()
    by_sqrt = x.grad
    x.grad = None
    n = x.norm()
    n.backward()
    y = torch.tensor([0.0, 4.0], requires_grad=True)
    torch.relu(y).sqrt().sum().backward()
    z = torch.tensor([0.0, 4.0], requires_grad=True)
    z.abs().sqrt().sum().backward()
    result = (by_sqrt, n.grad_fn.name(), x.grad, y.grad, z.grad)
""")
case("kink_leaky_relu_and_clamp_bounds", """
    x = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
    torch.nn.functional.leaky_relu(x, 0.1).sum().backward()
    leaky = x.grad
    x.grad = None
    x.clamp(0.0, 1.0).sum().backward()
    result = (leaky, x.grad)
""")
