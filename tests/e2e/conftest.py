"""Fixtures of the browser tests (helpers in ``e2e_support``): one server and browser per module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_support import Server, chromium, copy_course, jupyter_env, lab_server, shutdown_kernels

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
