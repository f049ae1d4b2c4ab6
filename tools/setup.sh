#!/usr/bin/env bash
# tools/setup.sh demo|test|deps [BUILD_DIR]
#
#   deps  install what is missing (Debian packages, npm packages for peers
#         and the test-sheet renderer)
#   demo  deps, build, then run xqscan on samples/ (reports in xqscan-out/)
#   test  deps, build, run every test; then the tests under
#         AddressSanitizer + UndefinedBehaviorSanitizer but the longest
#         there (tools/sanitize.sh --short; without --short it runs all)
#
# Works on a fresh Debian 12 as root or with sudo. Safe to rerun.
set -euo pipefail
mode=${1:-demo}
top=$(cd "$(dirname "$0")/.." && pwd)
build=${2:-$top/build}
cd "$top"

APT_PACKAGES=(
  # build
  build-essential cmake pkg-config git
  # libraries (issue 2: Debian packages only)
  libtesseract-dev libleptonica-dev libpng-dev libcmocka-dev libcjson-dev libtiff-dev
  tesseract-ocr tesseract-ocr-chi-sim tesseract-ocr-chi-tra
  # test-sheet renderer: Python with Pillow/NumPy from Debian, CJK fonts,
  # Hershey single-stroke digits
  python3 python3-pil python3-numpy
  fonts-noto-cjk fonts-arphic-ukai fonts-arphic-uming fonts-cwtex-kai
  hershey-fonts-data
  # peers and test tools: node for ffish (Fairy-Stockfish), clang for
  # libFuzzer, chromium for the HTML report test
  nodejs npm clang libclang-rt-14-dev chromium chromium-driver
)

as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }

deps() {
  local missing=() p
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$p")
  done
  # A node that came with the machine (not from Debian) will do.
  if command -v node >/dev/null && command -v npm >/dev/null; then
    local keep=() m
    for m in "${missing[@]}"; do [[ $m == nodejs || $m == npm ]] || keep+=("$m"); done
    missing=("${keep[@]}")
  fi
  if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      --no-install-recommends "${missing[@]}" >/dev/null
  fi
  if command -v npm >/dev/null && [[ -f tools/node/package.json ]] &&
     [[ ! -d tools/node/node_modules ]]; then
    echo "setup: npm packages in tools/node"
    (cd tools/node && npm ci --no-audit --no-fund --loglevel=error) ||
      echo "setup: npm install failed; tests that need ffish will be skipped"
  fi
}

build_in() {  # build_in DIR [cmake args...]
  local dir=$1; shift
  cmake -S "$top" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
  cmake --build "$dir" -j"$(nproc)"
}

case "$mode" in
  deps) deps ;;
  demo)
    deps
    build_in "$build"
    rm -rf "$top/xqscan-out"
    set +e
    "$build/cli/xqscan" -o "$top/xqscan-out" "$top/samples"
    rc=$?
    set -e
    echo "xqscan exit status $rc (0 clean, 1 findings for an arbiter, 2 bad inputs)"
    echo "reports: $top/xqscan-out/index.html, summary.csv, and one .html/.json/.pgn per sheet"
    ;;
  test)
    deps
    build_in "$build"
    (cd "$build" && ctest --output-on-failure -j2)
    "$top/tools/sanitize.sh" --short "$build-asan"
    ;;
  *) echo "usage: tools/setup.sh demo|test|deps [BUILD_DIR]" >&2; exit 64 ;;
esac
