"""gradcheck/gradgradcheck: accept correct gradients (built-in ops, nn ops, custom Functions),
reject wrong ones with torch's message, and check their inputs as torch does."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import autograd_lab as torch
from autograd_lab.autograd import Function, gradcheck, gradgradcheck
from autograd_lab.autograd.gradcheck import GradcheckError
from autograd_lab.nn import functional as F

RNG = np.random.default_rng(3)


def leaf(*shape: int) -> torch.Tensor:
    return torch.tensor(RNG.standard_normal(shape), dtype=torch.float64, requires_grad=True)


TARGET = torch.tensor([2, 0, 1])

OPS = {
    "sin_mul": (lambda a, b: (a * b).sin(), (leaf(3, 2), leaf(2))),
    "matmul": (lambda a, b: a @ b, (leaf(3, 4), leaf(4, 2))),
    "softmax": (lambda a: torch.softmax(a, 1), (leaf(3, 4),)),
    "log_softmax": (lambda a: torch.log_softmax(a, 0), (leaf(3, 4),)),
    "linear": (lambda x, w, b: F.linear(x, w, b), (leaf(5, 3), leaf(2, 3), leaf(2))),
    "linear_1d": (lambda x, w, b: F.linear(x, w, b), (leaf(3), leaf(2, 3), leaf(2))),
    "linear_3d": (lambda x, w, b: F.linear(x, w, b), (leaf(2, 2, 3), leaf(2, 3), leaf(2))),
    "cross_entropy": (lambda z: F.cross_entropy(z, TARGET), (leaf(3, 4),)),
    "cross_entropy_none": (lambda z: F.cross_entropy(z, TARGET, reduction="none"), (leaf(3, 4),)),
    "cross_entropy_weighted_smoothed": (
        lambda z: F.cross_entropy(z, TARGET, weight=torch.tensor([1.0, 2.0, 0.5, 3.0],
                                                                 dtype=torch.float64),
                                  label_smoothing=0.2), (leaf(3, 4),)),
    "cross_entropy_probs": (lambda z, p: F.cross_entropy(z, torch.softmax(p, 1)),
                            (leaf(3, 4), leaf(3, 4))),
    "nll_ignore": (lambda z: F.nll_loss(z, torch.tensor([2, -100, 1]), reduction="sum"),
                   (leaf(3, 4),)),
    "mse": (lambda a, b: F.mse_loss(a, b), (leaf(3, 2), leaf(3, 2))),
    "mse_broadcast_none": (lambda a, b: F.mse_loss(a, b, reduction="none"), (leaf(3, 2), leaf(2))),
    "mlp": (lambda x, w1, w2: F.linear(F.relu(F.linear(x, w1)).tanh(), w2).sigmoid(),
            (leaf(4, 3), leaf(5, 3), leaf(2, 5))),
}


@pytest.mark.parametrize("name", list(OPS))
def test_gradcheck_accepts_correct_backward(name: str) -> None:
    fn, inputs = OPS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # mse_broadcast_none warns about its broadcast
        assert gradcheck(fn, inputs)


@pytest.mark.parametrize("name", ["sin_mul", "matmul", "softmax", "log_softmax", "linear",
                                  "cross_entropy", "mse", "mlp"])
def test_gradgradcheck_accepts_second_derivatives(name: str) -> None:
    fn, inputs = OPS[name]
    outs = fn(*inputs)
    outs = outs if isinstance(outs, tuple) else (outs,)
    grad_outputs = tuple(torch.tensor(RNG.standard_normal(tuple(o.shape)), dtype=torch.float64)
                         for o in outs)
    assert gradgradcheck(fn, inputs, grad_outputs=grad_outputs)


class Twice(Function):
    """Claims d(2x)/dx = 3."""

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 3


def test_wrong_backward_message_layout() -> None:
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    with pytest.raises(GradcheckError) as info:
        gradcheck(Twice.apply, (x,))
    assert isinstance(info.value, RuntimeError)
    assert str(info.value) == (
        "Jacobian mismatch for output 0 with respect to input 0,\n"
        "numerical:tensor([[2.0000, 0.0000],\n        [0.0000, 2.0000]], dtype=torch.float64)\n"
        "analytical:tensor([[3., 0.],\n        [0., 3.]], dtype=torch.float64)\n"
    )
    assert gradcheck(Twice.apply, (x,), raise_exception=False) is False


def test_jacobian_layout_rows_are_inputs() -> None:
    """Numerical and analytical Jacobians are (input elements, output elements)."""

    class Bad(Function):
        @staticmethod
        def forward(ctx, x):
            return x.sum(0) * 1.0

        @staticmethod
        def backward(ctx, g):
            return g.expand(3, 2) * 0

    x = torch.ones(3, 2, dtype=torch.float64, requires_grad=True)
    with pytest.raises(GradcheckError, match=r"numerical:tensor\(\[\[1\.0000, 0\.0000\],\n\s+"
                                             r"\[0\.0000, 1\.0000\],\n\s+\[1\.0000, 0\.0000\],"):
        gradcheck(Bad.apply, (x,))


def test_tolerances_are_used() -> None:
    class Off(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2.01

    x = torch.tensor([1.0], dtype=torch.float64, requires_grad=True)
    assert not gradcheck(Off.apply, (x,), raise_exception=False)
    assert gradcheck(Off.apply, (x,), atol=0.011)
    assert gradcheck(Off.apply, (x,), atol=0, rtol=6e-3)


def test_float32_input_warns() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.warns(UserWarning, match=r"^Input #0 requires gradient and is not a double "
                                         r"precision floating point or complex\."):
        assert gradcheck(lambda a: a * 2, (x,), eps=1e-2, atol=1e-2)


def test_input_checks() -> None:
    with pytest.raises(ValueError, match="gradcheck expects at least one input tensor to require"):
        gradcheck(lambda a: a * 2, (torch.ones(2, dtype=torch.float64),))
    x = torch.ones(1, dtype=torch.float64, requires_grad=True).expand(3)
    with pytest.raises(RuntimeError, match="The 0th input has a dimension with stride 0"):
        gradcheck(lambda a: a * 2, (x,))
    with pytest.raises(NotImplementedError, match="forward-mode AD"):
        gradcheck(lambda a: a * 2, (leaf(2),), check_forward_ad=True)


def test_perturbation_leaves_input_unchanged() -> None:
    x = leaf(3)
    before = x.detach().numpy().copy()
    v = x._version
    gradcheck(lambda a: a.exp(), (x,))
    np.testing.assert_array_equal(x.detach().numpy(), before)
    assert x._version == v and x.grad is None


def test_gradgradcheck_random_grad_outputs() -> None:
    torch.manual_seed(0)
    assert gradgradcheck(lambda a: (a ** 3).sin(), (leaf(4),))


def test_gradgradcheck_detects_wrong_double_backward() -> None:
    class BadCube(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 3 * x.detach() ** 2 * g + 0 * x  # the x-dependence is hidden from autograd

    x = leaf(3)
    assert gradcheck(BadCube.apply, (x,))
    assert not gradgradcheck(BadCube.apply, (x,), grad_outputs=(torch.ones(3, dtype=torch.float64),),
                             raise_exception=False)
