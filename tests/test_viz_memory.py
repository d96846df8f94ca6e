"""trace_memory / memory_timeline: samples are memory_allocated() at each op and engine event."""

from __future__ import annotations

import gc
import io

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

import autograd_lab as torch  # noqa: E402
from autograd_lab import engine  # noqa: E402
from autograd_lab.viz import (  # noqa: E402
    make_dot,
    memory_timeline,
    saved_bytes,
    saved_bytes_by_node,
    trace_memory,
)

N = 1000  # float32: 4000 bytes per tensor


def forward(seen: list[int] | None = None):
    """x -> exp -> * -> sum, noting memory_allocated() after each op when asked."""
    def note():
        if seen is not None:
            seen.append(torch.memory_allocated())

    def fn():
        x = torch.ones(N, requires_grad=True)
        note()
        y = x.exp()
        note()
        z = y * y
        note()
        s = z.sum()
        note()
        return s

    return fn


class Sampler(engine.Listener):
    """memory_allocated() at every engine event, by hand."""

    def __init__(self):
        self.values = []

    def _s(self, *args):
        self.values.append(torch.memory_allocated())

    on_begin = on_node = on_edge = on_accumulate = on_free = on_end = _s


def test_forward_samples_equal_memory_allocated():
    seen: list[int] = []
    gc.collect()
    start = torch.memory_allocated()
    trace = trace_memory(forward(seen))
    fwd = [s for s in trace.samples if s.phase == "forward"]
    assert [s.label for s in fwd] == ["start", "ones", "exp", "mul", "sum", "forward done"]
    assert fwd[0].bytes == start
    assert [s.bytes for s in fwd[1:5]] == seen
    assert [s.bytes - start for s in fwd[1:5]] == [4000, 8000, 12000, 12004]
    # z and s die with fn's frame; the saved x and exp result stay (ExpBackward0, MulBackward0)
    assert fwd[5].bytes - start == 8004
    assert trace.samples[-1].label == "graph dropped" and trace.samples[-1].bytes == start


@pytest.mark.parametrize("retain", [False, True])
def test_backward_samples_equal_a_listener(retain):
    trace = trace_memory(forward(), retain_graph=retain)
    bwd = [s.bytes for s in trace.samples if s.phase == "backward"]
    gc.collect()
    out = forward()()
    sampler = Sampler()
    engine.backward(out, retain_graph=retain, listener=sampler)
    assert bwd == sampler.values
    labels = [s.label for s in trace.samples if s.phase == "backward"]
    assert labels[0] == "backward()" and labels[-1] == "end"
    assert any(lb.startswith("free ") for lb in labels) != retain
    del out


def test_retain_graph_keeps_saved_memory_until_dropped():
    default = trace_memory(forward())
    kept = trace_memory(forward(), retain_graph=True)
    end_default = [s for s in default.samples if s.label == "end"][0].bytes
    end_kept = [s for s in kept.samples if s.label == "end"][0].bytes
    assert end_kept - end_default == 4000  # the exp result, saved for ExpBackward0 / MulBackward0
    assert kept.samples[-1].bytes == default.samples[-1].bytes == kept.samples[0].bytes
    assert kept.peak == default.peak
    with pytest.raises(TypeError, match="must return a Tensor"):
        trace_memory(lambda: 3)


def test_memory_timeline_figure():
    fig = memory_timeline(forward())
    axes = fig.get_axes()
    assert len(axes) == 2
    titles = [ax.get_title() for ax in axes]
    assert titles == ["backward(retain_graph=False)", "backward(retain_graph=True)"]
    default = trace_memory(forward())
    line = axes[0].get_lines()[0]
    assert list(line.get_ydata()) == [v / 1024 for v in default.values]
    assert [t.get_text() for t in axes[0].get_xticklabels()] == default.labels
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    assert buf.getvalue()[:8] == b"\x89PNG\r\n\x1a\n"
    traces = (default, trace_memory(forward(), retain_graph=True))
    fig2 = memory_timeline(None, traces=traces)
    assert list(fig2.get_axes()[1].get_lines()[0].get_ydata()) == \
        [v / 1024 for v in traces[1].values]


def test_saved_bytes_per_node():
    out = forward()()
    assert saved_bytes_by_node(out) == [("SumBackward0", 0), ("MulBackward0", 8000),
                                        ("ExpBackward0", 4000)]
    mul = out.grad_fn.next_functions[0][0]
    assert saved_bytes(mul) == 8000
    assert "saved 7.8 KiB" in make_dot(out, saved_bytes=True).source
    out.backward()
    assert saved_bytes(mul) == 0
    assert saved_bytes_by_node(out) == [("SumBackward0", 0), ("MulBackward0", 0),
                                        ("ExpBackward0", 0)]


def test_memory_timeline_text_readable_in_a_notebook_column():
    """Shown at 100 dpi no wider than a column (so never scaled down): no text under 10 px."""
    fig = memory_timeline(forward())
    png = fig._repr_png_()
    width_px = int.from_bytes(png[16:20], "big")
    assert width_px <= 850  # a JupyterLab notebook column at 1280 px
    texts = [t for t in fig.findobj(lambda o: hasattr(o, "get_fontsize") and hasattr(o, "get_text"))
             if t.get_text() and t.get_visible()]
    assert texts
    smallest = min(t.get_fontsize() * 100 / 72 for t in texts)
    assert smallest >= 10, smallest
