"""The recorded graph and the backward engine: leaves, nodes, saved values, hooks,
retain_graph, higher-order gradients, ``autograd.grad``, accumulation and grad mode."""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


# ---- leaves and requires_grad propagation -----------------------------------------------------

case("leaf_flags", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0])
    c = a * b
    d = b * 2
    result = [(t.is_leaf, t.requires_grad, t.grad_fn is None) for t in (a, b, c, d)]
""")
case("constant_times_two_is_leaf", """
    t = torch.tensor(1.0) * 2
    result = (t, t.is_leaf, t.requires_grad, t.grad_fn)
""")
case("detach_is_leaf", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    d = (a * 3).detach()
    result = (d, d.is_leaf, d.requires_grad, d.grad_fn)
""")
case("requires_grad_any_input", """
    a = torch.tensor(1.0, requires_grad=True)
    b = torch.tensor(2.0)
    result = ((a + b).requires_grad, (b + b).requires_grad, (b * a).requires_grad,
              (a.detach() + b).requires_grad, torch.cat([b[None], a[None]]).requires_grad)
""")
case("requires_grad_setter_leaf", """
    a = torch.tensor([1.0, 2.0])
    a.requires_grad = True
    b = a * 2
    a2 = torch.tensor([1.0])
    r = a2.requires_grad_()
    result = (a, b, r is a2, a2.requires_grad, a2.requires_grad_(False).requires_grad)
""")
case("requires_grad_non_leaf_false_error", """
    a = torch.tensor([1.0], requires_grad=True)
    b = a * 2
    b.requires_grad = False
    result = b
""")
case("requires_grad_non_leaf_true_ok", """
    a = torch.tensor([1.0], requires_grad=True)
    b = a * 2
    b.requires_grad = True
    r = b.requires_grad_()
    result = (b, r is b)
""")
case("requires_grad_non_leaf_method_false_error", """
    a = torch.tensor([1.0], requires_grad=True)
    b = a * 2
    result = b.requires_grad_(False)
""")
case("requires_grad_int_factory_error", """
    result = torch.tensor([1, 2], requires_grad=True)
""")
case("requires_grad_int_method_error", """
    result = torch.tensor([1, 2]).requires_grad_()
""")
case("requires_grad_int_setter_error", """
    t = torch.tensor([1, 2])
    t.requires_grad = True
    result = t
""")
case("requires_grad_int_false_ok", """
    t = torch.tensor([1, 2])
    t.requires_grad_(False)
    t.requires_grad = False
    result = t
""")
case("requires_grad_bool_factory_error", """
    result = torch.ones(2, dtype=torch.bool, requires_grad=True)
""")
case("factories_requires_grad", """
    result = (torch.zeros(2, requires_grad=True), torch.ones(1, 2, requires_grad=True),
              torch.full((2,), 3.0, requires_grad=True), torch.arange(3.0, requires_grad=True),
              torch.linspace(0, 1, 3, requires_grad=True), torch.eye(2, requires_grad=True),
              torch.zeros_like(torch.ones(2), requires_grad=True), torch.empty(2, requires_grad=True).shape,
              torch.tensor(1.0, dtype=torch.float64, requires_grad=True))
""")
case("int_arange_requires_grad_error", """
    result = torch.arange(3, requires_grad=True)
""")
case("update_outside_no_grad_makes_non_leaf", """
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    (w * w).sum().backward()
    w = w - 0.1 * w.grad
    result = (w, w.is_leaf, w.grad_fn)
""")
case("update_inside_no_grad", """
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    (w * w).sum().backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
    result = (w, w.is_leaf, w.grad, w._version)
""")

# ---- graph structure -------------------------------------------------------------------------

case("next_functions_two_leaves", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    c = a * b
    nf = c.grad_fn.next_functions
    result = (c, nf, nf[0][0].variable is a, nf[1][0].variable is b, type(nf[0][0]).__name__,
              nf[0][1], len(nf))
""")
case("next_functions_constant_input", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    c = a * torch.tensor([3.0, 4.0])
    result = (c.grad_fn.next_functions[1], c.grad_fn.next_functions)
""")
case("next_functions_scalar_operand", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    result = ((a * 2).grad_fn.next_functions, (a + 1).grad_fn.next_functions,
              (2 - a).grad_fn.next_functions, (a ** 2).grad_fn.next_functions)
""")
case("accumulate_grad_shared", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a * 2
    c = a + 1
    acc1 = b.grad_fn.next_functions[0][0]
    acc2 = c.grad_fn.next_functions[0][0]
    result = (acc1 is acc2, acc1.variable is a, acc1.next_functions, acc1.name())
""")
case("node_names", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (a * 2).sum()
    result = (y.grad_fn.name(), y.grad_fn.next_functions[0][0].name(), type(y.grad_fn).__name__)
""")
case("deep_graph_structure", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([0.5, -1.0], requires_grad=True)
    y = ((x * w).sigmoid() + x.exp()).mean()
    result = y
""")
case("graph_output_nr", """
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    a, b = x.unbind(0)
    c = a + b
    p = x.split(1, 1)
    result = (a.output_nr, b.output_nr, c.grad_fn.next_functions, p[2].output_nr,
              (p[0] * p[2]).grad_fn.next_functions)
""")
case("grad_fn_of_leaf_and_constant", """
    a = torch.tensor([1.0], requires_grad=True)
    result = (a.grad_fn, torch.tensor([1.0]).grad_fn, (a * 1).grad_fn.next_functions[0][0].grad_fn
              if hasattr((a * 1).grad_fn.next_functions[0][0], 'grad_fn') else 'no attribute')
""")
case("node_repr", """
    a = torch.tensor([1.0], requires_grad=True)
    y = a * 2
    result = (repr(y.grad_fn), str(y.grad_fn), y.grad_fn, y.grad_fn.next_functions[0][0])
""")
case("node_equality_and_identity", """
    a = torch.tensor([1.0], requires_grad=True)
    y = a * 2
    result = (y.grad_fn is y.grad_fn, y.grad_fn == y.grad_fn, hash(y.grad_fn) == hash(y.grad_fn))
""")

# ---- saved values ---------------------------------------------------------------------------

case("saved_mul", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    c = a * b
    result = (c.grad_fn._saved_self, c.grad_fn._saved_other, c.grad_fn._saved_self is a,
              c.grad_fn._saved_self.equal(a))
""")
case("saved_mul_scalar", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    c = a * 3
    result = (c.grad_fn._saved_other, c.grad_fn._saved_self)
""")
case("saved_mul_constant_side", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    c = a * torch.tensor([5.0, 6.0])
    result = (c.grad_fn._saved_other, c.grad_fn._saved_self)
""")
case("saved_pow_exponent", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x ** 2
    result = (y.grad_fn._saved_exponent, type(y.grad_fn._saved_exponent).__name__, y.grad_fn._saved_self,
              (x ** 2.5).grad_fn._saved_exponent)
""")
case("saved_sum_sizes", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.sum()
    result = (y.grad_fn._saved_self_sym_sizes, type(y.grad_fn._saved_self_sym_sizes).__name__,
              torch.ones(2, 3, requires_grad=True).sum().grad_fn._saved_self_sym_sizes)
""")
case("saved_result_exp", """
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    y = x.exp()
    r = y.grad_fn._saved_result
    result = (r, r.equal(y), r is y, r.grad_fn, r.requires_grad)
""")
case("saved_result_sigmoid", """
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    y = x.sigmoid()
    result = (y.grad_fn._saved_result, y.grad_fn._saved_result.grad_fn)
""")
case("saved_self_of_non_leaf", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    y = h.log()
    s = y.grad_fn._saved_self
    result = (s, s is h, s.grad_fn, s.requires_grad)
""")
case("saved_after_backward_error", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    fn = y.grad_fn.next_functions[0][0]
    y.backward()
    result = fn._saved_self
""")
case("saved_non_tensor_after_backward", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.sum()
    y.backward()
    p = x ** 2
    p.sum().backward()
    result = (y.grad_fn._saved_self_sym_sizes, p.grad_fn._saved_exponent)
""")
case("saved_retained_after_backward", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    result = y.grad_fn.next_functions[0][0]._saved_self
""")
case("saved_names_listing", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    ys = [x * x, x + x, x.exp(), x.sum(), x.sin(), x ** 2, x.sigmoid(), x.relu(), x.mean(),
          x.view(2, 1), x[0], x.unsqueeze(0), x.max(), x.tanh(), x / 2, -x, x.clone()]
    result = [(type(y.grad_fn).__name__, sorted(n for n in dir(y.grad_fn) if n.startswith('_saved_')))
              for y in ys]
""")
case("saved_missing_attribute", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    result = (x * 2).grad_fn._saved_exponent
""")
case("saved_tensor_version", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    y = h * h
    h.add_(1)
    result = y.grad_fn._saved_self
""")

# ---- calling nodes ------------------------------------------------------------------------

case("call_node_add_mul", """
    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(3.0, requires_grad=True)
    y = a * b + a
    result = (y.grad_fn(torch.tensor(1.0)), y.grad_fn.next_functions[0][0](torch.tensor(1.0)))
""")
case("call_node_exp", """
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    y = x.exp()
    result = y.grad_fn(torch.tensor([1.0, 2.0]))
""")
case("call_node_sum", """
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = x.sum()
    result = y.grad_fn(torch.tensor(2.0))
""")
case("call_node_does_not_free", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    g1 = y.grad_fn(torch.ones(2))
    g2 = y.grad_fn(torch.ones(2))
    result = (g1, g2, y.grad_fn._saved_self)
""")
case("call_node_with_grad_requiring_input", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    g = torch.ones(2, requires_grad=True)
    r = y.grad_fn(g)
    result = r
""")
case("call_accumulate_grad", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    acc = (x * 2).grad_fn.next_functions[0][0]
    r = acc(torch.tensor([5.0, 6.0]))
    result = (r, x.grad)
""")
case("call_node_sub_constant", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x - torch.tensor([1.0, 1.0])
    result = y.grad_fn(torch.tensor([3.0, 4.0]))
""")

# ---- backward basics --------------------------------------------------------------------------

case("backward_scalar", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x * x).sum()
    r = y.backward()
    result = (r, x.grad, y)
""")
case("backward_non_scalar_needs_gradient", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * 2).backward()
    result = x.grad
""")
case("backward_with_gradient", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * 2).backward(torch.tensor([1.0, 0.1, 0.01]))
    result = x.grad
""")
case("backward_gradient_shape_mismatch", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * 2).backward(torch.tensor([1.0, 2.0]))
    result = x.grad
""")
case("backward_gradient_dtype", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).backward(torch.tensor([1.0, 2.0], dtype=torch.float64))
    result = x.grad
""")
case("backward_gradient_int_error", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).backward(torch.tensor([1, 2]))
    result = x.grad
""")
case("backward_gradient_number", """
    x = torch.tensor(1.0, requires_grad=True)
    (x * 2).backward(2.0)
    result = x.grad
""")
case("backward_gradient_broadcastable_error", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).backward(torch.tensor(1.0))
    result = x.grad
""")
case("backward_no_grad_fn_error", """
    x = torch.tensor([1.0, 2.0])
    x.sum().backward()
    result = x.grad
""")
case("backward_on_leaf", """
    x = torch.tensor(2.0, requires_grad=True)
    x.backward()
    result = x.grad
""")
case("backward_on_leaf_vector", """
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    x.backward(torch.tensor([1.0, 5.0]))
    result = x.grad
""")
case("backward_one_element_not_0d", """
    x = torch.tensor([2.0], requires_grad=True)
    (x * 3).backward()
    result = x.grad
""")
case("backward_twice_without_saved_ok", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x + 1).sum()
    y.backward()
    y.backward()
    result = x.grad
""")
case("backward_twice_error", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    y.backward()
    result = x.grad
""")
case("backward_twice_retain_graph", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    result = x.grad
""")
case("backward_twice_error_grad_kept", """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    try:
        y.backward()
    except RuntimeError as e:
        print(type(e).__name__)
    result = x.grad
""")
case("backward_through_freed_shared_subgraph", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x.exp()
    a = h.sum()
    b = (h * 2).sum()
    a.backward()
    b.backward()
    result = x.grad
""")
case("backward_freed_partial", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * x
    a = h.sum()
    b = (h + 1).sum()
    a.backward()
    b.backward()
    result = x.grad
""")
case("accumulation_across_calls", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    for _ in range(3):
        (x * x).sum().backward()
    result = x.grad
""")
case("accumulation_grad_identity", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).sum().backward()
    g = x.grad
    p = g.data_ptr()
    (x * 3).sum().backward()
    result = (x.grad, g is x.grad, g, x.grad.data_ptr() == p, g._version)
""")
case("grad_reset_to_none", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).sum().backward()
    x.grad = None
    (x * 3).sum().backward()
    result = x.grad
""")
case("grad_zero_inplace", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).sum().backward()
    x.grad.zero_()
    (x * 3).sum().backward()
    result = (x.grad, x.grad._version)
""")
case("grad_assign", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.grad = torch.tensor([10.0, 10.0])
    (x * 3).sum().backward()
    result = x.grad
""")
case("grad_assign_wrong_shape", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.grad = torch.tensor([10.0])
    result = x.grad
""")
case("grad_assign_wrong_dtype", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.grad = torch.tensor([10.0, 1.0], dtype=torch.float64)
    result = x.grad
""")
case("grad_assign_not_tensor", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.grad = [1.0, 2.0]
    result = x.grad
""")
case("grad_is_not_shared_with_upstream", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    g = torch.tensor([5.0, 6.0])
    x.backward(g)
    result = (x.grad, x.grad is g, x.grad.data_ptr() == g.data_ptr())
""")
case("grad_dtype_float64_leaf", """
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    y = (x.float() * 2).sum()
    y.backward()
    result = (x.grad, y)
""")
case("grad_of_broadcast_leaf", """
    b = torch.tensor(2.0, requires_grad=True)
    x = torch.tensor([1.0, 2.0, 3.0])
    (x * b).sum().backward()
    result = b.grad
""")
case("diamond_graph", """
    x = torch.tensor(2.0, requires_grad=True)
    a = x * 3
    b = x.exp()
    y = a * b
    y.backward()
    result = (y, x.grad)
""")
case("reused_node_gradient_sum", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    y = (h * h + h).sum()
    y.backward()
    result = x.grad
""")
case("torch_autograd_backward_function", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y1 = (x * 2).sum()
    y2 = x * 3
    torch.autograd.backward([y1, y2], [torch.tensor(1.0), torch.tensor([1.0, 10.0])])
    result = x.grad
""")
case("torch_autograd_backward_single", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    torch.autograd.backward((x * x).sum())
    result = x.grad
""")
case("backward_multiple_roots_shared", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * x
    torch.autograd.backward([h.sum(), (h * 2).sum()])
    result = x.grad
""")
case("backward_inputs", """
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    y = (w * b).sum()
    y.backward(inputs=[w])
    result = (w.grad, b.grad)
""")
case("backward_inputs_tensor", """
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    (w * b).sum().backward(inputs=b)
    result = (w.grad, b.grad)
""")
case("backward_inputs_non_leaf", """
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    h = w * 2
    y = (h * h).sum()
    y.backward(inputs=[h])
    result = (w.grad, h.grad, h.is_leaf)
""")
case("backward_inputs_empty_error", """
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    (w * 2).sum().backward(inputs=[])
    result = w.grad
""")
case("backward_inputs_unused", """
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    (w * 2).sum().backward(inputs=[b])
    result = (w.grad, b.grad)
""")

# ---- retain_grad and .grad of non-leaves ---------------------------------------------------

case("non_leaf_grad_warning", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    h.sum().backward()
    result = h.grad
""")
case("non_leaf_grad_warning_before_backward", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    result = h.grad
""")
case("retain_grad", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    h.retain_grad()
    (h * h).sum().backward()
    result = (h.grad, x.grad, h.retains_grad, x.retains_grad, h.is_leaf)
""")
case("retain_grad_accumulates", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    h.retain_grad()
    y = (h * h).sum()
    y.backward(retain_graph=True)
    y.backward()
    result = (h.grad, x.grad)
""")
case("retain_grad_on_leaf_noop", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.retain_grad()
    (x * 2).sum().backward()
    result = (x.grad, x.retains_grad)
""")
case("retain_grad_no_requires_grad_error", """
    x = torch.tensor([1.0, 2.0])
    x.retain_grad()
    result = x
""")
case("retain_grad_twice", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    h.retain_grad()
    h.retain_grad()
    h.sum().backward()
    result = h.grad
""")
case("retain_grad_output_of_root", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 2).sum()
    y.retain_grad()
    y.backward()
    result = (y.grad, x.grad)
""")
case("retain_grad_with_hook_order", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    h.retain_grad()
    h.register_hook(lambda g: g * 10)
    h.sum().backward()
    result = (h.grad, x.grad)
""")
case("retain_grad_then_hook_order", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    h.register_hook(lambda g: g * 10)
    h.retain_grad()
    h.sum().backward()
    result = (h.grad, x.grad)
""")
case("retain_grad_grad_is_independent", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    h.retain_grad()
    h.backward(torch.tensor([1.0, 1.0]))
    result = (h.grad, x.grad, h.grad.requires_grad)
""")

# ---- hooks -----------------------------------------------------------------------------------

case("tensor_hook_replaces_grad", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.register_hook(lambda g: g * 2)
    y.sum().backward()
    result = x.grad
""")
case("tensor_hook_returns_none", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    y = x * 3
    y.register_hook(lambda g: seen.append(g.clone()))
    y.backward(torch.tensor([1.0, 5.0]))
    result = (x.grad, seen)
""")
case("tensor_hook_on_leaf", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.register_hook(lambda g: g + 100)
    (x * 3).sum().backward()
    result = x.grad
""")
case("tensor_hook_on_leaf_sees_grad_before_accumulation", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    def hook(g):
        print('hook', g, x.grad)
    x.register_hook(hook)
    (x * 3).sum().backward()
    (x * 3).sum().backward()
    result = x.grad
""")
case("tensor_hooks_chain_in_order", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    y.register_hook(lambda g: g + 1)
    y.register_hook(lambda g: g * 10)
    y.sum().backward()
    result = x.grad
""")
case("tensor_hook_remove", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    h = y.register_hook(lambda g: g * 100)
    h.remove()
    y.sum().backward()
    result = (x.grad, type(h).__name__)
""")
case("tensor_hook_no_grad_error", """
    x = torch.tensor([1.0, 2.0])
    x.register_hook(lambda g: g)
    result = x
""")
case("tensor_hook_print_order", """
    x = torch.tensor(1.0, requires_grad=True)
    a = x * 2
    b = x * 3
    c = a + b
    a.register_hook(lambda g: print('a', g))
    b.register_hook(lambda g: print('b', g))
    c.register_hook(lambda g: print('c', g))
    x.register_hook(lambda g: print('x', g))
    c.backward()
    result = x.grad
""")
case("tensor_hook_wrong_shape", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    y.register_hook(lambda g: torch.ones(3))
    y.sum().backward()
    result = x.grad
""")
case("node_hook", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    def hook(grad_inputs, grad_outputs):
        print('in', grad_inputs)
        print('out', grad_outputs)
    y.grad_fn.register_hook(hook)
    y.backward(torch.tensor([1.0, 2.0]))
    result = x.grad
""")
case("node_hook_replaces_grad_inputs", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.grad_fn.register_hook(lambda gi, go: (gi[0] * 0 + 7, gi[1]))
    y.sum().backward()
    result = x.grad
""")
case("node_prehook", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    def pre(grad_outputs):
        print('pre', grad_outputs)
        return (grad_outputs[0] * 2,)
    y.grad_fn.register_prehook(pre)
    y.sum().backward()
    result = x.grad
""")
case("node_hook_remove", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    h = y.grad_fn.register_prehook(lambda go: (go[0] * 100,))
    h.remove()
    y.sum().backward()
    result = x.grad
""")
case("node_hooks_with_constant_input", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * torch.tensor([3.0, 4.0])
    y.grad_fn.register_hook(lambda gi, go: print('gi', gi))
    y.sum().backward()
    result = x.grad
""")
case("hook_order_tensor_vs_node", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    z = y.sum()
    y.register_hook(lambda g: print('tensor hook', g))
    y.grad_fn.register_prehook(lambda go: print('node prehook', go))
    y.grad_fn.register_hook(lambda gi, go: print('node hook', gi))
    z.backward()
    result = x.grad
""")
case("accumulate_grad_node_hook", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    acc = (x * 1).grad_fn.next_functions[0][0]
    y = x * 5
    acc.register_prehook(lambda go: print('acc pre', go))
    acc.register_hook(lambda gi, go: print('acc post', gi, go))
    y.sum().backward()
    result = x.grad
""")
case("engine_order_two_branches", """
    x = torch.tensor(1.0, requires_grad=True)
    a = x.exp()
    b = x.sin()
    c = a.cos()
    y = b + c
    for name, t in (('x', x), ('a', a), ('b', b), ('c', c), ('y', y)):
        t.register_hook(lambda g, name=name: print(name))
    y.backward()
    result = x.grad
""")
case("engine_order_creation", """
    x = torch.tensor(1.0, requires_grad=True)
    outs = []
    p = x * 1
    q = x * 2
    r = x * 3
    for name, t in (('p', p), ('q', q), ('r', r)):
        t.register_hook(lambda g, name=name: print(name))
    (r + p + q).backward()
    result = x.grad
""")

# ---- higher-order gradients ---------------------------------------------------------------
# The first-order create_graph graphs (x ** 3 ...) are compared node by node. For the larger
# formulas only values are here; the graphs of the backward functions' own nodes
# (SigmoidBackwardBackward0 ...) are pinned in fuzz_double_backward.

case("grad_create_graph_cube", """
    x = torch.tensor(3.0, requires_grad=True)
    (g,) = torch.autograd.grad(x ** 3, x, create_graph=True)
    (g2,) = torch.autograd.grad(g, x)
    result = (g, g2)
""")
case("backward_create_graph", """
    x = torch.tensor(2.0, requires_grad=True)
    y = x ** 3
    y.backward(create_graph=True)
    g = x.grad
    result = (g, g.requires_grad, g.grad_fn)
""")
case("backward_create_graph_then_second", """
    x = torch.tensor(2.0, requires_grad=True)
    y = x ** 3
    y.backward(create_graph=True)
    g = x.grad
    x.grad = None
    g.backward()
    result = x.grad
""")
case("second_derivative_sin", """
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    (g,) = torch.autograd.grad(x.sin().sum(), x, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), x)
    result = (g, h)
""")
case("third_derivative_exp_mul", """
    x = torch.tensor(1.5, requires_grad=True)
    y = x.exp() * x
    (g1,) = torch.autograd.grad(y, x, create_graph=True)
    (g2,) = torch.autograd.grad(g1, x, create_graph=True)
    (g3,) = torch.autograd.grad(g2, x)
    result = (g1, g2, g3)
""")
case("second_derivative_many_ops", """
    x = torch.tensor([0.5, 1.5], requires_grad=True)
    y = (x.tanh() * x.sigmoid() + x.log() / x + x.sqrt() ** 3 - x.cos().exp()).sum()
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), x)
    result = (g.detach(), g.requires_grad, h)
""")
case("second_derivative_reductions", """
    x = torch.tensor([[0.5, 1.5], [2.0, -1.0]], requires_grad=True)
    y = x.softmax(1).mul(x).sum() + x.mean(0).pow(2).sum() + x.max() * 2 + x.var()
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), x)
    result = (g.detach(), g.requires_grad, h)
""")
case("second_derivative_linalg", """
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    v = torch.tensor([0.5, -1.0], requires_grad=True)
    y = ((a @ a) @ v).pow(2).sum()
    ga, gv = torch.autograd.grad(y, (a, v), create_graph=True)
    h = torch.autograd.grad(ga.sum() + gv.sum(), (a, v))
    result = (ga.detach(), gv.detach(), h)
""")
case("second_derivative_views", """
    x = torch.arange(1.0, 7.0).requires_grad_()
    y = (x.view(2, 3).t()[1:] ** 2).sum() + torch.cat([x[:2], x[4:]]).pow(3).sum()
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), x)
    result = (g.detach(), g.requires_grad, h)
""")
case("grad_of_grad_graph", """
    x = torch.tensor(2.0, requires_grad=True)
    (g,) = torch.autograd.grad(x * x * x, x, create_graph=True)
    result = g
""")
case("create_graph_grad_requires_grad", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (g,) = torch.autograd.grad((x * 2).sum(), x, create_graph=True)
    result = (g, g.requires_grad, g.grad_fn)
""")

# ---- autograd.grad -------------------------------------------------------------------------

case("autograd_grad_basic", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    g = torch.autograd.grad(y, x)
    result = (g, x.grad, type(g).__name__)
""")
case("autograd_grad_multiple_inputs", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor(3.0, requires_grad=True)
    y = (a * b).sum()
    result = torch.autograd.grad(y, [a, b])
""")
case("autograd_grad_unused_error", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor(3.0, requires_grad=True)
    result = torch.autograd.grad((a * 2).sum(), [a, b])
""")
case("autograd_grad_allow_unused", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor(3.0, requires_grad=True)
    result = torch.autograd.grad((a * 2).sum(), [a, b], allow_unused=True)
""")
case("autograd_grad_materialize", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor(3.0, requires_grad=True)
    result = torch.autograd.grad((a * 2).sum(), [a, b], materialize_grads=True)
""")
case("autograd_grad_grad_outputs", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    result = torch.autograd.grad(y, x, grad_outputs=torch.tensor([1.0, 0.5]))
""")
case("autograd_grad_non_scalar_error", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    result = torch.autograd.grad(x * x, x)
""")
case("autograd_grad_input_no_requires_grad", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    c = torch.tensor([1.0, 2.0])
    result = torch.autograd.grad((x * c).sum(), c)
""")
case("autograd_grad_output_no_grad_fn", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    c = torch.tensor([1.0, 2.0])
    result = torch.autograd.grad(c.sum(), x)
""")
case("autograd_grad_frees_graph", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    torch.autograd.grad(y, x)
    result = torch.autograd.grad(y, x)
""")
case("autograd_grad_retain_graph", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    g1 = torch.autograd.grad(y, x, retain_graph=True)
    g2 = torch.autograd.grad(y, x)
    result = (g1, g2)
""")
case("autograd_grad_non_leaf_input", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    y = (h * h).sum()
    result = (torch.autograd.grad(y, h), x.grad)
""")
case("autograd_grad_does_not_touch_grad", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.grad = torch.tensor([5.0, 5.0])
    g = torch.autograd.grad((x * 2).sum(), x)
    result = (g, x.grad)
""")
case("autograd_grad_multiple_outputs", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    result = torch.autograd.grad([(x * 2).sum(), (x * x).sum()], x)
""")
case("autograd_grad_same_input_twice", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    result = torch.autograd.grad((x * x).sum(), [x, x])
""")
case("autograd_grad_unused_intermediate", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    y = (x * 2).sum()
    result = torch.autograd.grad(y, [h], allow_unused=True)
""")
case("autograd_grad_leaf_output", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    result = torch.autograd.grad(x, x, grad_outputs=torch.ones(2))
""")
case("autograd_grad_hooks_run", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    h.register_hook(lambda g: g * 10)
    result = torch.autograd.grad(h.sum(), x)
""")

# ---- detach, clone, data ---------------------------------------------------------------------

case("detach_shares_storage_and_version", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    d = x.detach()
    same = d.data_ptr() == x.data_ptr()
    d.add_(1)
    result = (x, d, same, x._version, d._version, d.requires_grad)
""")
case("clone_is_differentiable", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    c = x.clone()
    (c * 3).sum().backward()
    result = (c, x.grad, c.data_ptr() == x.data_ptr(), c.is_leaf)
""")
case("detach_clone", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    c = x.detach().clone()
    c.add_(1)
    result = (x, c, c.requires_grad, c.is_leaf)
""")
case("data_attribute", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    d = x.data
    d.mul_(10)
    result = (x, d, d.requires_grad, d.is_leaf, x._version, d._version, d.data_ptr() == x.data_ptr())
""")
case("data_assignment", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.data = torch.tensor([5.0, 6.0])
    (x * x).sum().backward()
    result = (x, x.grad, x.requires_grad)
""")
case("data_of_non_leaf", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    d = h.data
    result = (d, d.grad_fn, d.is_leaf, h.grad_fn)
""")
case("detach_inplace", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    r = h.detach_()
    result = (r is h, h, h.is_leaf, h.grad_fn, h.requires_grad)
""")
case("detach_function", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    result = (torch.detach(x * 2), torch.clone(x))
""")
case("tensor_of_tensor_warning", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.tensor(x)
    result = (y, y.requires_grad)
""")
case("as_tensor_shares", """
    x = torch.tensor([1.0, 2.0])
    y = torch.as_tensor(x)
    z = torch.as_tensor(x, dtype=torch.float64)
    result = (y is x, z, z.data_ptr() == x.data_ptr())
""")

# ---- grad mode ---------------------------------------------------------------------------------

case("no_grad_context", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.no_grad():
        y = x * 2
        inside = torch.is_grad_enabled()
    result = (y, y.requires_grad, y.is_leaf, inside, torch.is_grad_enabled())
""")
case("no_grad_decorator", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    @torch.no_grad()
    def f(t):
        return t * 2, torch.is_grad_enabled()
    y, inside = f(x)
    result = (y, inside, torch.is_grad_enabled(), f.__name__)
""")
case("no_grad_decorator_without_call", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    @torch.no_grad
    def f(t):
        return t * 2
    result = f(x)
""")
case("enable_grad_inside_no_grad", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.no_grad():
        with torch.enable_grad():
            y = x * 2
        z = x * 2
    result = (y, z)
""")
case("enable_grad_decorator", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    @torch.enable_grad()
    def f(t):
        return t * 2
    with torch.no_grad():
        y = f(x)
    result = y
""")
case("set_grad_enabled_function_call", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    torch.set_grad_enabled(False)
    y = x * 2
    state = torch.is_grad_enabled()
    torch.set_grad_enabled(True)
    result = (y, state, torch.is_grad_enabled())
""")
case("set_grad_enabled_context", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.set_grad_enabled(False):
        y = x * 2
    with torch.set_grad_enabled(True):
        z = x * 2
    result = (y, z, torch.is_grad_enabled())
""")
case("set_grad_enabled_decorator", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    @torch.set_grad_enabled(False)
    def f(t):
        return t * 2
    result = (f(x), torch.is_grad_enabled())
""")
case("no_grad_restores_on_exception", """
    try:
        with torch.no_grad():
            raise ValueError('boom')
    except ValueError:
        pass
    result = torch.is_grad_enabled()
""")
case("nested_no_grad", """
    with torch.no_grad():
        with torch.no_grad():
            a = torch.is_grad_enabled()
        b = torch.is_grad_enabled()
    result = (a, b, torch.is_grad_enabled())
""")
case("inference_mode", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.inference_mode():
        y = x * 2
    result = (y, y.requires_grad)
""")
case("no_grad_leaf_creation", """
    with torch.no_grad():
        w = torch.ones(2, requires_grad=True)
        v = w * 2
    result = (w, v, w.is_leaf, v.is_leaf)
""")
case("no_grad_inplace_on_leaf", """
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.no_grad():
        w.mul_(2)
        w[0] = 10.0
    result = (w, w._version, w.is_leaf, w.grad_fn)
""")
case("no_grad_backward_still_works", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    with torch.no_grad():
        y.backward()
    result = x.grad
""")
case("grad_mode_objects", """
    result = (type(torch.no_grad()).__name__, torch.is_grad_enabled())
""")

# ---- saved tensor hooks ---------------------------------------------------------------------

case("saved_tensors_hooks_count", """
    packed = []
    def pack(t):
        packed.append(tuple(t.shape))
        return t
    def unpack(t):
        return t
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = (a * a).exp().sum()
    y.backward()
    result = (len(packed), packed, a.grad)
""")
case("saved_tensors_hooks_bytes", """
    sizes = []
    def pack(t):
        sizes.append(t.numel() * t.element_size())
        return t
    a = torch.linspace(0, 1, 1000, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        b = a.exp()
        c = b.sin()
        y = (c * c).sum()
    result = (len(sizes), sum(sizes))
""")
case("saved_tensors_hooks_unpack_modifies", """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 1, lambda t: t * 0 + 10):
        y = (a * a).sum()
    y.backward()
    result = a.grad
""")
