#!/usr/bin/env bash
# tools/fuzz.sh [MINUTES] [HARNESS...] - build the libFuzzer harnesses of
# tests/fuzz/ with clang (coverage + ASan + UBSan) in build-fuzz/ and run
# each for MINUTES (default 10) from its committed seed corpus
# (tests/fuzz/corpus_<name without fuzz_>/; new inputs go to
# build-fuzz/corpus-<harness>/, crashes to build-fuzz/crash-*).
# Harnesses: fuzz_move (move lexer + resolver + writer round trip),
# fuzz_record (record reader: encodings, PGN, replay, PGN output).
# Exit status 0 when no harness crashed.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
minutes=${1:-10}
secs=$(awk -v m="$minutes" 'BEGIN { print int(m * 60) }')
shift || true
harnesses=("$@")
((${#harnesses[@]})) || harnesses=(fuzz_move fuzz_record)
build=${XQ_FUZZ_BUILD:-$top/build-fuzz}
mkdir -p "$build"
CC=clang CXX=clang++ cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DXQ_FUZZ=ON -DXQ_SANITIZE=ON -DCMAKE_C_FLAGS="-fsanitize=fuzzer-no-link" \
  > "$build/cmake.log" 2>&1 || { cat "$build/cmake.log"; exit 2; }
cmake --build "$build" --target "${harnesses[@]}" -j2 > "$build/build.log" 2>&1 ||
  { tail -30 "$build/build.log"; exit 2; }
rc=0
for h in "${harnesses[@]}"; do
  seeds=$top/tests/fuzz/corpus_${h#fuzz_}
  work=$build/corpus-$h
  mkdir -p "$work"
  log=$build/$h.log
  echo "== $h: $minutes min, seeds $seeds, log $log"
  (cd "$build" && ASAN_OPTIONS=detect_leaks=1 \
     LSAN_OPTIONS=suppressions=$top/tools/lsan.supp \
     "./tests/fuzz/$h" -max_total_time=$secs -print_final_stats=1 \
       -max_len=4096 -timeout=10 -rss_limit_mb=2048 "$work" "$seeds") > "$log" 2>&1
  r=$?
  grep -E "^#[0-9]+ *DONE|stat::number_of_executed_units|stat::peak_rss_mb|cov:" "$log" | tail -3
  if ((r != 0)); then
    echo "$h: FAILED (exit $r), see $log"; grep -m5 -E "ERROR|SUMMARY|crash-" "$log"
    rc=1
  else
    echo "$h: no crash in $minutes min"
  fi
done
exit $rc
