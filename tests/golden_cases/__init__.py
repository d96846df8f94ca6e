"""Golden cases: what the tests replay under autograd_lab and compare with PyTorch 2.13.

One module per area, ``tests/golden_cases/<area>.py``, defines ``CASES``: a list of dicts with a
unique ``name`` and the case's inputs (JSON-ready). How a case runs is the area's ``replay``
function, ``replay(torch, case) -> outcome``, with ``torch`` bound to real PyTorch when
recording and to ``autograd_lab`` when testing -- the same code both times. Areas that define
no ``replay`` hold Python snippets (``code``) run by ``golden_support.run_case``.

``scripts/oracle/record_goldens.py [area...]`` replays every case under torch and writes
``tests/goldens/<area>.json``: ``{"format", "torch", "area", "cases": {name: {<the case's
inputs>, "outcome": ...}}}``. The tests read their cases from here and the recorded outcomes
with :func:`goldens`; a case whose inputs changed since it was recorded fails until it is
recorded again.
"""

from __future__ import annotations

import functools
import importlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
GOLDENS = HERE.parent / "goldens"
FORMAT = "golden-cases-1"
# The oracle (an interpreter with torch 2.13) is named by TORCH_PYTHON, as in the Makefile.
RECORD = os.environ.get("TORCH_PYTHON", "$TORCH_PYTHON") + " scripts/oracle/record_goldens.py {area}"

Replay = Callable[[Any, dict[str, Any]], Any]


def areas() -> list[str]:
    """The case modules (one goldens file each)."""
    return sorted(p.stem for p in HERE.glob("*.py") if p.stem != "__init__")


def module(area: str) -> ModuleType:
    return importlib.import_module(f"{__name__}.{area}")


def cases(area: str) -> list[dict[str, Any]]:
    """The cases of ``area``; their names must be unique."""
    found = list(module(area).CASES)
    names = [c["name"] for c in found]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ValueError(f"{area}: duplicate case names {dupes}")
    return found


def replay_of(area: str) -> Replay:
    """The area's replay function (snippet areas: ``golden_support.run_case`` on ``code``)."""
    own = getattr(module(area), "replay", None)
    if own is not None:
        return own
    from golden_support import run_case

    return lambda torch, case: run_case(torch, case["code"])


def inputs(case: dict[str, Any]) -> dict[str, Any]:
    """What is stored of a case next to its outcome: everything but the name, as JSON has it."""
    return json.loads(json.dumps({k: v for k, v in case.items() if k != "name"}))


@functools.cache
def goldens(area: str) -> dict[str, Any]:
    """The recorded file of ``area`` (``{}`` cases when it was never recorded)."""
    path = GOLDENS / f"{area}.json"
    if not path.exists():
        return {"format": FORMAT, "area": area, "cases": {}}
    data = json.loads(path.read_text())
    if not (isinstance(data, dict) and data.get("format") == FORMAT):
        raise ValueError(f"{path} is not a {FORMAT} file; record it again: {RECORD.format(area=area)}")
    return data


def recorded(area: str, case: dict[str, Any]) -> Any:
    """The outcome torch gave for ``case``; a clear failure when missing or out of date."""
    import pytest

    golden = goldens(area)["cases"].get(case["name"])
    if golden is None:
        pytest.fail(f"{area}::{case['name']} has no golden; run {RECORD.format(area=area)}",
                    pytrace=False)
    stored = {k: v for k, v in golden.items() if k != "outcome"}
    if stored != inputs(case):
        pytest.fail(f"{area}::{case['name']} changed since it was recorded; run "
                    f"{RECORD.format(area=area)}", pytrace=False)
    return golden["outcome"]
