"""Custom ``autograd.Function``: the node it records, saved tensors, the checks on what
``backward`` returns, and how it meets the rest of the engine (hooks, listener, create_graph)."""

from __future__ import annotations

import numpy as np
import pytest

import autograd_lab as torch
from autograd_lab.autograd import Function
from autograd_lab.autograd.function import BackwardCFunction, once_differentiable
from autograd_lab.engine import Listener, listen


class MyExp(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y


class Cube(Function):
    """x^3 with a backward made of differentiable ops (so it can be differentiated again)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x * x * g


def test_node_class_and_repr() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = MyExp.apply(x)
    node = y.grad_fn
    assert type(node).__name__ == "MyExpBackward" and node.name() == "MyExpBackward"
    assert isinstance(node, BackwardCFunction) and isinstance(node, torch.autograd.graph.Node)
    assert type(node) is MyExp._backward_cls
    assert repr(node).startswith("<torch.autograd.function.MyExpBackward object at 0x")
    assert repr(y) == "tensor([2.7183, 7.3891], grad_fn=<MyExpBackward>)"
    assert node.next_functions[0][0].variable is x


def test_gradient_matches_builtin_op() -> None:
    a = np.array([[0.3, -1.2], [2.0, 0.1]])
    x1 = torch.tensor(a, requires_grad=True)
    x2 = torch.tensor(a, requires_grad=True)
    (MyExp.apply(x1) * x1).sum().backward()
    (x2.exp() * x2).sum().backward()
    np.testing.assert_allclose(x1.grad.numpy(), x2.grad.numpy(), rtol=1e-15)


def test_saved_tensor_version_check_names_the_function() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = MyExp.apply(x)
    y.add_(1)
    with pytest.raises(RuntimeError, match=r"which is output 0 of MyExp, is at version 1; "
                                           r"expected version 0 instead"):
        y.sum().backward()


def test_saved_tensors_are_freed_after_backward() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = MyExp.apply(x)
    node = y.grad_fn
    assert [n for n, _ in node.saved_tensors_info()] == ["saved_tensors[0]"]
    y.sum().backward()
    assert node.saved_tensors_info() == []
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        node.saved_tensors


def test_retain_graph_keeps_saved_tensors() -> None:
    x = torch.tensor([0.5], requires_grad=True)
    y = MyExp.apply(x)
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.item() == pytest.approx(2 * np.exp(0.5))


def test_saved_tensor_hooks_see_function_saves() -> None:
    packed = []

    def pack(t):
        packed.append(t.shape)
        return t

    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        y = Cube.apply(x)
    y.sum().backward()
    assert packed == [torch.Size([3])]
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 12.0, 27.0])


def test_listener_reports_custom_node() -> None:
    seen = []

    class Rec(Listener):
        def on_node(self, node, grad_outputs):
            seen.append(type(node).__name__)

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (MyExp.apply(x * 2)).sum()
    with listen(Rec()):
        y.backward()
    assert seen == ["SumBackward0", "MyExpBackward", "MulBackward0", "AccumulateGrad"]


def test_create_graph_through_custom_backward() -> None:
    x = torch.tensor([1.0, -2.0], requires_grad=True)
    (g,) = torch.autograd.grad(Cube.apply(x).sum(), x, create_graph=True)
    np.testing.assert_allclose(g.detach().numpy(), [3.0, 12.0])
    assert g.requires_grad
    (h,) = torch.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(h.numpy(), [6.0, -12.0])


def test_backward_receives_tensors_in_plain_backward() -> None:
    kinds = []

    class Probe(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            kinds.append((type(g).__name__, type(ctx.saved_tensors[0]).__name__))
            return g * 2

    x = torch.tensor([1.0], requires_grad=True)
    Probe.apply(x).sum().backward()
    assert kinds == [("Tensor", "Tensor")]
    assert x.grad.item() == 2.0


def test_needs_input_grad_and_edges() -> None:
    record = []

    class Mix(Function):
        @staticmethod
        def forward(ctx, a, k, b):
            record.append(ctx.needs_input_grad)
            return a * k + b

        @staticmethod
        def backward(ctx, g):
            return g * 2, None, g

    a = torch.tensor([1.0], requires_grad=True)
    b = torch.tensor([5.0])
    y = Mix.apply(a, 2.0, b)
    assert record == [(True, False, False)]
    assert len(y.grad_fn.next_functions) == 2 and y.grad_fn.next_functions[1] == (None, 0)
    y.backward()
    assert a.grad.item() == 2.0 and b.grad is None


def test_wrong_shape_that_broadcasts_is_summed() -> None:
    class Wide(Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, g):
            return torch.ones(4, 3)

    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    Wide.apply(x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 4.0, 4.0])


def test_wrong_count_and_shape_errors() -> None:
    class Bad(Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return g

    class BadShape(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return torch.ones(5)

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=r"^function BadBackward returned an incorrect number of "
                                           r"gradients \(expected 2, got 1\)$"):
        Bad.apply(x, x).sum().backward()
    with pytest.raises(RuntimeError, match=r"^Function BadShapeBackward returned an invalid gradient "
                                           r"at index 0 - got \[5\] but expected shape compatible "
                                           r"with \[2\]$"):
        BadShape.apply(x).sum().backward()


def test_multiple_outputs_missing_grad_is_zeros_of_right_dtype() -> None:
    got = []

    class Two(Function):
        @staticmethod
        def forward(ctx, x):
            idx = torch.tensor([1, 0])
            ctx.mark_non_differentiable(idx)
            return x * 2, idx

        @staticmethod
        def backward(ctx, g, gi):
            got.append(gi)
            return g * 2

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    out, idx = Two.apply(x)
    assert not idx.requires_grad and out.grad_fn._n_outputs == 2
    out.sum().backward()
    assert got[0].dtype is torch.int64 and torch.equal(got[0], torch.zeros(2, dtype=torch.int64))
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])


def test_mark_dirty_rebases_history() -> None:
    class Double_(Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = torch.tensor([1.0, 3.0], requires_grad=True)
    h = x + 0
    v = h._version
    out = Double_.apply(h)
    assert out is h and h._version == v + 2
    assert h.grad_fn.name() == "Double_Backward"
    (h * h).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [8.0, 24.0])


def test_input_returned_as_is_becomes_a_view() -> None:
    class Same(Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 3

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = Same.apply(x)
    assert y is not x and y._base is x and y.data_ptr() == x.data_ptr()
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])


def test_once_differentiable_blocks_second_derivative() -> None:
    class OD(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (g,) = torch.autograd.grad(OD.apply(x), x, grad_outputs=torch.ones(2, requires_grad=True),
                               create_graph=True)
    assert type(g.grad_fn).__name__ == "Error" and g.grad_fn.name() == "torch::autograd::Error"
    with pytest.raises(RuntimeError, match="trying to differentiate twice a function that was "
                                           "marked with @once_differentiable"):
        g.sum().backward()


def test_not_recorded_without_grad() -> None:
    x = torch.tensor([1.0], requires_grad=True)
    with torch.no_grad():
        y = MyExp.apply(x)
    assert y.grad_fn is None and not y.requires_grad
    z = MyExp.apply(torch.tensor([1.0]))
    assert z.grad_fn is None and not z.requires_grad
