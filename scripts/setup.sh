# Sourced by scripts/demo and scripts/test: the venv and the CMake preset build they share.
set -euo pipefail

INGOT_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
INGOT_JOBS="${INGOT_JOBS:-$(nproc)}"
# Also caps the CMake build that `pip install .` runs through scikit-build-core.
export CMAKE_BUILD_PARALLEL_LEVEL="$INGOT_JOBS"
VENV_PY="$INGOT_ROOT/.venv/bin/python"
cd "$INGOT_ROOT"

# Creates .venv and installs requirements-dev.txt; reinstalls only when that file changes.
setup_venv() {
  local stamp="$INGOT_ROOT/.venv/.requirements-dev.sha256"
  if [[ ! -x "$VENV_PY" ]]; then
    echo "== creating .venv"
    python3 -m venv "$INGOT_ROOT/.venv"
  fi
  local want
  want="$(sha256sum requirements-dev.txt | cut -d' ' -f1)"
  if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
    echo "== installing requirements-dev.txt into .venv"
    "$VENV_PY" -m pip install --quiet --upgrade pip
    "$VENV_PY" -m pip install --quiet -r requirements-dev.txt
    echo "$want" > "$stamp"
  fi
}

# Configures and builds one preset from CMakePresets.json; extra args go to `cmake --build`.
build_preset() {
  local preset="$1"
  shift
  echo "== configuring and building preset '$preset' (-j$INGOT_JOBS)"
  # INGOT_CONFIGURE_ARGS: extra -D options for this configure (word-split on purpose).
  # shellcheck disable=SC2086
  # Both FindPython3 (codegen) and FindPython (the extension, in presets that build it) use the venv.
  cmake --preset "$preset" -DPython3_EXECUTABLE="$VENV_PY" -DPython_EXECUTABLE="$VENV_PY" ${INGOT_CONFIGURE_ARGS:-} > /dev/null
  cmake --build --preset "$preset" -j "$INGOT_JOBS" "$@"
}

# The asan preset needs clang with its sanitizer and libFuzzer runtimes (Debian: clang and
# libclang-rt-*-dev); installs them when missing and this is root on a Debian-like machine.
ensure_clang_sanitizers() {
  local fuzzer
  fuzzer="$(clang++ -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null || true)"
  if command -v clang++ > /dev/null && [[ -f "$fuzzer" ]]; then
    return
  fi
  echo "== installing clang and its sanitizer/libFuzzer runtimes (apt-get)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang libclang-rt-dev > /dev/null
}

# SLEEF (vectorized transcendental math on the CPU; cmake/IngotSleef.cmake) from Debian's
# libsleef-dev; installs it when missing and this is root on a Debian-like machine. Optional: when
# it cannot be installed (no network, not root) the build falls back to scalar math and says so.
ensure_sleef() {
  if compgen -G "/usr/include/sleef.h" > /dev/null || compgen -G "/usr/include/*/sleef.h" > /dev/null; then
    return
  fi
  if [[ "$(id -u)" != 0 ]] || ! command -v apt-get > /dev/null; then
    echo "== libsleef-dev missing (not root or no apt-get): CPU math builds scalar"
    return
  fi
  echo "== installing libsleef-dev (apt-get)"
  if ! { timeout 120 apt-get update -qq && DEBIAN_FRONTEND=noninteractive timeout 300 apt-get install -y -qq libsleef-dev > /dev/null; }; then
    echo "== libsleef-dev could not be installed: CPU math builds scalar"
  fi
}
