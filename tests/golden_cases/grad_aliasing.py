"""Which leaves' first ``.grad`` share memory: ``AccumulateGrad`` keeps (steals) a gradient
that nothing else holds and that obeys the layout contract, even when it is a view of a buffer
other leaves' gradients view too (a 0-d element of an expanded gradient); then an in-place
change through one ``.grad`` shows in the others, and they share one version counter."""

from __future__ import annotations

import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


case("stack_of_scalars_sum_shares", """
    xs = [torch.tensor(float(i), requires_grad=True) for i in range(3)]
    torch.stack(xs).sum().backward()
    shared = [xs[0].grad.data_ptr() == x.grad.data_ptr() for x in xs]
    versions = [x.grad._version for x in xs]
    xs[0].grad += 1
    result = (shared, versions, [x.grad for x in xs], [x.grad._version for x in xs])
""")
case("stack_of_scalars_second_backward_adds_in_place", """
    xs = [torch.tensor(float(i), requires_grad=True) for i in range(3)]
    torch.stack(xs).sum().backward()
    torch.stack(xs).sum().backward()
    result = ([x.grad for x in xs], [x.grad._version for x in xs])
""")
case("stack_of_scalars_in_place_then_backward", """
    xs = [torch.tensor(float(i), requires_grad=True) for i in range(3)]
    torch.stack(xs).sum().backward()
    xs[1].grad += 1
    torch.stack(xs).sum().backward()
    result = ([x.grad for x in xs], [x.grad._version for x in xs])
""")
case("stack_of_scalars_sum_dim_with_gradient", """
    a = torch.tensor(1.0, requires_grad=True)
    b = torch.tensor(2.0, requires_grad=True)
    torch.stack([a, b]).sum(0).backward(torch.tensor(3.0))
    shared = a.grad.data_ptr() == b.grad.data_ptr()
    a.grad.mul_(2)
    result = (shared, a.grad, b.grad, a.grad._version, b.grad._version)
""")
case("stack_of_one_element_vectors_copies", """
    xs = [torch.tensor([float(i)], requires_grad=True) for i in range(3)]
    torch.stack(xs).sum().backward()
    shared = xs[0].grad.data_ptr() == xs[1].grad.data_ptr()
    xs[0].grad += 1
    result = (shared, [x.grad for x in xs], [x.grad._version for x in xs])
""")
case("add_of_two_leaves_copies", """
    a = torch.tensor(1.0, requires_grad=True)
    b = torch.tensor(2.0, requires_grad=True)
    (a + b).backward()
    shared = a.grad.data_ptr() == b.grad.data_ptr()
    a.grad += 1
    result = (shared, a.grad, b.grad)
""")
case("stack_mean_distinct_elements", """
    a = torch.tensor(1.0, requires_grad=True)
    b = torch.tensor(2.0, requires_grad=True)
    torch.stack([a, b]).mean().backward()
    shared = a.grad.data_ptr() == b.grad.data_ptr()
    a.grad += 1
    result = (shared, a.grad, b.grad, a.grad._version, b.grad._version)
""")
case("stack_expand_sum_copies", """
    a = torch.tensor(1.0, requires_grad=True)
    b = torch.tensor(2.0, requires_grad=True)
    torch.stack([a, b]).expand(2, 2).sum().backward()
    shared = a.grad.data_ptr() == b.grad.data_ptr()
    a.grad += 1
    result = (shared, a.grad, b.grad)
""")
case("stack_times_one_copies", """
    a = torch.tensor(1.0, requires_grad=True)
    b = torch.tensor(2.0, requires_grad=True)
    c = torch.tensor(3.0, requires_grad=True)
    (torch.stack([a, b, c]) * 1).sum().backward()
    result = (a.grad.data_ptr() == b.grad.data_ptr(), a.grad._version)
""")
case("grad_zero_then_shared", """
    xs = [torch.tensor(float(i), requires_grad=True) for i in range(2)]
    torch.stack(xs).sum().backward()
    xs[0].grad.zero_()
    result = ([x.grad for x in xs], [x.grad._version for x in xs])
""")
case("retained_and_hooked_gradients_see_the_change", """
    xs = [torch.tensor(float(i), requires_grad=True) for i in range(3)]
    st = torch.stack(xs)
    s = st.sum()
    s.retain_grad()
    st.retain_grad()
    seen = []
    s.grad_fn.register_prehook(lambda gs: seen.append(gs[0]))
    s.backward()
    xs[0].grad += 1
    result = (s.grad, st.grad, [x.grad for x in xs], seen, s.grad._version)
""")
case("hook_result_expanded_shares", """
    xs = [torch.tensor(float(i), requires_grad=True) for i in range(3)]
    s = torch.stack(xs).sum()
    s.register_hook(lambda g: g * 2)
    s.backward()
    xs[0].grad += 1
    result = [x.grad for x in xs]
""")
case("retain_graph_then_mul_", """
    xs = [torch.tensor(float(i), requires_grad=True) for i in range(3)]
    s = torch.stack(xs).sum()
    s.backward(retain_graph=True)
    xs[0].grad.mul_(3)
    s.backward()
    result = ([x.grad for x in xs], [x.grad._version for x in xs])
""")
case("cast_in_between_copies", """
    xs = [torch.tensor(float(i), requires_grad=True, dtype=torch.float64) for i in range(2)]
    torch.stack(xs).float().sum().backward()
    xs[0].grad += 1
    result = [x.grad for x in xs]
""")
