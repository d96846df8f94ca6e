"""Fixtures of the browser tests (helpers in ``e2e_support``): one server and browser per module."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_support import (
    REPO,
    Server,
    chromium,
    copy_course,
    jupyter_env,
    lab_server,
    shutdown_kernels,
)

# ---- fixtures ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    """A temporary copy of the course (JupyterLab autosaves into what it serves)."""
    return copy_course(tmp_path_factory.mktemp("course"))


@pytest.fixture(scope="module")
def lab_env(tmp_path_factory) -> dict[str, str]:
    return jupyter_env(tmp_path_factory.mktemp("jupyter"))


@pytest.fixture(scope="module")
def lab(course, lab_env, tmp_path_factory) -> Iterator[Server]:
    with lab_server(course, lab_env, tmp_path_factory.mktemp("log") / "lab.log") as server:
        yield server


@pytest.fixture(scope="module")
def browser(tmp_path_factory) -> Iterator[object]:
    with chromium(tmp_path_factory.mktemp("profile")) as ctx:
        yield ctx


@pytest.fixture
def page(browser, lab) -> Iterator[object]:
    """A fresh tab; on the way out its notebook's kernel is shut down."""
    p = browser.new_page()
    try:
        yield p
    finally:
        p.close()
        shutdown_kernels(lab)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """The course website built from the repository's notebooks into a temporary folder
    (shared by the site's browser tests and its accessibility checks)."""
    out = tmp_path_factory.mktemp("site") / "site"
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, str(REPO / "scripts/course/build_site.py"),
                           "--out", str(out), "-q"], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    print(f"site built in {time.perf_counter() - t0:.1f} s")
    assert (out / "index.html").is_file()
    return out
