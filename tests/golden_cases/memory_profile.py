"""Memory through forward and backward, as torch's CPU profiler counts it.

Each case is a program on tensors of a few MiB that calls ``mark(label)`` at points of interest.
Recorded under torch with ``torch.profiler.profile(profile_memory=True)``: the allocator's
events, summed in time order, give the bytes alive at each mark and the peak. Replayed under
autograd_lab with ``memory_allocated()`` and ``max_memory_allocated()``. Values are MiB above
the start, to 0.1 MiB (torch's few-byte allocations for scalars don't show).

The peak is where gradients in flight show: a backward node allocates its output gradient
before it releases its saved tensors and its incoming gradient.
"""

from __future__ import annotations

import gc
import textwrap

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


def _mib(nbytes: float) -> float:
    return round(nbytes / 2**20, 1)


def _replay_torch(torch, code: str) -> dict:
    from torch.autograd.profiler import record_function
    from torch.profiler import ProfilerActivity, profile

    labels: list[str] = []

    def mark(label: str) -> None:
        labels.append(label)
        with record_function(f"mark:{label}"):
            pass

    gc.collect()
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        exec(compile(code, "<golden case>", "exec"), {"torch": torch, "mark": mark})  # noqa: S102
        gc.collect()
    events = []
    for e in prof.profiler.kineto_results.events():
        if e.name() == "[memory]":
            events.append((e.start_ns(), 0, e.nbytes()))
        elif e.name().startswith("mark:"):
            events.append((e.start_ns(), 1, e.name()[5:]))
    events.sort(key=lambda e: (e[0], e[1]))
    alive = peak = 0
    marks = {}
    for _, kind, value in events:
        if kind == 0:
            alive += value
            peak = max(peak, alive)
        else:
            marks[value] = _mib(alive)
    return {"peak": _mib(peak), "marks": marks}


def _replay_ours(torch, code: str) -> dict:
    gc.collect()
    base = torch.memory_allocated()
    torch.reset_peak_memory_stats()
    marks = {}

    def mark(label: str) -> None:
        marks[label] = _mib(torch.memory_allocated() - base)

    exec(compile(code, "<golden case>", "exec"), {"torch": torch, "mark": mark})  # noqa: S102
    gc.collect()
    return {"peak": _mib(torch.max_memory_allocated() - base), "marks": marks}


def replay(torch, case: dict) -> dict:
    """``{"peak": MiB, "marks": {label: MiB}}``, measured with the library's own counter."""
    if torch.__name__ == "torch":
        return _replay_torch(torch, case["code"])
    return _replay_ours(torch, case["code"])


# ---- notebook 08: a chain of relus on 4 MiB (2**20 float32) ------------------------------------

_RELUS = """
    x = torch.randn(2**20, requires_grad=True)
    h = x
    for _ in range(5):
        h = h.relu()
    loss = h.sum()
    del h
    mark("end of forward")
    loss.backward({retain})
    mark("end of backward")
    del loss
    mark("graph dropped")
    del x
"""
case("five_relus_backward", _RELUS.format(retain=""))
case("five_relus_retain_graph", _RELUS.format(retain="retain_graph=True"))
case("hundred_relus_backward", _RELUS.replace("range(5)", "range(100)").format(retain=""))

_EXPS = """
    x = torch.randn(2**20, requires_grad=True)
    h = x
    for _ in range(3):
        h = h.exp()
    loss = h.sum()
    del h
    mark("end of forward")
    loss.backward({retain})
    mark("end of backward")
    del loss, x
"""
case("three_exps_backward", _EXPS.format(retain=""))
case("three_exps_retain_graph", _EXPS.format(retain="retain_graph=True"))

# ---- where gradients meet, accumulate, or come back to you -------------------------------------

case("two_paths_summed_in_place", """
    x = torch.randn(2**20, requires_grad=True)
    y = x.exp()
    loss = (y * 2 + y * 3).sum()
    del y
    mark("end of forward")
    loss.backward()
    mark("end of backward")
    del loss, x
""")
case("mul_saves_both_inputs", """
    a = torch.randn(2**20, requires_grad=True)
    b = torch.randn(2**20, requires_grad=True)
    loss = (a * b).exp().sum()
    mark("end of forward")
    loss.backward()
    mark("end of backward")
    del loss, a, b
""")
case("second_backward_accumulates_in_place", """
    x = torch.randn(2**20, requires_grad=True)
    (x.relu() * 2).sum().backward()
    mark("after first backward")
    (x.relu() * 2).sum().backward()
    mark("after second backward")
    del x
""")
case("retain_grad_keeps_an_intermediate_gradient", """
    x = torch.randn(2**20, requires_grad=True)
    h = x.relu()
    h.retain_grad()
    loss = h.exp().sum()
    loss.backward()
    mark("end of backward")
    del loss, h
    mark("intermediate dropped")
    del x
""")
case("autograd_grad_returns_fresh_gradients", """
    x = torch.randn(2**20, requires_grad=True)
    loss = x.sigmoid().sum()
    (g,) = torch.autograd.grad(loss, x)
    mark("after grad")
    del loss
    mark("graph dropped")
    del g, x
""")
case("linear_layer_step", """
    w = torch.randn(512, 1024, requires_grad=True)
    xb = torch.randn(256, 1024)
    loss = (xb @ w.t()).relu().sum()
    mark("end of forward")
    loss.backward()
    mark("end of backward")
    del loss, w, xb
""")

# ---- activation checkpointing: recompute instead of store ------------------------------------

_CHECKPOINTED = """
    cp = torch.utils.checkpoint
    def block(h):
        for _ in range(4):
            h = h.relu().exp()
        return h
    x = torch.randn(2**20, requires_grad=True)
    y = {call}
    loss = y.sum()
    del y
    mark("end of forward")
    loss.backward()
    mark("end of backward")
    del loss, x
"""
case("four_blocks_stored", _CHECKPOINTED.format(call="block(x)"))
case("four_blocks_checkpointed", _CHECKPOINTED.format(
    call="cp.checkpoint(block, x, use_reentrant=False)"))
