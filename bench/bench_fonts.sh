#!/usr/bin/env bash
# bench_fonts.sh BUILD_DIR - the verifier end to end on the same sheets
# written in different fonts: fonts the glyph references were made from
# (ref) and fonts they were not (held-out). Every font gets the same games,
# layouts, scan degradation and injected errors as bench_e2e.sh's sheets
# (one illegal move, one skipped ply, 3% blank cells): one seed, and the
# renderer's --font makes the font the only thing that differs. Printed
# fonts are written as print, kai fonts with the kai writer's slant,
# jitter and ink. A font not installed is left out (the fonts-*
# packages named below; tools/setup.sh does not install them).
# Env XQ_BENCH_FONTS_N (default 2 sheets a font), XQ_BENCH_FONTS_SEED.
set -eu
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
corpus=${XQ_CORPUS_DIR:-$src/../shared/corpus}
n=${XQ_BENCH_FONTS_N:-2}
seed=${XQ_BENCH_FONTS_SEED:-7300}
out="$build/bench-font-sheets/n$n-s$seed"
py=/usr/bin/python3
if [[ ! -x "$build/bench/bench_e2e" ]]; then
  echo "bench_e2e not built in $build"; exit 1
fi
if [[ ! -f "$corpus/ccpd-dev.pgn" ]]; then
  echo "corpus not found in $corpus (set XQ_CORPUS_DIR)"; exit 0
fi
T=/usr/share/fonts/truetype
# name style kind path[:face] package (ref: a font of ocr/data/glyphs.png,
# tools/ocr/make_glyph_sprite.py; held-out: not; "-": installed by setup)
fonts="
noto-sans      printed ref      /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc:2 -
ukai           kai     ref      $T/arphic/ukai.ttc:0                     -
wqy-zenhei     printed held-out $T/wqy/wqy-zenhei.ttc:0                  fonts-wqy-zenhei
ar-pl-sungti   printed held-out $T/arphic-gbsn00lp/gbsn00lp.ttf          fonts-arphic-gbsn00lp
cwtex-fangsong printed held-out $T/cwtex/cwfs.ttf                        fonts-cwtex-fs
ar-pl-kaitim   kai     held-out $T/arphic-gkai00mp/gkai00mp.ttf          fonts-arphic-gkai00mp
cwtex-ming     printed held-out $T/cwtex/cwming.ttf                      fonts-cwtex-ming
smiley-sans    printed held-out $T/smiley-sans/SmileySans-Oblique.ttf    fonts-smiley-sans
lxgw-wenkai    kai     held-out $T/lxgw-wenkai/LXGWWenKai-Regular.ttf    fonts-lxgw-wenkai
tw-kai         kai     held-out $T/cns11643/TW-Kai-98_1.ttf              fonts-cns11643-kai
"
mkdir -p "$out"
printf '%-15s %-8s %-8s %6s %7s %7s %6s %8s %8s %6s %6s\n' font style kind \
  legib right% flag% silent illegal skip ocr_s ver_s
while read -r name style kind path pkg; do
  [[ -n $name ]] || continue
  if [[ ! -f ${path%%:*} ]]; then
    echo "$name: not installed (apt-get install $pkg)"; continue
  fi
  d="$out/$name"
  [[ -f "$d/manifest.json" ]] ||
    "$py" "$src/tools/render/render_sheets.py" --games "$corpus/ccpd-dev.pgn" \
      --iccs "$corpus/ccpd-dev.iccs.jsonl" --count "$n" --layout mixed \
      --out "$d" --seed "$seed" --style "$style" --degrade scan \
      --font "$path" --inject-illegal 1 --inject-skip 1 --blank-rate 0.03 \
      >/dev/null
  "$py" "$here/e2e_truth.py" "$d" > "$d/e2e.tsv"
  OMP_THREAD_LIMIT=1 "$build/bench/bench_e2e" "$d/e2e.tsv" > "$d/e2e.log" 2>&1
  # bench_e2e's total row: legible, right%, flag%, silent, ..., illegal,
  # skip, ..., ocr s, ver s
  awk -v f="$name" -v s="$style" -v k="$kind" \
    '$1 == "total" { printf "%-15s %-8s %-8s %6s %7s %7s %6s %8s %8s %6s %6s\n",
      f, s, k, $3, $4, $5, $6, $8, $9, $(NF-1), $NF }' "$d/e2e.log"
done <<< "$fonts"
