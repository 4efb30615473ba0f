#!/bin/sh
# Runs a navbench Python script with the first interpreter that can import matplotlib and pandas:
# $NAVBENCH_PYTHON, then python3 on PATH, then /usr/bin/python3.
#   scripts/navpy.sh scripts/plots.py results/run --out figs
# (The python3 first on PATH may be a pyenv/venv build without the plotting packages.)
for py in "${NAVBENCH_PYTHON:-}" python3 /usr/bin/python3; do
  [ -n "$py" ] || continue
  command -v "$py" >/dev/null 2>&1 || continue
  if "$py" -c 'import sys, matplotlib, pandas; sys.exit(sys.version_info < (3, 8))' >/dev/null 2>&1; then
    NAVPY_ACTIVE=1 exec "$py" "$@"
  fi
  if [ -n "${NAVBENCH_PYTHON:-}" ] && [ "$py" = "$NAVBENCH_PYTHON" ]; then
    echo "navpy.sh: NAVBENCH_PYTHON=$NAVBENCH_PYTHON cannot import matplotlib and pandas; trying others" >&2
  fi
done
echo "navpy.sh: no Python >= 3.8 with matplotlib and pandas (tried \$NAVBENCH_PYTHON, python3, /usr/bin/python3); install the Debian packages python3-matplotlib python3-pandas" >&2
exit 127
