#!/usr/bin/env python3
"""typed_errors.py make|score DIR ... - typed records with one injected error.

make DIR XQSCAN CORPUS_JSONL N SEED [E]: N corpus games (standard start, 40+
plies) written in Chinese by `xqscan convert`, each with one error of a kind
in turn: a digit typed wrong, a piece glyph typed wrong, two moves of one
side swapped, a move left out, an entry typed twice. E = 2: a second error
too, of the next kind, 6 plies or more from the first (the kind named is
the first's; the error's ply is the earlier one's). DIR/truth.json keeps the
games' moves. score DIR OUT: per kind, the plies under review, the moves
other than the game's, the silent errors (review false, move not the game's)
and how many records have a warning or error finding within 3 plies of the
error. Swaps and typos that leave a legal game cannot be told from the
record (every move then "silent"): those are counted apart.
"""
import collections, json, os, random, re, subprocess, sys

CN, AR = '一二三四五六七八九', '１２３４５６７８９'
GLYPH = {'车': '马', '马': '车', '炮': '车', '兵': '炮', '卒': '炮', '相': '仕',
         '象': '士', '仕': '相', '士': '象', '帅': '仕', '将': '士'}
KINDS = ['digit', 'piece', 'swap', 'omit', 'dup']
START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w'


def inject(rec, p, kind, rnd):
    """One error of kind at record p (in place)."""
    if kind == 'digit':
        c = rec[p][-1]
        pool = CN if c in CN else AR
        rec[p] = rec[p][:-1] + rnd.choice([x for x in pool if x != c])
    elif kind == 'piece':
        for i, ch in enumerate(rec[p]):
            if ch in GLYPH:
                rec[p] = rec[p][:i] + GLYPH[ch] + rec[p][i + 1:]
                break
    elif kind == 'swap':
        rec[p], rec[p + 2] = rec[p + 2], rec[p]
    elif kind == 'omit':
        del rec[p]
    else:
        rec.insert(p, rec[p - 2])


def make(out, xqscan, jsonl, n, seed, nerr=1):
    rnd = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    lines = open(jsonl, encoding='utf-8').readlines()
    order = list(range(len(lines)))
    rnd.shuffle(order)
    truth, made = {}, 0
    for li in order:
        if made >= n:
            break
        g = json.loads(lines[li])
        mv = g['iccs'].split()
        if not g['start_fen'].startswith(START) or len(mv) < 40:
            continue
        txt = ' '.join('%d. %s %s' % (i // 2 + 1, mv[i], mv[i + 1] if i + 1 < len(mv) else '')
                       for i in range(0, len(mv), 2))
        r = subprocess.run([xqscan, 'convert', '--to', 'chinese', '-'],
                           input=txt.encode(), capture_output=True)
        body = r.stdout.decode().split('\n\n', 1)[-1]
        rec = [x for x in body.split() if not re.match(r'^\d+\.$', x) and x != '*']
        if len(rec) != len(mv):
            continue
        kind = KINDS[made % len(KINDS)]
        p = rnd.randrange(8, len(mv) - 8)
        errs = [(p, kind)]
        if nerr > 1:     # a second error, of the next kind, 6 plies apart or more
            while True:
                p2 = rnd.randrange(8, len(mv) - 8)
                if abs(p2 - p) >= 6:
                    break
            errs.append((p2, KINDS[(made + 1) % len(KINDS)]))
        for q, k in sorted(errs, reverse=True):   # the later one first
            inject(rec, q, k, rnd)
        p = min(q for q, _ in errs)
        name = '%s_%04d' % (kind, li)
        with open(os.path.join(out, name + '.pgn'), 'w', encoding='utf-8') as f:
            f.write('[Event "typed"]\n\n')
            f.write(' '.join(('%d. ' % (i // 2 + 1) if i % 2 == 0 else '') + rec[i]
                             for i in range(len(rec))) + '\n')
        truth[name] = {'kind': kind, 'ply': p + 1, 'iccs': mv}
        made += 1
    json.dump(truth, open(os.path.join(out, 'truth.json'), 'w'))


# findings that say the record itself is wrong (not the game: a perpetual
# check, say, is the game's)
RECORD_CODES = {'illegal_move', 'doubtful_illegal_move', 'inconsistent_move',
                'misread_move', 'unreadable_move', 'skipped_move',
                'unrecorded_move', 'extra_record', 'swapped_records',
                'moves_after_end'}


def score(d, o):
    truth = json.load(open(os.path.join(d, 'truth.json')))
    agg = collections.defaultdict(collections.Counter)
    for name, t in sorted(truth.items()):
        try:
            j = json.load(open(os.path.join(o, name + '.json'), encoding='utf-8'))
        except (OSError, ValueError):
            agg[t['kind']]['noout'] += 1
            continue
        pl, mv, a = j['plies'], t['iccs'], agg[t['kind']]
        finds = [f for f in j['findings'] if f['severity'] in ('error', 'warning')]
        told = [f for f in finds if f['code'] in RECORD_CODES]
        if not told and all(q['status'] == 'ok' and not q['review'] for q in pl):
            a['legal'] += 1      # the record is a legal game: nothing to tell
            continue
        a['games'] += 1
        a['plies'] += len(pl)
        a['flag'] += sum(q['review'] for q in pl)
        for i, q in enumerate(pl):
            m = q['move']['iccs'] if q.get('move') else None
            if i < len(mv) and m != mv[i]:
                a['wrong'] += 1
                a['silent'] += not q['review']
        a['found'] += any(f['ply'] and abs(f['ply'] - t['ply']) <= 3 for f in finds)
    tot = collections.Counter()
    for k in KINDS + ['total']:
        a = tot if k == 'total' else agg[k]
        if k != 'total':
            tot.update(a)
        print('typed %-5s records %3d (+%d legal as typed)  flagged %5.2f%%  wrong %4d  '
              'silent %3d  finding at the error %d/%d' %
              (k, a['games'], a['legal'], 100.0 * a['flag'] / max(a['plies'], 1),
               a['wrong'], a['silent'], a['found'], a['games']))


if __name__ == '__main__':
    if sys.argv[1] == 'make':
        make(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6]),
             int(sys.argv[7]) if len(sys.argv) > 7 else 1)
    else:
        score(sys.argv[2], sys.argv[3])
