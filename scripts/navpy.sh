#!/bin/sh
# Runs a navbench Python script with the first interpreter that has matplotlib, pandas, scipy, plotly and yaml:
# $NAVBENCH_PYTHON, then python3 on PATH, then /usr/bin/python3.
#   scripts/navpy.sh scripts/plots.py results/run --out figs
# (The python3 first on PATH may be a pyenv/venv build without the plotting packages.)
# The results package (python/navbench, docs/results.md#the-python-package) comes first on PYTHONPATH, so
# `scripts/navpy.sh -m navbench ...` and the report's `import navbench` need no installation.
root=$(cd "$(dirname "$0")/.." && pwd)
PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH
tried=""
for py in "${NAVBENCH_PYTHON:-}" python3 /usr/bin/python3; do
  [ -n "$py" ] || continue
  case " $tried " in *" $py "*) continue ;; esac
  tried="$tried $py"
  # find_spec locates the packages without importing them (importing both costs about a second).
  if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import sys, importlib.util as u
sys.exit(sys.version_info < (3, 8) or not all(u.find_spec(m) for m in ("matplotlib", "pandas", "scipy", "plotly", "yaml")))' >/dev/null 2>&1; then
    NAVPY_ACTIVE=1 exec "$py" "$@"
  fi
  if [ "$py" = "${NAVBENCH_PYTHON:-}" ]; then
    echo "navpy.sh: NAVBENCH_PYTHON=$py lacks matplotlib, pandas, scipy, plotly or yaml; trying python3, /usr/bin/python3" >&2
  fi
done
echo "navpy.sh: no Python >= 3.8 with matplotlib, pandas, scipy, plotly and yaml (tried$tried); install the Debian packages python3-matplotlib python3-pandas python3-scipy python3-plotly python3-yaml (or set NAVBENCH_PYTHON)" >&2
exit 127
