"""Anomaly detection in a real file: the forward tracebacks name this file's lines (with
their source), the package's own frames are left out as torch's C++ frames are, the
warning points at the user's ``backward()`` call, and the mode costs nothing when off.
The texts themselves are checked against torch in ``golden_cases/anomaly.py``."""

from __future__ import annotations

import warnings

import pytest

import autograd_lab as torch
from autograd_lab import anomaly_mode
from autograd_lab.autograd.graph import Listener, listen

HERE = __file__


def _sqrt_of(x: torch.Tensor) -> torch.Tensor:
    return x.sqrt()


@pytest.fixture(autouse=True)
def _anomaly_off():
    yield
    torch.autograd.set_detect_anomaly(False)
    assert anomaly_mode.ANOMALY.parent is None


def test_traceback_names_user_lines_with_source() -> None:
    with pytest.warns(UserWarning, match="^Anomaly Detection has been enabled"):
        with torch.autograd.detect_anomaly():
            x = torch.tensor([1.0, 4.0], requires_grad=True)
            y = _sqrt_of(x)
    trace = y.grad_fn.metadata["traceback_"]
    assert trace[-1].startswith(f'  File "{HERE}"')
    assert trace[-1].endswith("in _sqrt_of\n    return x.sqrt()\n")
    assert trace[-2].endswith("    y = _sqrt_of(x)\n")
    assert not any("autograd_lab" in line for line in trace)  # the engine's frames are hidden


def test_module_frames_stay_as_in_torch() -> None:
    torch.manual_seed(0)
    layer = torch.nn.Linear(2, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.autograd.detect_anomaly():
            out = layer(torch.ones(2))
    trace = out.grad_fn.metadata["traceback_"]
    mine = [i for i, line in enumerate(trace) if line.startswith(f'  File "{HERE}"')]
    assert trace[mine[-1]].endswith("    out = layer(torch.ones(2))\n")
    assert "nn/modules/module.py" in trace[mine[-1] + 1]  # Module.__call__ is Python in torch too
    assert "nn/modules/linear.py" in trace[-1] and "in forward" in trace[-1]


def test_no_traceback_and_no_parent_when_off() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 2).exp()
    assert y.grad_fn.metadata == {}
    assert y.grad_fn.next_functions[0][0].next_functions[0][0].metadata == {}


def test_error_warning_points_at_the_backward_call() -> None:
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with torch.autograd.detect_anomaly():
            loss = (_sqrt_of(x) * 0).sum()
            with pytest.raises(RuntimeError, match=r"^Function 'SqrtBackward0' returned nan"):
                loss.backward()
    (err,) = [w for w in caught if str(w.message).startswith("Error detected")]
    assert err.filename == HERE
    text = str(err.message)
    assert text.endswith("in _sqrt_of\n    return x.sqrt()")
    assert "loss = (_sqrt_of(x) * 0).sum()" in text


def test_listener_sees_the_error_and_grads_stay_untouched() -> None:
    events = []

    class Spy(Listener):
        def on_error(self, node, error):
            events.append((node.name(), type(error).__name__))

    x = torch.tensor([0.0, 1.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.autograd.detect_anomaly(), listen(Spy()):
            with pytest.raises(RuntimeError):
                (x.sqrt() * 0).sum().backward()
    assert events == [("SqrtBackward0", "RuntimeError")]
    assert x.grad is None  # the nan never reached the leaf


def test_parent_is_the_node_whose_backward_made_it() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.autograd.detect_anomaly():
            x = torch.tensor([2.0], requires_grad=True)
            y = x.pow(3).sum()
            (g,) = torch.autograd.grad(y, x, create_graph=True)
    pow_node = y.grad_fn.next_functions[0][0]
    assert g.grad_fn.metadata["parent_"] is pow_node
    assert "parent_" not in pow_node.metadata
    assert anomaly_mode.ANOMALY.parent is None


def test_nan_check_off_lets_nan_through() -> None:
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    with torch.autograd.set_detect_anomaly(True, check_nan=False):
        (x.sqrt() * 0).sum().backward()
    assert torch.isnan(x.grad[0]) and x.grad[1] == 0
    assert not torch.is_anomaly_enabled() and torch.is_anomaly_check_nan_enabled()
