#!/usr/bin/env bash
# Set up (or refresh) everything the project needs, idempotently:
#   - system packages: Graphviz (`dot`), and with --browser also Chromium, fonts-liberation and
#     fonts-noto-color-emoji (Chromium has no emoji font otherwise: ✅ and ❌ look the same)
#   - a virtual environment in .venv with `pip install -e ".[dev]"`
#
# Usage: bash scripts/setup.sh [--browser] [--site] [--torch] [--hub]
#   --browser (or AUTOGRAD_LAB_BROWSER=1)  also ensure /usr/bin/chromium and the fonts
#   --torch (or AUTOGRAD_LAB_TORCH=1)  also install PyTorch into .venv (test.sh: the pictures on
#     real torch and notebook 17): torch==2.13.0, unless a torch 2.13 or newer is there already;
#     AUTOGRAD_LAB_TORCH_INDEX=URL adds an index (CI: PyTorch's CPU wheels, not PyPI's CUDA build)
#   PYTHON=python3.12 bash scripts/setup.sh  choose the interpreter for a new .venv
#
# The pip install runs again only when pyproject.toml changed since the last
# successful install (a hash of it is kept in .venv/.pyproject.sha256).
#
# --site (or AUTOGRAD_LAB_SITE=1) also fetches the course website's browser code (MathJax,
# the widget manager; axe-core for the accessibility tests) once with `npm pack` into
# build/vendor/, installing npm when missing.
#
# --hub (or AUTOGRAD_LAB_HUB=1) also installs configurable-http-proxy from npm into
# build/hub-node/ for scripts/hub.sh (jupyterhub and nbgitpuller come with ".[dev]"). It checks
# Node.js: configurable-http-proxy 5.x needs Node >= 20; with Node 10..19 (Debian 12 ships 18)
# it installs 4.6.3, the last release for older Node; below 10 it stops and says so.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$PWD"

want_browser="${AUTOGRAD_LAB_BROWSER:-0}"
want_site="${AUTOGRAD_LAB_SITE:-0}"
want_torch="${AUTOGRAD_LAB_TORCH:-0}"
want_hub="${AUTOGRAD_LAB_HUB:-0}"
for arg in "$@"; do
    case "$arg" in
        --browser) want_browser=1 ;;
        --site) want_site=1 ;;
        --torch) want_torch=1 ;;
        --hub) want_hub=1 ;;
        -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "setup: unknown argument: $arg" >&2; exit 2 ;;
    esac
done

PYTHON="${PYTHON:-python3}"
VENV=.venv
STAMP="$VENV/.pyproject.sha256"

say() { echo "setup: $*"; }
die() { echo "setup: error: $*" >&2; exit 1; }

# ---------------------------------------------------------------- python ---
command -v "$PYTHON" >/dev/null 2>&1 ||
    die "$PYTHON not found; install Python 3.10 or newer (or set PYTHON=...)."
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 10))' ||
    die "$("$PYTHON" --version 2>&1) is too old; Python 3.10 or newer is needed (set PYTHON=...)."

# ------------------------------------------------------- system packages ---
missing=()      # Debian/Ubuntu package names still needed
need_venv=0
if [[ ! -x "$VENV/bin/python" ]] && ! "$PYTHON" -c 'import venv, ensurepip' >/dev/null 2>&1; then
    need_venv=1
    missing+=(python3-venv)
fi
command -v dot >/dev/null 2>&1 || missing+=(graphviz)
if [[ "$want_browser" == 1 ]]; then
    [[ -x /usr/bin/chromium ]] || missing+=(chromium)
    if command -v dpkg-query >/dev/null 2>&1; then
        for font in fonts-liberation fonts-noto-color-emoji; do
            dpkg-query -W -f='${Status}' "$font" 2>/dev/null | grep -q 'ok installed' ||
                missing+=("$font")
        done
    fi
fi
# npm is needed only to fetch the website's packages the first time.
need_site_packs=0
if [[ "$want_site" == 1 ]] &&
    ! "$PYTHON" scripts/course/site_assets.py --check >/dev/null 2>&1; then
    need_site_packs=1
    command -v npm >/dev/null 2>&1 || missing+=(npm)
fi
# The class hub's proxy runs on Node.js and comes from npm.
if [[ "$want_hub" == 1 ]]; then
    command -v node >/dev/null 2>&1 || missing+=(nodejs)
    command -v npm >/dev/null 2>&1 || [[ " ${missing[*]-} " == *" npm "* ]] || missing+=(npm)
fi

if ((${#missing[@]})); then
    if command -v apt-get >/dev/null 2>&1; then
        if [[ "$(id -u)" == 0 ]]; then
            as_root=()
        elif command -v sudo >/dev/null 2>&1; then
            # Without a terminal sudo must not wait for a password that nobody can type.
            if [[ -t 0 ]]; then as_root=(sudo); else as_root=(sudo -n); fi
        else
            die "need root to run: apt-get install ${missing[*]} (no sudo found)."
        fi
        say "installing system packages: ${missing[*]}"
        "${as_root[@]+"${as_root[@]}"}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
        "${as_root[@]+"${as_root[@]}"}" env DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -qq --no-install-recommends "${missing[@]}"
    else
        {
            echo "setup: missing system packages and no apt-get here: ${missing[*]}"
            if [[ " ${missing[*]} " == *" graphviz "* ]]; then
                echo "  Graphviz (the 'dot' program) - install one of:"
                echo "    macOS (Homebrew):  brew install graphviz"
                echo "    conda / mamba:     conda install -c conda-forge graphviz"
                echo "    Windows:           choco install graphviz   or   winget install graphviz"
                echo "    Fedora / RHEL:     sudo dnf install graphviz"
            fi
            if [[ " ${missing[*]} " == *" chromium "* ]]; then
                echo "  Chromium at /usr/bin/chromium is needed for the browser tests;"
                echo "  they are written for Debian/Ubuntu (apt-get install chromium fonts-liberation fonts-noto-color-emoji)."
            fi
            if [[ " ${missing[*]} " == *" npm "* ]]; then
                echo "  npm (Node.js) fetches the course website's MathJax and widget manager once,"
                echo "  and the class hub's configurable-http-proxy (Node.js 20 or newer is best)."
            fi
            if ((need_venv)); then
                echo "  Python's venv/ensurepip modules are missing from $PYTHON;"
                echo "  install a full Python 3.10+ (python.org, Homebrew or conda)."
            fi
            echo "  Then run this script again."
        } >&2
        exit 1
    fi
else
    say "system packages present (graphviz$([[ "$want_browser" == 1 ]] && echo ', chromium, fonts-liberation, fonts-noto-color-emoji'))"
fi

# ------------------------------------------------------------------ venv ---
if [[ -x "$VENV/bin/python" ]] && ! "$VENV/bin/python" -m pip --version >/dev/null 2>&1; then
    say "$VENV is broken (no working pip); recreating it"
    rm -rf "$VENV"
fi
if [[ ! -x "$VENV/bin/python" ]]; then
    say "creating $VENV with $("$PYTHON" --version 2>&1)"
    "$PYTHON" -m venv "$VENV"
fi

hash_of() {
    "$VENV/bin/python" -c \
        'import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest())' "$1"
}
want="$(hash_of pyproject.toml)"
have="$(cat "$STAMP" 2>/dev/null || true)"

# The editable install maps the package as it was at install time: install again when
# autograd_lab/ appeared later, or gained its __init__.py (until then it maps as a namespace).
package_visible=1
if [[ -d autograd_lab ]] &&
    ! (cd / && "$root/$VENV/bin/python" - "$root/autograd_lab" <<'PY'
import importlib.util, os, sys
spec = importlib.util.find_spec("autograd_lab")
init = os.path.join(sys.argv[1], "__init__.py")
ok = spec is not None and (not os.path.exists(init) or spec.origin == init)
sys.exit(0 if ok else 1)
PY
    ) >/dev/null 2>&1; then
    package_visible=0
fi

if [[ "$want" == "$have" && "$package_visible" == 1 ]]; then
    say "python packages up to date (pyproject.toml unchanged)"
else
    say "installing python packages: pip install -e \".[dev]\" (a few minutes the first time)"
    rm -f "$STAMP"
    PIP_DISABLE_PIP_VERSION_CHECK=1 "$VENV/bin/python" -m pip install -q -e ".[dev]"
    echo "$want" >"$STAMP"
fi
# An editable install leaves out pyproject's data-files: link the labextension that makes widgets
# live on RISE slides into the venv (a regular install, e.g. Binder's, copies it).
mkdir -p "$VENV/share/jupyter/labextensions"
ln -sfn "$root/jupyter/labextensions/autograd-lab-rise-widgets" \
    "$VENV/share/jupyter/labextensions/autograd-lab-rise-widgets"

# ----------------------------------------------------------------- torch ---
# Exactly 2.13.0: a version range pulls a CUDA build of several gigabytes on PyPI's index.
# A newer torch already installed is kept (the pictures work on torch 2.2 and later).
if [[ "$want_torch" == 1 ]]; then
    if "$VENV/bin/python" - <<'PY' >/dev/null 2>&1
import importlib.metadata as m, sys
v = tuple(int(p) for p in m.version("torch").split("+")[0].split(".")[:2])
sys.exit(0 if v >= (2, 13) else 1)
PY
    then
        say "torch present ($("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("torch"))'))"
    else
        say "installing torch==2.13.0 (CPU) into $VENV"
        index=()
        [[ -n "${AUTOGRAD_LAB_TORCH_INDEX:-}" ]] && index=(--extra-index-url "$AUTOGRAD_LAB_TORCH_INDEX")
        PIP_DISABLE_PIP_VERSION_CHECK=1 "$VENV/bin/python" -m pip install -q \
            ${index[@]+"${index[@]}"} "torch==2.13.0"
    fi
fi

# ---------------------------------------------------- website packages ---
if ((need_site_packs)); then
    say "fetching the course website's npm packages into build/vendor/"
    "$VENV/bin/python" scripts/course/site_assets.py
fi
# ------------------------------------------------------------- class hub ---
if [[ "$want_hub" == 1 ]]; then
    node_version="$(node --version 2>/dev/null || true)"     # v20.11.1
    node_major="${node_version#v}"; node_major="${node_major%%.*}"
    [[ "$node_major" =~ ^[0-9]+$ ]] ||
        die "could not read Node.js's version ('node --version' said '$node_version')."
    if ((node_major >= 20)); then
        proxy_want="5"
    elif ((node_major >= 10)); then
        proxy_want="4.6.3"
        say "Node.js $node_version: configurable-http-proxy 5.x needs Node.js 20 or newer;" \
            "installing 4.6.3 (Node.js 10 or newer). Install Node.js 20+ to get 5.x."
    else
        die "Node.js $node_version is too old for configurable-http-proxy (4.6.3 needs Node.js 10" \
            "or newer, 5.x needs 20 or newer); install Node.js 20+ (https://nodejs.org)."
    fi
    proxy_pkg=build/hub-node/node_modules/configurable-http-proxy/package.json
    proxy_have=""
    [[ -f "$proxy_pkg" ]] &&
        proxy_have="$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$proxy_pkg" | head -1)"
    if [[ -x build/hub-node/node_modules/.bin/configurable-http-proxy &&
          ( "$proxy_have" == "$proxy_want" || "${proxy_have%%.*}" == "$proxy_want" ) ]]; then
        say "configurable-http-proxy $proxy_have present (Node.js $node_version)"
    else
        say "installing configurable-http-proxy@$proxy_want from npm into build/hub-node/"
        rm -rf build/hub-node  # a clean install: npm keeps a newer major already recorded there
        mkdir -p build/hub-node
        npm install --prefix build/hub-node --no-audit --no-fund --loglevel=error \
            "configurable-http-proxy@$proxy_want" >/dev/null
    fi
fi
say "ready: $("$VENV/bin/python" --version 2>&1) in $VENV"
