"""Notebook 08's checkpointing and opening numbers match torch's CPU profiler
(``golden_cases/course_nbB_memory.py``, replayed as ``memory_profile`` does)."""

from __future__ import annotations

from typing import Any

import golden_cases as G
import pytest

import autograd_lab

AREA = "course_nbB_memory"


@pytest.mark.golden
@pytest.mark.parametrize("case", G.cases(AREA), ids=lambda c: c["name"])
def test_notebook_08_memory_matches_torchs_profiler(case: dict[str, Any]) -> None:
    golden = G.recorded(AREA, case)
    autograd_lab.manual_seed(0)
    assert G.replay_of(AREA)(autograd_lab, case) == golden
