"""Where a submission runs: a scratch copy of its folder, a read-only copy of the package,
an unprivileged user when the grader is root, and a kernel with limits.

Layout of one grading run (``RunDir``), under a private temporary directory::

    run/                    0711, the grader's: a sandbox user can pass through, not list
      package/autograd_lab  the pristine package, byte-compiled, read-only
      kernelspec/           the kernelspec whose command is launcher.py
      <random token>/       one per notebook being graded (the name is not guessable)
        package/            a read-only copy of package/ (the kernel's PYTHONPATH)
        work/               the copy of the student's folder (the kernel's cwd), the user's
        home/               the kernel's HOME, the user's
"""

from __future__ import annotations

import compileall
import fcntl
import hashlib
import json
import os
import pwd
import secrets
import shutil
import signal
import site
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

LAUNCHER = Path(__file__).with_name("launcher.py")
KERNEL_NAME = "autograd-lab-grader"


def package_hash(package: Path) -> str:
    """A hash of every file under ``package`` (names and bytes), caches left out."""
    h = hashlib.sha256()
    for path in sorted(package.rglob("*")):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        h.update(str(path.relative_to(package)).encode() + b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()


@dataclass(frozen=True)
class SandboxUser:
    """The unprivileged account a kernel runs as (only when the grader is root)."""

    name: str
    uid: int
    gid: int
    exclusive: bool  # no other slot runs as it: leftover processes of it can all be ended


def sandbox_users(jobs: int, name: str | None = None) -> list[SandboxUser | None]:
    """One account per parallel slot (``agl-grader0`` ...), created with useradd when missing.

    Not root: no account change is possible, every slot runs as the grader's own user.
    ``name`` picks one existing account for every slot instead (``nobody``, say)."""
    if os.geteuid() != 0:
        return [None] * jobs
    if name:  # shared with the rest of the system: its processes are never all ended
        pw = pwd.getpwnam(name)
        return [SandboxUser(name, pw.pw_uid, pw.pw_gid, False)] * jobs
    users: list[SandboxUser | None] = []
    for slot in range(64):
        if len(users) == jobs:
            break
        user = f"agl-grader{slot}"
        if not _claim(user):
            continue  # another grading run on this machine uses it
        try:
            pw = pwd.getpwnam(user)
        except KeyError:
            done = subprocess.run(["useradd", "--system", "--user-group", "--no-create-home",
                                   "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin",
                                   user], capture_output=True, text=True)
            if done.returncode != 0:
                raise SystemExit(f"grade: could not create the sandbox user {user}: "
                                 f"{done.stderr.strip()} (or pass --user nobody)") from None
            pw = pwd.getpwnam(user)
        if pw.pw_uid == 0 or pw.pw_gid == 0:
            raise SystemExit(f"grade: the sandbox user {user} must not be root")
        users.append(SandboxUser(user, pw.pw_uid, pw.pw_gid, True))
    if len(users) < jobs:
        raise SystemExit("grade: every sandbox user is taken by other grading runs")
    return users


LOCKS = Path("/var/lib/autograd-lab-grader")
_held: list[int] = []  # lock files kept open (and locked) until the run ends


def _claim(user: str) -> bool:
    """Lock ``user`` for this run: two runs never share a sandbox user (nor end its processes
    under each other's feet)."""
    LOCKS.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(LOCKS / f"{user}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return False
    _held.append(fd)
    return True


def end_processes_of(user: SandboxUser) -> int:
    """SIGKILL every process left running as ``user`` (daemons a submission started)."""
    ended = 0
    for _ in range(20):
        pids = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                if os.stat(f"/proc/{entry}").st_uid != user.uid:
                    continue
                with open(f"/proc/{entry}/stat") as f:
                    if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                        continue  # exited, waiting for its parent to reap it
            except (OSError, IndexError):
                continue
            pids.append(int(entry))
        if not pids:
            return ended
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
                ended += 1
            except ProcessLookupError:
                pass
        time.sleep(0.05)
    return ended


def _runs_as(python: str, user: SandboxUser, package: Path) -> bool:
    """Can ``user`` start ``python`` and import the kernel's packages with it?"""
    env = {"PATH": "/usr/bin:/bin", "HOME": "/", "PYTHONPATH": str(package),
           "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        done = subprocess.run([python, "-c", "import ipykernel, numpy, autograd_lab"],
                              user=user.uid, group=user.gid, extra_groups=[], env=env, cwd="/",
                              capture_output=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def kernel_python(run: RunDir, user: SandboxUser | None) -> str:
    """The interpreter the kernels run: this one, when the sandbox user can run it.

    A virtual environment under a home the user can't enter (``/root/...``) is out of its
    reach; then a same-version interpreter on the system PATH gets a small environment of its
    own in the run directory that adds this interpreter's site-packages."""
    if user is None or _runs_as(sys.executable, user, run.package):
        return sys.executable
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    base = shutil.which(version, path="/usr/local/bin:/usr/bin:/bin")
    if base is not None:
        venv = run.root / "kernel-venv"
        subprocess.run([base, "-m", "venv", "--without-pip", str(venv)], check=True,
                       capture_output=True)
        lib = venv / "lib" / version / "site-packages"
        dirs = [d for d in site.getsitepackages() if os.path.isdir(d)]
        (lib / "_autograd_lab_grader.pth").write_text(
            f"import site; list(map(site.addsitedir, {dirs!r}))\n")
        for path in [venv, *venv.rglob("*")]:
            if not path.is_symlink():
                path.chmod(path.stat().st_mode | 0o055 if path.is_dir() else
                           path.stat().st_mode | 0o044)
        python = str(venv / "bin" / "python")
        if _runs_as(python, user, run.package):
            return python
    raise SystemExit(f"grade: the sandbox user {user.name} can't run {sys.executable} (is it "
                     "under a folder only root may enter, such as /root?) and no usable "
                     f"{version} was found in /usr/bin: install the project where other users "
                     "can read it, or grade inside a container")


def _read_only(tree: Path) -> None:
    """Remove every write bit under ``tree`` (directories keep r-x for everyone)."""
    for path in [tree, *tree.rglob("*")]:
        mode = path.stat().st_mode
        if path.is_dir():
            path.chmod(0o555)
        else:
            path.chmod((mode & ~0o222) | 0o444)


class RunDir:
    """The temporary tree of one grading run (see the module docstring)."""

    def __init__(self, package: Path, python: str = sys.executable) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="agl-grading-"))
        self.root.chmod(0o711)
        self.package = self.root / "package"
        self.package.mkdir(mode=0o755)
        shutil.copytree(package, self.package / package.name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        compileall.compile_dir(str(self.package), quiet=2)  # a read-only copy can't cache
        _read_only(self.package)
        spec_dir = self.root / "kernelspec" / KERNEL_NAME
        spec_dir.mkdir(parents=True)
        spec = {"argv": [python, str(LAUNCHER), "{connection_file}"], "language": "python",
                "display_name": "autograd_lab grader", "metadata": {}}
        (spec_dir / "kernel.json").write_text(json.dumps(spec))
        self.kernel_dirs = [str(self.root / "kernelspec")]

    def close(self) -> None:
        """Remove the whole tree (read-only parts included)."""
        for path in [self.root, *self.root.rglob("*")]:
            try:
                if path.is_dir() and not path.is_symlink():
                    path.chmod(stat.S_IRWXU)
            except OSError:
                pass
        shutil.rmtree(self.root, ignore_errors=True)


class Scratch:
    """One notebook's private corner of the run: folder copy, package copy, home."""

    def __init__(self, run: RunDir, folder: Path, user: SandboxUser | None) -> None:
        self.root = run.root / secrets.token_hex(16)
        self.root.mkdir(mode=0o711)
        self.package = self.root / "package"
        shutil.copytree(run.package, self.package)  # copies stay read-only
        self.work = self.root / "work"
        shutil.copytree(folder, self.work, symlinks=True,
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        self.home = self.root / "home"
        self.home.mkdir()
        self.user = user
        if user is not None:
            for tree in (self.work, self.home):
                for path in [tree, *tree.rglob("*")]:
                    os.lchown(path, user.uid, user.gid)
            self.work.chmod(0o700)
            self.home.chmod(0o700)

    def kernel_env(self) -> dict[str, str]:
        """The kernel's whole environment: nothing of the grader's leaks in."""
        home = str(self.home)
        return {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": home, "USER": self.user.name if self.user else pwd.getpwuid(os.getuid())[0],
            "LANG": "C.UTF-8", "TMPDIR": home, "PYTHONPATH": str(self.package),
            "PYTHONNOUSERSITE": "1", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0",
            "IPYTHONDIR": os.path.join(home, ".ipython"), "JUPYTER_CONFIG_DIR":
            os.path.join(home, ".jupyter"), "JUPYTER_DATA_DIR": os.path.join(home, ".data"),
            "JUPYTER_RUNTIME_DIR": os.path.join(home, ".runtime"), "MPLCONFIGDIR":
            os.path.join(home, ".matplotlib"), "MPLBACKEND": "agg",
            # One BLAS thread: each thread reserves address space the memory limit counts.
            "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
        }

    def launch_settings(self, python: str, memory: int, file_size: int) -> str:
        """The launcher's settings for this scratch (see launcher.py), as JSON."""
        opts: dict[str, object] = {"python": python, "scratch": str(self.work),
                                   "home": str(self.home), "memory": memory,
                                   "file_size": file_size}
        if self.user is not None:
            opts.update(uid=self.user.uid, gid=self.user.gid)
        return json.dumps(opts)

    def close(self) -> None:
        """End the user's leftover processes, then remove the scratch tree."""
        if self.user is not None and self.user.exclusive:
            end_processes_of(self.user)
        for path in [self.root, *self.root.rglob("*")]:
            try:
                if path.is_dir() and not path.is_symlink():
                    path.chmod(stat.S_IRWXU)
            except OSError:
                pass
        shutil.rmtree(self.root, ignore_errors=True)

