#!/usr/bin/env bash
# Open the course notebooks in JupyterLab, using the project's own .venv.
# Usage: bash scripts/lab.sh [jupyter lab options...]   e.g. --no-browser --port 8890
# Students work in notebooks/student/ (AUTOGRAD_LAB_STUDENT_DIR to use another folder).
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

# The exercise copies students work in (answers removed). Missing ones are created and copies
# nobody edited are brought up to date; an edited copy is never overwritten: when the course
# changed, its new version goes beside it and this prints where.
student_dir="${AUTOGRAD_LAB_STUDENT_DIR:-notebooks/student}"
if ((${#notebooks[@]})); then
    .venv/bin/python scripts/course/make_student_notebooks.py --out "$student_dir"
fi

extra=()
if [[ "$(id -u)" == 0 ]]; then
    extra+=(--allow-root)
fi

echo "lab: starting JupyterLab in notebooks/ (Ctrl-C to stop)"
exec .venv/bin/jupyter lab ${extra[@]+"${extra[@]}"} "$@" notebooks/
