"""Helpers of the browser tests: our own JupyterLab / Voila servers, Chromium, kernels.

Every server runs on 127.0.0.1 with a token, on a temporary copy of the course, with its own
``JUPYTER_*`` folders (so nothing is read from or written to the user's Jupyter setup), and is
stopped with ``terminate()`` + ``wait()``. Chromium is Debian's ``/usr/bin/chromium`` driven by
Playwright (``executable_path``; Playwright never downloads a browser here).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK_DIR = REPO / "notebooks"
FIGURE_DIR = REPO / "figures"
ARTIFACTS = REPO / "test-artifacts" / "e2e"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]  # containers often have a tiny /dev/shm
TOKEN = "autograd-lab-e2e"
VIEWPORT = {"width": 1400, "height": 1000}

# The stepper's "current" node fill (restyle.CURRENT_FILL, #ffd54f) as the browser computes it.
CURRENT_FILL = "rgb(255, 213, 79)"
KERNEL_STATUS = 'span.jp-StatusBar-TextItem[title^="Change kernel"]'
# The prompts ("[3]:") of code cells whose code is shown: a cell with hidden source (the folded
# set-up cell) shows a placeholder without its number.
PROMPTS = ".jp-Notebook .jp-CodeCell .jp-InputPrompt:not(.jp-Placeholder-prompt)"


def course_notebooks() -> list[Path]:
    """The course notebooks present now (``notebooks/NN_slug.ipynb``), in order."""
    return sorted(NOTEBOOK_DIR.glob("[0-9][0-9]*_*.ipynb"))


def read_notebook(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def code_cells(nb: dict) -> list[dict]:
    return [c for c in nb["cells"] if c["cell_type"] == "code"]


def source(cell: dict) -> str:
    s = cell.get("source", "")
    return s if isinstance(s, str) else "".join(s)


def tags(cell: dict) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def stepper_notebooks() -> list[Path]:
    """Course notebooks that build a ``BackwardStepper`` in a code cell."""
    return [p for p in course_notebooks()
            if any("BackwardStepper(" in source(c) for c in code_cells(read_notebook(p)))]


def load_script(name: str):
    """A module of ``scripts/course/`` (the publishing tools are scripts, not a package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / "course" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def artifact(name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / name


# ---- the course copy and Jupyter's folders -----------------------------------------------------

def copy_course(dest: Path) -> Path:
    """``dest`` holding the course notebooks only: ``scripts/lab.sh`` serves ``notebooks/``.

    Nothing beside them (no ``figures/``): a figure must load from the notebook itself.
    """
    dest.mkdir(parents=True, exist_ok=True)
    for nb in course_notebooks():
        shutil.copy2(nb, dest / nb.name)
    return dest


def jupyter_env(base: Path) -> dict[str, str]:
    """An environment whose Jupyter folders are all under ``base``; news/update toasts off."""
    dirs = {k: base / k.lower() for k in (
        "JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR",
        "JUPYTERLAB_SETTINGS_DIR", "JUPYTERLAB_WORKSPACES_DIR")}
    for d in dirs.values():
        d.mkdir(parents=True, exist_ok=True)
    # The "Jupyter news" toast covers outputs; --LabApp.news_url=None does not stop it.
    settings = dirs["JUPYTERLAB_SETTINGS_DIR"] / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True, exist_ok=True)
    (settings / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    env = {**os.environ, **{k: str(v) for k, v in dirs.items()}}
    env.pop("MPLBACKEND", None)  # notebooks show figures through the inline backend
    env["PYTHONUNBUFFERED"] = "1"
    return env


def jupyter_bin(name: str) -> str:
    """A Jupyter entry point of this interpreter's environment (the project's .venv)."""
    path = Path(sys.executable).parent / name
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: run `bash scripts/setup.sh` to install it")
    return str(path)


def trust(paths: list[Path], env: dict[str, str]) -> None:
    """``jupyter trust`` into the signature database of ``env``'s JUPYTER_DATA_DIR."""
    subprocess.run([jupyter_bin("jupyter"), "trust", *map(str, paths)], env=env, check=True,
                   capture_output=True, text=True)


# ---- servers -----------------------------------------------------------------------------------

class Server:
    """A Jupyter server process (JupyterLab or Voila) on 127.0.0.1 with a token."""

    def __init__(self, cmd: list[str], env: dict[str, str], port: int, log: Path,
                 cwd: Path | None = None) -> None:
        self.cmd, self.env, self.port, self.log_path = cmd, env, port, log
        self.token = TOKEN
        self.base = f"http://127.0.0.1:{port}"
        self._log = open(log, "w")
        self.proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=self._log,
                                     stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def url(self, path: str, **query: str) -> str:
        q = "&".join(f"{k}={v}" if v else k for k, v in {"token": self.token, **query}.items())
        return f"{self.base}{path}?{q}"

    def log(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")

    def wait_ready(self, path: str | None, timeout: float = 60) -> None:
        """Until ``path`` answers 200 (or, with None, until the port accepts connections)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}:\n{self.log()}")
            try:
                if path is None:
                    socket.create_connection(("127.0.0.1", self.port), timeout=5).close()
                    return
                with urllib.request.urlopen(self.url(path), timeout=5):
                    return
            except OSError:  # includes URLError / HTTPError
                time.sleep(0.2)
        raise TimeoutError(f"server not ready after {timeout} s:\n{self.log()}")

    def api(self, method: str, path: str) -> object:
        req = urllib.request.Request(f"{self.base}{path}", method=method,
                                     headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(req, timeout=30) as r:
            body = r.read()
        return json.loads(body) if body else None

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)
        self._log.close()


def root_flags() -> list[str]:
    return ["--allow-root"] if os.geteuid() == 0 else []


@contextmanager
def lab_server(root: Path, env: dict[str, str], log: Path) -> Iterator[Server]:
    """JupyterLab serving ``root``; ready when ``/api/status`` answers."""
    port = free_port()
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
           "--ServerApp.port_retries=0", "--ServerApp.ip=127.0.0.1",
           f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={root}", *root_flags()]
    server = Server(cmd, env, port, log)
    try:
        server.wait_ready("/api/status")
        yield server
    finally:
        server.stop()


@contextmanager
def voila_server(notebook: Path, env: dict[str, str], log: Path) -> Iterator[Server]:
    """Plain Voila serving one notebook as an app page at ``/``."""
    port = free_port()
    cmd = [jupyter_bin("voila"), str(notebook), "--no-browser", f"--port={port}",
           "--Voila.port_retries=0", "--Voila.ip=127.0.0.1", "--show_tracebacks=True", f"--token={TOKEN}"]
    server = Server(cmd, env, port, log, cwd=notebook.parent)
    try:
        server.wait_ready(None)  # Voila has no /api/status; "/" would execute the notebook
        yield server
    finally:
        server.stop()


def shutdown_kernels(server: Server) -> None:
    """End every kernel of ``server`` (each open notebook starts one; 2 cores are few)."""
    for s in server.api("GET", "/api/sessions"):
        server.api("DELETE", f"/api/sessions/{s['id']}")


# ---- the browser -------------------------------------------------------------------------------

@contextmanager
def chromium(profile: Path) -> Iterator[object]:
    """A persistent Chromium context (Playwright refuses --user-data-dir in ``args``)."""
    from playwright.sync_api import sync_playwright

    if not os.access(CHROMIUM, os.X_OK):
        raise FileNotFoundError(f"{CHROMIUM} is missing: run `bash scripts/setup.sh --browser`")
    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True, viewport=VIEWPORT,
            args=CHROMIUM_ARGS)
        try:
            yield ctx
        finally:
            ctx.close()


# ---- JupyterLab pages --------------------------------------------------------------------------

def open_notebook(page, server: Server, rel: str, timeout: float = 90_000) -> None:
    """Open ``rel`` (relative to the server root): all its cells shown, its kernel idle."""
    n = len(server.api("GET", f"/api/contents/{rel}?type=notebook")["content"]["cells"])
    page.goto(server.url(f"/lab/tree/{rel}", reset=""))
    # JupyterLab attaches the cells of a long notebook a few at a time
    page.wait_for_function("(n) => document.querySelectorAll("
                           "'.jp-NotebookPanel .jp-Notebook .jp-Cell').length >= n",
                           arg=max(n, 1), timeout=timeout)
    # the toolbar's execution indicator says idle too early; the status bar item does not
    page.wait_for_selector(f'{KERNEL_STATUS}:has-text("| Idle")', timeout=timeout)


# The widget manager's known race (jupyter-widgets/ipywidgets#3231, still in jupyterlab_widgets
# 3.0.17): when the kernel's connection comes up before the manager has started restoring, its
# second restore reports "restored" before the notebook's saved state is loaded, and a saved
# widget rendered in that moment stays "Error displaying widget: model not found" until the page
# is loaded again. The manager then finds the kernel already connected and restores in order.
RESTORE_RACE = "Error displaying widget: model not found"


def lost_restore_race(page, output, selector: str, timeout: float = 30_000) -> bool:
    """Wait until the output area ``output`` (a locator) shows ``selector`` or the manager's
    race text; whether it is the race. Any other failure to render times out here."""
    output.scroll_into_view_if_needed()
    page.wait_for_function("([o, sel, race]) => o.querySelector(sel) !== null"
                           " || o.textContent.includes(race)",
                           arg=[output.element_handle(), selector, RESTORE_RACE],
                           timeout=timeout)
    return output.locator(selector).count() == 0


def run_all(page) -> None:
    """Clear every output, then Run All.

    Clearing first makes the saved prompts (``[1]:`` ... from the committed run) go blank,
    so a numbered prompt afterwards can only come from this run.
    """
    page.click('.lm-MenuBar-item:has-text("Edit")')
    page.click('.lm-Menu-item[data-command="editmenu:clear-all"]')
    page.wait_for_function(f"""() => [...document.querySelectorAll(
        '{PROMPTS}')].every(p => !/\\d/.test(p.textContent))""")
    page.click('.lm-MenuBar-item:has-text("Run")')
    page.click('.lm-Menu-item[data-command="runmenu:run-all"]')


PROGRESS_JS = """(statusSelector) => {
  const prompts = [...document.querySelectorAll('PROMPTS')]
    .map(p => p.textContent.trim());
  const status = document.querySelector(statusSelector);
  return {prompts, status: status ? status.textContent : ''};
}""".replace("PROMPTS", PROMPTS)


def wait_run_all(page, timeout: float = 180) -> list[str]:
    """Wait until every code cell ran (``[n]:``) or the kernel stopped with cells left.

    Returns the prompts. A cell that raises without the ``raises-exception`` tag makes
    JupyterLab drop the queued cells: the run is over when the kernel stays idle with no
    ``[*]`` prompt for a second.
    """
    deadline = time.monotonic() + timeout
    quiet_since = None
    started = False  # run_all blanked the prompts: any other prompt comes from this run
    while True:
        state = page.evaluate(PROGRESS_JS, KERNEL_STATUS)
        prompts = state["prompts"]
        if prompts and all(re.fullmatch(r"\[\d+\]:", p) for p in prompts):
            return prompts
        started = started or any(p != "[ ]:" for p in prompts)
        idle = started and state["status"].endswith("| Idle") and "[*]:" not in prompts
        if idle:
            quiet_since = quiet_since or time.monotonic()
            if time.monotonic() - quiet_since > 1.5:
                return prompts
        else:
            quiet_since = None
        if time.monotonic() > deadline:
            raise TimeoutError(f"Run All did not finish in {timeout} s; prompts: {prompts}")
        time.sleep(0.25)


def save_notebook(page, server: Server, rel: str) -> dict:
    """Save from the browser (File > Save) and return the notebook as the server wrote it."""
    before = server.api("GET", f"/api/contents/{rel}?content=0")["last_modified"]
    page.click('.lm-MenuBar-item:has-text("File")')
    page.click('.lm-Menu-item[data-command="docmanager:save"]')
    # The server writes in place, keeping the old file as ".~<name>" until the write is done.
    # Reading the notebook before then is not harmless: finding it unreadable, the server puts
    # that copy back. So wait for the time stamp to change (content=0 reads no content) and
    # then for the copy to go.
    root = next(Path(a.split("=", 1)[1]) for a in server.cmd
                if a.startswith("--ServerApp.root_dir="))
    path = root / rel
    intermediate = path.with_name(".~" + path.name)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        model = server.api("GET", f"/api/contents/{rel}?content=0")
        if model["last_modified"] != before and not intermediate.exists():
            break
        time.sleep(0.2)
    else:
        raise TimeoutError(f"{rel} was not saved")
    return server.api("GET", f"/api/contents/{rel}?content=1&type=notebook")["content"]


def stepper_button(root, name: str):
    """A stepper's button by its label or, for an icon button (no such label), its tooltip."""
    labelled = root.locator(f'button:has-text("{name}")')
    return labelled.first if labelled.count() else root.locator(
        f'button[title*="{name}" i]').first


# ---- a kernel the browser started --------------------------------------------------------------

@contextmanager
def kernel_of(server: Server, rel: str) -> Iterator[object]:
    """A client on the kernel of the notebook session ``rel`` (through its connection file)."""
    from jupyter_client import BlockingKernelClient

    kid = next(s["kernel"]["id"] for s in server.api("GET", "/api/sessions") if s["path"] == rel)
    conn = Path(server.env["JUPYTER_RUNTIME_DIR"]) / f"kernel-{kid}.json"
    kc = BlockingKernelClient()
    kc.load_connection_file(str(conn))
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=30)
        yield kc
    finally:
        kc.stop_channels()


def kernel_eval(kc, code: str, timeout: float = 60) -> object:
    """Run ``code`` in the kernel; it must print one JSON document, which is returned."""
    out: list[str] = []

    def hook(msg: dict) -> None:
        if msg["msg_type"] == "stream" and msg["content"]["name"] == "stdout":
            out.append(msg["content"]["text"])
        elif msg["msg_type"] == "error":
            raise RuntimeError("\n".join(msg["content"]["traceback"]))

    reply = kc.execute_interactive(code, store_history=False, timeout=timeout,
                                   output_hook=hook)
    assert reply["content"]["status"] == "ok", reply["content"]
    return json.loads("".join(out))
