#!/usr/bin/env python3
"""Cross-check materialist's game-clustered standard errors against statsmodels.

    build/native/materialist rows --game-ids --no-progress tests/fixtures/pgn/OpenRating.pgn \
        > rows.txt
    /usr/bin/python3 scripts/statsmodels_crosscheck.py rows.txt \
        --pgn tests/fixtures/pgn/OpenRating.pgn --cli build/native/materialist

rows.txt holds one row per line: dP dN dB dR dQ result (0 black wins, 1 draw, 2 white wins)
and the game id. statsmodels fits a binomial GLM (logit link, no intercept) on the decisive rows
with cov_type="cluster", groups = game id; materialist fits the same model on the PGN (which it
groups by game itself) with `fit --lambda 0 --json`. Both use the default small-sample factor
G/(G-1) * (N-1)/(N-K) (statsmodels' use_correction=True), N the decisive rows, K = 5, G the
games with a decisive row. The clustered standard errors of theta must agree within --tolerance
(1e-3, relative); theta and the model-based errors are compared as well. The table printed is
the one in docs/METHOD.md: model-based vs game-clustered errors and their ratio.
Exit status: 0 all agree, 1 a mismatch, 2 a setup problem (no statsmodels, CLI failed, bad file).
Debian's python3-statsmodels lives in /usr/bin/python3 (a pyenv python3 may not see it).
"""

import argparse
import sys

try:
    import numpy as np
    import statsmodels.api as sm

    from mat_rows import PIECES, cli_fit_json, load_rows
except ImportError as error:  # pragma: no cover - environment problem
    print(f"statsmodels_crosscheck: {error}; run with /usr/bin/python3 (Debian "
          "python3-statsmodels) or install statsmodels", file=sys.stderr)
    sys.exit(2)


def statsmodels_fit(x, result, game):
    """Draws left out, white win = 1; model-based and game-clustered covariances."""
    decisive = result != 1
    xs, ys, groups = x[decisive], (result[decisive] == 2).astype(float), game[decisive]
    model = sm.GLM(ys, xs, family=sm.families.Binomial())
    plain = model.fit(tol=1e-14, maxiter=100)
    clustered = model.fit(tol=1e-14, maxiter=100, cov_type="cluster",
                          cov_kwds={"groups": groups})
    return {
        "theta": np.asarray(clustered.params),
        "se_model": np.asarray(plain.bse),
        "se_clustered": np.asarray(clustered.bse),
        "rows": int(decisive.sum()),
        "games": int(len(np.unique(groups))),
    }


def cli_fit(cli, pgn):
    report = cli_fit_json(cli, pgn, "draws-out", "0")
    if report.get("errors") != "game-clustered":
        raise RuntimeError(f"the CLI reported {report.get('errors')!r} errors, not game-clustered")
    return {
        "theta": np.array(report["theta"], dtype=float),
        "se_clustered": np.array(report["thetaSe"], dtype=float),
        "se_model": np.array(report["thetaSeModel"], dtype=float),
        "games": report.get("clusteredGames"),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", help="rows --game-ids output (dP dN dB dR dQ result game)")
    parser.add_argument("--pgn", required=True, help="the PGN the rows came from")
    parser.add_argument("--cli", default="build/native/materialist", help="materialist binary")
    parser.add_argument("--tolerance", type=float, default=1e-3,
                        help="max relative difference of the standard errors")
    args = parser.parse_args()

    try:
        x, result, game = load_rows(args.rows, game_ids=True)
        ours = cli_fit(args.cli, args.pgn)
    except (OSError, ValueError, RuntimeError, KeyError) as error:
        print(f"statsmodels_crosscheck: {error}", file=sys.stderr)
        return 2
    theirs = statsmodels_fit(x, result, game)

    def relative(a, b):
        return float(np.max(np.abs(a - b) / np.abs(b)))

    checks = [
        ("theta", relative(ours["theta"], theirs["theta"])),
        ("model se", relative(ours["se_model"], theirs["se_model"])),
        ("clustered se", relative(ours["se_clustered"], theirs["se_clustered"])),
    ]
    print(f"draws-out on {theirs['rows']} decisive rows of {theirs['games']} games "
          f"(materialist: {ours['games']} games)")
    print("      theta       se model    se clustered  ratio   statsmodels se model / clustered")
    for i, name in enumerate(PIECES):
        print(f"  {name}  {ours['theta'][i]:9.6f}  {ours['se_model'][i]:10.6f}  "
              f"{ours['se_clustered'][i]:12.6f}  {ours['se_clustered'][i] / ours['se_model'][i]:5.3f}"
              f"   {theirs['se_model'][i]:10.6f} / {theirs['se_clustered'][i]:10.6f}")
    ok = True
    for name, difference in checks:
        agree = difference <= args.tolerance
        ok = ok and agree
        print(f"  {name:>12}: max relative difference {difference:.2e} "
              f"({'ok' if agree else 'MISMATCH'}, tolerance {args.tolerance:g})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
