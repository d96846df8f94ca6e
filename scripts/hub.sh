#!/usr/bin/env bash
# A local class hub on 127.0.0.1, for trying the course out as a class would use it:
# JupyterHub with configurable-http-proxy, local accounts student01.. and instructor, each
# student's home getting the student copies through nbgitpuller on their first visit.
#
# Usage: bash scripts/hub.sh [--port 8000] [--students 30]
#        bash scripts/hub.sh --load-test N     # N students log in at once; times and memory
#
# Needs `bash scripts/setup.sh --hub` once (jupyterhub and nbgitpuller in .venv, the proxy from
# npm in build/hub-node/). The hub's folder is build/hub/ (students' homes in build/hub/home/);
# the load test uses build/hub-load/ and removes its previous run first.
# AUTOGRAD_LAB_VENV=/path/to/venv uses another environment with the course installed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

venv="${AUTOGRAD_LAB_VENV:-.venv}"
args=(serve)
while (($#)); do
    case "$1" in
        --load-test) [[ $# -ge 2 ]] || { echo "hub: --load-test needs N" >&2; exit 2; }
                     args=(load-test "$2"); shift 2 ;;
        --port|--students) [[ $# -ge 2 ]] || { echo "hub: $1 needs a value" >&2; exit 2; }
                     args+=("$1" "$2"); shift 2 ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "hub: unknown argument: $1" >&2; exit 2 ;;
    esac
done
if [[ "${args[0]}" == load-test && ${#args[@]} -gt 2 ]]; then
    echo "hub: --port and --students are for the hub itself, not --load-test" >&2; exit 2
fi

for program in jupyterhub jupyterhub-singleuser; do
    [[ -x "$venv/bin/$program" ]] ||
        { echo "hub: $venv/bin/$program is missing: run 'bash scripts/setup.sh --hub'" >&2; exit 1; }
done
[[ -x build/hub-node/node_modules/.bin/configurable-http-proxy ]] ||
    { echo "hub: configurable-http-proxy is missing: run 'bash scripts/setup.sh --hub'" >&2; exit 1; }

exec "$venv/bin/python" scripts/hub/class_hub.py "${args[@]}"
