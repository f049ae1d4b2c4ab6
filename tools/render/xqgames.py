"""Games for the renderer: PGN reading, a small Xiangqi rules engine (used only
to check the corpus text against its ICCS truth and to make injected illegal
moves really illegal), and the per-writer spelling of Chinese move text.

Independent of xqscan's C code on purpose: the renderer is a second opinion.
"""
import json
import re

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

# ---------------------------------------------------------------- PGN reading

_TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
_MOVE_NUM = re.compile(r'^\d+\.+$')
_RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}


def _split_games(text):
    """Yield (tags dict, movetext) for each game of a PGN text."""
    tags, moves, in_moves = {}, [], False
    for line in text.splitlines():
        s = line.strip()
        m = _TAG.match(s)
        if m:
            if in_moves or (m.group(1) in tags and m.group(1) in ("CCPDFile", "Event")):
                yield tags, " ".join(moves)
                tags, moves, in_moves = {}, [], False
            tags[m.group(1)] = m.group(2)
        elif s:
            in_moves = True
            moves.append(s)
    if tags or moves:
        yield tags, " ".join(moves)


def _tokens(movetext):
    movetext = re.sub(r"\{[^}]*\}", " ", movetext)
    out = []
    for tok in movetext.split():
        if _MOVE_NUM.match(tok) or tok in _RESULTS or set(tok) <= {"."}:
            continue
        tok = re.sub(r"^\d+\.+", "", tok)
        if tok:
            out.append(tok)
    return out


def read_pgn(path):
    """List of dicts: index, key, tags, moves (list of move strings)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    games = []
    for tags, movetext in _split_games(text):
        key = tags.get("CCPDFile") or "%s#%d" % (path.rsplit("/", 1)[-1], len(games))
        games.append(Game(len(games), key, tags, movetext))
    return games


class Game(dict):
    """A PGN game; its move list is tokenised on first use."""
    def __init__(self, index, key, tags, movetext):
        super().__init__(index=index, key=key, tags=tags)
        self._movetext = movetext

    def __missing__(self, k):
        if k == "moves":
            self["moves"] = _tokens(self._movetext)
            return self["moves"]
        raise KeyError(k)


def read_iccs_truth(path, games):
    """Attach 'iccs' (list) and 'start_fen' to games from a JSONL keyed by file,
    or from a PGN of ICCS moves parallel to the games (same order)."""
    if path.endswith(".jsonl"):
        by_key = {}
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    d = json.loads(line)
                    by_key.setdefault(d["file"], []).append(d)
        seen = {}
        for g in games:
            lst = by_key.get(g["key"])
            if not lst:
                continue
            k = seen.get(g["key"], 0)   # duplicate keys: take them in order
            seen[g["key"]] = k + 1
            if k < len(lst):
                g["iccs"] = lst[k]["iccs"].split()
                g["start_fen"] = lst[k].get("start_fen") or START_FEN
    else:
        other = read_pgn(path)
        for g, o in zip(games, other):
            g["iccs"] = [m.lower() for m in o["moves"]]
            g["start_fen"] = o["tags"].get("FEN") or START_FEN
    for g in games:
        g.setdefault("start_fen", g["tags"].get("FEN") or START_FEN)
    return games


# ---------------------------------------------------------------- rules engine
# square = file * 10 + rank, file 0..8 = a..i, rank 0..9 from Red's side.
# Pieces: upper case Red, lower case Black: K A B N R C P.

def sq(f, r):
    return f * 10 + r


def iccs_to_sqs(mv):
    return sq(ord(mv[0]) - 97, int(mv[1])), sq(ord(mv[2]) - 97, int(mv[3]))


def sqs_to_iccs(a, b):
    return "%s%d%s%d" % (chr(97 + a // 10), a % 10, chr(97 + b // 10), b % 10)


class Board:
    def __init__(self, fen=START_FEN):
        parts = fen.split()
        self.b = {}
        rows = parts[0].split("/")
        for i, row in enumerate(rows):
            r = 9 - i
            f = 0
            for ch in row:
                if ch.isdigit():
                    f += int(ch)
                else:
                    self.b[sq(f, r)] = ch
                    f += 1
        self.red = len(parts) < 2 or parts[1] in ("w", "r")

    def copy(self):
        c = Board.__new__(Board)
        c.b = dict(self.b)
        c.red = self.red
        return c

    @staticmethod
    def is_red(p):
        return p.isupper()

    def _pseudo(self, s, p):
        """Pseudo-legal destinations of piece p on square s."""
        f, r = divmod(s, 10)
        red = p.isupper()
        t = p.upper()
        own = (lambda q: q is not None and q.isupper() == red)
        out = []

        def add(ff, rr):
            if 0 <= ff <= 8 and 0 <= rr <= 9 and not own(self.b.get(sq(ff, rr))):
                out.append(sq(ff, rr))
        if t == "K" or t == "A":
            steps = [(1, 0), (-1, 0), (0, 1), (0, -1)] if t == "K" else \
                    [(1, 1), (1, -1), (-1, 1), (-1, -1)]
            lo, hi = (0, 2) if red else (7, 9)
            for df, dr in steps:
                ff, rr = f + df, r + dr
                if 3 <= ff <= 5 and lo <= rr <= hi:
                    add(ff, rr)
        elif t == "B":
            for df, dr in [(2, 2), (2, -2), (-2, 2), (-2, -2)]:
                ff, rr = f + df, r + dr
                if not (0 <= ff <= 8 and 0 <= rr <= 9):
                    continue
                if (red and rr > 4) or (not red and rr < 5):
                    continue
                if self.b.get(sq(f + df // 2, r + dr // 2)) is None:
                    add(ff, rr)
        elif t == "N":
            for df, dr, lf, lr in [(1, 2, 0, 1), (-1, 2, 0, 1), (1, -2, 0, -1), (-1, -2, 0, -1),
                                   (2, 1, 1, 0), (2, -1, 1, 0), (-2, 1, -1, 0), (-2, -1, -1, 0)]:
                ff, rr = f + df, r + dr
                if 0 <= ff <= 8 and 0 <= rr <= 9 and self.b.get(sq(f + lf, r + lr)) is None:
                    add(ff, rr)
        elif t == "R" or t == "C":
            for df, dr in [(1, 0), (-1, 0), (0, 1), (0, -1)]:
                ff, rr = f + df, r + dr
                jumped = False
                while 0 <= ff <= 8 and 0 <= rr <= 9:
                    q = self.b.get(sq(ff, rr))
                    if t == "R":
                        if q is None:
                            out.append(sq(ff, rr))
                        else:
                            if not own(q):
                                out.append(sq(ff, rr))
                            break
                    else:
                        if not jumped:
                            if q is None:
                                out.append(sq(ff, rr))
                            else:
                                jumped = True
                        elif q is not None:
                            if not own(q):
                                out.append(sq(ff, rr))
                            break
                    ff, rr = ff + df, rr + dr
        elif t == "P":
            fwd = 1 if red else -1
            add(f, r + fwd)
            crossed = (r >= 5) if red else (r <= 4)
            if crossed:
                add(f + 1, r)
                add(f - 1, r)
        return out

    def _king_sq(self, red):
        k = "K" if red else "k"
        for s, p in self.b.items():
            if p == k:
                return s
        return None

    def attacked(self, s, by_red):
        for t, p in list(self.b.items()):
            if p.isupper() == by_red and s in self._pseudo(t, p):
                return True
        return False

    def _kings_face(self):
        a, b = self._king_sq(True), self._king_sq(False)
        if a is None or b is None or a // 10 != b // 10:
            return False
        f = a // 10
        for r in range(a % 10 + 1, b % 10):
            if sq(f, r) in self.b:
                return False
        return True

    def in_check(self, red):
        k = self._king_sq(red)
        return k is not None and self.attacked(k, not red)

    def legal_moves(self):
        out = []
        for s, p in list(self.b.items()):
            if p.isupper() != self.red:
                continue
            for d in self._pseudo(s, p):
                if self.is_legal(s, d):
                    out.append((s, d))
        return out

    def is_legal(self, s, d):
        p = self.b.get(s)
        if p is None or p.isupper() != self.red or d not in self._pseudo(s, p):
            return False
        cap = self.b.get(d)
        self.b[d] = p
        del self.b[s]
        ok = not self._kings_face() and not self.in_check(self.red)
        self.b[s] = p
        if cap is None:
            del self.b[d]
        else:
            self.b[d] = cap
        return ok

    def make(self, s, d):
        self.b[d] = self.b.pop(s)
        self.red = not self.red


# ---------------------------------------------------------------- notation

PIECE_OF = {"车": "R", "車": "R", "俥": "R", "马": "N", "馬": "N", "傌": "N",
            "相": "B", "象": "B", "仕": "A", "士": "A", "帅": "K", "帥": "K",
            "将": "K", "將": "K", "炮": "C", "砲": "C", "包": "C", "兵": "P", "卒": "P"}
CN_NUM = "一二三四五六七八九"
NUM_OF = {c: i + 1 for i, c in enumerate(CN_NUM)}
NUM_OF.update({str(i): i for i in range(1, 10)})
NUM_OF.update({chr(0xFF10 + i): i for i in range(1, 10)})
DIR_OF = {"进": "+", "進": "+", "退": "-", "平": "="}
POS_OF = {"前": "front", "中": "middle", "后": "rear", "後": "rear"}


def parse_text(text):
    """Chinese move text -> token dict, or None when it is not a move.
    {'pos': None|'front'|'middle'|'rear'|int(order), 'piece': 'R'.. or None,
     'file': int or None, 'dir': '+-=', 'arg': int}"""
    t = list(text)
    if len(t) != 4:
        return None
    a, b, c, d = t
    if c not in DIR_OF or d not in NUM_OF:
        return None
    tok = {"dir": DIR_OF[c], "arg": NUM_OF[d], "pos": None, "piece": None, "file": None}
    if a in PIECE_OF and b in NUM_OF:
        tok["piece"], tok["file"] = PIECE_OF[a], NUM_OF[b]
    elif a in POS_OF and b in PIECE_OF:
        tok["pos"], tok["piece"] = POS_OF[a], PIECE_OF[b]
    elif a in CN_NUM[:5] and b in PIECE_OF and PIECE_OF[b] == "P":
        tok["pos"], tok["piece"] = NUM_OF[a], "P"
    elif a in POS_OF and b in NUM_OF:
        tok["pos"], tok["file"], tok["piece"] = POS_OF[a], NUM_OF[b], "P"
    else:
        return None
    return tok


def file_index(num, red):
    """Notation file number (1..9, from the mover's right) -> file index 0..8."""
    return 9 - num if red else num - 1


def file_number(fidx, red):
    return 9 - fidx if red else fidx + 1


def resolve(board, text):
    """Resolve Chinese move text on board (side to move).
    Returns (status, move, reason): status 'ok' with move (from, to), or
    'unparsable' | 'no_piece' | 'ambiguous' | 'bad_geometry' | 'illegal'."""
    tok = parse_text(text)
    if tok is None:
        return "unparsable", None, "not a move text"
    red = board.red
    want = tok["piece"] if red else tok["piece"].lower()
    fwd = 1 if red else -1
    pieces = [s for s, p in board.b.items() if p == want]
    if tok["file"] is not None:
        pieces = [s for s in pieces if s // 10 == file_index(tok["file"], red)]
    if tok["pos"] is not None:
        # group by file, keep files holding 2+ such pieces
        byf = {}
        for s in pieces:
            byf.setdefault(s // 10, []).append(s)
        files = [f for f, l in byf.items() if len(l) >= 2]
        if len(files) != 1:
            return ("no_piece" if not files else "ambiguous"), None, \
                "position word without a unique doubled file"
        col = sorted(byf[files[0]], key=lambda s: -fwd * (s % 10))  # front first
        pos = tok["pos"]
        if pos == "front":
            cand = [col[0]]
        elif pos == "rear":
            cand = [col[-1]]
        elif pos == "middle":
            if len(col) != 3:
                return "ambiguous", None, "middle needs exactly three"
            cand = [col[1]]
        else:
            if pos > len(col):
                return "no_piece", None, "no such pawn"
            cand = [col[pos - 1]]
    else:
        if not pieces:
            return "no_piece", None, "no such piece on that file"
        cand = pieces
    results = [_dest(board, s, tok, red, fwd) for s in cand]
    legal = [r for r in results if r[0] == "ok"]
    if len(legal) == 1:
        return legal[0]
    if len(legal) > 1:
        return "ambiguous", None, "two like pieces on the file can make that move"
    if len(results) > 1:
        geo = [r for r in results if r[0] == "illegal"]
        return (geo[0] if geo else results[0])
    return results[0]


def _dest(board, s, tok, red, fwd):
    f, r = divmod(s, 10)
    t, dr, arg = tok["piece"], tok["dir"], tok["arg"]
    if t in "RCPK":
        if dr == "=":
            d = sq(file_index(arg, red), r)
            if d // 10 == f:
                return "bad_geometry", None, "sideways to its own file"
        else:
            d = sq(f, r + (fwd if dr == "+" else -fwd) * arg)
    else:
        tf = file_index(arg, red)
        df = abs(tf - f)
        if dr == "=":
            return "bad_geometry", None, "diagonal mover cannot move sideways"
        step = {"N": {1: 2, 2: 1}, "B": {2: 2}, "A": {1: 1}}[t].get(df)
        if step is None:
            return "bad_geometry", None, "impossible file change"
        d = sq(tf, r + (fwd if dr == "+" else -fwd) * step)
    if not (0 <= d // 10 <= 8 and 0 <= d % 10 <= 9):
        return "bad_geometry", None, "off the board"
    if not board.is_legal(s, d):
        return "illegal", (s, d), "not a legal move"
    return "ok", (s, d), ""


def check_game(game):
    """Replay the PGN text against the ICCS truth. Returns (ok, reason, canon)
    where canon lists the per-ply tokens' texts as given."""
    if "iccs" not in game:
        return False, "no ICCS truth"
    moves, iccs = game["moves"], game["iccs"]
    if len(moves) != len(iccs):
        return False, "move count %d != ICCS count %d" % (len(moves), len(iccs))
    if not moves:
        return False, "empty game"
    try:
        b = Board(game["start_fen"])
    except Exception:
        return False, "bad FEN"
    for i, (txt, mv) in enumerate(zip(moves, iccs)):
        st, m, why = resolve(b, txt)
        if st != "ok" or sqs_to_iccs(*m) != mv:
            return False, "ply %d %s: %s %s" % (i + 1, txt, st, why)
        b.make(*m)
    return True, ""


# ---------------------------------------------------------------- spelling

SIMP = {"車": "车", "馬": "马", "帥": "帅", "將": "将", "進": "进", "後": "后"}
TRAD = {v: k for k, v in SIMP.items()}


def make_spelling(rng):
    """Per-writer spelling preferences."""
    trad = rng.random() < 0.4
    s = {"script": "traditional" if trad else "simplified"}
    s["red_rook"] = rng.choice(["車", "俥"]) if trad else rng.choice(["车"] * 4 + ["俥"])
    s["red_horse"] = rng.choice(["馬", "傌"]) if trad else rng.choice(["马"] * 4 + ["傌"])
    s["black_cannon"] = rng.choice(["炮"] * 3 + ["砲", "包"])
    s["digits"] = rng.choice(["halfwidth", "fullwidth"])
    return s


def spell(text, red, sp):
    """Rewrite corpus move text the way this writer writes it."""
    out = []
    for i, ch in enumerate(text):
        if sp["script"] == "simplified":
            ch = SIMP.get(ch, ch)
        else:
            ch = TRAD.get(ch, ch)
        if PIECE_OF.get(ch) == "R" and red:
            ch = sp["red_rook"]
        elif PIECE_OF.get(ch) == "N" and red:
            ch = sp["red_horse"]
        elif PIECE_OF.get(ch) == "C" and not red:
            ch = sp["black_cannon"]
        if not red and ch in NUM_OF and ch not in CN_NUM:
            n = NUM_OF[ch]
            ch = str(n) if sp["digits"] == "halfwidth" else chr(0xFF10 + n)
        out.append(ch)
    return "".join(out)


def text_of_token(piece, fnum, dir_, arg, red, sp):
    """Compose a file-form move text in the writer's spelling."""
    names = {"R": "车", "N": "马", "B": "相" if red else "象", "A": "仕" if red else "士",
             "K": "帅" if red else "将", "C": "炮", "P": "兵" if red else "卒"}
    num = (lambda n: CN_NUM[n - 1]) if red else (lambda n: chr(0xFF10 + n))
    raw = names[piece] + num(fnum) + {"+": "进", "-": "退", "=": "平"}[dir_] + num(arg)
    return spell(raw, red, sp)


def inject_illegal(board, text, rng, sp):
    """A move text close to `text` that is not a legal move on board (a wrong
    file digit or target), or None. Returns (new_text, reason)."""
    tok = parse_text(text)
    if tok is None or tok["file"] is None or tok["pos"] is not None:
        return None
    red = board.red
    tries = []
    for dfile in (1, -1, 2, -2, 3, -3, 4, -4):
        nf = tok["file"] + dfile
        if 1 <= nf <= 9:
            tries.append(("file", nf, tok["arg"]))
    for darg in (1, -1, 2, -2):
        na = tok["arg"] + darg
        if 1 <= na <= 9:
            tries.append(("arg", tok["file"], na))
    rng.shuffle(tries)
    tries.sort(key=lambda x: 0 if x[0] == "file" else 1)
    for kind, nf, na in tries:
        cand = text_of_token(tok["piece"], nf, tok["dir"], na, red, sp)
        st, m, why = resolve(board, cand)
        if st in ("no_piece", "illegal", "bad_geometry"):
            return cand, "%s: %s" % (st, why)
    return None
