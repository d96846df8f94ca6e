#!/usr/bin/env bash
# Open the course notebooks in JupyterLab, using the project's own .venv.
# Usage: bash scripts/lab.sh [jupyter lab options...]   e.g. --no-browser --port 8890
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh

# Mark the shipped notebooks as trusted so their saved outputs (graphs, widgets) render.
shopt -s nullglob
notebooks=(notebooks/*.ipynb)
if ((${#notebooks[@]})); then
    echo "lab: trusting ${#notebooks[@]} notebook(s)"
    .venv/bin/jupyter trust "${notebooks[@]}" >/dev/null
fi

# Exercise copies with the answers removed, made from the reference notebooks.
if ((${#notebooks[@]})); then
    .venv/bin/python scripts/course/make_student_notebooks.py --out notebooks/student
fi

extra=()
if [[ "$(id -u)" == 0 ]]; then
    extra+=(--allow-root)
fi

echo "lab: starting JupyterLab in notebooks/ (Ctrl-C to stop)"
exec .venv/bin/jupyter lab ${extra[@]+"${extra[@]}"} "$@" notebooks/
