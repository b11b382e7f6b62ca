#!/usr/bin/env python3
"""Cross-check materialist's evaluation target against an independent implementation.

    /usr/bin/python3 scripts/eval_crosscheck.py tests/fixtures/pgn/lichess-2021-10-first999.pgn \
        --cli build/native/materialist

A second code path, sharing nothing with the C++ core: this script reads the PGN itself (its own
tokenizer, its own legal-move replay of SAN, the quiet filter of METHOD.md §1, lichess's [%eval]
comments), turns each recorded position's [%eval] into White's expected score
p = 1 / (1 + exp(-0.00368208 * clamp(cp, -1000, 1000))) (mates 1 or 0), and fits the logistic
regression with these fractional targets by Newton's method in numpy (no intercept, lambda 0).
Checks:
  - the rows: the same (deltas, target, game) as `materialist rows --target eval --game-ids`;
  - the fit: theta and the pawn = 100 values equal `materialist fit --target eval --lambda 0
    --json`'s to --tolerance (1e-6, relative);
  - the errors: statsmodels' GLM (binomial, logit, fractional y, cov_type="cluster" by game) gives
    the CLI's game-clustered standard errors to --se-tolerance (1e-3, relative);
  - both targets side by side (`materialist compare --targets result,eval --lambda 0 --json`):
    the result fit (draws as half points) on the same rows equals numpy's, and the differences'
    errors equal a numpy sandwich of the two fits' scores stacked per game (1e-3, relative).
Exit status: 0 all agree, 1 a mismatch, 2 a setup problem (no numpy/statsmodels, CLI failed).
Debian's python3-numpy and python3-statsmodels live in /usr/bin/python3.
"""

import argparse
import json
import math
import re
import subprocess
import sys

try:
    import numpy as np
    import statsmodels.api as sm
except ImportError as error:  # pragma: no cover - environment problem
    print(f"eval_crosscheck: {error}; run with /usr/bin/python3 (Debian python3-numpy and "
          "python3-statsmodels)", file=sys.stderr)
    sys.exit(2)

PIECES = "PNBRQ"

# ---- a small legal-move replay (0 = a1 ... 63 = h8; pieces as 'P', 'n', ...) ----

KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KING = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
ROOK_DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP_DIRS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def square(name):
    return (ord(name[0]) - ord("a")) + 8 * (int(name[1]) - 1)


def white(piece):
    return piece.isupper()


class Board:
    def __init__(self):
        self.sq = [None] * 64
        for f, p in enumerate("RNBQKBNR"):
            self.sq[f] = p
            self.sq[56 + f] = p.lower()
            self.sq[8 + f] = "P"
            self.sq[48 + f] = "p"
        self.white_to_move = True
        self.castling = set("KQkq")
        self.ep = None  # the square a pawn may capture onto en passant

    def attacked(self, target, by_white):
        tf, tr = target % 8, target // 8
        for df, dr in KNIGHT:
            f, r = tf + df, tr + dr
            if 0 <= f < 8 and 0 <= r < 8:
                p = self.sq[r * 8 + f]
                if p and p.upper() == "N" and white(p) == by_white:
                    return True
        for df, dr in KING:
            f, r = tf + df, tr + dr
            if 0 <= f < 8 and 0 <= r < 8:
                p = self.sq[r * 8 + f]
                if p and p.upper() == "K" and white(p) == by_white:
                    return True
        pawn_rank = tr - 1 if by_white else tr + 1
        for df in (-1, 1):
            f = tf + df
            if 0 <= f < 8 and 0 <= pawn_rank < 8:
                p = self.sq[pawn_rank * 8 + f]
                if p and p.upper() == "P" and white(p) == by_white:
                    return True
        for dirs, kinds in ((ROOK_DIRS, "RQ"), (BISHOP_DIRS, "BQ")):
            for df, dr in dirs:
                f, r = tf + df, tr + dr
                while 0 <= f < 8 and 0 <= r < 8:
                    p = self.sq[r * 8 + f]
                    if p:
                        if p.upper() in kinds and white(p) == by_white:
                            return True
                        break
                    f, r = f + df, r + dr
        return False

    def king(self, is_white):
        return self.sq.index("K" if is_white else "k")

    def pseudo_moves(self):
        """(from, to, promotion) of the side to move, castling included."""
        us = self.white_to_move
        moves = []
        for s, p in enumerate(self.sq):
            if not p or white(p) != us:
                continue
            f, r = s % 8, s // 8
            kind = p.upper()
            if kind == "P":
                step = 1 if us else -1
                last = 7 if us else 0
                one = s + 8 * step
                if 0 <= one < 64 and not self.sq[one]:
                    moves += self.promotions(s, one, last)
                    start = 1 if us else 6
                    two = s + 16 * step
                    if r == start and not self.sq[two]:
                        moves.append((s, two, None))
                for df in (-1, 1):
                    if 0 <= f + df < 8:
                        to = one + df
                        q = self.sq[to]
                        if (q and white(q) != us) or to == self.ep:
                            moves += self.promotions(s, to, last)
            elif kind in "NK":
                for df, dr in KNIGHT if kind == "N" else KING:
                    tf, tr = f + df, r + dr
                    if 0 <= tf < 8 and 0 <= tr < 8:
                        q = self.sq[tr * 8 + tf]
                        if not q or white(q) != us:
                            moves.append((s, tr * 8 + tf, None))
            else:
                dirs = {"R": ROOK_DIRS, "B": BISHOP_DIRS, "Q": ROOK_DIRS + BISHOP_DIRS}[kind]
                for df, dr in dirs:
                    tf, tr = f + df, r + dr
                    while 0 <= tf < 8 and 0 <= tr < 8:
                        q = self.sq[tr * 8 + tf]
                        if q and white(q) == us:
                            break
                        moves.append((s, tr * 8 + tf, None))
                        if q:
                            break
                        tf, tr = tf + df, tr + dr
        # Castling: the king and rook unmoved (rights), the squares between empty, the king's
        # path not attacked.
        rank = 0 if us else 56
        for right, rook_file, path, empty in (("K", 7, [4, 5, 6], [5, 6]),
                                              ("Q", 0, [4, 3, 2], [1, 2, 3])):
            if (right if us else right.lower()) not in self.castling:
                continue
            if self.sq[rank + 4] != ("K" if us else "k"):
                continue
            if self.sq[rank + rook_file] != ("R" if us else "r"):
                continue
            if any(self.sq[rank + e] for e in empty):
                continue
            if any(self.attacked(rank + t, not us) for t in path):
                continue
            moves.append((rank + 4, rank + path[-1], "castle"))
        return moves

    @staticmethod
    def promotions(s, to, last):
        if to // 8 == last:
            return [(s, to, k) for k in "QRBN"]
        return [(s, to, None)]

    def play(self, move):
        """Plays a pseudo-legal move; returns (captured piece or None, undo info)."""
        s, to, promo = move
        p = self.sq[s]
        captured = self.sq[to]
        if p.upper() == "P" and to == self.ep and not captured:
            behind = to - 8 if white(p) else to + 8
            captured = self.sq[behind]
            self.sq[behind] = None
        self.sq[to] = p
        self.sq[s] = None
        if promo == "castle":
            rank = s - s % 8
            if to % 8 == 6:
                self.sq[rank + 5], self.sq[rank + 7] = self.sq[rank + 7], None
            else:
                self.sq[rank + 3], self.sq[rank] = self.sq[rank], None
        elif promo:
            self.sq[to] = promo if white(p) else promo.lower()
        self.ep = None
        if p.upper() == "P" and abs(to - s) == 16:
            self.ep = (s + to) // 2
        for corner, right in ((0, "Q"), (7, "K"), (56, "q"), (63, "k")):
            if s == corner or to == corner:
                self.castling.discard(right)
        if p == "K":
            self.castling -= {"K", "Q"}
        if p == "k":
            self.castling -= {"k", "q"}
        self.white_to_move = not self.white_to_move
        return captured

    def copy(self):
        b = Board.__new__(Board)
        b.sq = list(self.sq)
        b.white_to_move = self.white_to_move
        b.castling = set(self.castling)
        b.ep = self.ep
        return b

    def legal_moves(self):
        us = self.white_to_move
        legal = []
        for move in self.pseudo_moves():
            b = self.copy()
            b.play(move)
            if not b.attacked(b.king(us), not us):
                legal.append(move)
        return legal

    def resolve_san(self, san):
        san = san.rstrip("+#!?")
        legal = self.legal_moves()
        if san in ("O-O", "0-0", "O-O-O", "0-0-0"):
            file = 6 if san.count("-") == 1 else 2
            found = [m for m in legal if m[2] == "castle" and m[1] % 8 == file]
        else:
            m = re.fullmatch(r"([NBRQK])?([a-h])?([1-8])?x?([a-h][1-8])(?:=?([NBRQ]))?", san)
            if not m:
                raise ValueError(f"unreadable SAN {san!r}")
            kind, from_file, from_rank, to, promo = m.groups()
            kind = kind or "P"
            to = square(to)
            found = []
            for move in legal:
                s, t, pr = move
                p = self.sq[s]
                if t != to or p.upper() != kind or pr == "castle":
                    continue
                if from_file and s % 8 != ord(from_file) - ord("a"):
                    continue
                if from_rank and s // 8 != int(from_rank) - 1:
                    continue
                if (pr or None) != (promo or None):
                    continue
                found.append(move)
        if len(found) != 1:
            raise ValueError(f"SAN {san!r} matches {len(found)} legal moves")
        return found[0]

    def material_delta(self):
        delta = []
        for kind in PIECES:
            delta.append(self.sq.count(kind) - self.sq.count(kind.lower()))
        return tuple(delta)


# ---- PGN: games with their tags and main-line (move, comments) ----

TOKEN = re.compile(r"\{[^}]*\}|\(|\)|\$\d+|;[^\n]*|[^\s{}()$;]+")
EVAL = re.compile(r"\[%eval\s+([^\]\s,]+)(?:,\d+)?\s*\]")


def games(text):
    blocks = re.split(r"\n\s*\n(?=\[)", text)
    for block in blocks:
        tags = dict(re.findall(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]', block, re.M))
        movetext = "\n".join(line for line in block.splitlines() if not line.startswith("["))
        moves, depth = [], 0
        for token in TOKEN.findall(movetext):
            if token == "(":
                depth += 1
            elif token == ")":
                depth -= 1
            elif depth > 0 or token.startswith("$") or token.startswith(";"):
                continue
            elif token.startswith("{"):
                if moves:
                    moves[-1][1].append(token[1:-1])
            elif re.fullmatch(r"\d+\.+", token) or token in ("1-0", "0-1", "1/2-1/2", "*"):
                continue
            else:
                moves.append((re.sub(r"^\d+\.+", "", token), []))
        if tags:
            yield tags, moves


def expected_score(argument):
    if argument.startswith("#"):
        n = int(argument[1:])
        return 1.0 if n > 0 else 0.0
    cp = max(-1000.0, min(1000.0, float(argument) * 100.0))
    return 1.0 / (1.0 + math.exp(-0.00368208 * cp))


def extract_rows(path):
    """(x, p, game, y) of every annotated recorded position, as METHOD.md's quiet filter picks;
    y is the game's result as a score (1, 1/2, 0)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    xs, ps, ids, ys = [], [], [], []
    score = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}
    for number, (tags, moves) in enumerate(games(text), start=1):
        if tags.get("Result") not in ("1-0", "0-1", "1/2-1/2"):
            continue
        if not any(EVAL.search(c) for _, comments in moves for c in comments):
            continue  # no row of this game can have a target
        board, quiet, last = Board(), 0, None
        for san, comments in moves:
            move = board.resolve_san(san)
            before = board.material_delta()
            promotion = move[2] not in (None, "castle")
            captured = board.play(move)
            check = board.attacked(board.king(board.white_to_move), not board.white_to_move)
            quiet = 0 if (captured or promotion or check) else quiet + 1
            delta = board.material_delta() if captured or promotion else before
            if quiet >= 2 and delta != last:
                last = delta
                evals = [EVAL.search(c) for c in comments]
                evals = [e.group(1) for e in evals if e]
                if evals:
                    xs.append(delta)
                    ps.append(expected_score(evals[0]))
                    ids.append(number)
                    ys.append(score[tags["Result"]])
    return np.array(xs, dtype=float), np.array(ps), np.array(ids), np.array(ys)


def newton(x, p):
    theta = np.zeros(x.shape[1])
    for _ in range(100):
        h = 1.0 / (1.0 + np.exp(-(x @ theta)))
        gradient = x.T @ (h - p)
        hessian = (x * (h * (1 - h))[:, None]).T @ x
        step = np.linalg.solve(hessian, gradient)
        theta -= step
        if np.max(np.abs(step)) < 1e-14:
            break
    return theta


def run_cli(cli, *args):
    completed = subprocess.run([cli, *args, "--no-progress"], capture_output=True, text=True)
    if completed.returncode != 0:
        raise RuntimeError(f"{cli} {' '.join(args)} failed ({completed.returncode}): "
                           f"{completed.stderr.strip()}")
    return completed.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn", help="a PGN with lichess [%%eval] annotations")
    parser.add_argument("--cli", default="build/native/materialist", help="materialist binary")
    parser.add_argument("--tolerance", type=float, default=1e-6)
    parser.add_argument("--se-tolerance", type=float, default=1e-3)
    args = parser.parse_args()

    try:
        x, p, game, y = extract_rows(args.pgn)
        cli_rows = np.loadtxt(
            [line for line in run_cli(args.cli, "rows", "--target", "eval", "--game-ids",
                                      args.pgn).splitlines()], ndmin=2)
        report = json.loads(run_cli(args.cli, "fit", "--target", "eval", "--solver", "newton",
                                    "--lambda", "0", "--json", args.pgn))
    except (OSError, ValueError, RuntimeError) as error:
        print(f"eval_crosscheck: {error}", file=sys.stderr)
        return 2

    ok = True

    def check(name, difference, tolerance):
        nonlocal ok
        agree = difference <= tolerance
        ok = ok and agree
        print(f"  {name:>14}: max difference {difference:.2e} "
              f"({'ok' if agree else 'MISMATCH'}, tolerance {tolerance:g})")

    # The rows: the same positions, targets and games (the CLI's game ids are 1-based numbers).
    ours = sorted(zip(map(tuple, x.astype(int)), np.round(p, 9), game))
    cli = sorted(zip(map(tuple, cli_rows[:, :5].astype(int)), np.round(cli_rows[:, 6], 9),
                     cli_rows[:, 7].astype(int) & ((1 << 40) - 1)))
    same_rows = len(ours) == len(cli) and all(
        a[0] == b[0] and a[2] == b[2] and abs(a[1] - b[1]) < 1e-8 for a, b in zip(ours, cli))
    print(f"{len(p)} annotated positions of {len(np.unique(game))} games "
          f"(materialist: {len(cli)} rows)")
    print(f"  {'rows':>14}: {'the same' if same_rows else 'DIFFERENT'}")
    ok = ok and same_rows

    theta = newton(x, p)
    values = 100 * theta / theta[0]
    cli_theta = np.array(report["theta"], dtype=float)
    cli_values = np.array([report["values"][k] for k in PIECES], dtype=float)
    model = sm.GLM(p, x, family=sm.families.Binomial())
    clustered = model.fit(tol=1e-14, maxiter=100, cov_type="cluster",
                          cov_kwds={"groups": game})
    cli_se = np.array(report["thetaSe"], dtype=float)
    print("      numpy theta   materialist   value (numpy / materialist)   clustered se "
          "(statsmodels / materialist)")
    for i, name in enumerate(PIECES):
        print(f"  {name}  {theta[i]:11.8f}  {cli_theta[i]:11.8f}   {values[i]:9.4f} / "
              f"{cli_values[i]:9.4f}   {clustered.bse[i]:10.6f} / {cli_se[i]:10.6f}")
    check("theta", float(np.max(np.abs(cli_theta - theta) / np.abs(theta))), args.tolerance)
    check("values", float(np.max(np.abs(cli_values - values) / np.abs(values))), args.tolerance)
    check("statsmodels θ", float(np.max(np.abs(np.asarray(clustered.params) - theta) /
                                        np.abs(theta))), args.tolerance)
    check("clustered se", float(np.max(np.abs(cli_se - clustered.bse) / clustered.bse)),
          args.se_tolerance)

    # Both targets: the result (draws as half points) on the same rows, and θ_eval − θ_result
    # with the joint game-clustered error from the per-game stacked scores.
    try:
        both = json.loads(run_cli(args.cli, "compare", "--targets", "result,eval", "--lambda", "0",
                                  "--json", args.pgn))
    except (ValueError, RuntimeError) as error:
        print(f"eval_crosscheck: {error}", file=sys.stderr)
        return 2
    theta_r = newton(x, y)
    rows, k = x.shape
    groups = np.unique(game)
    factor = len(groups) / (len(groups) - 1) * (rows - 1) / (rows - k)

    def bread(theta):
        h = 1.0 / (1.0 + np.exp(-(x @ theta)))
        return np.linalg.inv((x * (h * (1 - h))[:, None]).T @ x), h

    b_r, h_r = bread(theta_r)
    b_e, h_e = bread(theta)
    s_r = np.array([x[game == g].T @ (y[game == g] - h_r[game == g]) for g in groups])
    s_e = np.array([x[game == g].T @ (p[game == g] - h_e[game == g]) for g in groups])
    v_r = factor * b_r @ (s_r.T @ s_r) @ b_r
    v_e = factor * b_e @ (s_e.T @ s_e) @ b_e
    cross = factor * b_r @ (s_r.T @ s_e) @ b_e
    se_diff = np.sqrt(np.diag(v_r) + np.diag(v_e) - 2 * np.diag(cross))
    cli_r = np.array([c["result"]["theta"] for c in both["coefficients"]], dtype=float)
    cli_diff_se = np.array([c["thetaDifference"]["se"] for c in both["coefficients"]], dtype=float)
    print("      result theta (numpy / materialist)   eval - result se (numpy / materialist)")
    for i, name in enumerate(PIECES):
        print(f"  {name}  {theta_r[i]:11.8f} / {cli_r[i]:11.8f}   {se_diff[i]:10.6f} / "
              f"{cli_diff_se[i]:10.6f}")
    check("result theta", float(np.max(np.abs(cli_r - theta_r) / np.abs(theta_r))),
          args.tolerance)
    check("difference se", float(np.max(np.abs(cli_diff_se - se_diff) / se_diff)),
          args.se_tolerance)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
