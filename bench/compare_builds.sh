#!/usr/bin/env bash
# compare_builds.sh OLD_BUILD NEW_BUILD [SHEETS_TSV] - the speed of two
# builds in one command, as ratios (the machine is shared: figures from
# different commands do not compare), and whether their outputs agree.
#   1. bench_e2e of each build, one thread, on SHEETS_TSV (default: the
#      scanned sheets, printed, kai and hand, of NEW_BUILD's n4-s7100 set
#      with injected errors; render it first with
#      XQ_BENCH_E2E_N=4 bash bench/bench_e2e.sh NEW_BUILD): the verifier's
#      and the OCR's seconds per sheet, and whether every ply came out the
#      same (XQ_E2E_VERBOSE lines).
#   2. `xqscan verify -j 1` of each build on the typed records of
#      bench/bench_typed.sh (NEW_BUILD/bench-typed/n100-s5/records; made by
#      XQ_BENCH_TYPED_N=100 bash bench/bench_typed.sh NEW_BUILD): wall
#      seconds, and whether the output folders are byte for byte the same.
# Each step runs OLD, NEW, NEW, OLD and sums each build's two runs (a
# machine that slows down in the middle weighs on both). Env
# XQ_COMPARE_RECORDS: another folder of typed records for step 2.
set -eu
if [[ $# -lt 2 ]]; then
  echo "usage: compare_builds.sh OLD_BUILD NEW_BUILD [SHEETS_TSV]"; exit 64
fi
old=$1 new=$2
tsv=${3:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ -z $tsv ]]; then
  all="$new/bench-e2e-sheets/n4-s7100/e2e.tsv"
  if [[ -f $all ]]; then
    tsv="$work/scan.tsv"
    awk '/^P/{p=($2 ~ /-scan\//)} p' "$all" > "$tsv"
  fi
fi
col() {   # the figure in column $2 of the "total" row of bench_e2e log $1
  awk -v c="$2" '$1 == "total" {print $c}' "$1"
}
calc() {  # arithmetic on decimals (awk: bc may be missing)
  awk "BEGIN {printf \"%.6f\", $1}"
}
if [[ -n $tsv && -s $tsv ]]; then
  sheets=$(grep -c '^P' "$tsv")
  for run in old1 new1 new2 old2; do
    b=$old; [[ $run == new* ]] && b=$new
    OMP_THREAD_LIMIT=1 XQ_E2E_VERBOSE=1 "$b/bench/bench_e2e" "$tsv" \
      > "$work/$run.log" 2>&1
  done
  # columns of the total row: ... ocr s (second to last), ver s (last)
  nf=$(awk '$1 == "total" {print NF}' "$work/old1.log")
  both() {  # column $2 of build $1's two runs, summed
    calc "$(col "$work/${1}1.log" "$2") + $(col "$work/${1}2.log" "$2")"
  }
  v_old=$(both old "$nf"); v_new=$(both new "$nf")
  o_old=$(both old $((nf - 1))); o_new=$(both new $((nf - 1)))
  same=different
  cmp -s <(grep -E '^(ply|pair ply|count) ' "$work/old1.log") \
         <(grep -E '^(ply|pair ply|count) ' "$work/new1.log") && same=identical
  printf 'scans (%d sheets): verifier s/sheet old %.3f new %.3f: %.2fx; OCR s/sheet old %.3f new %.3f: %.2fx; plies %s\n' \
    "$sheets" "$(calc "$v_old / 2")" "$(calc "$v_new / 2")" \
    "$(calc "$v_old / $v_new")" "$(calc "$o_old / 2")" \
    "$(calc "$o_new / 2")" "$(calc "$o_old / $o_new")" "$same"
else
  echo "scans: no sheet list (render the n4-s7100 set, or give SHEETS_TSV)"
fi
recs=${XQ_COMPARE_RECORDS:-$new/bench-typed/n100-s5/records}
if [[ -d $recs ]]; then
  declare -A t
  t[old]=0; t[new]=0
  for run in old1 new1 new2 old2; do
    b=$old; k=old
    [[ $run == new* ]] && { b=$new; k=new; }
    s=$(date +%s.%N)
    "$b/cli/xqscan" verify -q -j 1 -o "$work/typed-$run" "$recs" >/dev/null 2>&1 || true
    e=$(date +%s.%N)
    t[$k]=$(calc "${t[$k]} + $e - $s")
  done
  same=different
  diff -r "$work/typed-old1" "$work/typed-new1" >/dev/null && same=identical
  printf 'typed records (%d files): xqscan verify s old %.1f new %.1f: %.2fx; outputs %s\n' \
    "$(find "$recs" -maxdepth 1 -type f | wc -l)" "$(calc "${t[old]} / 2")" \
    "$(calc "${t[new]} / 2")" "$(calc "${t[old]} / ${t[new]}")" "$same"
else
  echo "typed: no records in $recs (run bench/bench_typed.sh $new first)"
fi
