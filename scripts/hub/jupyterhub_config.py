"""A local class hub for trying the course out: JupyterHub on 127.0.0.1 (``scripts/hub.sh``).

Not for a real class: every student's server runs as the user who started the hub
(``SimpleLocalProcessSpawner``) and one class password lets every student in. A university
hub uses Zero to JupyterHub or The Littlest JupyterHub (``notebooks/README.md``); what this
one shares with them is how the course reaches students: each student's landing page is an
nbgitpuller link, which clones the course into ``~/autograd_lab`` on the first visit and merges
updates (the student's edits winning) on each later one.

``scripts/hub.sh`` sets the environment this file reads:

- ``AUTOGRAD_LAB_HUB_STATE``: the hub's folder (database, cookie secret, ``home/<student>``);
- ``AUTOGRAD_LAB_HUB_REPO``: the git repository nbgitpuller clones (a local bare repository
  holding the checkout's HEAD as branch ``AUTOGRAD_LAB_HUB_BRANCH``);
- ``AUTOGRAD_LAB_HUB_PORT`` (the proxy: the hub's address), ``AUTOGRAD_LAB_HUB_API_PORT``
  (the proxy's REST API) and ``AUTOGRAD_LAB_HUB_INTERNAL_PORT`` (the hub process);
- ``AUTOGRAD_LAB_HUB_STUDENTS``: how many accounts (``student01`` ...) besides ``instructor``;
- ``AUTOGRAD_LAB_HUB_PASSWORD``: the class password (8 characters or more);
- ``AUTOGRAD_LAB_HUB_ADMIN_PASSWORD``: the instructor's password (32 characters or more);
- ``AUTOGRAD_LAB_HUB_PROXY``: the ``configurable-http-proxy`` program (from npm);
- ``AUTOGRAD_LAB_HUB_SINGLEUSER``: the ``jupyterhub-singleuser`` of the environment the course
  is installed in.
"""

import json
import os
from pathlib import Path
from urllib.parse import quote

c = get_config()  # noqa: F821 -- JupyterHub provides get_config to its config file


def _env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise SystemExit(f"jupyterhub_config: {name} is not set (start the hub with "
                         "scripts/hub.sh)")
    return value


STATE = Path(_env("AUTOGRAD_LAB_HUB_STATE"))
REPO_URL = _env("AUTOGRAD_LAB_HUB_REPO")
BRANCH = _env("AUTOGRAD_LAB_HUB_BRANCH")
COURSE_DIR = "autograd_lab"  # as on a real hub: the repository's name (course_links.LINKS.name)
STUDENTS = int(_env("AUTOGRAD_LAB_HUB_STUDENTS"))


def students(n: int) -> list[str]:
    return [f"student{i:02d}" for i in range(1, n + 1)]


# ---- where it listens: only on this machine -----------------------------------------------------
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = int(_env("AUTOGRAD_LAB_HUB_PORT"))
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = int(_env("AUTOGRAD_LAB_HUB_INTERNAL_PORT"))
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{_env('AUTOGRAD_LAB_HUB_API_PORT')}"
c.ConfigurableHTTPProxy.command = [_env("AUTOGRAD_LAB_HUB_PROXY")]
c.ConfigurableHTTPProxy.pid_file = str(STATE / "proxy.pid")
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "cookie_secret")
c.JupyterHub.cleanup_servers = True  # stopping the hub stops every student's server

# ---- who gets in ---------------------------------------------------------------------------------
# One class password for the students; the instructor (an admin: the hub's admin page lists and
# starts everyone's servers) has a long password of their own.
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = _env("AUTOGRAD_LAB_HUB_PASSWORD")
c.SharedPasswordAuthenticator.admin_password = _env("AUTOGRAD_LAB_HUB_ADMIN_PASSWORD")
c.Authenticator.allowed_users = {*students(STUDENTS), "instructor"}
c.Authenticator.admin_users = {"instructor"}

# ---- each student's server -----------------------------------------------------------------------
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = str(STATE / "home" / "{username}")
c.Spawner.cmd = [_env("AUTOGRAD_LAB_HUB_SINGLEUSER")]
if os.geteuid() == 0:  # a container's root: every server runs as the hub's user here
    c.Spawner.args = ["--allow-root"]
# a class logging in at once on a small machine: servers take longer than the default 60 s
c.Spawner.start_timeout = 300
c.Spawner.http_timeout = 300
# The landing page is the nbgitpuller link: clone on the first visit, merge on later ones, then
# open the student copies.
LANDING = f"lab/tree/{COURSE_DIR}/notebooks/student"
c.Spawner.default_url = (
    f"/git-pull?repo={quote(REPO_URL, safe='')}&branch={quote(BRANCH, safe='')}"
    f"&targetpath={COURSE_DIR}&urlpath={quote(LANDING, safe='/')}")


def _quiet_lab(spawner) -> None:
    """A new home's JupyterLab without the news and update toasts (they cover outputs)."""
    settings = (Path(spawner.home_dir) / ".jupyter" / "lab" / "user-settings" / "@jupyterlab"
                / "apputils-extension" / "notification.jupyterlab-settings")
    if not settings.exists():
        settings.parent.mkdir(parents=True, exist_ok=True)
        settings.write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}))


c.Spawner.pre_spawn_hook = _quiet_lab
