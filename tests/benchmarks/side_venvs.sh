#!/usr/bin/env bash
# The benchmark's side environments, for the peers that cannot share bleuprint's (bench.py
# skips each one, saying why, where its environment is missing):
#   .bench-venvs/mojo  sacrebleu-mojo 0.2.4, which needs Python 3.12 or newer;
#   .bench-venvs/mbrs  mbrs 0.1.8, which pulls torch and COMET (gigabytes; about 1.5 GB with
#                      a CPU-only torch wheel, named by TORCH_WHEEL): never part of CI or of
#                      the dev extra.
# Usage: bash tests/benchmarks/side_venvs.sh [mojo] [mbrs]   (both by default)
# PYTHON312 names a Python 3.12 or newer (default: the first of python3.13, python3.12, or
# pyenv's 3.12/3.13); PYTHON names the interpreter for mbrs (default python3).
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .bench-venvs

find_python312() {
  for candidate in "${PYTHON312:-}" python3.13 python3.12 ~/.pyenv/versions/3.13*/bin/python \
      ~/.pyenv/versions/3.12*/bin/python; do
    if [ -n "$candidate" ] && command -v "$candidate" >/dev/null 2>&1 \
        && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 12))'; then
      echo "$candidate"
      return
    fi
  done
  echo "no Python 3.12 or newer found: set PYTHON312" >&2
  return 1
}

if [ $# -eq 0 ]; then set -- mojo mbrs; fi
for environment in "$@"; do
    case "$environment" in
      mojo)
        "$(find_python312)" -m venv .bench-venvs/mojo
        .bench-venvs/mojo/bin/python -m pip install --quiet sacrebleu-mojo==0.2.4 numpy
        ;;
      mbrs)
        "${PYTHON:-python3}" -m venv .bench-venvs/mbrs
        # torch's import of pkg_resources (through torchmetrics) needs a setuptools that has it
        .bench-venvs/mbrs/bin/python -m pip install --quiet ${TORCH_WHEEL:+"$TORCH_WHEEL"} \
          mbrs==0.1.8 'setuptools<70'
        ;;
      *)
        echo "unknown side environment: $environment (mojo or mbrs)" >&2
        exit 2
        ;;
    esac
    echo "made .bench-venvs/$environment"
done
