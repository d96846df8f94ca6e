"""Notebook 08's activation-checkpointing numbers, as torch's CPU profiler counts them.

Replayed as ``memory_profile`` replays its cases (profiler events under torch,
``memory_allocated()`` under autograd_lab): MiB above the start at each ``mark`` and the peak.
"""

from __future__ import annotations

import textwrap

from .memory_profile import replay  # noqa: F401 - the same measurement

CASES: list[dict] = []


def case(name: str, code: str) -> None:
    CASES.append({"name": name, "code": textwrap.dedent(code).strip() + "\n"})


# four segments of five relus on 4 MiB (2**20 float32 values), stored or checkpointed per segment
_SEGMENTS = """
    checkpoint = torch.utils.checkpoint.checkpoint

    def segment(h):
        for _ in range(5):
            h = h.relu()
        return h

    x = torch.randn(2**20, requires_grad=True)
    h = x
    for _ in range(4):
        h = {call}
    loss = h.sum()
    del h
    mark("end of forward")
    loss.backward()
    mark("end of backward")
    del loss, x
"""
case("segments_stored", _SEGMENTS.format(call="segment(h)"))
case("segments_checkpointed", _SEGMENTS.format(call="checkpoint(segment, h, use_reentrant=False)"))
case("segments_one_checkpoint", _SEGMENTS.replace("    for _ in range(4):\n        h = {call}\n",
     "    h = checkpoint(lambda t: segment(segment(segment(segment(t)))), h,"
     " use_reentrant=False)\n"))

# the opening puzzle: a loss returned from a function, its graph holding x and 50 saved outputs
case("deep_loss_held", """
    def deep(depth):
        x = torch.randn(2**20, requires_grad=True)
        h = x
        for _ in range(depth):
            h = h.relu()
        return h.sum()

    loss = deep(50)
    mark("loss returned")
    del loss
    mark("loss dropped")
""")
