"""Start one sandboxed Jupyter kernel: limits, then (as root) an unprivileged user, then exec.

Jupyter runs this as the kernel's command line (a kernelspec made per grading run):

    python launcher.py CONNECTION_FILE [ipykernel options...]

with its settings in the environment variable ``AUTOGRAD_LAB_SANDBOX`` (JSON: ``python``,
``scratch``, ``home``, ``memory``, ``file_size``, and ``uid``/``gid`` to drop root). It copies
the connection file into the kernel's home (Jupyter writes it readable by its owner only),
sets the resource limits of the kernel process, drops root when asked, and replaces itself
by ``python -m ipykernel_launcher`` started in the submission's folder. It imports nothing
from the project: it runs before any limit is in place.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import sys


def main(argv: list[str]) -> int:
    if not argv:
        raise SystemExit("usage: launcher.py CONNECTION_FILE [ipykernel options...]")
    opts = json.loads(os.environ.pop("AUTOGRAD_LAB_SANDBOX"))
    uid, gid = opts.get("uid"), opts.get("gid")
    memory, file_size = int(opts["memory"]), int(opts.get("file_size", 1 << 30))

    connection = os.path.join(opts["home"], "kernel-connection.json")
    shutil.copyfile(argv[0], connection)
    if uid is not None:
        os.chown(connection, uid, gid)
    os.chmod(connection, 0o600)

    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))
    if uid is not None:
        # Per sandbox user: a fork bomb stops at this many processes (root is exempt).
        resource.setrlimit(resource.RLIMIT_NPROC, (256, 256))
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)
        if os.getuid() == 0 or os.geteuid() == 0:
            raise SystemExit("launcher: could not drop root")
    os.chdir(opts["scratch"])
    python = opts.get("python") or sys.executable
    # The kernel's own stdout/stderr (a subprocess's output, say) stay out of the grader's log.
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    os.dup2(quiet, 2)
    os.execv(python, [python, "-m", "ipykernel_launcher", "-f", connection,
                               *argv[1:]])
    return 1  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
