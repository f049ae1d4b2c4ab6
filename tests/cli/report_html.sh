#!/usr/bin/env bash
# report_html.sh XQSCAN - the HTML arbiter report in headless Chromium.
#
# 1. tests/test_report_html writes sample reports (XQ_REPORT_SAMPLE_DIR);
# 2. the sample JSON must parse with python3's json module (an independent
#    parser) and carry the INTERFACE.md keys;
# 3. tools/html_check/check.mjs loads every page in Chromium through
#    chromedriver at phone and desktop widths: screenshots, no console
#    errors, no sideways scrolling on a phone, verdict first, the index
#    sorts; in review mode it picks candidates, types a move, saves;
# 4. the saved corrections file is read back with xq_corrections_read
#    (tests/test_report_corrections, XQ_CORRECTIONS_FILE).
# Screenshots stay in $XQ_BINARY_DIR/report-html-check/shots/.
set -euo pipefail
bin=${XQ_BINARY_DIR:?XQ_BINARY_DIR not set}
src=${XQ_SOURCE_DIR:?XQ_SOURCE_DIR not set}
out=$bin/report-html-check
rm -rf "$out"
mkdir -p "$out"

find_test() {
  local t
  for t in "$bin/tests/$1" "$bin/$1"; do
    [[ -x $t ]] && { echo "$t"; return 0; }
  done
  echo "report_html: $1 not built in $bin" >&2
  return 1
}
html_test=$(find_test test_report_html)
corr_test=$(find_test test_report_corrections)
for tool in /usr/bin/chromium /usr/bin/chromedriver /usr/bin/node /usr/bin/python3; do
  [[ -x $tool ]] || { echo "report_html: $tool missing (tools/setup.sh deps)" >&2; exit 1; }
done

XQ_REPORT_SAMPLE_DIR=$out "$html_test" > "$out/html_test.log" 2>&1 ||
  { cat "$out/html_test.log"; exit 1; }
if typed_test=$(find_test test_report_typed 2>/dev/null); then
  XQ_REPORT_SAMPLE_DIR=$out "$typed_test" > "$out/typed_write.log" 2>&1 ||
    { cat "$out/typed_write.log"; exit 1; }
fi
grep -q "OK \] test_write_samples" "$out/html_test.log" ||
  { echo "report_html: samples not written"; cat "$out/html_test.log"; exit 1; }

/usr/bin/python3 -m json.tool "$out/sample.json" > /dev/null
/usr/bin/python3 - "$out/sample.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
need = {"schema", "xqscan", "source", "status", "owner", "header", "start_fen",
        "plies", "unrecorded", "findings", "end"}
assert need <= set(d), need - set(d)
assert d["schema"] == "xqscan/1"
assert {"version", "input_sha256", "options"} <= set(d["xqscan"])
assert {"event", "round", "board", "red", "black", "date", "result"} <= set(d["header"])
for p in d["plies"]:
    assert {"ply", "side", "status", "read", "move", "move_source", "confidence",
            "review", "candidates", "cell"} <= set(p), p
    assert p["move"] is None or set(p["move"]) == {"iccs", "chinese", "wxf"}
    assert p["cell"] is None or set(p["cell"]) == {"page", "box"}
assert {"red", "black", "total", "longest_run", "threshold", "exceeded", "rule"} <= set(d["unrecorded"])
for f in d["findings"]:
    assert {"ply", "severity", "code", "rule", "message"} <= set(f)
assert {"position", "recorded_result", "consistent"} <= set(d["end"])
print("report_html: sample.json parses, INTERFACE keys present")
PY

/usr/bin/node "$src/tools/html_check/check.mjs" "$out"

XQ_CORRECTIONS_FILE=$out/sample.corrections.json \
XQ_CORRECTIONS_EXPECT='3:b0c2;4:车９平８;5:b2c2' \
  "$corr_test" > "$out/corr_test.log" 2>&1 || { cat "$out/corr_test.log"; exit 1; }
grep -q "OK \] test_browser_file" "$out/corr_test.log" ||
  { echo "report_html: corrections file not checked"; cat "$out/corr_test.log"; exit 1; }
echo "report_html: corrections saved in the browser read back by xq_corrections_read"

# A record from the verifier: the browser's corrections applied through
# xq_verify_typed (what `xqscan --corrections` does) give the arbiter's moves.
typed_test=$(find_test test_report_typed 2>/dev/null) || typed_test=
if [[ -n $typed_test ]]; then
  [[ -f $out/typed.corrections.json && -f $out/typed.expect ]] ||
    { echo "report_html: typed.html was not reviewed"; exit 1; }
  XQ_TYPED_CORRECTIONS=$out/typed.corrections.json \
  XQ_TYPED_EXPECT=$(cat "$out/typed.expect") \
    "$typed_test" > "$out/typed_test.log" 2>&1 || { cat "$out/typed_test.log"; exit 1; }
  grep -q "OK \] test_browser_corrections_applied" "$out/typed_test.log" ||
    { echo "report_html: typed corrections not applied"; cat "$out/typed_test.log"; exit 1; }
  grep "^ply " "$out/typed_test.log"
  echo "report_html: corrections from the browser applied by the verifier"
fi
ls "$out/shots"

# 5. The same corrections through the command line: the record above as a
#    PGN file named typed/game1.pgn, `xqscan verify --corrections FILE`.
#    The browser's file names the test's made-up input hash (00ff), so this
#    copy keeps only its source name; the CLI then matches it by source.
if [[ -n $typed_test ]]; then
  xq=${1:?usage: report_html.sh XQSCAN}
  mkdir -p "$out/cli-in/typed"
  cat > "$out/cli-in/typed/game1.pgn" <<'PGN'
[Game "Chinese Chess"]
[Result "1-0"]

1. 炮二平五 马8进7 2. 马二进三 车9平8 3. 车一平二 马2进3 4. 兵七进一 卒7进1
5. 车二进六 炮8平9 6. 车二平三 炮9退1 7. 马八进七 士4进5 8. 马七进六 炮9平7
9. 车三平四 马7进8 10. 炮八进八 1-0
PGN
  /usr/bin/python3 - "$out/typed.corrections.json" "$out/cli.corrections.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
d.pop("input_sha256", None)
json.dump(d, open(sys.argv[2], "w", encoding="utf-8"), ensure_ascii=False)
PY
  set +e
  "$xq" verify -q -o "$out/cli-out" --corrections "$out/cli.corrections.json" "$out/cli-in" \
    > "$out/cli-verify.log" 2>&1
  rc=$?
  set -e
  [[ $rc -le 1 ]] || { echo "report_html: xqscan verify failed ($rc)"; cat "$out/cli-verify.log"; exit 1; }
  /usr/bin/python3 - "$out/cli-out/typed/game1.json" "$(cat "$out/typed.expect")" <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
plies = {p["ply"]: p for p in d["plies"]}
for item in sys.argv[2].split(";"):
    ply, iccs = item.split(":")
    p = plies[int(ply)]
    got = (p["move"] or {}).get("iccs")
    assert got == iccs, f"ply {ply}: arbiter said {iccs}, xqscan --corrections gave {got}"
    assert p["move_source"] == "corrected", p
print("report_html: corrections applied by `xqscan verify --corrections`:", sys.argv[2])
PY
fi
