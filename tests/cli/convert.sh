#!/usr/bin/env bash
# CLI test of `xqscan convert` (tests/cli/convert.sh XQSCAN).
# - all 2,695 ccpd-dev.pgn games convert to exactly the ICCS of
#   ccpd-dev.iccs.jsonl, also through chinese -> wxf -> traditional -> iccs;
# - GB18030, Big5 and UTF-8-with-BOM inputs give the same output as UTF-8;
# - a plain numbered move list converts;
# - bad input (unknown glyph, truncated move, move for the wrong side,
#   invalid bytes, bad FEN) exits 1 naming game and ply, never crashes;
# - usage errors exit 64;
# - where node and ffish exist: our WXF equals Fairy-Stockfish's for >= 500
#   of the first 600 corpus games (XQ_FFISH_GAMES=N to change the sample).
set -u
bin=$1
corpus=${XQ_CORPUS_DIR:-$(dirname "$0")/../../../shared/corpus}
src=${XQ_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

# Moves of every game of a PGN on stdout, one game per line.
pgn_moves() {
  "$py" - "$1" <<'EOF'
import re, sys
games = []
for line in open(sys.argv[1], encoding='utf-8'):
    line = line.strip()
    if line.startswith('[Game '):
        games.append([])
        continue
    if not line or line.startswith('['):
        continue
    for tok in line.split():
        if re.match(r'^\d+\.+$', tok) or tok in ('1-0', '0-1', '1/2-1/2', '*'):
            continue
        games[-1].append(tok)
for g in games:
    print(' '.join(g))
EOF
}

if [[ -f $corpus/ccpd-dev.pgn ]]; then
  "$bin" convert --to iccs "$corpus/ccpd-dev.pgn" > "$tmp/ccpd.iccs.pgn"
  rc=$?
  [[ $rc -eq 0 ]] || bad "convert ccpd-dev.pgn --to iccs exit $rc"
  pgn_moves "$tmp/ccpd.iccs.pgn" > "$tmp/ours.iccs"
  "$py" -c '
import json, sys
for l in open(sys.argv[1], encoding="utf-8"):
    if l.strip(): print(json.loads(l)["iccs"])' "$corpus/ccpd-dev.iccs.jsonl" > "$tmp/label.iccs"
  n=$(wc -l < "$tmp/label.iccs")
  if cmp -s "$tmp/ours.iccs" "$tmp/label.iccs"; then
    ok "ccpd-dev.pgn: all $n games convert to exactly the ICCS of ccpd-dev.iccs.jsonl"
  else
    bad "ccpd ICCS differs: $(diff "$tmp/ours.iccs" "$tmp/label.iccs" | head -5)"
  fi
  # A chain of conversions ends where the direct one does.
  "$bin" convert --to chinese "$corpus/ccpd-dev.pgn" > "$tmp/c1.pgn" &&
  "$bin" convert --to wxf "$tmp/c1.pgn" > "$tmp/c2.pgn" &&
  "$bin" convert --to traditional "$tmp/c2.pgn" > "$tmp/c3.pgn" &&
  "$bin" convert --to iccs "$tmp/c3.pgn" > "$tmp/c4.pgn"
  rc=$?
  if [[ $rc -eq 0 ]] && cmp -s "$tmp/c4.pgn" "$tmp/ccpd.iccs.pgn"; then
    ok "chinese -> wxf -> traditional -> iccs equals the direct conversion"
  else
    bad "conversion chain differs (exit $rc)"
  fi
  "$bin" convert --to uci "$tmp/c2.pgn" > "$tmp/c5.pgn" &&
  "$bin" convert --to iccs "$tmp/c5.pgn" > "$tmp/c6.pgn"
  if cmp -s "$tmp/c6.pgn" "$tmp/ccpd.iccs.pgn"; then
    ok "UCI (ranks 1-10) round trip"
  else
    bad "UCI round trip differs"
  fi
  # Encodings: Big5 (the corpus came from Big5), GB18030, UTF-8 with BOM.
  head -c 200000 "$corpus/ccpd-dev.pgn" | "$py" -c '
import sys
t = sys.stdin.buffer.read().decode("utf-8", "ignore")
t = t[:t.rfind("[CCPDFile")]
open(sys.argv[1], "w", encoding="utf-8").write(t)
open(sys.argv[2], "wb").write(t.encode("big5", "replace"))
open(sys.argv[3], "wb").write(t.encode("gb18030"))
open(sys.argv[4], "wb").write(b"\xef\xbb\xbf" + t.encode("utf-8"))
' "$tmp/s.utf8.pgn" "$tmp/s.big5.pgn" "$tmp/s.gb.pgn" "$tmp/s.bom.pgn"
  "$bin" convert --to chinese "$tmp/s.utf8.pgn" > "$tmp/s.utf8.out" || bad "sample utf-8"
  for e in big5 gb bom; do
    "$bin" convert --to chinese "$tmp/s.$e.pgn" > "$tmp/s.$e.out"
    rc=$?
    # Big5 cannot hold every name; compare the moves.
    if [[ $rc -eq 0 ]] && cmp -s <(pgn_moves "$tmp/s.$e.out") <(pgn_moves "$tmp/s.utf8.out"); then
      ok "encoding $e: same moves as UTF-8 ($(grep -c '^\[Game ' "$tmp/s.$e.out") games)"
    else
      bad "encoding $e: exit $rc or moves differ"
    fi
  done
  if cmp -s "$tmp/s.gb.out" "$tmp/s.utf8.out"; then ok "GB18030: identical output"; else bad "GB18030 output differs"; fi
fi

if [[ -f $corpus/wukong-15.wxf.pgn ]]; then
  "$bin" convert --to iccs "$corpus/wukong-15.wxf.pgn" > "$tmp/w1.pgn" &&
  "$bin" convert --to iccs "$corpus/wukong-15.chinese.pgn" > "$tmp/w2.pgn"
  if [[ $? -eq 0 ]] && cmp -s "$tmp/w1.pgn" "$tmp/w2.pgn"; then
    ok "wukong: Chinese and full-width WXF files convert identically"
  else
    bad "wukong Chinese/WXF conversions differ"
  fi
fi

# A plain numbered move list, no tags, two games, ASCII Black digits.
printf '1. 炮二平五 马8进7 2. 马二进三 车9平8\n\n1. 相三进五 炮８平５\n' > "$tmp/plain.txt"
out=$("$bin" convert --to iccs "$tmp/plain.txt")
if [[ $? -eq 0 && $out == *"1. h2e2 h9g7"*"2. h0g2 i9h9"*"1. g0e2 h7e7"* ]]; then
  ok "plain move list, two games"
else
  bad "plain move list: $out"
fi
out=$(printf '1. 炮二平五 马8进7\n' | "$bin" convert --to wxf -)
[[ $out == *"1. C2=5 H8+7"* ]] && ok "stdin" || bad "stdin: $out"

# Numerals of the other side: a warning naming the ply, not an error.
printf '1. 炮二平五 马8进7 2. 马2进3 车９平８\n' > "$tmp/hint.txt"
out=$("$bin" convert --to iccs "$tmp/hint.txt" 2> "$tmp/hint.err")
rc=$?
if [[ $rc -eq 0 && $out == *"2. h0g2 i9h9"* ]] && grep -q "game 1, ply 3 .*warning: numerals of the other side" "$tmp/hint.err"; then
  ok "other side's numerals: warning, exit 0"
else
  bad "other side's numerals: exit $rc, $(cat "$tmp/hint.err")"
fi

# Bad input: exit 1, message names the game and the ply, no crash.
expect_bad() {  # name input grep-pattern
  local name=$1 pat=$3 rc
  printf '%b' "$2" > "$tmp/bad.pgn"
  "$bin" convert --to iccs "$tmp/bad.pgn" > /dev/null 2> "$tmp/bad.err"
  rc=$?
  if [[ $rc -eq 1 ]] && grep -q "$pat" "$tmp/bad.err"; then
    ok "$name: $(head -1 "$tmp/bad.err")"
  else
    bad "$name: exit $rc, stderr: $(cat "$tmp/bad.err")"
  fi
}
expect_bad "unknown glyph" '[Red "A"]\n\n1. 炮二平五 马8进7 2. 马二進三 車9吃8\n' 'game 1 .*ply 4 .*not a move'
expect_bad "truncated move" '1. 炮二平五 马8进\n' 'game 1 .*ply 2 .*not a move'
expect_bad "move for the wrong side (ICCS)" '1. h2e2 h0g2\n' 'game 1 .*ply 2 .*side not to move'
expect_bad "move for the wrong side (Chinese)" '1. 炮二平五 炮五进四\n' 'game 1 .*ply 2 .*no such piece'
expect_bad "invalid bytes" '1. 炮二平五 \xff\xfe\n' 'game 1 .*ply 2'
expect_bad "invalid bytes inside a move" '1. 炮二平五 马8\xe8\xbf7\n2. 马二进三 车9平8\n3. 马八进七 马2进3\n4. 兵七进一 卒7进1\n5. 车一平二 炮8进4\n' 'game 1 .*ply 2'
expect_bad "illegal move" '[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"]\n\n1. 炮二进八 马8进7\n' 'game 1 .*ply 1 .*impossible'
expect_bad "second game bad" '1. 炮二平五 马8进7\n1-0\n\n1. 炮二平五 马8进7 2. 马二进二\n' 'game 2 .*ply 3'
expect_bad "bad FEN" '[FEN "rnbakabnr/9/9 w"]\n\n1. h2e2\n' 'game 1 .*FEN'
expect_bad "empty input" '' 'no game'
# Random bytes never crash.
for i in 1 2 3 4 5; do
  head -c 3000 /dev/urandom > "$tmp/rand.pgn"
  "$bin" convert --to chinese "$tmp/rand.pgn" > /dev/null 2>&1
  rc=$?
  [[ $rc -le 1 ]] || bad "random input $i: exit $rc"
done
ok "random inputs: no crash"

# Usage errors.
"$bin" convert > /dev/null 2>&1; [[ $? -eq 64 ]] && ok "no --to: 64" || bad "no --to"
"$bin" convert --to klingon x > /dev/null 2>&1; [[ $? -eq 64 ]] && ok "bad notation: 64" || bad "bad notation"
"$bin" convert --to iccs /nonexistent/file > /dev/null 2>&1; [[ $? -eq 1 ]] && ok "missing file: 1" || bad "missing file"

# Fairy-Stockfish's WXF (ffish) on the corpus moves.
ffish=$src/tools/node/node_modules/ffish/ffish.js
if [[ -f $corpus/ccpd-dev.iccs.jsonl && -f $ffish ]] && command -v node > /dev/null; then
  ngames=${XQ_FFISH_GAMES:-600}
  node "$src/tests/data/notation/ffish_wxf.js" "$corpus/ccpd-dev.iccs.jsonl" "$ngames" > "$tmp/ffish.wxf" 2> "$tmp/ffish.err"
  "$bin" convert --to wxf "$corpus/ccpd-dev.pgn" > "$tmp/ours.wxf.pgn"
  pgn_moves "$tmp/ours.wxf.pgn" > "$tmp/ours.all.wxf"
  head -n "$ngames" "$tmp/ours.all.wxf" > "$tmp/ours.wxf"
  "$py" - "$tmp/ours.wxf" "$tmp/ffish.wxf" <<'EOF'
import collections, re, sys
ours = [l.split() for l in open(sys.argv[1], encoding='utf-8')]
ff = [l.split() for l in open(sys.argv[2], encoding='utf-8')]
equal = 0
kinds = collections.Counter()
unexplained = []
for gi, (a, b) in enumerate(zip(ours, ff)):
    if a == b:
        equal += 1
        continue
    for pi, (x, y) in enumerate(zip(a, b)):
        if x == y:
            continue
        # The one known convention difference (WXF 7.5): two like pieces on
        # a file, we always write C+ / C-, ffish writes the file when the
        # other piece could not make the same step.
        if re.match(r'^[RHCP][+-][-+=]\d$', x) and re.match(r'^[RHCP]\d[-+=]\d$', y) \
                and x[0] == y[0] and x[2:] == y[2:]:
            kinds['ours %s / ffish %s' % (x[:2] + '..', y[:2] + '..')] += 1
        else:
            unexplained.append('game %d ply %d: ours %s ffish %s' % (gi + 1, pi + 1, x, y))
    if len(a) != len(b):
        unexplained.append('game %d: %d moves vs %d' % (gi + 1, len(a), len(b)))
print('ffish WXF: %d of %d games identical in every move' % (equal, len(ff)))
print('  doubled-piece convention differences (C+ vs file):', sum(kinds.values()),
      kinds.most_common(4))
print('  other differences:', len(unexplained), unexplained[:5])
sys.exit(0 if len(ff) >= 500 and equal >= 500 and not unexplained else 1)
EOF
  [[ $? -eq 0 ]] && ok "ffish WXF agreement >= 500 games" || bad "ffish WXF agreement"
else
  echo "skip: node or ffish not found, no Fairy-Stockfish comparison"
fi

exit $fail
