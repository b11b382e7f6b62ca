#!/usr/bin/env python3
"""The squares model (materialist fit --model squares) refitted by scikit-learn.

The CLI writes the training games' positions (`materialist positions --split training`) and fits
the model at one penalty (`--squares-lambda`); this script builds the same 768 columns from the
EPD lines (a piece on square s: +f on its middlegame cell, +(1 - f) on its endgame cell, Black's
on the mirrored square with a minus, f = phase / 24), and minimises the same objective with
scikit-learn's Newton-CG: sum of log-losses + lambda * sum over the twelve tables of (theta - the
table's mean)^2 + eps * sum theta^2. The penalty is a generalised ridge theta' Q theta; with
phi = sqrt(2Q) theta it is sklearn's plain 1/2 |phi|^2 (C = 1), so the columns are multiplied
by sqrt(2Q)^-1 and the coefficients mapped back. Draws are left out, as the CLI's default.
Prints the largest difference in log-odds; exits 1 above the tolerance.
"""
import argparse
import json
import subprocess
import sys
import warnings

import numpy as np
from sklearn.linear_model import LogisticRegression

CELLS = 384
PHASE = {"n": 1, "b": 1, "r": 2, "q": 4}
TYPES = "pnbrqk"
EPS = 1e-3


def features(epd_lines):
    rows, labels = [], []
    for line in epd_lines:
        placement, _, _, _, label = line.split(" ")
        score = float(label.strip("[]"))
        if score == 0.5:
            continue  # draws left out
        pieces = []
        rank = 7
        for row in placement.split("/"):
            file = 0
            for c in row:
                if c.isdigit():
                    file += int(c)
                    continue
                pieces.append((rank * 8 + file, c))
                file += 1
            rank -= 1
        phase = min(24, sum(PHASE.get(c.lower(), 0) for _, c in pieces))
        f = phase / 24.0
        x = np.zeros(2 * CELLS)
        for square, c in pieces:
            black = c.islower()
            cell = TYPES.index(c.lower()) * 64 + (square ^ 56 if black else square)
            sign = -1.0 if black else 1.0
            x[cell] += sign * f
            x[CELLS + cell] += sign * (1 - f)
        rows.append(x)
        labels.append(int(score))
    return np.array(rows), np.array(labels)


def inverse_root_penalty(lam):
    """sqrt(2Q)^-1 for Q = lam * centring + eps * I (the centring projector per 64-block)."""
    block = np.eye(64) - np.ones((64, 64)) / 64
    centring = np.kron(np.eye(12), block)
    rest = np.eye(2 * CELLS) - centring
    return centring / np.sqrt(2 * (lam + EPS)) + rest / np.sqrt(2 * EPS)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pgn")
    parser.add_argument("--cli", required=True)
    parser.add_argument("--max-games", default="400")
    parser.add_argument("--lambda", dest="lam", type=float, default=16.0)
    parser.add_argument("--tolerance", type=float, default=1e-4)
    args = parser.parse_args()
    common = ["--every-position", "--max-games", args.max_games, "--no-progress", args.pgn]
    epd = subprocess.run([args.cli, "positions", "--split", "training"] + common,
                         check=True, capture_output=True, text=True).stdout.splitlines()
    fit = json.loads(subprocess.run(
        [args.cli, "fit", "--model", "squares", "--squares-lambda", str(args.lam), "--units",
         "logodds", "--json"] + common, check=True, capture_output=True, text=True).stdout)
    x, y = features(epd)
    transform = inverse_root_penalty(args.lam)
    model = LogisticRegression(C=1.0, fit_intercept=False, solver="newton-cg", tol=1e-10,
                               max_iter=20000)
    with warnings.catch_warnings():  # Newton-CG's line search ends in rounding, converged
        warnings.simplefilter("ignore")
        model.fit(x @ transform, y)
    theta = transform @ model.coef_[0]
    cli = []
    for phase in ("mg", "eg"):
        for piece in "PNBRQK":
            cli.extend(fit["squares"][phase][piece])
    cli = np.array(cli)
    worst = float(np.max(np.abs(cli - theta)))

    def objective(t):
        z = x @ t
        loss = np.sum(np.logaddexp(0, z) - y * z)
        tables = t.reshape(12, 64)
        centred = tables - tables.mean(axis=1, keepdims=True)
        return loss + args.lam * np.sum(centred ** 2) + EPS * np.sum(t ** 2)

    print(f"objective: the CLI's {objective(cli):.9f}, scikit-learn's {objective(theta):.9f}; "
          f"worst at column {int(np.argmax(np.abs(cli - theta)))}")
    trained = fit["validation"]["trainingPositions"]
    print(f"squares cross-check: {len(y)} training positions (the CLI: {trained}), lambda "
          f"{args.lam}: largest difference {worst:.2e} log-odds (tolerance {args.tolerance})")
    if len(y) != trained:
        print("the CLI's training positions differ from the exported ones", file=sys.stderr)
        return 1
    return 0 if worst <= args.tolerance else 1


if __name__ == "__main__":
    sys.exit(main())
