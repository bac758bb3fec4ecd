#!/usr/bin/env bash
#===- scripts/setup-venv.sh - The project's Python virtual environment ----===#
#
# Creates <repo>/.venv with Debian's /usr/bin/python3 (python3-venv) and
# installs the pinned packages of scripts/requirements.txt from PyPI: NumPy,
# ONNX (node-test generator) and onnxruntime (the reference for ONNX models),
# nanobind and scikit-build-core (the Python package), pytest, scikit-learn
# (the digits data set) and matplotlib. Idempotent: a stamp holding the
# requirements' hash skips the install when nothing changed. PLAIDML_VENV
# overrides the location. Never needs root.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV=${PLAIDML_VENV:-$ROOT/.venv}
REQ=$ROOT/scripts/requirements.txt
PY=/usr/bin/python3

hash=$(sha256sum "$REQ" | cut -d' ' -f1)
if [[ -x "$VENV/bin/python3" && -f "$VENV/.plaidml-requirements" &&
      "$(cat "$VENV/.plaidml-requirements")" == "$hash" ]]; then
  echo "setup-venv: $VENV is up to date"
  exit 0
fi

if [[ ! -x "$VENV/bin/python3" ]]; then
  echo "setup-venv: creating $VENV"
  "$PY" -m venv "$VENV"
fi
echo "setup-venv: installing scripts/requirements.txt into $VENV"
"$VENV/bin/python3" -m pip install --quiet --disable-pip-version-check \
  --no-input -r "$REQ"
echo "$hash" >"$VENV/.plaidml-requirements"
echo "setup-venv: done"
