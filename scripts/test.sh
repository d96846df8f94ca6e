#!/usr/bin/env bash
# Run every test: ruff, the pytest suite in tests/, and each notebook under nbval.
# Usage: bash scripts/test.sh [pytest options...]   e.g. -x -k grad, -m "not slow"
# Exits with pytest's exit code (5 means no tests were collected).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh --browser --site --torch --hub

echo "test: ruff check ."
.venv/bin/ruff check .

targets=()
if [[ -d tests ]]; then
    targets+=(tests/)
fi
if compgen -G "notebooks/*.ipynb" >/dev/null; then
    # Strict nbval: every saved output must match after sanitising (no --nbval-lax).
    targets+=(--nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg
              --ignore=notebooks/student notebooks/)
fi

# In parallel: one worker more than there are cores, since the browser tests spend most of
# their time waiting on a page, a server or a kernel (AUTOGRAD_LAB_TEST_WORKERS=1 for one
# process). A notebook, whose cells share one kernel, always runs whole in one worker; so does
# a test file, except the two longest, which tests/conftest.py cuts in halves.
cores="$(nproc 2>/dev/null || echo 1)"
workers="${AUTOGRAD_LAB_TEST_WORKERS:-$((cores + 1))}"
parallel=()
if [[ "$workers" != 1 ]]; then
    parallel=(-n "$workers" --dist loadfile)
fi

echo "test: pytest ${parallel[*]-} ${targets[*]-} $*"
exec .venv/bin/python -m pytest ${parallel[@]+"${parallel[@]}"} ${targets[@]+"${targets[@]}"} "$@"
