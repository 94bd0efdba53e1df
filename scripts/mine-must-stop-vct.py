#!/usr/bin/env python3
"""Mines positions where the side to move must stop the opponent's VCT.

The positions of tests/data/must_stop_vct.txt come from mnk's own games:
`mnk brain` against itself at 100 ms a move. A position is kept when, if
the opponent were to move, it would win by continuous threats (threes
and fours, within --depth attacker moves and --budget nodes) in 8 plies
or more, but not by continuous fours alone; the side to move has no VCF
of its own and no VCT found within the budget; and some move of the side
to move leaves the opponent no VCT within the same depth and budget.
Every verdict comes from `mnk solve --vct/--vcf --json`.

`mnk solve` asks about the side to move, and a position cannot pass, so
"as if the opponent were to move" is asked with one stone of the side to
move added in a far empty corner. A defender's extra stone can only make
the attacker's win harder, so a win found there is a win without it; the
corner is far from every stone, and two corners must give the same
verdicts. (`tests/it/brain.rs` checks each kept position again through
the library, where the attacker need not be the side to move.)

Two phases, so that the deterministic part can be re-run exactly:
  play   games with `mnk brains`, appended to a records file (timed games
         vary from run to run, so the records are kept with the data);
  scan   the records' positions; prints the kept ones, one a line (moves
         from the empty board, black first), and a summary on stderr.

At most one position per game is kept: of those that qualify, the one
whose own VCT search (the side to move's) took the most nodes, as a
root that runs that search first may spend the move's time on it; then
the longest VCT. A position whose stones (up to the board's symmetries)
are a subset of an earlier kept one's, or the reverse, is left out: no
two are on the same line of play. Of the positions, --keep are printed,
again those whose own VCT search took the most nodes.

  share  asks a build's `mnk brain` for a move in each position of a data
         file and counts those after which the opponent has no VCT (or
         VCF, --mode vcf) left.

Example (the data file's header has the exact commands):
  scripts/mine-must-stop-vct.py play --mnk target/release/mnk \\
      --records games.csv --book-from 31 --book-count 100
  scripts/mine-must-stop-vct.py scan --mnk target/release/mnk \\
      --records games.csv > positions.txt
  scripts/mine-must-stop-vct.py share --mnk target/release/mnk \\
      --bin /path/to/other/mnk --turn-ms 300
"""

import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time

SIZE = 15
CORNERS = [(0, 0), (SIZE - 1, 0), (0, SIZE - 1), (SIZE - 1, SIZE - 1)]


def die(msg):
    sys.exit(f"mine-must-stop-vct: {msg}")


# ---------------------------------------------------------------- play


def check_part(book, first, count):
    """Openings `first`..`first+count-1` (1-based) of the book's check part
    (every 4th opening, as `mnk brains` plays them)."""
    out = []
    n = 0
    with open(book) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            n += 1
            if n % 4 == 0:
                k = n // 4
                if first <= k < first + count:
                    out.append(line)
    if len(out) != count:
        die(f"{book}: the check part has no openings {first}..{first + count - 1}")
    return out


def play(a):
    mnk = os.path.abspath(a.mnk)
    brain = f"{mnk} brain"
    base = ["nice", "-n", "10", mnk, "brains", brain, brain,
            "--turn-ms", str(a.turn_ms), "--records", a.records]
    if a.book_count:
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.writelines(check_part(a.book, a.book_from, a.book_count))
            path = f.name
        try:
            run(base + ["--openings-file", path])
        finally:
            os.unlink(path)
    for seed in a.random_seeds:
        run(base + ["--random-openings", "--stones", str(a.stones),
                    "--seed", str(seed), "-n", str(a.random_count)])


def run(cmd):
    print("+", " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True, stdout=sys.stderr)


# ---------------------------------------------------------------- scan


def games(path):
    """The records file's games as lists of (x, y), in the CSV layout of
    crates/play/src/records (a `0` line, `x,y` lines, a result line with y = -1)."""
    out, cur = [], None
    with open(path) as f:
        for i, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line == "0" and cur is None:
                cur = []
                continue
            try:
                x, y = (int(v) for v in line.split(","))
            except ValueError:
                die(f"{path}:{i}: expected x,y, found {line!r}")
            if cur is None:
                die(f"{path}:{i}: a move before a game's 0 line")
            if y == -1:
                out.append(cur)
                cur = None
            else:
                cur.append((x, y))
    if cur is not None:
        die(f"{path}: the last game has no result line")
    return out


class Solver:
    def __init__(self, mnk, depth, budget):
        self.mnk, self.depth, self.budget = mnk, depth, budget
        self.calls = 0

    def solve(self, moves, mode):
        """`mnk solve --MODE` of the position after `moves` ((x, y) pairs):
        (verdict, plies, line, moves named, nodes) for the side to move."""
        self.calls += 1
        cmd = [self.mnk, "solve", "-g", "gomoku", f"--{mode}", "--json",
               "--budget", str(self.budget)]
        if mode == "vct":
            cmd += ["--depth", str(self.depth)]
        cmd += [f"{x},{y}" for x, y in moves]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            die(f"{' '.join(cmd)}: {r.stderr.strip()}")
        j = json.loads(r.stdout)
        return j["verdict"], j["plies"], j["line"], j["moves"], j["nodes"]


def far_corners(moves):
    """The empty corners, farthest from every stone first."""
    def dist(c):
        return min(max(abs(c[0] - x), abs(c[1] - y)) for x, y in moves)
    return sorted((c for c in CORNERS if c not in moves), key=dist, reverse=True)


def near_cells(moves, line_cells):
    """The side to move's candidate stops: the opponent's threat line's
    cells first, then every empty cell within 2 of a stone."""
    taken = set(moves)
    out = [c for c in line_cells if c not in taken]
    for x in range(SIZE):
        for y in range(SIZE):
            c = (x, y)
            if c in taken or c in out:
                continue
            if any(max(abs(x - a), abs(y - b)) <= 2 for a, b in moves):
                out.append(c)
    return out


def xy(name):
    """'h8' -> (7, 7): the column letter, the row counted from the top."""
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def symmetries(stones):
    """The 8 images of a set of (colour, x, y) under the board's symmetries."""
    n = SIZE - 1
    maps = [lambda x, y: (x, y), lambda x, y: (n - x, y),
            lambda x, y: (x, n - y), lambda x, y: (n - x, n - y),
            lambda x, y: (y, x), lambda x, y: (n - y, x),
            lambda x, y: (y, n - x), lambda x, y: (n - y, n - x)]
    return [frozenset((c,) + f(x, y) for c, x, y in stones) for f in maps]


def stones_of(moves):
    return frozenset((i % 2, x, y) for i, (x, y) in enumerate(moves))


def qualifies(s, moves, min_plies, max_stop_tries):
    """Why the position after `moves` is not kept, or the facts it is kept
    with."""
    corners = far_corners(moves)[:2]
    if len(corners) < 2:
        return "corners taken", None
    # The opponent's threats, as if it were to move: a stone of the side
    # to move in each of two far corners.
    vct = [s.solve(moves + [c], "vct") for c in corners]
    if vct[0][0] != "win":
        return f"no opponent VCT ({vct[0][0]})", None
    if vct[0][:2] != vct[1][:2]:
        return "corners disagree", None
    plies = vct[0][1]
    if plies < min_plies:
        return f"VCT in {plies} plies", None
    vcf = [s.solve(moves + [c], "vcf")[0] for c in corners]
    if vcf != ["none", "none"]:
        return f"opponent VCF {vcf}", None
    # The side to move must defend: no VCF of its own, and no VCT found
    # within the budget. Its VCT search is what a root that runs it first
    # may spend the move's time on (an "unknown" spent all the budget).
    if s.solve(moves, "vcf")[0] != "none":
        return "own VCF", None
    own = s.solve(moves, "vct")
    if own[0] == "win":
        return "own VCT", None
    line = [xy(m) for m in vct[0][2]]
    for m in near_cells(moves, line)[:max_stop_tries]:
        v = s.solve(moves + [m], "vct")
        if v[0] == "none":
            return None, {"plies": plies, "line": vct[0][2], "stop": v[3][-1],
                          "own": own[0], "own_nodes": own[4]}
    return "no stop found", None


def qualifying(job):
    """The positions of one game that qualify, as (ply, moves, facts)."""
    a, moves = job
    s = Solver(a.mnk, a.depth, a.budget)
    out, reasons = [], {}
    # Positions before the last move (a finished game has nothing to
    # stop), from ply --from-ply on.
    for ply in range(a.from_ply, len(moves)):
        pos = moves[:ply]
        why, facts = qualifies(s, pos, a.min_plies, a.max_stop_tries)
        if why is None:
            out.append((ply, pos, facts))
        else:
            key = why.split(" (")[0].split(" [")[0]
            reasons[key] = reasons.get(key, 0) + 1
    return out, reasons, s.calls


def scan(a):
    kept, kept_sets = [], []
    reasons = {}
    found = calls = 0
    t0 = time.time()
    all_games = games(a.records)[: a.games]
    # Each game is searched on its own (--jobs at once); what is kept is
    # then decided in game order, so the result is the same for any
    # number of jobs.
    with multiprocessing.Pool(a.jobs) as pool:
        results = pool.imap(qualifying, [(a, g) for g in all_games])
        for g, (positions, why, n) in enumerate(results, 1):
            calls += n
            for k, v in why.items():
                reasons[k] = reasons.get(k, 0) + v
            # Of a game's positions that qualify and are not the same
            # line as one kept, the one whose own VCT search took the
            # most nodes is kept (then the longest VCT, then the
            # earliest).
            best = None
            for ply, pos, facts in positions:
                images = symmetries(stones_of(pos))
                if any(i <= k or k <= i for k in kept_sets for i in images):
                    reasons["same line as a kept one"] = reasons.get("same line as a kept one", 0) + 1
                    continue
                found += 1
                rank = (facts["own_nodes"], facts["plies"])
                if best is None or rank > (best[2]["own_nodes"], best[2]["plies"]):
                    best = (ply, pos, facts)
            if best is None:
                continue
            ply, pos, facts = best
            names = Solver(a.mnk, a.depth, a.budget).solve(pos, "vcf")[3]
            kept.append((facts["own_nodes"], facts["plies"], g, names))
            kept_sets.append(stones_of(pos))
            print(f"game {g} ply {ply}: opponent VCT in {facts['plies']} "
                  f"({' '.join(facts['line'])}), stopped by {facts['stop']}; own VCT "
                  f"{facts['own']} after {facts['own_nodes']} nodes: {' '.join(names)}",
                  file=sys.stderr, flush=True)
    # The --keep positions whose own VCT search took the most nodes (then
    # the longest VCTs, then the earliest game), printed in game order.
    chosen = sorted(kept, key=lambda k: (-k[0], -k[1], k[2]))[: a.keep]
    for _, _, g, names in sorted(chosen, key=lambda k: k[2]):
        print(" ".join(names))
    print(f"{len(kept)} positions (one a game) of {found} that qualify, from "
          f"{len(all_games)} games, {calls} solves, "
          f"{time.time() - t0:.0f} s; positions left out: {reasons}", file=sys.stderr)


# ---------------------------------------------------------------- share


def share(a):
    """Asks `BIN brain` for a move in each position of a data file at
    --turn-ms and checks with `mnk solve --vct` (or --vcf) whether the
    opponent then still wins."""
    s = Solver(a.mnk, a.depth, a.budget)
    positions = []
    with open(a.file) as f:
        for line in f:
            # Moves, then maybe a comment (`# known miss: ...`).
            moves = line.split("#")[0].split()
            if moves:
                positions.append(moves)
    stopped, missed = 0, []
    for names in positions:
        moves = [xy(m) for m in names]
        n = len(moves)
        inp = ["START 15", f"INFO timeout_turn {a.turn_ms}", "BOARD"]
        for i, (x, y) in enumerate(moves):
            inp.append(f"{x},{y},{1 if (n - i) % 2 == 0 else 2}")
        inp += ["DONE", "END"]
        r = subprocess.run(["nice", "-n", "10", a.bin, "brain"], input="\r\n".join(inp) + "\r\n",
                           capture_output=True, text=True, timeout=60)
        answers = [l for l in r.stdout.split() if "," in l and l[0].isdigit()]
        if not answers:
            die(f"{a.bin} brain gave no move for {' '.join(names)}: {r.stdout!r}")
        m = tuple(int(v) for v in answers[0].split(","))
        verdict, plies, line, named, _ = s.solve(moves + [m], a.mode)
        if verdict == "none":
            stopped += 1
        else:
            missed.append(f"{' '.join(names)} -> {named[-1]}: opponent {a.mode} {verdict}"
                          + (f" in {plies}: {' '.join(line)}" if verdict == "win" else ""))
    for m in missed:
        print(m)
    print(f"{a.bin} at {a.turn_ms} ms: stops {stopped}/{len(positions)} of {a.file} "
          f"({a.mode} depth {a.depth}, {a.budget} nodes)")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    pl = sub.add_parser("play", help="play games into a records file")
    pl.add_argument("--mnk", required=True)
    pl.add_argument("--records", required=True)
    pl.add_argument("--turn-ms", type=int, default=100)
    pl.add_argument("--book", default="openings/gomoku.txt")
    pl.add_argument("--book-from", type=int, default=31,
                    help="first check-part opening (1-based)")
    pl.add_argument("--book-count", type=int, default=0)
    pl.add_argument("--random-seeds", type=int, nargs="*", default=[])
    pl.add_argument("--random-count", type=int, default=10)
    pl.add_argument("--stones", type=int, default=4)
    sc = sub.add_parser("scan", help="mine the records' positions")
    sc.add_argument("--mnk", required=True)
    sc.add_argument("--records", required=True)
    sc.add_argument("--depth", type=int, default=6)
    sc.add_argument("--budget", type=int, default=200000)
    sc.add_argument("--min-plies", type=int, default=8)
    sc.add_argument("--from-ply", type=int, default=6)
    sc.add_argument("--max-stop-tries", type=int, default=80)
    sc.add_argument("--jobs", type=int, default=1,
                    help="games searched at once (the result is the same)")
    sc.add_argument("--games", type=int, default=None,
                    help="scan only the first N games")
    sc.add_argument("--keep", type=int, default=40,
                    help="print at most N positions, those whose own VCT took the most nodes")
    sh = sub.add_parser("share", help="the share of positions a brain stops")
    sh.add_argument("--mnk", required=True, help="the mnk that solves")
    sh.add_argument("--bin", required=True, help="the mnk whose brain answers")
    sh.add_argument("--file", default="tests/data/must_stop_vct.txt")
    sh.add_argument("--turn-ms", type=int, default=300)
    sh.add_argument("--mode", choices=["vct", "vcf"], default="vct")
    sh.add_argument("--depth", type=int, default=6)
    sh.add_argument("--budget", type=int, default=200000)
    a = p.parse_args()
    {"play": play, "scan": scan, "share": share}[a.cmd](a)


if __name__ == "__main__":
    main()
