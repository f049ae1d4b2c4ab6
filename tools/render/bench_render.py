#!/usr/bin/python3
"""bench_render.py [--corpus DIR] [--count N] [--out DIR] [--seed S]

Times the test-sheet renderer: N sheets for each writing style x degradation
(layout mixed), printing CPU and wall seconds per sheet including writing the
PNG and its truth. A recorded run; rerun it to refresh the figures.
"""
import argparse
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import render_sheets  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.path.join(HERE, "..", "..", "..", "shared", "corpus"))
    ap.add_argument("--count", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out")
    a = ap.parse_args()
    out = a.out or tempfile.mkdtemp(prefix="xqrender-bench-")
    games = os.path.join(a.corpus, "ccpd-dev.pgn")
    iccs = os.path.join(a.corpus, "ccpd-dev.iccs.jsonl")
    t0 = time.process_time()
    w0 = time.time()
    render_sheets.main(["--games", games, "--iccs", iccs, "--out", os.path.join(out, "warm"),
                        "--count", "1", "--seed", str(a.seed), "--degrade", "none"])
    print("load corpus + first sheet: cpu %.2f s, wall %.2f s" % (time.process_time() - t0,
                                                                  time.time() - w0))
    print("%-8s %-6s %6s %10s %10s" % ("style", "degr", "sheets", "cpu s/sh", "wall s/sh"))
    tot_c = tot_w = tot_n = 0
    for style in ("printed", "kai", "hand"):
        for deg in ("none", "scan", "photo"):
            d = os.path.join(out, "%s-%s" % (style, deg))
            c0, w0 = time.process_time(), time.time()
            render_sheets.main(["--games", games, "--iccs", iccs, "--out", d, "--count", str(a.count),
                                "--seed", str(a.seed), "--style", style, "--degrade", deg,
                                "--layout", "mixed"])
            c, w = time.process_time() - c0, time.time() - w0
            tot_c, tot_w, tot_n = tot_c + c, tot_w + w, tot_n + a.count
            print("%-8s %-6s %6d %10.2f %10.2f" % (style, deg, a.count, c / a.count, w / a.count))
            sys.stdout.flush()
    print("all      mixed  %6d %10.2f %10.2f" % (tot_n, tot_c / tot_n, tot_w / tot_n))
    if not a.out:
        shutil.rmtree(out)


if __name__ == "__main__":
    main()
