"""What notebooks 05-08 state about torch: re-running a backward, gradients accumulating,
in-place ops on views (``CopySlices``, ``AsStridedBackward0``, shared versions), ``eval()`` versus
``no_grad`` versus ``inference_mode``, ``set_grad_enabled``/``enable_grad``, ``Dropout``, and
activation checkpointing."""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


# ---- 05: a second run of a backward cell ----------------------------------------------------------

case("nb05_second_backward_without_retain", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    loss = (x * x).sum()
    loss.backward()
    loss.backward()
""")
case("nb05_accumulation_on_second_run", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    seen = []
    for _ in range(2):
        (x * x).sum().backward()
        seen.append(x.grad.clone())
    result = seen
""")
case("nb05_zero_then_fresh_loss", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * x).sum().backward(retain_graph=True)
    x.grad.zero_()
    result = x.grad
""")
case("nb05_second_derivative_rerun", """
    x = torch.tensor(2.0, requires_grad=True)
    dy = torch.autograd.grad(x**3, x, create_graph=True)[0]
    dy.backward()
    dy.backward()
""")

# ---- 06: in-place on views ----------------------------------------------------------------------

case("nb06_inplace_on_view_rebases", """
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    base = x.clone()
    v = base[1:3]
    before = (v.grad_fn.name(), base.grad_fn.name())
    v.mul_(10)
    after = (v.grad_fn.name(), base.grad_fn.name(),
             [n.name() if n is not None else None for n, _ in base.grad_fn.next_functions])
    base.sum().backward()
    result = (before, after, v._version, base._version, base, x.grad)
""")
case("nb06_inplace_on_base_rebases_view", """
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    base = x.clone()
    v = base[1:3]
    base.mul_(2)
    result = (v.grad_fn.name(), base.grad_fn.name(), v._version, base._version, v)
    v.sum().backward()
    print(x.grad)
""")
case("nb06_view_versions_shared", """
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    base = x.clone()
    v = base.view(2, 2)
    w = base[::2]
    v.add_(1)
    result = (base._version, v._version, w._version, v._base is base, w._base is base)
""")
case("nb06_view_of_saved_input_inplace_raises", """
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    base = x.clone()
    y = base.sin()
    base[0:2].zero_()
    y.sum().backward()
    print(x.grad)
    z = base * base
    base[2:].mul_(2)
    z.sum().backward()
""")
case("nb06_unsqueeze_view_rebased", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    base = x.clone()
    v = base.unsqueeze(0)
    print(v.grad_fn.name())
    v.mul_(3)
    result = (v.grad_fn.name(), base.grad_fn.name(), base)
""")
case("nb06_view_of_leaf_inplace", """
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    w[0:1].mul_(2)
""")

# ---- 07: eval, no_grad, inference_mode, set_grad_enabled, enable_grad -----------------------------

case("nb07_inference_tensor_in_add_backward", """
    w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with torch.inference_mode():
        t = torch.tensor([10.0, 20.0, 30.0])
    out = w + t
    out.sum().backward()
    result = (out.grad_fn.name(), w.grad, torch.is_grad_enabled())
""")
case("nb07_eval_still_records", """
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Dropout(0.5))
    x = torch.ones(2, 4)
    model.eval()
    out = model(x)
    result = (model.training, model[1].training, out.requires_grad, out.grad_fn.name(),
              torch.equal(out, model[0](x)))
""")
case("nb07_train_dropout_mask", """
    torch.manual_seed(0)
    drop = torch.nn.Dropout(p=0.5)
    x = torch.ones(8, requires_grad=True)
    y = drop(x)
    y.sum().backward()
    result = (drop, y, x.grad)
""")
case("nb07_dropout_values", """
    torch.manual_seed(3)
    F = torch.nn.functional
    a = F.dropout(torch.arange(12.0).reshape(3, 4), 0.25)
    b = F.dropout(torch.ones(5, dtype=torch.float64), 0.1)
    c = F.dropout(torch.ones(3), 1.0)
    d = torch.ones(3)
    e = F.dropout(d, 0.5, training=False)
    f = torch.ones(6)
    g = F.dropout(f, 0.5, inplace=True)
    result = (a, b, c, e is d, F.dropout(d, 0.0) is d, g is f, f, f._version)
""")
case("nb07_dropout_bad_p", """
    torch.nn.functional.dropout(torch.ones(2), 1.5)
""")
case("nb07_dropout_module_bad_p", """
    torch.nn.Dropout(-0.1)
""")
case("nb07_dropout_modes_toggle", """
    torch.manual_seed(1)
    model = torch.nn.Dropout(0.5)
    x = torch.ones(6)
    a = model(x)
    model.eval()
    b = model(x)
    model.train()
    c = model(x)
    result = (a, b, c, model.training)
""")
case("nb07_eval_no_grad_inference_table", """
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 2)
    x = torch.ones(1, 3)
    model.eval()
    rows = [("eval", model(x).requires_grad)]
    with torch.no_grad():
        rows.append(("no_grad", model(x).requires_grad))
    with torch.inference_mode():
        t = model(x)
        rows.append(("inference_mode", t.requires_grad))
    result = rows
""")
case("nb07_set_grad_enabled_switch", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    for train in (True, False):
        with torch.set_grad_enabled(train):
            y = x * 2
        seen.append((train, y.requires_grad, torch.is_grad_enabled()))
    torch.set_grad_enabled(False)
    z = x * 2
    torch.set_grad_enabled(True)
    seen.append((z.requires_grad, (x * 2).requires_grad))
    result = seen
""")
case("nb07_enable_grad_inside_no_grad", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.no_grad():
        a = x * 2
        with torch.enable_grad():
            b = x * 2
        c = x * 2
    b.sum().backward()
    result = (a.requires_grad, b.grad_fn.name(), c.requires_grad, x.grad)
""")
case("nb07_grad_mode_decorators", """
    x = torch.tensor([3.0], requires_grad=True)

    @torch.no_grad()
    def frozen(t):
        return t * 2

    @torch.enable_grad()
    def tracked(t):
        return t * 2

    @torch.set_grad_enabled(False)
    def switched_off(t):
        return t * 2

    with torch.no_grad():
        inner = tracked(x)
    result = (frozen(x).requires_grad, inner.requires_grad, switched_off(x).requires_grad,
              torch.is_grad_enabled())
""")
case("nb07_set_grad_enabled_bad_arg", """
    torch.set_grad_enabled("yes")
""")

# ---- 08: activation checkpointing, memory ---------------------------------------------------------

case("nb08_checkpoint_same_grad", """
    checkpoint = torch.utils.checkpoint.checkpoint

    def block(h):
        for _ in range(5):
            h = h.relu() * 1.5
        return h

    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    checkpoint(block, x, use_reentrant=False).sum().backward()
    a = x.grad.clone()
    x.grad = None
    block(x).sum().backward()
    result = (a, x.grad)
""")
case("nb08_checkpoint_recomputes", """
    checkpoint = torch.utils.checkpoint.checkpoint
    calls = []

    def block(h):
        calls.append(1)
        return h.exp().exp()

    x = torch.tensor([0.1, 0.2], requires_grad=True)
    y = checkpoint(block, x, use_reentrant=False)
    print(len(calls), y.grad_fn.name())
    y.sum().backward()
    result = (len(calls), x.grad)
""")
