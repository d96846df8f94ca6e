"""The stepper as a fidelity instrument: every frame of every course stepper and of the
generated programs, recorded under real torch (``viz.torch_bridge``), equals ours.

Cases and replay: ``tests/golden_cases/stepper_frames.py``; torch's captions were recorded by
``scripts/oracle/record_goldens.py stepper_frames``. A difference is an engine defect: the
caption names the node that runs, the gradients it receives and sends, and each ``.grad``
written, in order.
"""

from __future__ import annotations

import golden_cases as G
import pytest

import autograd_lab

AREA = "stepper_frames"


def _compare(case: dict) -> str | None:
    golden = G.recorded(AREA, case)
    autograd_lab.manual_seed(0)
    ours = G.replay_of(AREA)(autograd_lab, case)
    if ours == golden:
        return None
    i = next((i for i, (a, b) in enumerate(zip(golden, ours)) if a != b),
             min(len(golden), len(ours)))
    theirs = golden[i] if i < len(golden) else "(no frame)"
    mine = ours[i] if i < len(ours) else "(no frame)"
    return f"{case['name']}: frame {i}: torch {theirs!r}, ours {mine!r}"


@pytest.mark.golden
@pytest.mark.parametrize("case", [c for c in G.cases(AREA) if "code" in c],
                         ids=lambda c: c["name"])
def test_course_stepper_frames_are_torchs(case: dict) -> None:
    diff = _compare(case)
    assert diff is None, diff


@pytest.mark.golden
def test_generated_programs_frames_are_torchs() -> None:
    programs = [c for c in G.cases(AREA) if "lines" in c]
    assert len(programs) >= 500
    diffs = [d for c in programs if (d := _compare(c)) is not None]
    assert not diffs, f"{len(diffs)} of {len(programs)} programs differ:\n" + "\n".join(diffs[:20])
