"""A local class hub (``jupyterhub_config.py``): start it, and drive students through it.

    python scripts/hub/class_hub.py serve [--port 8000] [--students 30]
    python scripts/hub/class_hub.py load-test N [--notebook 03_]

``serve`` runs the hub until Ctrl-C. ``load-test N`` starts a hub of its own, logs N students in
at once from one headless Chromium (a browser context each, so each has its own cookies), and
each student, like a student in class, lands on the nbgitpuller link (the course is cloned into
their home), opens notebook 03, runs it all and steps the stepper. It reports, per student, the
seconds from the login form to a live stepper (one that answers its Next button) and the memory
of their kernel and of their Jupyter server (resident and proportional set size, from
``/proc/PID/smaps_rollup``), then stops the hub and every server it started.

The hub serves the committed course of this checkout: ``HEAD`` is pushed to a bare repository in
the hub's folder as the branch nbgitpuller follows.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONFIG = Path(__file__).resolve().parent / "jupyterhub_config.py"
PROXY = ROOT / "build" / "hub-node" / "node_modules" / ".bin" / "configurable-http-proxy"
BRANCH = "course"
PASSWORD = "autograd-lab-class"  # the local hub's class password
COURSE_DIR = "autograd_lab"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]
KERNEL_STATUS = 'span.jp-StatusBar-TextItem[title^="Change kernel"]'
PROMPTS_JS = """() => [...document.querySelectorAll(
    '.jp-Notebook .jp-CodeCell .jp-InputPrompt:not(.jp-Placeholder-prompt)')]
    .map(p => p.textContent.trim())"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _bin(name: str) -> Path:
    """A program of this interpreter's environment (where the course is installed)."""
    path = Path(sys.executable).parent / name
    if not path.exists():
        raise SystemExit(f"class_hub: {path} is missing: run `bash scripts/setup.sh --hub`")
    return path


def course_repository(state: Path) -> str:
    """A bare repository in ``state`` whose branch ``course`` is this checkout's HEAD."""
    bare = state / "course.git"
    if not bare.exists():
        subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    subprocess.run(["git", "-C", str(ROOT), "push", "-q", "--force", str(bare),
                    f"HEAD:refs/heads/{BRANCH}"], check=True)
    subprocess.run(["git", "-C", str(bare), "symbolic-ref", "HEAD", f"refs/heads/{BRANCH}"],
                   check=True)
    return f"file://{bare}"


def admin_password(state: Path) -> str:
    """The instructor's password, made once per hub folder and kept in it (``admin_password``)."""
    path = state / "admin_password"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(32) + "\n")
        path.chmod(0o600)
    return path.read_text().strip()


@dataclass
class Hub:
    """A running hub: its address, process and folder."""

    url: str
    state: Path
    proc: subprocess.Popen
    log: Path
    password: str = PASSWORD
    students: int = 0

    def home(self, user: str) -> Path:
        return self.state / "home" / user


@contextmanager
def class_hub(state: Path, port: int | None = None, students: int = 30,
              password: str = PASSWORD, timeout: float = 120) -> Iterator[Hub]:
    """Start the hub on 127.0.0.1 with its folder in ``state``; stop it (and every student's
    server) on the way out."""
    if not PROXY.exists():
        raise SystemExit(f"class_hub: {PROXY} is missing: run `bash scripts/setup.sh --hub`")
    state.mkdir(parents=True, exist_ok=True)
    port = port or _free_port()
    env = {**os.environ,
           "AUTOGRAD_LAB_HUB_STATE": str(state),
           "AUTOGRAD_LAB_HUB_REPO": course_repository(state),
           "AUTOGRAD_LAB_HUB_BRANCH": BRANCH,
           "AUTOGRAD_LAB_HUB_PORT": str(port),
           "AUTOGRAD_LAB_HUB_API_PORT": str(_free_port()),
           "AUTOGRAD_LAB_HUB_INTERNAL_PORT": str(_free_port()),
           "AUTOGRAD_LAB_HUB_STUDENTS": str(students),
           "AUTOGRAD_LAB_HUB_PASSWORD": password,
           "AUTOGRAD_LAB_HUB_ADMIN_PASSWORD": admin_password(state),
           "AUTOGRAD_LAB_HUB_PROXY": str(PROXY),
           "AUTOGRAD_LAB_HUB_SINGLEUSER": str(_bin("jupyterhub-singleuser")),
           # the programs of the course's environment first (git, node stay found after them)
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    log = state / "jupyterhub.log"
    with open(log, "w") as out:
        proc = subprocess.Popen([str(_bin("jupyterhub")), "-f", str(CONFIG)], cwd=state, env=env,
                                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True)
    hub = Hub(f"http://127.0.0.1:{port}", state, proc, log, password, students)
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"jupyterhub exited with {proc.returncode}:\n{log.read_text()}")
            try:
                with urllib.request.urlopen(f"{hub.url}/hub/health", timeout=5):
                    break
            except OSError as e:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"hub not up after {timeout} s:\n{log.read_text()}") from e
                time.sleep(0.3)
        yield hub
    finally:
        _stop(proc)


def _stop(proc: subprocess.Popen) -> None:
    """SIGTERM to the hub: it stops the students' servers and its proxy, then exits."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # the hub's own session: its proxy and servers
            proc.wait(timeout=30)


# ---- a student, in the browser ------------------------------------------------------------------

@dataclass
class Student:
    name: str
    login_s: float = 0.0          # login form submitted -> JupyterLab showing the course
    stepper_s: float = 0.0        # login form submitted -> a stepper answering Next
    steps: list[str] = field(default_factory=list)  # captions seen while stepping
    prompts: list[str] = field(default_factory=list)
    error: str = ""


def notebook_path(prefix: str) -> str:
    """``autograd_lab/notebooks/student/03_....ipynb`` in a student's home."""
    names = sorted(p.name for p in (ROOT / "notebooks" / "student").glob(f"{prefix}*.ipynb"))
    if not names:
        raise SystemExit(f"class_hub: no student notebook starts with {prefix!r}")
    return f"{COURSE_DIR}/notebooks/student/{names[0]}"


async def _run_all(page) -> None:
    await page.click('.lm-MenuBar-item:has-text("Run")')
    await page.click('.lm-Menu-item[data-command="runmenu:run-all"]')


async def _caption_starting(caption, start: str, timeout: float) -> str:
    """The stepper's caption once it starts with ``start`` (it is drawn anew at each step)."""
    deadline = time.monotonic() + timeout / 1000
    while not (text := ((await caption.text_content()) or "").strip()).startswith(start):
        if time.monotonic() > deadline:
            raise TimeoutError(f"the stepper's caption stayed {text!r}, not {start!r}...")
        await asyncio.sleep(0.1)
    return text


async def student_session(browser, hub: Hub, name: str, notebook: str, steps: int = 3,
                          shot: Path | None = None, failed_shot: Path | None = None,
                          timeout: float = 600_000) -> Student:
    """Log ``name`` in, land on the course, open ``notebook``, Run All, step the stepper."""
    s = Student(name)
    ctx = await browser.new_context(viewport={"width": 1400, "height": 1000})
    page = await ctx.new_page()
    page.set_default_timeout(timeout)
    try:
        await page.goto(f"{hub.url}/hub/login")
        await page.fill("input#username_input", name)
        await page.fill("input#password_input", hub.password)
        t0 = time.monotonic()
        await page.click("#login_submit")
        # spawn page -> the nbgitpuller page -> JupyterLab's file browser on the student copies
        await page.wait_for_url(re.compile(r".*/lab/tree/.*"), timeout=timeout)
        await page.wait_for_selector('.jp-DirListing-item[title*="03_"]', timeout=timeout)
        s.login_s = time.monotonic() - t0
        if shot:
            await page.screenshot(path=str(shot))
        await page.goto(f"{hub.url}/user/{name}/lab/tree/{notebook}")
        await page.wait_for_selector(f'{KERNEL_STATUS}:has-text("| Idle")', timeout=timeout)
        await _run_all(page)
        root = page.locator(".autograd-lab-stepper").first
        await root.locator("svg g.node").first.wait_for(timeout=timeout)
        await root.scroll_into_view_if_needed()  # JupyterLab leaves cells out of view undrawn
        caption = root.locator(".agl-caption")
        await _caption_starting(caption, "step ", timeout)
        s.steps.append(((await caption.text_content()) or "").strip())
        for k in range(steps):
            await root.locator('button:has-text("Next"), button[title*="Next" i]').first.click()
            # "step 1 / 25 · ..." -> "step 2 / 25 · ..." (the caption is drawn anew each step)
            want = re.sub(r"^step (\d+)", lambda m: f"step {int(m[1]) + 1}", s.steps[-1])
            want = want.split(" · ")[0] + " "
            s.steps.append(await _caption_starting(caption, want, timeout))
            if k == 0:
                s.stepper_s = time.monotonic() - t0
        # wait for the rest of Run All: every prompt numbered, or the kernel idle with none queued
        await page.wait_for_function(
            """(status) => { const ps = [...document.querySelectorAll(
                 '.jp-Notebook .jp-CodeCell .jp-InputPrompt:not(.jp-Placeholder-prompt)')]
                 .map(p => p.textContent.trim());
               const st = document.querySelector(status);
               return ps.every(p => /^\\[\\d+\\]:$/.test(p)) ||
                      (st && st.textContent.endsWith('| Idle') && !ps.includes('[*]:')); }""",
            arg=KERNEL_STATUS, polling=500, timeout=timeout)
        s.prompts = await page.evaluate(PROMPTS_JS)
    except Exception as e:  # reported per student; the caller decides
        s.error = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        if failed_shot:
            await page.screenshot(path=str(failed_shot))
        try:
            s.prompts = await page.evaluate(PROMPTS_JS)
            s.error += f" (prompts: {' '.join(s.prompts)})"
        except Exception:  # the page is gone: nothing more to say
            pass
    finally:
        await ctx.close()
    return s


async def drive(hub: Hub, names: list[str], notebook: str, shots: Path | None = None,
                steps: int = 3, timeout: float = 600) -> list[Student]:
    """Every student in ``names`` at once, in one Chromium."""
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                          args=CHROMIUM_ARGS)
        try:
            return list(await asyncio.gather(*(
                student_session(browser, hub, n, notebook, steps,
                                shot=(shots / f"hub_{n}_after_login.png") if shots else None,
                                failed_shot=(shots / f"hub_{n}_failed.png") if shots else None,
                                timeout=timeout * 1000)
                for n in names)))
        finally:
            await browser.close()


# ---- memory ------------------------------------------------------------------------------------

def _smaps(pid: int) -> tuple[float, float]:
    """(RSS, PSS) of ``pid`` in MiB."""
    text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    kb = {k: int(v.split()[0]) for k, v in re.findall(r"^(Rss|Pss):\s+(.*)$", text, re.M)}
    return kb["Rss"] / 1024, kb["Pss"] / 1024


def processes_of(hub: Hub, user: str) -> dict[str, list[int]]:
    """The pids of ``user``'s kernels and Jupyter server (found by their home in argv/env)."""
    home = str(hub.home(user))
    found: dict[str, list[int]] = {"kernel": [], "server": []}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            argv = (d / "cmdline").read_bytes().split(b"\0")
            environ = (d / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        cmd = " ".join(a.decode(errors="replace") for a in argv)
        if "ipykernel_launcher" in cmd and f"{home}/" in cmd:
            found["kernel"].append(int(d.name))
        elif "jupyterhub-singleuser" in cmd and f"HOME={home}".encode() in environ:
            found["server"].append(int(d.name))
    return found


def memory(hub: Hub, user: str) -> dict[str, tuple[float, float]]:
    out = {}
    for kind, pids in processes_of(hub, user).items():
        sizes = [_smaps(p) for p in pids]
        out[kind] = (sum(r for r, _ in sizes), sum(p for _, p in sizes))
    return out


def load_test(n: int, prefix: str, state: Path, shots: Path, timeout: float = 600) -> int:
    """Log ``n`` students in at once and print the table; 1 if any student failed."""
    if state.exists():
        shutil.rmtree(state)
    shots.mkdir(parents=True, exist_ok=True)
    names = [f"student{i:02d}" for i in range(1, n + 1)]
    notebook = notebook_path(prefix)
    print(f"load test: {n} students at once on {os.cpu_count()} cores; each opens {notebook}, "
          "runs it all and steps its stepper", flush=True)
    with class_hub(state, students=n) as hub:
        t0 = time.monotonic()
        results = asyncio.run(drive(hub, names, notebook, shots, timeout=timeout))
        wall = time.monotonic() - t0
        # the kernels are still running (the browser closed, the servers did not): measure them
        mem = {s.name: memory(hub, s.name) for s in results}
    print(f"{'student':10} {'login s':>8} {'stepper s':>10} {'kernel RSS':>11} {'kernel PSS':>11}"
          f" {'server RSS':>11} {'server PSS':>11}  steps / error")
    for s in results:
        k, sv = mem[s.name].get("kernel", (0, 0)), mem[s.name].get("server", (0, 0))
        print(f"{s.name:10} {s.login_s:8.1f} {s.stepper_s:10.1f} {k[0]:9.0f}MB {k[1]:9.0f}MB "
              f"{sv[0]:9.0f}MB {sv[1]:9.0f}MB  {s.error or ' -> '.join(s.steps[:2])}")
    ok = [s for s in results if not s.error]
    if ok:
        t = [s.stepper_s for s in ok]
        kp = [mem[s.name]["kernel"][1] for s in ok]
        print(f"time to a live stepper: median {statistics.median(t):.1f} s, max {max(t):.1f} s; "
              f"kernel PSS: median {statistics.median(kp):.0f} MB, total "
              f"{sum(mem[s.name]['kernel'][1] + mem[s.name]['server'][1] for s in ok):.0f} MB "
              f"(kernels + servers); all {n} done in {wall:.0f} s")
    failed = [s for s in results if s.error]
    if failed:
        print(f"load test: {len(failed)} of {n} students failed; "
              f"the hub's log: {state}/jupyterhub.log")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the class hub until Ctrl-C")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--students", type=int, default=30)
    serve.add_argument("--state", type=Path, default=ROOT / "build" / "hub")
    load = sub.add_parser("load-test", help="log N students in at once and measure")
    load.add_argument("n", type=int)
    load.add_argument("--notebook", default="03_", help="prefix of the notebook each one runs")
    load.add_argument("--state", type=Path, default=ROOT / "build" / "hub-load")
    load.add_argument("--screenshots", type=Path, default=ROOT / "test-artifacts" / "hub")
    load.add_argument("--timeout", type=float, default=600,
                      help="seconds each student may wait at any one step")
    args = ap.parse_args(argv)
    if args.command == "load-test":
        if args.n < 1:
            ap.error("N must be at least 1")
        return load_test(args.n, args.notebook, args.state, args.screenshots, args.timeout)
    with class_hub(args.state, port=args.port, students=args.students) as hub:
        print(f"class hub: {hub.url}\n"
              f"  students: student01 .. student{args.students:02d}, password {hub.password!r}\n"
              f"  instructor (admin): password in {hub.state / 'admin_password'}\n"
              f"  students' work: {hub.state / 'home'}/<student>/{COURSE_DIR}/notebooks/student/\n"
              "  Ctrl-C stops the hub and every student's server.", flush=True)
        try:
            hub.proc.wait()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
