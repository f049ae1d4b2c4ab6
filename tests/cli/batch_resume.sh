#!/usr/bin/env bash
# batch_resume.sh XQSCAN - kill -9 a batch midway, then --resume (issue 7).
#
# 1. an uninterrupted run over a folder of pages (+ two bad files) = reference;
# 2. the same batch into another folder, watched while it runs: every file
#    that exists under its final name must already equal the reference's
#    (no partial file, ever); SIGKILL to the whole process group once a few
#    sheets are done;
# 3. xqscan --resume: the output folder must equal the reference byte for
#    byte (no timestamps are written), no temp file left, same exit status,
#    and fewer inputs processed than in the reference run.
# Uses blank-ish pages (fast: no move table) unless XQ_RESUME_SHEETS names a
# folder of rendered sheets.
set -euo pipefail
xq=${1:?usage: batch_resume.sh XQSCAN}
work=$(mktemp -d /tmp/xq_resume.XXXXXX)
trap 'kill -9 -- -$pid 2>/dev/null || true; rm -rf "$work"' EXIT
pid=0
in=$work/in
if [[ -n ${XQ_RESUME_SHEETS:-} ]]; then
    cp -r "$XQ_RESUME_SHEETS" "$in"
else
    /usr/bin/python3 - "$in" <<'EOF'
import os, random, sys
from PIL import Image, ImageDraw
top = sys.argv[1]
for i in range(8):
    d = os.path.join(top, "round%d" % (i % 3 + 1))
    os.makedirs(d, exist_ok=True)
    im = Image.new("L", (500, 700), 255)
    dr = ImageDraw.Draw(im)
    rnd = random.Random(i)
    for _ in range(30):
        x, y = rnd.randrange(420), rnd.randrange(620)
        dr.line((x, y, x + rnd.randrange(80), y + rnd.randrange(8)), fill=0, width=2)
    im.save(os.path.join(d, "board%02d.%s" % (i, "jpg" if i % 5 == 0 else "png")))
open(os.path.join(top, "round1", "broken.png"), "wb").write(b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR")
open(os.path.join(top, "round2", "notes.png"), "w").write("not an image\n")
EOF
fi
total=$(find "$in" -type f | wc -l)

set +e
OMP_THREAD_LIMIT=1 "$xq" -q -j 2 -o "$work/ref" "$in" 2> "$work/ref.err"
rc_ref=$?
set -e
[[ $rc_ref -ne 0 && $rc_ref -ne 64 ]] || { echo "FAIL: reference run exit $rc_ref"; cat "$work/ref.err"; exit 1; }

# the interrupted run, in its own process group
setsid env OMP_THREAD_LIMIT=1 "$xq" -q -j 2 -o "$work/out" "$in" 2> /dev/null &
pid=$!
fail=0
checks=0
partial_check() {  # every final-named file equals the reference's
    local f
    while IFS= read -r -d '' f; do
        case $f in ./index.html|./summary.csv) continue;; esac
        [[ -e $work/out/$f ]] || continue        # renamed away meanwhile: fine
        if ! cmp -s "$work/out/$f" "$work/ref/$f"; then
            # a file may be replaced between find and cmp only by a complete one
            cmp -s "$work/out/$f" "$work/ref/$f" || { echo "FAIL: partial or wrong file $f"; return 1; }
        fi
    done < <(cd "$work/out" 2>/dev/null && find . -type f ! -name '.xqtmp-*' -print0)
}
want=$(( $(find "$work/ref" -name '*.json' | wc -l) / 3 ))
(( want >= 2 )) || want=2
while kill -0 "$pid" 2>/dev/null; do
    [[ -d $work/out ]] && { partial_check || fail=1; checks=$((checks + 1)); }
    done_now=$( (find "$work/out" -name '*.json' 2>/dev/null || true) | wc -l)
    if (( done_now >= want )); then
        kill -9 -- -"$pid"
        break
    fi
    sleep 0.05
done
wait "$pid" 2>/dev/null || true
partial_check || fail=1
killed_at=$(find "$work/out" -name '*.json' | wc -l)
temps=$(find "$work/out" -name '.xqtmp-*' | wc -l)
echo "killed after $killed_at JSON files ($temps temp files left, $checks partial-file checks)"

set +e
OMP_THREAD_LIMIT=1 "$xq" -j 2 --resume -o "$work/out" "$in" 2> "$work/resume.err"
rc=$?
set -e
tail -1 "$work/resume.err"
[[ $rc -eq $rc_ref ]] || { echo "FAIL: resumed exit $rc, reference $rc_ref"; fail=1; }
grep -q "; 0 resumed;" "$work/resume.err" && { echo "FAIL: nothing was resumed"; fail=1; }
if ! diff -r "$work/ref" "$work/out"; then
    echo "FAIL: the resumed folder differs from the uninterrupted run"; fail=1
fi
[[ $(find "$work/out" -name '.xqtmp-*' | wc -l) -eq 0 ]] || { echo "FAIL: temp files left"; fail=1; }
echo "batch_resume: $total inputs, reference exit $rc_ref, resumed exit $rc"
exit $fail
