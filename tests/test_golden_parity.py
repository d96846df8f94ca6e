"""Parity with PyTorch 2.13: replay every snippet case under autograd_lab and compare.

The snippet areas are the case modules of ``tests/golden_cases`` without a ``replay`` of their
own (ops, graph, errors, ...); their outcomes under real torch were recorded by
``scripts/oracle/record_goldens.py`` into ``tests/goldens/<area>.json``. Values, reprs, dtypes,
graphs, gradients, errors and warnings must all match (floats up to a few ulps, see
``golden_support.TOLERANCES``). The other areas have their own test files (printing, rng, optim).
"""

from __future__ import annotations

from typing import Any

import golden_cases as G
import pytest
from golden_support import compare, run_case

import autograd_lab

SNIPPET_AREAS = [a for a in G.areas() if not hasattr(G.module(a), "replay")]


def _collect() -> list[Any]:
    return [pytest.param(area, case, id=f"{area}::{case['name']}")
            for area in SNIPPET_AREAS for case in G.cases(area)]


@pytest.mark.golden
@pytest.mark.parametrize(("area", "case"), _collect())
def test_golden_parity(area: str, case: dict[str, Any]) -> None:
    golden = G.recorded(area, case)
    autograd_lab.manual_seed(0)
    # torch warns some things once per process; each recorded case ran in a fresh process
    autograd_lab._messages._WARNED_ONCE.clear()
    actual = run_case(autograd_lab, case["code"])

    diffs = compare(golden, actual)
    if diffs:
        pytest.fail(f"{area}::{case['name']} differs from torch 2.13:\n"
                    f"--- code ---\n{case['code'].strip()}\n--- differences ---\n"
                    + "\n".join(diffs), pytrace=False)
