"""How ``scripts/test.sh`` shares the suite between pytest-xdist workers.

``--dist loadfile`` keeps a test file on one worker (its module fixtures -- a JupyterLab, a
browser, a built site -- start once) and hands out files in order of their test count. The
browser files have few tests but take minutes each, so a worker that picks one up last runs
alone long after the others finish. Here the slowest files go out first, and the two longest
are cut in halves (every other parametrized case) that run on different workers, each half
with its own fixtures.
"""

from __future__ import annotations

import pytest

# Longest first (worker-seconds on a 2-core machine, from --durations): what is handed out
# before anything else, in this order.
SLOW_FIRST = (
    "tests/e2e/test_e2e_notebooks.py",  # ~470 s: every notebook run and stepped in JupyterLab
    "tests/e2e/test_a11y_site.py",  # ~260 s: axe over every site page in three views
    "tests/test_grading.py",  # ~130 s: grade.sh over a class of 40+ submissions
    "tests/e2e/test_e2e_stepper.py",  # ~100 s
    "tests/e2e/test_site.py",
    "tests/test_notebook_rerun.py",
    "tests/e2e/test_classroom.py",
    "tests/e2e/test_hub.py",
    "tests/test_student_copies_run.py",
    "tests/e2e/test_e2e_trust.py",
    "tests/test_student_copies.py",
    "tests/e2e/test_slides.py",
    "tests/test_viz_stepper.py",
    "tests/e2e/test_e2e_voila.py",
    "tests/e2e/test_a11y_lab.py",
)
HALVED = ("tests/e2e/test_e2e_notebooks.py", "tests/e2e/test_a11y_site.py")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    if config.getoption("dist", None) != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class LongestFirst(LoadFileScheduling):
        _halves: dict[str, str] | None = None

        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            if path not in HALVED:
                return path
            if self._halves is None:  # every other case of each halved file, in order
                self._halves, seen = {}, {}
                for other in next(iter(self.registered_collections.values())):
                    file = other.split("::", 1)[0]
                    if file in HALVED:
                        k = seen[file] = seen.get(file, -1) + 1
                        self._halves[other] = f"{file}#{k % 2}"
            return self._halves.get(nodeid, path)

        def _assign_work_unit(self, node: object) -> None:
            def rank(scope: str) -> int:
                path = scope.split("#", 1)[0]
                return SLOW_FIRST.index(path) if path in SLOW_FIRST else len(SLOW_FIRST)

            first = min(self.workqueue, key=rank)  # ties: xdist's own order
            self.workqueue.move_to_end(first, last=False)
            super()._assign_work_unit(node)

    return LongestFirst(config, log)
