#!/usr/bin/env bash
# Build the course website into build/site/ (open build/site/index.html, or serve the folder):
# one page per notebook in course order, from the saved outputs (nothing is executed), with
# MathJax and the widget manager served from the site itself, so it works offline.
# Usage: bash scripts/site.sh [build_site.py options...]   e.g. --out /tmp/site, -q
#   AUTOGRAD_LAB_SKIP_SETUP=1  skip scripts/setup.sh (when the .venv is known to be ready)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ "${AUTOGRAD_LAB_SKIP_SETUP:-0}" != 1 ]]; then
    bash scripts/setup.sh --site
fi

exec .venv/bin/python scripts/course/build_site.py "$@"
