"""Parity with PyTorch 2.13: replay every golden case under autograd_lab and compare.

The cases live in ``tests/golden_cases/<area>.py``; their outcomes under real torch were
recorded by ``scripts/oracle/record_goldens.py`` into ``tests/goldens/<area>.json``. Values,
reprs, dtypes, graphs, gradients, errors and warnings must all match (floats up to a
few ulps, see ``golden_support.TOLERANCES``).
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

from golden_support import compare, run_case  # noqa: E402

import autograd_lab  # noqa: E402

GOLDENS = TESTS / "goldens"
FORMAT = "golden-cases-1"
RECORD = "run /tmp/oracle/bin/python scripts/oracle/record_goldens.py {area}"


def _load_golden(area: str) -> dict[str, Any] | None:
    path = GOLDENS / f"{area}.json"
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    return data if isinstance(data, dict) and data.get("format") == FORMAT else None


def _collect() -> list[Any]:
    params = []
    for path in sorted((TESTS / "golden_cases").glob("*.py")):
        area = path.stem
        if area == "__init__":
            continue
        golden = _load_golden(area)
        if golden is None:
            continue
        module = importlib.import_module(f"golden_cases.{area}")
        for case in module.CASES:
            params.append(pytest.param(area, case, golden["cases"].get(case["name"]),
                                       id=f"{area}::{case['name']}"))
    return params


@pytest.mark.golden
@pytest.mark.parametrize(("area", "case", "golden"), _collect())
def test_golden_parity(area: str, case: dict[str, Any], golden: dict[str, Any] | None) -> None:
    if golden is None:
        pytest.fail(f"case {case['name']!r} has no golden; {RECORD.format(area=area)}")
    if golden["code"] != case["code"]:
        pytest.fail(f"case {case['name']!r} changed since it was recorded; "
                    f"{RECORD.format(area=area)}")
    autograd_lab.manual_seed(0)
    # torch warns some things once per process; each recorded case ran in a fresh process
    autograd_lab._messages._WARNED_ONCE.clear()
    actual = run_case(autograd_lab, case["code"])

    diffs = compare(golden["outcome"], actual)
    if diffs:
        pytest.fail(f"{area}::{case['name']} differs from torch 2.13:\n"
                    f"--- code ---\n{case['code'].strip()}\n--- differences ---\n"
                    + "\n".join(diffs), pytrace=False)
