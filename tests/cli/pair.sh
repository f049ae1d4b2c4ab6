#!/usr/bin/env bash
# pair.sh XQSCAN - Red's and Black's sheets of one game through `xqscan scan`:
# the committed samples pair-red.jpg / pair-black.jpg, copied as
# r3/b07-red.jpg and r3/b07-black.jpg beside a sheet of another game, give
# r3/b07.pair.{json,pgn,html} (status ok, both sheets named with their own
# unrecorded counts, owners from the file names) and a row in summary.csv;
# --resume then skips the sheets and the pair; a changed sheet redoes the
# pair. JSON read with python3's json module (an independent parser).
set -euo pipefail
xq=${1:?usage: pair.sh XQSCAN}
if [[ -n ${XQ_SANITIZED:-} ]]; then
  # the sanitizer pass: test_cli_scan's test_pair runs the same pairing in-process
  echo "pair.sh: skipped under the sanitizers (covered by test_cli_scan test_pair)"; exit 0
fi
src=${XQ_SOURCE_DIR:?XQ_SOURCE_DIR not set}
for f in pair-red.jpg pair-black.jpg kai-form.jpg; do
  [[ -r $src/samples/$f ]] || { echo "pair.sh: samples/$f missing: skipped"; exit 0; }
done
tmp=$(mktemp -d /tmp/xq_pair_sh.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/in/r3"
cp "$src/samples/pair-red.jpg" "$tmp/in/r3/b07-red.jpg"
cp "$src/samples/pair-black.jpg" "$tmp/in/r3/b07-black.jpg"
cp "$src/samples/kai-form.jpg" "$tmp/in/r3/b08.jpg"

set +e
"$xq" -q -j 2 -o "$tmp/out" "$tmp/in" 2> "$tmp/err1"
rc=$?
set -e
[[ $rc -le 1 ]] || { echo "pair.sh: exit status $rc"; cat "$tmp/err1"; exit 1; }
for e in json pgn html; do
  [[ -s $tmp/out/r3/b07.pair.$e ]] || { echo "pair.sh: r3/b07.pair.$e missing"; ls -R "$tmp/out"; exit 1; }
done
[[ ! -e $tmp/out/r3/b08.pair.json ]] || { echo "pair.sh: b08 paired with nothing?"; exit 1; }
/usr/bin/python3 - "$tmp/out" <<'PY'
import json, sys
out = sys.argv[1]
p = json.load(open(out + "/r3/b07.pair.json"))
assert p["schema"] == "xqscan/1" and p["status"] == "ok", p.get("error")
assert p["source"] == "r3/b07-red.jpg + r3/b07-black.jpg", p["source"]
assert p["owner"] is None
pr = p["pair"]
assert pr["by"] == "file name", pr["by"]
assert [s["source"] for s in pr["sheets"]] == ["r3/b07-red.jpg", "r3/b07-black.jpg"]
assert [s["owner"] for s in pr["sheets"]] == ["red", "black"]
assert len(pr["ply_sheet"]) == len(p["plies"]) >= 40
for s in pr["sheets"]:
    u = s["unrecorded"]
    assert u["total"] == u["red"] + u["black"], u
sheets = {}
for n, owner in (("b07-red", "red"), ("b07-black", "black"), ("b08", None)):
    j = json.load(open(out + "/r3/" + n + ".json"))
    assert j["owner"] == owner, (n, j["owner"])
    sheets[n] = j
    assert j["xqscan"]["input_sha256"] in [s["input_sha256"] for s in pr["sheets"]] or n == "b08"
# the reconciled record needs no more review than the better sheet alone
rev = lambda j: sum(1 for q in j["plies"] if q["review"])
assert rev(p) <= min(rev(sheets["b07-red"]), rev(sheets["b07-black"])), \
    (rev(p), rev(sheets["b07-red"]), rev(sheets["b07-black"]))
assert [s["review_alone"] for s in pr["sheets"]] == [rev(sheets["b07-red"]), rev(sheets["b07-black"])]
csv = open(out + "/summary.csv", encoding="utf-8").read()
assert '"r3/b07-red.jpg + r3/b07-black.jpg"' in csv, csv
print("pair.sh: pair ok; review pair %d, red %d, black %d" %
      (rev(p), rev(sheets["b07-red"]), rev(sheets["b07-black"])))
PY

# --resume: nothing is redone (3 sheets + 1 pair resumed)
set +e
"$xq" --resume -j 2 -o "$tmp/out" "$tmp/in" 2> "$tmp/err2"
set -e
grep -q "4 resumed" "$tmp/err2" || { echo "pair.sh: resume did not skip everything"; cat "$tmp/err2"; exit 1; }
cp "$tmp/out/r3/b07.pair.json" "$tmp/pair1.json"
# a changed Black sheet (other bytes): its sheet and the pair are redone
/usr/bin/python3 -c "import sys; d=open(sys.argv[1],'rb').read(); open(sys.argv[1],'wb').write(d+b'\0')" \
  "$tmp/in/r3/b07-black.jpg"
set +e
"$xq" --resume -j 2 -o "$tmp/out" "$tmp/in" 2> "$tmp/err3"
set -e
grep -q "2 resumed" "$tmp/err3" || { echo "pair.sh: changed sheet not redone"; cat "$tmp/err3"; exit 1; }
! cmp -s "$tmp/pair1.json" "$tmp/out/r3/b07.pair.json" ||
  { echo "pair.sh: pair JSON not redone"; exit 1; }
echo "pair.sh: ok"
