"""Licences, notices and the release version: present, declared, and in agreement."""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

import tomllib

import autograd_lab

ROOT = Path(__file__).resolve().parents[1]


def test_licence_files_are_at_the_top_and_declared():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert pyproject["license"] == "MIT AND CC-BY-4.0"
    for name in pyproject["license-files"]:
        assert (ROOT / name).is_file(), name
    assert "Permission is hereby granted, free of charge" in (ROOT / "LICENSE").read_text()
    content = (ROOT / "LICENSE-CONTENT").read_text()
    assert "Creative Commons Attribution 4.0 International Public License" in content
    assert "Section 8 -- Interpretation." in content  # the whole legal code, not a link
    notices = (ROOT / "THIRD_PARTY_NOTICES.md").read_text()
    for needle in ("From PyTorch:", "Redistribution and use in source and binary forms",
                   "MathJax", "Apache License", "RequireJS", "@jupyter-widgets/html-manager"):
        assert needle in notices, needle
    # The installed package says the same (setup.sh reinstalls when pyproject.toml changes).
    meta = importlib.metadata.metadata("autograd_lab")
    assert meta["License-Expression"] == "MIT AND CC-BY-4.0"


def test_every_module_that_copies_torch_is_named_in_the_notices():
    notices = (ROOT / "THIRD_PARTY_NOTICES.md").read_text()
    for module in ("_messages.py", "_arg_errors.py", "_printing.py", "ops/summation.py",
                   "_precision.py", "autograd_lab/random/"):
        assert module in notices, module


def test_one_version_for_package_changelog_and_metadata():
    version = autograd_lab.__course_version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", version)
    assert importlib.metadata.version("autograd_lab") == version
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## (\d+\.\d+\.\d+) \((\d{4}-\d\d-\d\d)\)", changelog, re.M)
    assert releases and releases[0][0] == version, "the newest CHANGELOG entry is this version"
    assert autograd_lab.__version__.startswith("2.13.0")  # torch's, for code that checks it


def test_readme_says_how_to_reuse_and_how_to_pin_a_release():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for heading in ("## Reuse", "## Releases", "## Students' work"):
        assert heading in readme
    assert "branch=release/" in readme and "CC BY 4.0" in readme
