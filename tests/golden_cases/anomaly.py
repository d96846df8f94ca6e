"""Anomaly detection: the switches, the forward tracebacks kept on nodes, the warning that
names the failing node's forward call, and the nan check.

Tracebacks name files, and the frames above a case differ between the recorder and the
tests, so the cases keep only the lines of their own code (``<golden case>``) and the lines
that are not part of a frame. Every case leaves anomaly mode as it found it (off)."""

from __future__ import annotations

import textwrap

CASES: list[dict] = []

# Run ``body`` with warnings recorded; ``result`` = [error text or None, *warnings], each
# warning reduced to its own lines and the frames of the case's code, without torch's C++
# source location.
_PRELUDE = """
import warnings

OWN = '  File "<golden case>"'


def keep(text):
    text = text.split(" (Triggered internally at ")[0].rstrip("\\n")  # torch's C++ location
    return [line for line in text.split("\\n")
            if line.startswith(OWN) or not line.startswith(" ")]


error = None
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
"""
_POSTLUDE = """
    except Exception as e:
        error = f"{type(e).__name__}: {e}"
    finally:
        torch.autograd.set_detect_anomaly(False)
result = [error] + [(w.category.__name__, keep(str(w.message))) for w in caught]
"""


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


def traced(name: str, body: str) -> None:
    """A case whose warnings and error are captured (see ``_PRELUDE``)."""
    inner = textwrap.indent(textwrap.dedent(body).strip(), " " * 8)
    CASES.append({"name": name, "code": _PRELUDE.lstrip() + inner + _POSTLUDE})


# ---- the switches ------------------------------------------------------------------------------

case("flags_default", """
    result = (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
""")
case("detect_anomaly_block", """
    seen = []
    with torch.autograd.detect_anomaly():
        seen.append((torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()))
    seen.append((torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()))
    with torch.autograd.detect_anomaly(check_nan=False):
        seen.append((torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()))
    seen.append((torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()))
    result = seen
""")
case("detect_anomaly_warns_when_made", """
    ctx = torch.autograd.detect_anomaly()
    result = torch.is_anomaly_enabled()
""")
case("set_detect_anomaly_function", """
    seen = []
    torch.autograd.set_detect_anomaly(True)
    seen.append((torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()))
    torch.autograd.set_detect_anomaly(True, check_nan=False)
    seen.append((torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()))
    torch.autograd.set_detect_anomaly(False)
    seen.append((torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()))
    result = seen
""")
case("set_detect_anomaly_block", """
    seen = []
    with torch.autograd.set_detect_anomaly(True, check_nan=False):
        seen.append((torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()))
        with torch.autograd.set_detect_anomaly(False):
            seen.append(torch.is_anomaly_enabled())
        seen.append(torch.is_anomaly_enabled())
    seen.append((torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()))
    result = seen
""")
case("set_anomaly_enabled", """
    torch.set_anomaly_enabled(True, False)
    seen = (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    torch.set_anomaly_enabled(False)
    result = [seen, torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()]
""")
case("detect_anomaly_is_not_a_decorator", """
    @torch.autograd.detect_anomaly()
    def f():
        return 1
""")

# ---- forward: where each node was made ------------------------------------------------------

case("metadata_empty_when_off", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    result = x.exp().grad_fn.metadata
""")
case("metadata_traceback_nested", """
    def inner(x):
        return x.sqrt()

    def outer(x):
        return inner(x) * 2

    with torch.autograd.detect_anomaly():
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = outer(x)
    meta = y.grad_fn.metadata
    sqrt_meta = y.grad_fn.next_functions[0][0].metadata
    own = '  File "<golden case>"'
    result = [sorted(meta), [line for line in meta["traceback_"] if line.startswith(own)],
              [line for line in sqrt_meta["traceback_"] if line.startswith(own)],
              torch.is_anomaly_enabled()]
""")
case("metadata_only_inside_block", """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x * 3
    with torch.autograd.detect_anomaly():
        b = a.exp()
    c = b.sum()
    result = [sorted(a.grad_fn.metadata), sorted(b.grad_fn.metadata), sorted(c.grad_fn.metadata)]
""")

# ---- backward: errors and nan ------------------------------------------------------------------

traced("nan_in_sqrt_backward", """
    with torch.autograd.detect_anomaly():
        x = torch.tensor([0.0, 1.0], requires_grad=True)
        (x.sqrt() * 0).sum().backward()
""")
traced("nan_in_second_output", """
    with torch.autograd.detect_anomaly():
        a = torch.tensor([1.0], requires_grad=True)
        b = torch.tensor([float("inf")], requires_grad=True)
        (b * a * 0).sum().backward()
""")
traced("nan_from_tensor_hook", """
    with torch.autograd.detect_anomaly():
        x = torch.tensor([0.0, 1.0], requires_grad=True)
        y = x * 2
        y.register_hook(lambda g: g * float("nan"))
        y.sum().backward()
""")
traced("nan_root_gradient", """
    with torch.autograd.detect_anomaly():
        x = torch.tensor([0.0, 1.0], requires_grad=True)
        y = x * 2
        y.sum().backward(torch.tensor(float("nan")))
""")
traced("nan_not_checked", """
    with torch.autograd.detect_anomaly(check_nan=False):
        x = torch.tensor([0.0, 1.0], requires_grad=True)
        (x.sqrt() * 0).sum().backward()
    print(x.grad)
""")
traced("nan_set_detect_anomaly_no_check", """
    torch.autograd.set_detect_anomaly(True, check_nan=False)
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    (x.sqrt() * 0).sum().backward()
    print(x.grad)
""")
traced("nan_leaf_hook_is_not_checked", """
    with torch.autograd.detect_anomaly():
        x = torch.tensor([0.0, 1.0], requires_grad=True)
        x.register_hook(lambda g: g * float("nan"))
        (x * 2).sum().backward()
    print(x.grad)
""")
traced("nan_with_grad", """
    with torch.autograd.detect_anomaly():
        x = torch.tensor([0.0, 1.0], requires_grad=True)
        y = x.sqrt()
        torch.autograd.grad((y * 0).sum(), x)
""")
traced("nan_multi_output_node", """
    with torch.autograd.detect_anomaly():
        x = torch.tensor([[0.0, 1.0], [2.0, 3.0]], requires_grad=True)
        a, b = x.unbind(0)
        (a.sqrt() * 0 + b).sum().backward()
""")
traced("nan_in_function_backward", """
    class Twice(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * float("nan")

    with torch.autograd.detect_anomaly():
        x = torch.tensor([0.0, 1.0], requires_grad=True)
        Twice.apply(x).sum().backward()
""")
traced("nan_no_forward_information", """
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    y = x.sqrt()
    with torch.autograd.detect_anomaly():
        (y * 0).sum().backward()
""")
traced("nan_when_off_during_backward", """
    with torch.autograd.detect_anomaly():
        x = torch.tensor([0.0, 1.0], requires_grad=True)
        y = x.sqrt()
    (y * 0).sum().backward()
    print(x.grad)
""")
traced("inplace_error_hint_changes", """
    def forward(a):
        b = a.exp()
        b.add_(1)
        return b.sum()

    with torch.autograd.detect_anomaly():
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        forward(a).backward()
""")
traced("error_in_tensor_hook", """
    def boom(g):
        raise ValueError("boom")

    with torch.autograd.detect_anomaly():
        x = torch.tensor([0.0, 1.0], requires_grad=True)
        y = x * 2
        y.register_hook(boom)
        y.sum().backward()
""")
traced("error_in_leaf_hook", """
    def boom(g):
        raise ValueError("leaf boom")

    with torch.autograd.detect_anomaly():
        x = torch.tensor([0.0, 1.0], requires_grad=True)
        x.register_hook(boom)
        (x * 2).sum().backward()
""")
traced("error_in_function_backward", """
    class Broken(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, g):
            raise RuntimeError("Some error in backward")

    def run_fn(a):
        out = Broken.apply(a)
        return out.sum()

    with torch.autograd.detect_anomaly():
        inp = torch.ones(3, requires_grad=True)
        out = run_fn(inp)
        out.backward()
""")
traced("backward_twice_under_anomaly", """
    with torch.autograd.detect_anomaly():
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        y.backward()
        y.backward()
""")
traced("double_backward_names_the_parent", """
    def f(x):
        return x.pow(3).sum()

    with torch.autograd.detect_anomaly():
        x = torch.tensor([float("inf")], requires_grad=True)
        y = f(x)
        g, = torch.autograd.grad(y, x, create_graph=True)
        (g * 0).sum().backward()
""")
traced("no_error_no_extra_warning", """
    with torch.autograd.detect_anomaly():
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        (x * x).sum().backward()
    print(x.grad)
""")
