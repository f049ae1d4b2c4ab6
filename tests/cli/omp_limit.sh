#!/usr/bin/env bash
# xqscan runs Tesseract with one OpenMP thread where the caller set no
# OMP_THREAD_LIMIT (main() sets it and starts again: libgomp reads it only
# as it loads). Checked on a running xqscan (convert waiting on stdin):
# its environment holds OMP_THREAD_LIMIT=1, and the command still works.
# $1 = xqscan binary; env XQ_SOURCE_DIR.
set -euo pipefail
bin=$1
src=${XQ_SOURCE_DIR:?}
tmp=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

mkfifo "$tmp/in"
env -u OMP_THREAD_LIMIT "$bin" convert --to iccs - < "$tmp/in" > "$tmp/out.pgn" &
pid=$!
exec 4> "$tmp/in"            # the reader's open completes: xqscan starts
found=0
for _ in $(seq 100); do
  if tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null | grep -qx 'OMP_THREAD_LIMIT=1'; then
    found=1
    break
  fi
  sleep 0.1
done
cat "$src/tests/data/verify/typed.pgn" >&4
exec 4>&-
set +e
wait "$pid"
rc=$?
set -e
pid=
[[ $found == 1 ]] || fail "OMP_THREAD_LIMIT=1 not in the running xqscan's environment"
[[ $rc == 0 || $rc == 1 ]] || fail "convert exit status $rc"
grep -q 'h2e2' "$tmp/out.pgn" || fail "convert wrote no ICCS moves"

# a limit the caller set is left as it is
OMP_THREAD_LIMIT=2 "$bin" --version > /dev/null || fail "--version with a limit set"
echo "ok: one OpenMP thread unless the caller says otherwise"
