"""The golden pipeline itself: every area's cases are recorded, and nothing else is."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import golden_cases as G
import pytest

TESTS = Path(__file__).resolve().parent


@pytest.mark.parametrize("area", G.areas())
def test_goldens_hold_exactly_the_cases(area: str) -> None:
    recorded = G.goldens(area)
    assert recorded["area"] == area and recorded["torch"].startswith("2.13.")
    names = [c["name"] for c in G.cases(area)]
    stale = sorted(set(recorded["cases"]) - set(names))
    missing = sorted(set(names) - set(recorded["cases"]))
    assert not stale and not missing, (f"record again ({G.RECORD.format(area=area)}): "
                                       f"stale {stale[:5]}, missing {missing[:5]}")


def test_cases_need_neither_torch_nor_the_engine() -> None:
    """Case modules are data (and replay functions given a module): importing them imports
    neither torch nor autograd_lab, so the recorder and the tests read the same cases."""
    code = ("import sys, golden_cases as G\n"
            "for a in G.areas(): G.cases(a)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'autograd_lab')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=TESTS, capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": str(TESTS), "PATH": ""})
    assert out.stdout.strip() == "[]"
