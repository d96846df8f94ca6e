"""Exercise checks of notebooks 09-11 (Jacobians and VJPs, custom Functions, tensor hooks).

Each check passes the reference answer and rejects plausible wrong ones and the shortcuts its
exercise forbids, in the notebook and through collect and judge on fresh inputs.
"""

from __future__ import annotations

import pytest
from check_support import fails, passes, right, wrong

import autograd_lab as torch
from autograd_lab.teaching.checks import nb09, nb10, nb11


def _right(fb, capsys) -> None:
    out = capsys.readouterr().out
    assert fb, out
    assert "✓" in out and "✗" not in out


def _wrong(fb, capsys) -> None:
    out = capsys.readouterr().out
    assert not fb, out
    assert "✗" in out or "…" in out


# --- 09 ------------------------------------------------------------------------------------------

def g09(x):
    return torch.stack([x[0] * x[1], x[1] * x[2], x[0] + x[2] ** 2])


def test_nb09_vectors(capsys):
    right(capsys, nb09.ex1_vectors(torch.ones(3), torch.tensor([0.0, 1.0, 0.0])))
    wrong(capsys, nb09.ex1_vectors(torch.zeros(3), torch.tensor([1.0, 0.0, 0.0])), "all zeros",
          "indices start at 0")
    wrong(capsys, nb09.ex1_vectors(torch.tensor([1.0, 2.0, 3.0]), torch.tensor(1.0)), "v = x",
          "raised")
    wrong(capsys, nb09.ex1_vectors([1, 1, 1], 1), "tensor shaped like p")
    wrong(capsys, nb09.ex1_vectors(None, None), "waiting for your answer")


def test_nb09_vjp(capsys):
    x0 = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = torch.tensor([1.0, -1.0, 2.0])
    J = torch.autograd.functional.jacobian(g09, x0.detach())
    g09(x0).backward(w)
    right(capsys, nb09.ex2_vjp(x0.grad, g09, x0, w))
    wrong(capsys, nb09.ex2_vjp(J @ w, g09, x0, w), "J w")
    wrong(capsys, nb09.ex2_vjp(torch.ones(3) @ J, g09, x0, w), "ones")
    wrong(capsys, nb09.ex2_vjp(w, g09, x0, w), "w itself")
    wrong(capsys, nb09.ex2_vjp(-(w @ J), g09, x0, w), "sign")
    wrong(capsys, nb09.ex2_vjp(None, g09, x0, w), "waiting for your answer")


def _rows(g, x):
    out = g(x)
    return torch.stack([torch.autograd.grad(out[i], x, retain_graph=True)[0]
                        for i in range(len(out))])


def _functional(g, x):
    """The shortcut: functional.jacobian instead of row by row."""
    return torch.autograd.functional.jacobian(g, x)


def _batched(g, x):
    out = g(x)
    eye = torch.eye(len(out))
    return torch.stack([torch.autograd.grad(out, x, e, retain_graph=True)[0] for e in eye]).T


def test_nb09_rows(capsys):
    right(capsys, nb09.ex3_rows(_rows))
    wrong(capsys, nb09.ex3_rows(lambda g, x: _rows(g, x).T), "transpose")
    wrong(capsys, nb09.ex3_rows(lambda g, x: _rows(g, x).sum(dim=0)), "shape")
    wrong(capsys, nb09.ex3_rows(lambda g, x: torch.eye(3)), "backward passes")
    wrong(capsys, nb09.ex3_rows(_functional), "functional.jacobian")
    wrong(capsys, nb09.ex3_rows(None), "waiting for your answer")


def test_nb09_rows_through_the_registry():
    passes(nb09, "ex3", {"jacobian_rows": _rows})
    fails(nb09, "ex3", {"jacobian_rows": _functional}, "functional.jacobian")
    fails(nb09, "ex3", {"jacobian_rows": _batched}, "transpose")

    def one_pass(g, x):
        x = x.detach().requires_grad_()
        out = g(x)
        return torch.autograd.grad(out.sum(), x)[0].expand(len(out), len(x))

    fails(nb09, "ex3", {"jacobian_rows": one_pass}, "backward passes")


def test_nb09_costs(capsys):
    rev = 10 * 256 * 256 + 10 * 256 * 784
    fwd = 256 * 256 * 784 + 10 * 256 * 784
    right(capsys, nb09.ex4_costs(rev, fwd))
    wrong(capsys, nb09.ex4_costs(fwd, rev), "other order")
    wrong(capsys, nb09.ex4_costs(10 * 256 * 256, fwd), "not the number")
    wrong(capsys, nb09.ex4_costs(float(rev), fwd), "whole number")
    wrong(capsys, nb09.ex4_costs(None, None), "waiting for your answer")


# --- 10 ------------------------------------------------------------------------------------------

def test_nb10_cube(capsys):
    right(capsys, nb10.ex1_cube(lambda x, g: g * 3 * x ** 2, "CubeBackward"))
    wrong(capsys, nb10.ex1_cube(lambda x, g: 3 * x ** 2, "CubeBackward"), "ignores grad_out")
    wrong(capsys, nb10.ex1_cube(lambda x, g: g * x ** 3, "CubeBackward"), "numerical")
    wrong(capsys, nb10.ex1_cube(lambda x, g: -g * 3 * x ** 2, "CubeBackward"), "numerical")
    wrong(capsys, nb10.ex1_cube(lambda x, g: g * 3 * x ** 2, "CubeBackward0"), "number")
    wrong(capsys, nb10.ex1_cube(lambda x, g: g * 3 * x ** 2, "PowBackward0"), "not recorded")
    wrong(capsys, nb10.ex1_cube(lambda x: x, "CubeBackward"), "raised")
    wrong(capsys, nb10.ex1_cube(None, None), "waiting for your answer")


_XS = torch.randn(4, dtype=torch.float64, requires_grad=True)


def _make_sigmoid(backward_formula):
    class Sigmoid(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            s = torch.sigmoid(x)
            ctx.save_for_backward(s)
            return s

        @staticmethod
        def backward(ctx, g):
            (s,) = ctx.saved_tensors
            return backward_formula(s, g)
    return Sigmoid


def _passing(candidates):
    return {name for name, fn in candidates.items()
            if torch.autograd.gradcheck(_make_sigmoid(fn).apply, (_XS,), raise_exception=False)}


def test_nb10_passing(capsys):
    right(capsys, nb10.ex2_passing(_passing))
    wrong(capsys, nb10.ex2_passing(lambda c: {"A"}), "leaves out")
    wrong(capsys, nb10.ex2_passing(lambda c: {"A", "B", "D"}), "ignores the incoming gradient")
    wrong(capsys, nb10.ex2_passing(lambda c: ["A", "D"]), "set")
    wrong(capsys, nb10.ex2_passing(lambda c: set(c)), "ignores")
    wrong(capsys, nb10.ex2_passing({"A", "D"}), "must be a function")
    wrong(capsys, nb10.ex2_passing(None), "waiting for your answer")


def test_nb10_passing_through_the_registry():
    import itertools

    passes(nb10, "ex2", {"passing_backwards": _passing})
    # the shortcut: brute-forcing the subsets of the notebook's four names
    for k in range(5):
        for subset in itertools.combinations("ABCD", k):
            fails(nb10, "ex2", {"passing_backwards": lambda c, s=set(subset): s & set(c)},
                  fixed=set(subset) != {"A", "D"})
    fails(nb10, "ex2", {"passing_backwards": lambda c: set(list(c)[:1])})


def test_nb10_no_variant_is_passed_by_an_empty_answer():
    """A fresh candidate set always holds a backward that passes, so returning nothing (or
    the notebook's own names, which fresh sets never use) can't pass by luck."""
    from check_support import through_registry

    got = through_registry(nb10, "ex2", {"passing_backwards": lambda c: set()},
                           seeds=tuple(range(200)))
    assert all(status == "failed" for status, _ in got), got


def test_nb10_formulas_through_the_registry():
    passes(nb10, "ex1", {"cube_backward": lambda x, g: g * 3 * x ** 2,
                         "node_name": "CubeBackward"})
    fails(nb10, "ex1", {"cube_backward": lambda x, g: 3 * x ** 2, "node_name": "CubeBackward"},
          "ignores grad_out")
    fails(nb10, "ex1", {"cube_backward": lambda x, g: g * 3 * x ** 2,
                        "node_name": "CubeBackward0"}, "carry a number")
    passes(nb10, "ex3", {"ste_backward": lambda x, g: g * (x.abs() <= 1)})
    fails(nb10, "ex3", {"ste_backward": lambda x, g: g * (x.abs() < 1)}, "<=, not <")
    fails(nb10, "ex3", {"ste_backward": lambda x, g: g}, "identity everywhere")


def test_nb10_ste(capsys):
    right(capsys, nb10.ex3_ste(lambda x, g: g * (x.abs() <= 1)))
    wrong(capsys, nb10.ex3_ste(lambda x, g: g), "identity")
    wrong(capsys, nb10.ex3_ste(lambda x, g: g * 0), "true derivative")
    wrong(capsys, nb10.ex3_ste(lambda x, g: g * (x.abs() < 1)), "<=")
    wrong(capsys, nb10.ex3_ste(lambda x, g: (x.abs() <= 1).float()), "ignores grad_out")
    wrong(capsys, nb10.ex3_ste(lambda x, g: -g * (x.abs() <= 1)), "sign")
    wrong(capsys, nb10.ex3_ste(None), "waiting for your answer")


# ---- notebook 11 · Tensor hooks ----------------------------------------------------------

def _spy(h, loss):
    seen = []
    h.register_hook(lambda grad: seen.append(grad))
    loss.backward()
    return seen[0]


def _spy_constant(h, loss):
    """The shortcut: no hook at all, the notebook's answer typed in."""
    return torch.tensor([6.0 * v for v in nb11.SPY_X])  # dloss/dh = 2h = 6x


def _spy_grad(h, loss):
    """The shortcut: autograd.grad instead of a hook."""
    return torch.autograd.grad(loss, h)[0]


def test_nb11_spy(capsys):
    _right(nb11.check_spy(_spy), capsys)
    for bad in (None, ..., 0, _spy_constant, _spy_grad, lambda h, loss: h.detach(),
                lambda h, loss: -_spy(h, loss)):
        _wrong(nb11.check_spy(bad), capsys)


def test_nb11_spy_through_the_registry():
    passes(nb11, "ex1", {"spy": _spy})
    fails(nb11, "ex1", {"spy": _spy_grad}, "torch.autograd.grad")
    fails(nb11, "ex1", {"spy": _spy_constant}, "no hook was registered on h")

    def hook_elsewhere(h, loss):
        seen = []
        leaves = [t for t in (h,) if t.requires_grad]
        loss.register_hook(lambda grad: seen.append(grad))
        loss.backward()
        return h.detach() * 2 if leaves else None

    fails(nb11, "ex1", {"spy": hook_elsewhere}, "no hook was registered on h")

    def registered_not_fired(h, loss):
        seen = []
        h.register_hook(lambda grad: seen.append(grad))
        return 2 * h.detach()

    fails(nb11, "ex1", {"spy": registered_not_fired}, "never ran")


def test_nb11_hooks_through_the_registry():
    passes(nb11, "ex2", {"clip_hook": lambda g: g.clamp(-1.0, 1.0)})
    fails(nb11, "ex2", {"clip_hook": lambda g: g.clamp(0.0, 1.0)})
    fails(nb11, "ex2", {"clip_hook": lambda g: g / g.abs().max()})
    passes(nb11, "ex5", {"average_fixed": lambda g: g.mean().expand_as(g)})
    fails(nb11, "ex5", {"average_fixed": lambda g: g.mean()})
    fails(nb11, "ex5", {"average_fixed": lambda g: g.sum().expand_as(g)})


def test_nb11_clip_hook(capsys):
    _right(nb11.check_clip_hook(lambda g: g.clamp(-1.0, 1.0)), capsys)

    def placeholder(g):
        return ...

    for bad in (None, ..., 0, placeholder, lambda g: g, lambda g: g.clamp(0.0, 1.0),
                  lambda g: -g.clamp(-1.0, 1.0), lambda g: None, lambda g: 1.0,
                  lambda g: g.clamp(-1.0, 1.0).sum()):
        _wrong(nb11.check_clip_hook(bad), capsys)


def _clip_norm(grad, max_norm=1.0):
    norm = grad.norm()
    return grad * (max_norm / norm) if norm > max_norm else grad


def _handle_case(register: bool, remove: bool, target_other: bool = False):
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    other = torch.tensor([3.0, 4.0], requires_grad=True)
    handle = (other if target_other else w).register_hook(_clip_norm) if register else None
    (w * w).sum().backward()
    first = w.grad.clone()
    if remove and handle is not None:
        handle.remove()
    return handle, first, w


def test_nb11_handle_removed(capsys):
    _right(nb11.check_handle_removed(*_handle_case(True, True)), capsys)
    _wrong(nb11.check_handle_removed(*_handle_case(False, False)), capsys)  # None
    _wrong(nb11.check_handle_removed(*_handle_case(True, False)), capsys)  # never removed
    _wrong(nb11.check_handle_removed(*_handle_case(True, True, target_other=True)), capsys)
    _, first, w = _handle_case(True, True)
    _wrong(nb11.check_handle_removed(..., first, w), capsys)
    _wrong(nb11.check_handle_removed(0, first, w), capsys)
    # first as an alias of w.grad, which a later backward then changes in place
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    handle = w.register_hook(_clip_norm)
    (w * w).sum().backward()
    first = w.grad
    handle.remove()
    (w * w).sum().backward()
    _wrong(nb11.check_handle_removed(handle, first, w), capsys)


def test_nb11_order(capsys):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.retain_grad()
    y.register_hook(lambda grad: grad * 10)
    x.register_hook(lambda grad: grad + 1)
    y.sum().backward()
    _right(nb11.check_order(y.grad, x.grad), capsys)
    _right(nb11.check_order([10.0, 10.0], [31.0, 31.0]), capsys)
    for y_grad, x_grad in ((None, None), (..., [31.0, 31.0]), ([1.0, 1.0], [31.0, 31.0]),
                           ([10.0, 10.0], [30.0, 30.0]), ([10.0, 10.0], [4.0, 4.0]),
                           (0, 0), ([10.0, 10.0], [-31.0, -31.0]), ([10.0], [31.0])):
        _wrong(nb11.check_order(y_grad, x_grad), capsys)


def test_nb11_same_shape_hook(capsys):
    _right(nb11.check_same_shape_hook(lambda g: g.mean().expand_as(g)), capsys)
    _right(nb11.check_same_shape_hook(lambda g: torch.full_like(g, g.mean().item())), capsys)
    for bad in (None, ..., lambda g: g.mean(), lambda g: g, lambda g: g.sum().expand_as(g),
                  lambda g: g.mean().item(), lambda g: -g.mean().expand_as(g)):
        _wrong(nb11.check_same_shape_hook(bad), capsys)


@pytest.mark.parametrize("check", [nb11.check_spy, nb11.check_clip_hook,
                                   nb11.check_same_shape_hook])
def test_nb11_placeholder_says_no_answer(check, capsys):
    assert not check(...)
    assert "waiting for your answer" in capsys.readouterr().out


def test_nb09_values_and_nb11_handle_through_the_registry():
    passes(nb09, "ex1", {"v_sum": torch.ones(3), "v_pick": torch.tensor([0.0, 1.0, 0.0])})
    fails(nb09, "ex1", {"v_sum": torch.ones(3), "v_pick": torch.tensor([1.0, 0.0, 0.0])},
          "picks p[0]")
    x0 = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    g09(x0).backward(torch.tensor([1.0, -1.0, 2.0]))
    passes(nb09, "ex2", {"vjp_answer": x0.grad})
    fails(nb09, "ex2", {"vjp_answer": torch.tensor([1.0, -1.0, 2.0])}, "w itself")
    passes(nb09, "ex4", {"cost_reverse": 10 * 256 * 256 + 10 * 256 * 784,
                         "cost_forward": 256 * 256 * 784 + 10 * 256 * 784})
    fails(nb09, "ex4", {"cost_reverse": 256 * 256 * 784 + 10 * 256 * 784,
                        "cost_forward": 10 * 256 * 256 + 10 * 256 * 784}, "other order")
    handle, first, w = _handle_case(True, True)
    passes(nb11, "ex3", {"handle": handle, "first": first, "w": w})
    handle, first, w = _handle_case(True, False)
    fails(nb11, "ex3", {"handle": handle, "first": first, "w": w}, "still runs")
    handle, first, w = _handle_case(False, False)
    fails(nb11, "ex3", {"handle": handle, "first": first, "w": w})
