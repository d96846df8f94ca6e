"""Classroom set-ups: the Colab first cell, the Binder configuration, the CI workflow."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import nbformat
import pytest
import yaml
from e2e_support import REPO, course_notebooks, jupyter_env, load_script, read_notebook
from nbclient import NotebookClient
from nbformat.sign import NotebookNotary

colab = load_script("colab_cell")


# ---- the Colab cell ----------------------------------------------------------------------------

def test_colab_cell_is_silent_and_does_nothing_here(tmp_path, monkeypatch):
    """autograd_lab is importable here: the cell prints nothing and never calls pip."""
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell(colab.CELL),
        nbformat.v4.new_code_cell("import autograd_lab, os\n"
                                  "print(os.path.dirname(autograd_lab.__file__))"),
    ])
    for k, v in jupyter_env(tmp_path / "jupyter").items():  # isolated Jupyter folders
        if k.startswith("JUPYTER"):
            monkeypatch.setenv(k, v)
    NotebookClient(nb, timeout=60, kernel_name="python3").execute()
    assert nb.cells[0].outputs == []
    assert nb.cells[1].outputs[0]["text"].strip() == str(REPO / "autograd_lab")

    calls = []
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: calls.append(a))
    exec(compile(colab.CELL, "<colab cell>", "exec"), {})
    assert calls == []


def test_colab_cell_installs_the_package_when_it_is_missing(monkeypatch):
    calls = []
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: calls.append((a, k)))
    monkeypatch.setitem(sys.modules, "autograd_lab", None)  # `import autograd_lab` now fails
    exec(compile(colab.CELL, "<colab cell>", "exec"), {})
    assert calls == [(([sys.executable, "-m", "pip", "install", "-q",
                        f"autograd_lab @ git+{colab.AUTOGRAD_LAB_SOURCE}"],), {"check": True})]
    assert colab.AUTOGRAD_LAB_SOURCE.startswith("https://")
    assert colab.CELL.count(colab.AUTOGRAD_LAB_SOURCE) == 1


def test_shipped_notebooks_start_with_the_colab_cell():
    script = REPO / "scripts" / "course" / "colab_cell.py"
    notebooks = course_notebooks()
    assert notebooks, "no course notebooks"
    r = subprocess.run([sys.executable, str(script), "--check", *map(str, notebooks)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_colab_cell_write_and_check(tmp_path):
    script = REPO / "scripts" / "course" / "colab_cell.py"
    sources = course_notebooks()[:2]
    assert sources, "no course notebooks"
    originals, copies = [], []
    for p in sources:  # copies without the cell, as a notebook looks before --write
        nb = read_notebook(p)
        i, _ = colab.first_code_cell(nb)
        del nb["cells"][i]
        copy = tmp_path / p.name
        nbformat.write(nbformat.from_dict(nb), copy)
        originals.append(read_notebook(copy))
        copies.append(copy)

    def run(*args):
        return subprocess.run([sys.executable, str(script), *args, *map(str, copies)],
                              capture_output=True, text=True)

    assert run("--check").returncode == 1
    assert run("--write").returncode == 0
    assert run("--check").returncode == 0
    before = [c.read_bytes() for c in copies]
    assert run("--write").stdout == ""  # already there: nothing rewritten
    assert [c.read_bytes() for c in copies] == before
    for old, copy in zip(originals, copies):
        new = read_notebook(copy)
        i, _ = colab.first_code_cell(new)
        assert new["cells"][:i] + new["cells"][i + 1:] == old["cells"]  # only the cell added
        assert "".join(new["cells"][i]["source"]) == colab.CELL
        check_folded(new["cells"][i])
        nbformat.validate(nbformat.reads(copy.read_text(), as_version=4))


def check_folded(cell: dict) -> None:
    """Hidden in JupyterLab, a titled form in Colab: the first screen is the title and goals."""
    assert cell["metadata"]["jupyter"]["source_hidden"] is True
    assert cell["metadata"]["cellView"] == "form"
    assert "colab" in cell["metadata"]["tags"]
    first = "".join(cell["source"]).splitlines()[0]
    assert first.startswith("# @title ") and first.endswith('{ display-mode: "form" }')


def test_shipped_colab_cells_are_folded():
    for p in course_notebooks():
        i, cell = colab.first_code_cell(read_notebook(p))
        check_folded(cell)
        # nothing but Markdown (title, objectives) before it
        assert all(c["cell_type"] == "markdown" for c in read_notebook(p)["cells"][:i]), p.name


def test_colab_cell_write_folds_an_older_cell(tmp_path):
    """A cell written by an older version (not folded, no title) is updated in place."""
    nb = read_notebook(course_notebooks()[0])
    i, cell = colab.first_code_cell(nb)
    old_source = colab.CELL.split("\n", 1)[1]  # without the title line
    nb["cells"][i] = {**cell, "source": old_source.splitlines(keepends=True),
                      "metadata": {"tags": ["colab"], "execution": {"shell.execute_reply": "t"}}}
    path = tmp_path / "old.ipynb"
    nbformat.write(nbformat.from_dict(nb), path)
    assert colab.main(["--check", str(path)]) == 1
    assert colab.main(["--write", str(path)]) == 0
    new = read_notebook(path)
    assert len(new["cells"]) == len(nb["cells"])
    check_folded(new["cells"][i])
    assert new["cells"][i]["metadata"]["execution"] == {"shell.execute_reply": "t"}  # other metadata kept
    assert colab.main(["--check", str(path)]) == 0
    nbformat.validate(nbformat.reads(path.read_text(), as_version=4))


# ---- Binder ------------------------------------------------------------------------------------

def test_binder_apt_packages_are_real_debian_packages():
    packages = (REPO / "binder" / "apt.txt").read_text().split()
    assert {"graphviz", "fonts-liberation"} <= set(packages)
    out = subprocess.run(["dpkg-query", "-W", "-f=${Package} ${Status}\n", *packages],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert all(line.endswith("install ok installed") for line in out.stdout.splitlines())
    assert os.access(REPO / "binder" / "postBuild", os.X_OK)


@pytest.mark.slow
def test_binder_config_installs_into_a_fresh_venv(tmp_path):
    """binder/postBuild, run for real in a new venv on a copy of the repository."""
    repo = tmp_path / "repo"
    for name in ("pyproject.toml", "README.md", "autograd_lab", "binder", "figures", "jupyter"):
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, repo / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            repo.mkdir(exist_ok=True)
            shutil.copy2(src, repo / name)
    (repo / "notebooks").mkdir()
    for p in course_notebooks():
        shutil.copy2(p, repo / "notebooks" / p.name)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = jupyter_env(tmp_path / "jupyter")
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env['PATH']}"
    env["VIRTUAL_ENV"] = str(venv)
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env.pop("PYTHONPATH", None)
    done = subprocess.run(["bash", "binder/postBuild"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=1500)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]

    python = str(venv / "bin" / "python")
    check = """
import autograd_lab as torch, graphviz, ipywidgets, jupyterlab, matplotlib, sys
from autograd_lab.viz import make_dot
assert torch.__file__.startswith(sys.prefix), torch.__file__  # installed, not the source tree
x = torch.tensor([1.0, 2.0], requires_grad=True)
svg = make_dot((x * x).sum(), params={"x": x}).pipe(format="svg").decode()
print(repr(torch.tensor([1.0, 2.0]).sum()), "<svg" in svg, ipywidgets.__version__[0])
"""
    out = subprocess.run([python, "-c", check], cwd=tmp_path, env=env, capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["tensor(3.)", "True", "8"]
    lab = subprocess.run([str(venv / "bin" / "jupyter"), "lab", "--version"], env=env,
                         capture_output=True, text=True)
    assert lab.returncode == 0 and lab.stdout.startswith("4.")
    notary = NotebookNotary(data_dir=env["JUPYTER_DATA_DIR"])
    for p in (repo / "notebooks").glob("*.ipynb"):
        assert notary.check_signature(nbformat.read(p, as_version=4)), f"{p.name} not trusted"


# ---- CI ----------------------------------------------------------------------------------------

def test_github_workflow_runs_the_readme_test_command():
    wf = yaml.safe_load((REPO / ".github" / "workflows" / "test.yml").read_text())
    (job,) = wf["jobs"].values()
    assert job["runs-on"].startswith("ubuntu")
    runs = [s.get("run", "") for s in job["steps"]]
    assert "bash scripts/test.sh" in runs
    assert "bash scripts/test.sh" in (REPO / "README.md").read_text()
    # the test command installs Chromium itself (setup.sh --browser) before the browser tests
    assert "setup.sh --browser" in (REPO / "scripts" / "test.sh").read_text()
    assert job["timeout-minutes"] <= 90
