#!/usr/bin/env bash
# Grade a class's notebooks: each one runs in its own sandboxed kernel; the grader's own checks
# judge the student's code on fresh inputs. See the README's "Grading" section.
# Usage: bash scripts/grade.sh SUBMISSIONS_DIR --out OUT_DIR [--jobs N] [--seed N]
#        [--expect 05_retain_graph_and_accumulation,...] [--cell-timeout 60]
#        [--notebook-timeout 600] [--memory 2] [--user NAME] [-q]
#   SUBMISSIONS_DIR/<student>/<NN_name>.ipynb  ->  OUT_DIR/grades.csv, OUT_DIR/feedback/
#   AUTOGRAD_LAB_SKIP_SETUP=1  skip scripts/setup.sh (when the .venv is known to be ready)
#   AUTOGRAD_LAB_PYTHON=...    the interpreter to use instead of .venv/bin/python
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if [[ "${AUTOGRAD_LAB_SKIP_SETUP:-0}" != 1 ]]; then
    bash "$root/scripts/setup.sh" >&2
fi

python="${AUTOGRAD_LAB_PYTHON:-$root/.venv/bin/python}"
# This checkout's package (the one the grader hashes and copies for the kernels) and the grader.
export PYTHONPATH="$root:$root/scripts"
exec "$python" -m grading "$@"
