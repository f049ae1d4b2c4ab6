#!/usr/bin/env bash
# tools/batch_run.sh BUILD_DIR WORK [N] - the recorded batch run of issue 7.
#
#   1. WORK/in/sheets: N rendered scoresheets (default 500; render_sheets.py,
#      mixed styles, layouts and degradations, seed 7). An existing folder
#      of rendered sheets can be given as XQ_SHEETS=DIR instead (copied).
#   2. WORK/in/hostile: >= 40 hostile files (tests/cli/hostile_files.py).
#   3. xqscan -j CORES -o WORK/out WORK/in, then checks: exit status 2, no
#      worker crash, every good sheet reported (status ok), every bad file
#      named on stderr with a reason and a JSON with status error, one
#      summary.csv row per sheet, nothing written outside WORK/out.
#   4. kill -9 midway + --resume over the first 40 rendered sheets
#      (tests/cli/batch_resume.sh with XQ_RESUME_SHEETS).
# Prints the figures; the log is WORK/batch_run.log. Long: OCR of a rendered
# sheet costs seconds of CPU; run it on an idle machine.
set -euo pipefail
build=${1:?usage: tools/batch_run.sh BUILD_DIR WORK [N]}
work=${2:?usage: tools/batch_run.sh BUILD_DIR WORK [N]}
n=${3:-500}
top=$(cd "$(dirname "$0")/.." && pwd)
xq=$(cd "$build" && pwd)/cli/xqscan
corpus=${XQ_CORPUS_DIR:-$top/../shared/corpus}
py=/usr/bin/python3
mkdir -p "$work"
work=$(cd "$work" && pwd)
log=$work/batch_run.log
exec > >(tee "$log") 2>&1
echo "== batch_run: $(date -u +%FT%TZ), $(nproc) cores, xqscan $("$xq" --version)"

mkdir -p "$work/in"
if [[ ! -d $work/in/sheets ]]; then
    if [[ -n ${XQ_SHEETS:-} ]]; then
        mkdir -p "$work/in/sheets"
        find "$XQ_SHEETS" -maxdepth 1 -type f \( -name 'sheet_*.png' -o -name 'sheet_*.jpg' \
            -o -name 'sheet_*.tif' \) | sort | head -n "$n" | xargs -I{} cp {} "$work/in/sheets/"
    else
        "$py" "$top/tools/render/render_sheets.py" --games "$corpus/ccpd-dev.pgn" \
            --iccs "$corpus/ccpd-dev.iccs.jsonl" --out "$work/render" --count "$n" --seed 7
        mkdir -p "$work/in/sheets"
        find "$work/render" -maxdepth 1 -type f \( -name 'sheet_*.png' -o -name 'sheet_*.jpg' \
            -o -name 'sheet_*.tif' \) -exec cp {} "$work/in/sheets/" \;
    fi
fi
[[ -d $work/in/hostile ]] || "$py" "$top/tests/cli/hostile_files.py" "$work/in/hostile" \
    > "$work/hostile.tsv"
nsheets=$(find "$work/in/sheets" -type f | wc -l)
nbad=$(grep -c '^bad' "$work/hostile.tsv")
echo "inputs: $nsheets rendered sheets, $nbad hostile files (+ $(grep -c '^good' "$work/hostile.tsv") good oddly named pages)"

snapshot() { (cd "$work/in" && find . -print0 | LC_ALL=C sort -z | xargs -0 -n 200 \
    sh -c 'for f; do if [ -f "$f" ] && [ ! -L "$f" ]; then echo "$(cksum < "$f") $f"; else echo "node $f"; fi; done' sh); }
snapshot > "$work/before.txt"
rm -rf "$work/out"
start=$(date +%s.%N)
set +e
/usr/bin/time -v "$xq" -j "$(nproc)" -o "$work/out" "$work/in" 2> "$work/stderr.txt"
rc=$?
set -e
end=$(date +%s.%N)
snapshot > "$work/after.txt"
grep -E "Maximum resident|Elapsed" "$work/stderr.txt" || true
tail -1 "$work/stderr.txt" | grep -v "Exit status" || true
grep "^xqscan: [0-9]* inputs" "$work/stderr.txt" || true
echo "exit status $rc (want 2); wall $(echo "$end - $start" | bc) s"
fail=0
[[ $rc -eq 2 ]] || fail=1
grep -q crashed "$work/stderr.txt" && { echo "FAIL: worker crash"; grep crashed "$work/stderr.txt"; fail=1; }
diff -q "$work/before.txt" "$work/after.txt" >/dev/null || { echo "FAIL: inputs changed"; fail=1; }

"$py" - "$work" <<'EOF' || fail=1
import csv, json, os, sys
work = sys.argv[1]
out = os.path.join(work, "out")
status, sheets = {}, 0
for root, dirs, files in os.walk(out):
    for f in files:
        if f.endswith(".json") and not f.startswith(".xqtmp-"):
            j = json.load(open(os.path.join(root, f), encoding="utf-8"))
            if j.get("schema") == "xqscan/1":
                sheets += 1
                status.setdefault(j["source"], []).append(j)
err = open(os.path.join(work, "stderr.txt"), encoding="utf-8", errors="replace").read().splitlines()
bad = 0
good = [("sheets/" + f) for f in sorted(os.listdir(os.path.join(work, "in", "sheets")))]
want = [l.rstrip("\n").split("\t", 1) for l in open(os.path.join(work, "hostile.tsv"), encoding="utf-8")]
for kind, name in want:
    name = "hostile/" + name.replace("\n", "%0A")
    if kind == "good":
        good.append(name)
    elif kind == "bad":
        if not any(l.startswith("xqscan: %s: " % name) for l in err):
            print("FAIL: %s not named on stderr" % name); bad = 1
        if {j["status"] for j in status.get(name, [])} != {"error"}:
            print("FAIL: %s has no error JSON" % name); bad = 1
ok = review = 0
plies = reviewed = 0
for name in good:
    js = status.get(name)
    if not js or any(j["status"] != "ok" for j in js):
        print("FAIL: good input %s not reported ok: %s" % (name, js and js[0].get("error"))); bad = 1
        continue
    for j in js:
        ok += 1
        plies += len(j["plies"])
        reviewed += sum(1 for p in j["plies"] if p.get("review"))
        if any(p.get("review") for p in j["plies"]) or any(f["severity"] != "info" for f in j["findings"]):
            review += 1
rows = list(csv.reader(open(os.path.join(out, "summary.csv"), encoding="utf-8", newline="")))
if len(rows) - 1 != sheets:
    print("FAIL: summary.csv %d rows for %d sheets" % (len(rows) - 1, sheets)); bad = 1
print("good inputs reported ok: %d sheets (%d with something for an arbiter); "
      "%d plies, %d under review" % (ok, review, plies, reviewed))
print("bad inputs named with a reason: %d; sheets in summary.csv: %d" % (
    sum(1 for k, _ in want if k == "bad"), len(rows) - 1))
sys.exit(bad)
EOF

nres=${XQ_RESUME_COUNT:-40}
echo "== kill -9 midway, then --resume (first $nres rendered sheets)"
mkdir -p "$work/resume-set"
find "$work/in/sheets" -type f | sort | head -n "$nres" | xargs -I{} cp {} "$work/resume-set/"
XQ_RESUME_SHEETS=$work/resume-set bash "$top/tests/cli/batch_resume.sh" "$xq" || fail=1
echo "== batch_run: $( ((fail)) && echo FAILED || echo all checks passed ) $(date -u +%FT%TZ)"
exit $fail
