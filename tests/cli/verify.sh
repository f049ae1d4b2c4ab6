#!/usr/bin/env bash
# CLI test of `xqscan verify` (typed records): outputs, exit status, the
# illegal-move finding and the assumed move, JSON schema fields.
# $1 = xqscan binary; env XQ_SOURCE_DIR.
set -euo pipefail
bin=$1
src=${XQ_SOURCE_DIR:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cp "$src/tests/data/verify/typed.pgn" "$tmp/typed.pgn"
set +e
"$bin" verify -q -j 1 -o "$tmp/out" "$tmp/typed.pgn"
rc=$?
set -e
[[ $rc == 1 ]] || fail "exit status $rc, want 1 (an illegal move needs an arbiter)"
for f in typed.json typed.pgn typed.html typed-g2.json typed-g2.pgn typed-g2.html \
         summary.csv index.html; do
  [[ -s $tmp/out/$f ]] || fail "missing output $f"
done

/usr/bin/python3 - "$tmp/out" <<'PY'
import json, sys
out = sys.argv[1]
g1 = json.load(open(out + "/typed.json", encoding="utf-8"))
g2 = json.load(open(out + "/typed-g2.json", encoding="utf-8"))
def check(c, msg):
    if not c:
        print("FAIL:", msg, file=sys.stderr); sys.exit(1)
check(g1["schema"] == "xqscan/1", "schema")
check(len(g1["plies"]) == 60, "60 plies in game 1")
check(all(p["status"] == "ok" and not p["review"] for p in g1["plies"]), "game 1 all ok")
check(g1["plies"][0]["move"]["iccs"] == "h2e2", "ply 1 is h2e2")
check(g1["plies"][0]["move"]["chinese"] == "炮二平五", "ply 1 chinese")
check(g1["unrecorded"]["total"] == 0 and not g1["unrecorded"]["exceeded"], "unrecorded 0")
check(not any(f["severity"] == "error" for f in g1["findings"]), "no error in game 1")
p19 = g2["plies"][18]
check(p19["status"] == "illegal", "ply 19 illegal, got %s" % p19["status"])
check(p19["read"] == "车一进九", "ply 19 read text")
check(p19["move_source"] == "assumed" and p19["review"], "ply 19 assumed + review")
check(p19["move"]["iccs"] == g1["plies"][18]["move"]["iccs"], "assumed move = the move played")
ill = [f for f in g2["findings"] if f["code"] == "illegal_move"]
check(len(ill) == 1 and ill[0]["ply"] == 19 and ill[0]["severity"] == "error", "one illegal_move finding at 19")
check(ill[0]["rule"] != "", "illegal_move cites a rule")
check([p["move"]["iccs"] for p in g2["plies"][19:]] == [p["move"]["iccs"] for p in g1["plies"][19:]],
      "the game goes on after the illegal move")
PY

# a file that is no record: exit 2 and a one-line reason
printf 'not a game\n' > "$tmp/junk.pgn"
set +e
"$bin" verify -q -j 1 -o "$tmp/out2" "$tmp/junk.pgn" 2> "$tmp/err"
rc=$?
set -e
[[ $rc == 2 ]] || fail "junk input: exit $rc, want 2"
grep -q "junk.pgn" "$tmp/err" || fail "junk input not named on stderr"
echo "verify.sh: ok"
