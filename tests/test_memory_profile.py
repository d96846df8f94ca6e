"""Memory during backward matches torch's CPU profiler (``golden_cases/memory_profile.py``).

Gradients in flight count: each backward node allocates its output gradient before it releases
its saved tensors, so the peak of a plain backward lies inside it, not at the end of forward;
``AccumulateGrad`` keeps (steals) the last gradient as ``.grad`` instead of copying it.
"""

from __future__ import annotations

from typing import Any

import golden_cases as G
import pytest

import autograd_lab
from autograd_lab.viz import trace_memory

AREA = "memory_profile"


@pytest.mark.golden
@pytest.mark.parametrize("case", G.cases(AREA), ids=lambda c: c["name"])
def test_memory_matches_torchs_profiler(case: dict[str, Any]) -> None:
    golden = G.recorded(AREA, case)
    autograd_lab.manual_seed(0)
    assert G.replay_of(AREA)(autograd_lab, case) == golden


def _five_relus() -> autograd_lab.Tensor:
    x = autograd_lab.randn(2**20, requires_grad=True)
    h = x
    for _ in range(5):
        h = h.relu()
    return h.sum()


@pytest.mark.parametrize(("retain", "peak", "end"), [(False, 28, 8), (True, 32, 28)])
def test_trace_sees_the_peak_inside_backward(retain, peak, end):
    """The samples of trace_memory carry the highest value since the previous sample, so the
    transient peak (a gradient allocated before its node frees the saved output) shows."""
    trace = trace_memory(_five_relus, retain_graph=retain)
    start = trace.values[0]
    assert (trace.peak - start) / 2**20 == pytest.approx(peak, abs=0.01)
    assert (trace.values[-2] - start) / 2**20 == pytest.approx(end, abs=0.01)
    backward = [s for s in trace.samples if s.phase == "backward"]
    assert max(s.peak for s in backward) == trace.peak  # the peak is during backward
    assert all(s.peak >= s.bytes for s in trace.samples)


def test_trace_leaves_the_users_peak_counter_as_it_would_be():
    autograd_lab.reset_peak_memory_stats()
    before = autograd_lab.max_memory_allocated()
    trace = trace_memory(_five_relus)
    assert autograd_lab.max_memory_allocated() >= max(before, trace.peak)


def test_a_hooked_gradient_is_not_counted_twice():
    x = autograd_lab.randn(2**20, requires_grad=True)
    seen = []
    h = x.exp()
    h.register_hook(lambda g: seen.append(autograd_lab.memory_allocated()))
    base = autograd_lab.memory_allocated()  # x and h
    h.sum().backward()
    # inside the hook: x, h, and the one gradient arriving at h (the hook's tensor shares it)
    assert seen[0] - base <= 4 * 2**20 + 64
