#!/usr/bin/env bash
# hostile.sh XQSCAN - the short CI version of the hostile-input batch
# (issue 7; the full run with >= 500 rendered sheets is tools/batch_run.sh).
#
# A folder of >= 40 hostile files (tests/cli/hostile_files.py: zero bytes,
# truncated PNG/JPEG/TIFF, 50,000 x 50,000 headers, text named .png, random
# bytes named .jpg, symlink loops, non-UTF-8 names, a folder named like an
# image, names with "..") plus good pages under hostile names (one samples/
# scan, kai-form.jpg when there, one of the quicker to verify; the rest
# blank pages), with -o INSIDE the walked folder. Checks:
#   exit status 2; no worker crash; every bad input named on stderr with a
#   reason and given a JSON with status "error"; every good input processed
#   (status "ok"); one summary.csv row per sheet; nothing written outside -o
#   (every other file byte-identical, no new file); named inputs whose paths
#   hold ".." stay inside -o; --resume over the finished batch changes nothing.
set -euo pipefail
xq=${1:?usage: hostile.sh XQSCAN}
src=${XQ_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
py=/usr/bin/python3
work=$(mktemp -d /tmp/xq_hostile.XXXXXX)
trap 'rm -rf "$work"' EXIT
in=$work/in
out=$in/reports            # inside the walked folder: must never be read
mkdir -p "$work/t" "$work/canary"
goods=()
for f in "$src"/samples/kai-form.jpg "$src"/samples/*.png "$src"/samples/*.jpg; do
    [[ -f $f ]] && goods+=("$f")
done
"$py" "$src/tests/cli/hostile_files.py" "$in" "${goods[@]:0:1}" > "$work/t/list.tsv"
nbad=$(grep -c '^bad' "$work/t/list.tsv")
ngood=$(grep -c '^good' "$work/t/list.tsv")
(( nbad >= 40 )) || { echo "FAIL: only $nbad hostile files"; exit 1; }

echo "must not change" > "$work/canary/file.txt"
snapshot() {  # every path outside the output folders, with a checksum for files
    (cd "$work" && find . \( -path ./in/reports -o -path ./t -o -path ./out2 \) -prune -o -print0 |
        LC_ALL=C sort -z |
        while IFS= read -r -d '' f; do
            if [[ -f $f && ! -L $f ]]; then printf '%s %s\n' "$(sha256sum < "$f" | cut -c1-16)" "$f"
            else printf 'node %s\n' "$f"; fi
        done)
}
snapshot > "$work/t/before.txt"

set +e
OMP_THREAD_LIMIT=1 "$xq" -j 2 -o "$out" "$in" 2> "$work/t/stderr.txt"
rc=$?
set -e
snapshot > "$work/t/after.txt"
fail=0
[[ $rc -eq 2 ]] || { echo "FAIL: exit status $rc, want 2"; fail=1; }
if grep -q "crashed" "$work/t/stderr.txt"; then
    echo "FAIL: a worker crashed:"; grep "crashed" "$work/t/stderr.txt"; fail=1
fi
if ! diff "$work/t/before.txt" "$work/t/after.txt" > "$work/t/outside.diff"; then
    echo "FAIL: something outside -o changed:"; cat "$work/t/outside.diff"; fail=1
fi

# every bad input named with a reason; JSON statuses by source
"$py" - "$work/t/list.tsv" "$work/t/stderr.txt" "$out" <<'EOF' || fail=1
import csv, json, os, sys
listing, stderr, out = sys.argv[1:4]
want = [l.rstrip("\n").split("\t", 1) for l in open(listing, encoding="utf-8")]
err = open(stderr, encoding="utf-8", errors="replace").read().splitlines()
status = {}
sheets = 0
for root, dirs, files in os.walk(out):
    for f in files:
        if f.endswith(".json") and not f.startswith(".xqtmp-"):
            j = json.load(open(os.path.join(root, f), encoding="utf-8"))
            if j.get("schema") != "xqscan/1":
                continue
            sheets += 1
            status.setdefault(j["source"], set()).add(j["status"])
bad = 0
for kind, name in want:
    name = name.replace("\n", "%0A")
    if kind == "bad":
        lines = [l for l in err if l.startswith("xqscan: %s: " % name)]
        reason = lines[0][len("xqscan: %s: " % name):] if lines else ""
        if not lines or len(reason) < 8:
            print("FAIL: %s not named on stderr with a reason" % name); bad = 1
        if status.get(name) != {"error"}:
            print("FAIL: %s: JSON status %s, want error" % (name, status.get(name))); bad = 1
    elif kind == "good":
        if status.get(name) != {"ok"}:
            print("FAIL: %s: JSON status %s, want ok" % (name, status.get(name))); bad = 1
    elif kind == "skip" and name in status:
        print("FAIL: %s is not an image but was processed" % name); bad = 1
rows = list(csv.reader(open(os.path.join(out, "summary.csv"), encoding="utf-8", newline="")))
if len(rows) - 1 != sheets:
    print("FAIL: summary.csv has %d rows for %d sheets" % (len(rows) - 1, sheets)); bad = 1
if any("reports" in s for s in status):
    print("FAIL: the output folder was read as input"); bad = 1
print("hostile: %d inputs listed, %d sheets reported" % (len(want), sheets))
sys.exit(bad)
EOF

# names with ".." given on the command line stay inside -o
out2=$work/out2
set +e
OMP_THREAD_LIMIT=1 "$xq" -q -j 1 -o "$out2" "$in/bad/../names/a..b.png" "$in/names/../bad/huge.png" \
    2> /dev/null
set -e
[[ -f $out2/a..b.json && -f $out2/huge.json ]] || { echo "FAIL: named inputs with .. not in -o"; ls -R "$out2"; fail=1; }
[[ $(find "$out2" -type f -name '*.json' | wc -l) -eq 2 ]] || { echo "FAIL: stray outputs"; fail=1; }
snapshot > "$work/t/after2.txt"
diff -q "$work/t/before.txt" "$work/t/after2.txt" > /dev/null ||
    { echo "FAIL: writes outside -o with .. names"; fail=1; }

# --resume over a finished batch: good sheets are skipped, the bytes stay
cp -a "$out" "$work/t/first"
set +e
OMP_THREAD_LIMIT=1 "$xq" -j 2 --resume -o "$out" "$in" 2> "$work/t/stderr2.txt"
rc2=$?
set -e
[[ $rc2 -eq 2 ]] || { echo "FAIL: resume exit status $rc2"; fail=1; }
grep -q "; $ngood resumed;" "$work/t/stderr2.txt" || { echo "FAIL: want $ngood inputs resumed"; fail=1; }
diff -r "$work/t/first" "$out" > /dev/null || { echo "FAIL: --resume changed the outputs"; fail=1; }
tail -1 "$work/t/stderr.txt"
tail -1 "$work/t/stderr2.txt"
exit $fail
