#!/usr/bin/env python3
"""Cross-check materialist's exact fits against scikit-learn on a .mat file.

    /usr/bin/python3 scripts/sklearn_crosscheck.py tests/fixtures/learn/OpenRating.article.mat \
        --cli build/native/materialist

A .mat file holds one row per line: dP dN dB dR dQ result (0 black wins, 1 draw, 2 white wins).
Two models are fitted both ways, and their theta must agree within --tolerance (1e-4):

  draws-out   binary logistic on the decisive rows (white win = 1), as the article;
  fractional  target 0, 1/2, 1: every row enters twice, as label 1 with weight y and as label 0
              with weight 1 - y, so the weighted log-loss is the fractional cross-entropy.

Both use no intercept. materialist minimises (1/m) sum(loss) + lambda * |theta|^2 (lambda 1e-6);
scikit-learn minimises C * sum(loss) + |w|^2 / 2, the same optimum for C = 1 / (2 m lambda).
Exit status: 0 all agree, 1 a mismatch, 2 a setup problem (no scikit-learn, CLI failed, bad file).
Debian's python3-sklearn lives in /usr/bin/python3 (a pyenv python3 may not see it).
"""

import argparse
import sys

try:
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    from mat_rows import PIECES, cli_fit_json, load_rows
except ImportError as error:  # pragma: no cover - environment problem
    print(f"sklearn_crosscheck: {error}; run with /usr/bin/python3 (Debian python3-sklearn) "
          "or install scikit-learn", file=sys.stderr)
    sys.exit(2)


def sklearn_theta(x, labels, weights, lam):
    """Weighted binary logistic regression without intercept, penalty matched to lambda."""
    m = weights.sum()
    model = LogisticRegression(fit_intercept=False, C=1.0 / (2.0 * m * lam),
                               solver="newton-cholesky", tol=1e-12, max_iter=1000)
    model.fit(x, labels, sample_weight=weights)
    return model.coef_.ravel()


def fit_draws_out(x, result, lam):
    decisive = result != 1
    xs = x[decisive]
    labels = (result[decisive] == 2).astype(int)
    return sklearn_theta(xs, labels, np.ones(len(xs)), lam)


def fit_fractional(x, result, lam):
    target = result / 2.0
    xs = np.vstack([x, x])
    labels = np.concatenate([np.ones(len(x), dtype=int), np.zeros(len(x), dtype=int)])
    weights = np.concatenate([target, 1.0 - target])
    keep = weights > 0  # zero-weight rows change nothing; leaving them out keeps m exact
    return sklearn_theta(xs[keep], labels[keep], weights[keep], lam)


def cli_theta(cli, mat, outcomes, lam):
    report = cli_fit_json(cli, mat, outcomes, repr(lam))
    return np.array(report["theta"], dtype=float)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mat", help=".mat file (dP dN dB dR dQ result per line)")
    parser.add_argument("--cli", default="build/native/materialist", help="materialist binary")
    parser.add_argument("--tolerance", type=float, default=1e-4, help="max |theta difference|")
    parser.add_argument("--lambda", dest="lam", type=float, default=1e-6, help="L2 strength")
    args = parser.parse_args()

    try:
        x, result = load_rows(args.mat)
    except (OSError, ValueError) as error:
        print(f"sklearn_crosscheck: {error}", file=sys.stderr)
        return 2

    ok = True
    for outcomes, fit in (("draws-out", fit_draws_out), ("fractional", fit_fractional)):
        try:
            ours = cli_theta(args.cli, args.mat, outcomes, args.lam)
        except (OSError, RuntimeError, ValueError, KeyError) as error:
            print(f"sklearn_crosscheck: {error}", file=sys.stderr)
            return 2
        theirs = fit(x, result, args.lam)
        difference = np.max(np.abs(ours - theirs))
        agree = difference <= args.tolerance
        ok = ok and agree
        print(f"{outcomes:>10}: max |dtheta| = {difference:.3e} "
              f"({'ok' if agree else 'MISMATCH'}, tolerance {args.tolerance:g})")
        for name, a, b in zip(PIECES, ours, theirs):
            print(f"    {name}  materialist {a: .8f}  sklearn {b: .8f}  "
                  f"value {100 * a / ours[0]:8.3f} vs {100 * b / theirs[0]:8.3f}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
