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
