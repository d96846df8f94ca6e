"""The class hub (``scripts/hub.sh``): two students log in at once, get the course through
nbgitpuller, open notebook 03 in Chromium, run it all and step its stepper.

The hub is real: JupyterHub with configurable-http-proxy (``bash scripts/setup.sh --hub``), a
Jupyter server per student, nbgitpuller cloning the checkout's HEAD into each home. Screenshots
of each student's JupyterLab after login land in ``test-artifacts/e2e/hub_*.png``.
"""

from __future__ import annotations

import asyncio
import subprocess
import time

import pytest
from e2e_support import ARTIFACTS, REPO

pytestmark = pytest.mark.browser


def _class_hub():
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("class_hub", REPO / "scripts/hub/class_hub.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["class_hub"] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


def test_two_students_pull_the_course_run_03_and_step_the_stepper(tmp_path):
    hubs = _class_hub()
    names = ["student01", "student02"]
    notebook = hubs.notebook_path("03_")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    with hubs.class_hub(tmp_path / "hub", students=2) as hub:
        results = asyncio.run(hubs.drive(hub, names, notebook, shots=ARTIFACTS, steps=3,
                                         timeout=240))
        memory = {n: hubs.memory(hub, n) for n in names}
        for s in results:
            assert not s.error, (s.name, s.error, hub.log.read_text()[-3000:])
            # a live stepper: every Next moved it one step
            assert [x.split(" / ")[0] for x in s.steps] == ["step 1", "step 2", "step 3",
                                                            "step 4"], s.steps
            assert s.prompts and all(p[1:-2].isdigit() for p in s.prompts), s.prompts
            # nbgitpuller cloned the course's branch into the student's own home
            clone = hub.home(s.name) / hubs.COURSE_DIR
            branch = subprocess.run(["git", "-C", str(clone), "rev-parse", "--abbrev-ref",
                                     "HEAD"], capture_output=True, text=True, check=True)
            assert branch.stdout.strip() == hubs.BRANCH
            assert (clone / notebook.split("/", 1)[1]).is_file()
            # each student has a kernel of their own, still running
            assert memory[s.name]["kernel"][0] > 20, memory
    # the hub stopped every server it started
    assert not any(hubs.processes_of(hub, n)["kernel"] or hubs.processes_of(hub, n)["server"]
                   for n in names)
    print("2 students: " + ", ".join(f"{s.name} live stepper after {s.stepper_s:.0f} s"
                                      for s in results) + f"; test {time.monotonic() - t0:.0f} s")
