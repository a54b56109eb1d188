# Shared by bin/serve and bin/test: find a Python >= 3.12 and keep .venv/ in step with
# pyproject.toml. Sourced, not run. Usage: ensure_venv [extra]   (extra: "test")
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"

python_ok() {
  # A candidate counts only if it actually runs (pyenv shims fail unless selected).
  "$1" -c 'import sys, venv; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1
}

find_python() {
  local candidates=()
  [ -n "${MUSTER_PYTHON:-}" ] && candidates+=("$MUSTER_PYTHON")
  local name
  for name in python3.14 python3.13 python3.12 python3 python; do
    command -v "$name" >/dev/null 2>&1 && candidates+=("$(command -v "$name")")
  done
  local pyenv_root="${PYENV_ROOT:-}"
  if [ -z "$pyenv_root" ] && command -v pyenv >/dev/null 2>&1; then
    pyenv_root="$(pyenv root 2>/dev/null || true)"
  fi
  [ -z "$pyenv_root" ] && pyenv_root="$HOME/.pyenv"
  local found
  for found in "$pyenv_root"/versions/3.1[2-9]*/bin/python3 \
               /opt/homebrew/bin/python3.1[2-9] /usr/local/bin/python3.1[2-9] \
               /usr/bin/python3.1[2-9] "$HOME"/.local/share/uv/python/cpython-3.1[2-9]*/bin/python3; do
    [ -x "$found" ] && candidates+=("$found")
  done
  local c
  for c in "${candidates[@]}"; do
    if python_ok "$c"; then
      echo "$c"
      return 0
    fi
  done
  return 1
}

ensure_venv() {
  local extra="${1:-}"
  if [ ! -x "$VENV/bin/python" ] || ! python_ok "$VENV/bin/python"; then
    local py
    if ! py="$(find_python)"; then
      cat >&2 <<'MSG'
Muster needs Python 3.12 or newer, and none was found that runs.
Install one, then run this command again:
  Debian/Ubuntu:  sudo apt-get install python3.12 python3.12-venv   (or python3.13)
  macOS:          brew install python@3.13
  pyenv:          pyenv install 3.13
Or point Muster at one you have:  MUSTER_PYTHON=/path/to/python3.13 bin/serve
MSG
      exit 1
    fi
    echo "Creating .venv with $py ($("$py" --version 2>&1))"
    rm -rf "$VENV"
    "$py" -m venv "$VENV"
  fi
  # Reinstall only when pyproject.toml (or the extras asked for) changed: re-runs stay fast.
  local stamp="$VENV/.muster-installed-${extra:-base}"
  local want
  want="$(cat "$ROOT/pyproject.toml" | cksum)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    echo "Installing dependencies into .venv ..."
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
    if [ -n "$extra" ]; then
      "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$ROOT[$extra]"
    else
      "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$ROOT"
    fi
    echo "$want" >"$stamp"
  fi
}

# A program from Debian's packages, installed when run as root and missing; otherwise says
# what it is for and how to install it (and returns 1).
need() {  # need COMMAND PACKAGE WHAT-FOR [ANOTHER COMMAND THAT SERVES INSTEAD]
  command -v "$1" >/dev/null 2>&1 && return 0
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian's $2 for $3 ..."
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null) \
      || echo "Could not install $2." >&2
  fi
  command -v "$1" >/dev/null 2>&1 || command -v "${4:-$1}" >/dev/null 2>&1 \
    || { echo "$1 is not installed: $3 (as root: apt-get install -y $2)." >&2; return 1; }
}

# The catalogs (locale/*/LC_MESSAGES/*.po, checked in) compiled to the .mo files Django reads
# (ignored by git); only those changed since they were last compiled.
compile_catalogs() {
  (cd "$ROOT" && "$VENV/bin/python" manage.py compilemessages --ignore=.venv >/dev/null)
}
