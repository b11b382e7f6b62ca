#!/usr/bin/env python3
"""Cross-check materialist's match statistics (src/play/match_stats.h) against numpy/scipy.

    /usr/bin/python3 scripts/match_stats_crosscheck.py --cli build/native/materialist

An independent implementation, from the published definitions rather than from the C++:
  - estimates as fastchess computes them (elo_pentanomial.cpp, elo_wdl.cpp): score, variance of
    a pair's half score (or of a game), Elo = -400 log10(1/s - 1), eloError95 from the 95% score
    bounds each mapped to Elo, nElo = (s - 1/2) / sigma_game * 800/ln10 (sigma_game = sqrt(2 var)
    for pairs: Van den Bergh, "Comments on Normalized Elo"), LOS = Phi((s - 1/2) / se) with
    scipy.stats.norm; the extreme cases by the conventions in match_stats.h;
  - the SPRT's generalized LLR as fishtest's stats/LLRcalc.py (regularize, MLE_expected,
    MLE_t_value), the secular equation solved with scipy.optimize.brentq (the C++ bisects);
  - the rating table's maximum-likelihood ratings with scipy.optimize.minimize (trust-exact) with
    set 0 held at 0, errors from the inverse Hessian of that reduced problem projected to a fixed
    mean or anchor (the C++ runs its own Newton and takes a pseudo-inverse), the virtual-draw
    prior when scipy.sparse.csgraph finds the "scored against" graph not strongly connected.
Each case runs `materialist elo ... --json` and compares every number: they agree when
|cli - python| <= tolerance * max(1, |python|) (absolute below 1, relative above; 1e-6), and null
in the same places (the same keys listed under "infinite"). One line per case; exit status 0 when
all agree, 1 on any disagreement, 2 on a setup problem (no scipy, the CLI failed).
Debian's python3-scipy lives in /usr/bin/python3 (a pyenv python3 may not see it).
"""

import argparse
import json
import math
import subprocess
import sys

try:
    import numpy as np
    import scipy.optimize
    import scipy.sparse
    import scipy.sparse.csgraph
    import scipy.stats
except ImportError as error:  # pragma: no cover - environment problem
    print(f"match_stats_crosscheck: {error}; run with /usr/bin/python3 (Debian's python3-scipy)")
    sys.exit(2)

Z95 = scipy.stats.norm.ppf(0.975)
NELO_PER_T = 800 / math.log(10)
INF = math.inf


# ---- estimates ----

def elo_of(score):
    if score >= 1:
        return INF
    if score <= 0:
        return -INF
    return -400 * math.log10(1 / score - 1)


def estimate(counts, paired):
    """The estimate's numbers (None = undefined, +/-inf = infinite) from outcome counts."""
    counts = np.asarray(counts, dtype=float)
    a = np.linspace(0, 1, len(counts))
    n = counts.sum()
    keys = ["score", "elo", "eloError95", "nelo", "neloError95", "los"]
    if n == 0:
        return dict.fromkeys(keys)
    p = counts / n
    score = float(p @ a)
    var = float(p @ (a - score) ** 2)
    se = math.sqrt(var / n)
    sigma_game = math.sqrt((2 if paired else 1) * var)
    out = {"score": score, "elo": elo_of(score)}
    if math.isinf(out["elo"]):
        out["eloError95"] = None
    else:
        lo, hi = score - Z95 * se, score + Z95 * se
        out["eloError95"] = INF if lo <= 0 or hi >= 1 else (elo_of(hi) - elo_of(lo)) / 2
    if var > 0:
        out["nelo"] = (score - 0.5) / sigma_game * NELO_PER_T
        nelo_hi = (score + Z95 * se - 0.5) / sigma_game * NELO_PER_T
        nelo_lo = (score - Z95 * se - 0.5) / sigma_game * NELO_PER_T
        out["neloError95"] = (nelo_hi - nelo_lo) / 2
        out["los"] = float(scipy.stats.norm.cdf((score - 0.5) / se))
    else:
        out["nelo"] = INF if score > 0.5 else -INF if score < 0.5 else None
        out["neloError95"] = None
        out["los"] = 1.0 if score > 0.5 else 0.0 if score < 0.5 else 0.5
    return out


# ---- the generalized SPRT (fishtest's LLRcalc) ----

def secular(phi, p):
    """The root of sum p_i phi_i / (1 + x phi_i) = 0 between the poles."""
    lo, hi = -1 / phi.max(), -1 / phi.min()
    width = hi - lo

    def f(x):
        return float(np.sum(p * phi / (1 + x * phi)))

    return scipy.optimize.brentq(f, lo + width * 1e-15, hi - width * 1e-15, xtol=1e-300,
                                 rtol=1e-15, maxiter=1000)


def mle_expected(a, phat, s):
    phi = a - s
    return phat / (1 + secular(phi, phat) * phi)


def mle_t_value(a, phat, ref, t):
    p = np.full(len(a), 1 / len(a))
    for _ in range(500):
        mu = p @ a
        sigma = math.sqrt(p @ (a - mu) ** 2)
        phi = a - ref - t * sigma * (1 + ((mu - a) / sigma) ** 2) / 2
        new = phat / (1 + secular(phi, phat) * phi)
        change = np.max(np.abs(new - p))
        p = new
        if change < 1e-14:
            break
    mu = p @ a
    assert abs((mu - ref) / math.sqrt(p @ (a - mu) ** 2) - t) < 1e-8, "t-value MLE"
    return p


def llr(counts, elo0, elo1, logistic):
    c = np.array([x if x > 0 else 1e-3 for x in counts], dtype=float)
    total = c.sum()
    phat = c / total
    a = np.linspace(0, 1, len(c))
    if logistic:
        p0, p1 = (mle_expected(a, phat, 1 / (1 + 10 ** (-e / 400))) for e in (elo0, elo1))
    else:
        factor = math.sqrt(2) if len(c) == 5 else 1
        p0, p1 = (mle_t_value(a, phat, 0.5, e / NELO_PER_T * factor) for e in (elo0, elo1))
    return float(total * np.sum(phat * (np.log(p1) - np.log(p0))))


def sprt(counts, elo0, elo1, alpha, beta, logistic):
    value = llr(counts, elo0, elo1, logistic)
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    result = "H1" if value >= upper else "H0" if value <= lower else "continue"
    return {"elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta,
            "bounds": "logistic" if logistic else "normalized", "llr": value, "lower": lower,
            "upper": upper, "result": result}


# ---- the rating table ----

def rate(n, pairs, anchor=None, level=0.0):
    games = np.zeros((n, n))
    points = np.zeros((n, n))
    for i, j, g, s in pairs:
        games[i, j] += g
        games[j, i] += g
        points[i, j] += s
        points[j, i] += g - s
    totals_points, totals_games = points.sum(axis=1), games.sum(axis=1)
    strong, _ = scipy.sparse.csgraph.connected_components(
        scipy.sparse.csr_matrix(points > 0), directed=True, connection="strong")
    regularized = strong > 1
    if regularized:
        played = games > 0
        games = games + played
        points = points + 0.5 * played
    scale = games.sum()
    iu = np.triu_indices(n, 1)
    g, s = games[iu], points[iu]

    def unpack(x):
        return np.concatenate([[0.0], x])  # theta = ln10/400 * rating, set 0 held at 0

    def negative(x):
        th = unpack(x)
        d = th[iu[0]] - th[iu[1]]
        return float(-np.sum(s * -np.logaddexp(0, -d) + (g - s) * -np.logaddexp(0, d)) / scale)

    def gradient(x):
        th = unpack(x)
        e = 1 / (1 + np.exp(-(th[:, None] - th[None, :])))
        return -np.sum(points - games * e, axis=1)[1:] / scale

    def hessian(x):
        th = unpack(x)
        e = 1 / (1 + np.exp(-(th[:, None] - th[None, :])))
        w = games * e * (1 - e)
        h = np.diag(w.sum(axis=1)) - w
        return h[1:, 1:] / scale

    fit = scipy.optimize.minimize(negative, np.zeros(n - 1), jac=gradient, hess=hessian,
                                  method="trust-exact", options={"gtol": 1e-13, "maxiter": 1000})
    x = fit.x
    for _ in range(3):  # Newton polish: trust-exact stops at its gradient tolerance
        x = x - np.linalg.solve(hessian(x), gradient(x))
    c = math.log(10) / 400
    theta = unpack(x)
    ratings = theta / c
    cov = np.zeros((n, n))
    cov[1:, 1:] = np.linalg.inv(hessian(x) * scale) / c ** 2  # var of r_i - r_0
    if anchor is None:
        project = np.eye(n) - np.full((n, n), 1 / n)
        cov = project @ cov @ project.T
        ratings = ratings - ratings.mean() + level
        errors = Z95 * np.sqrt(np.diag(cov))
    else:
        ratings = ratings - ratings[anchor] + level
        errors = Z95 * np.sqrt(np.maximum(
            np.diag(cov) + cov[anchor, anchor] - 2 * cov[:, anchor], 0))
    return {"ratings": [{"set": i, "rating": ratings[i], "error95": errors[i],
                         "points": totals_points[i], "games": totals_games[i] / 1,
                         "score": totals_points[i] / totals_games[i]} for i in range(n)],
            "regularized": bool(regularized)}


# ---- the cases ----

def infinite_keys(expected):
    return {k: ("+inf" if v > 0 else "-inf") for k, v in expected.items()
            if isinstance(v, float) and math.isinf(v)}


def estimate_case(penta=None, wdl=None, sprt_args=None, logistic=False):
    args = ["elo", "--json"]
    expected = {}
    if penta is not None:
        args += ["--penta", ",".join(map(str, penta))]
        expected.update(estimate(penta, paired=True))
        expected.update(pentanomial=list(penta), games=2 * sum(penta), pairs=sum(penta))
    if wdl is not None:
        args += ["--wdl", ",".join(map(str, wdl))]
        w, d, l = wdl
        if penta is None:
            expected.update(estimate([l, d, w], paired=False))
            expected.update(pentanomial=None, games=sum(wdl), pairs=None)
        expected.update(wins=w, draws=d, losses=l,
                        drawRatio=d / sum(wdl) if sum(wdl) else None)
    else:
        expected.update(wins=None, draws=None, losses=None, drawRatio=None)
    expected["infinite"] = infinite_keys(expected)
    for key, value in list(expected.items()):
        if isinstance(value, float) and math.isinf(value):
            expected[key] = None
    if sprt_args is not None:
        elo0, elo1, alpha, beta = sprt_args
        args += ["--sprt", f"{elo0!r},{elo1!r},{alpha!r},{beta!r}"]
        if logistic:
            args.append("--logistic")
        counts = penta if penta is not None else [wdl[2], wdl[1], wdl[0]]
        expected["sprt"] = sprt(counts, elo0, elo1, alpha, beta, logistic)
    return args, expected


def table_case(n, results, anchor=None, level=0.0):
    """results: (i, j, "wdl", (w, d, l)) or (i, j, "penta", (n0, ..., n4))."""
    args = ["elo", "--json", "--sets", str(n)]
    pairs = []
    for i, j, kind, counts in results:
        if kind == "wdl":
            args += ["--pair", ",".join(map(str, (i, j) + tuple(counts)))]
            pairs.append((i, j, sum(counts), counts[0] + counts[1] / 2))
        else:
            args += ["--pair-penta", ",".join(map(str, (i, j) + tuple(counts)))]
            pairs.append((i, j, 2 * sum(counts), sum(k / 2 * c for k, c in enumerate(counts))))
    if anchor is not None:
        args += ["--anchor", str(anchor)]
    if level:
        args += ["--level", repr(level)]
    return args, rate(n, pairs, anchor, level)


def synthetic_wdl(ratings, games, draw_share):
    """Expected W/D/L (rounded) of every pair under the logistic model."""
    results = []
    for i in range(len(ratings)):
        for j in range(i + 1, len(ratings)):
            e = 1 / (1 + 10 ** (-(ratings[i] - ratings[j]) / 400))
            draws = round(games * draw_share)
            wins = round(e * games - draws / 2)
            results.append((i, j, "wdl", (wins, draws, games - wins - draws)))
    return results


def cases():
    yield "penta typical, normalized SPRT", *estimate_case(
        penta=[31, 180, 520, 230, 39], sprt_args=(0.0, 2.0, 0.05, 0.05))
    yield "penta with W/D/L, logistic SPRT", *estimate_case(
        penta=[5, 40, 100, 60, 10], wdl=[110, 240, 80], sprt_args=(0.0, 5.0, 0.05, 0.1),
        logistic=True)
    yield "penta all wins, logistic SPRT", *estimate_case(
        penta=[0, 0, 0, 0, 50], sprt_args=(0.0, 10.0, 0.05, 0.05), logistic=True)
    yield "penta all losses, normalized SPRT", *estimate_case(
        penta=[12, 0, 0, 0, 0], sprt_args=(-3.0, 1.0, 0.05, 0.05))
    yield "penta only draws", *estimate_case(
        penta=[0, 0, 40, 0, 0], wdl=[0, 80, 0], sprt_args=(0.0, 2.0, 0.05, 0.05))
    yield "penta one pair", *estimate_case(penta=[0, 0, 0, 1, 0],
                                           sprt_args=(0.0, 5.0, 0.05, 0.05))
    yield "penta no games", *estimate_case(penta=[0, 0, 0, 0, 0],
                                           sprt_args=(0.0, 2.0, 0.05, 0.05))
    yield "penta lopsided (bound past 1)", *estimate_case(penta=[0, 0, 0, 1, 3])
    yield "penta huge counts", *estimate_case(
        penta=[10**12, 3 * 10**12, 5 * 10**12, 3_200_000_000_000, 1_100_000_000_000],
        sprt_args=(-1.75, 0.25, 0.05, 0.05))
    yield "penta strong side, wide normalized SPRT", *estimate_case(
        penta=[3, 20, 90, 160, 120], sprt_args=(-50.0, 150.0, 0.01, 0.2))
    yield "wdl typical, logistic SPRT", *estimate_case(
        wdl=[300, 412, 288], sprt_args=(0.0, 5.0, 0.05, 0.1), logistic=True)
    yield "wdl no draws, normalized SPRT", *estimate_case(
        wdl=[70, 0, 50], sprt_args=(0.0, 10.0, 0.05, 0.05))
    yield "wdl all wins", *estimate_case(wdl=[10, 0, 0], sprt_args=(0.0, 10.0, 0.05, 0.05))
    yield "wdl only draws", *estimate_case(wdl=[0, 25, 0])
    yield "wdl one game", *estimate_case(wdl=[0, 0, 1])
    yield "wdl huge counts", *estimate_case(
        wdl=[400_000_000_000_000, 800_000_000_000_000, 390_000_000_000_000],
        sprt_args=(0.0, 1.0, 0.05, 0.05), logistic=True)
    yield "table 4 sets, synthetic", *table_case(4, synthetic_wdl([0, 40, -25, 120], 2000, 0.3))
    yield "table 5 sets, pentanomial, anchor", *table_case(5, [
        (0, 1, "penta", (10, 60, 120, 70, 15)), (0, 2, "penta", (4, 30, 100, 90, 30)),
        (1, 2, "penta", (8, 50, 110, 80, 20)), (2, 3, "penta", (30, 90, 100, 40, 5)),
        (3, 4, "penta", (12, 70, 100, 60, 8)), (1, 4, "wdl", (50, 60, 40))],
        anchor=2, level=1500.0)
    yield "table with an unbeaten set", *table_case(3, [
        (0, 1, "wdl", (20, 0, 0)), (0, 2, "wdl", (15, 0, 0)), (1, 2, "wdl", (30, 40, 25))])
    yield "table huge counts", *table_case(3, [
        (0, 1, "wdl", (10**12, 2 * 10**12, 8 * 10**11)),
        (1, 2, "wdl", (9 * 10**11, 2 * 10**12, 10**12)),
        (0, 2, "wdl", (12 * 10**11, 2 * 10**12, 7 * 10**11))])


# ---- comparison ----

def compare(path, cli, python, tolerance, worst):
    """Mismatch messages between the CLI's JSON and the expected values; worst: [size, where]."""
    if isinstance(python, dict):
        if not isinstance(cli, dict):
            return [f"{path}: expected an object, got {cli!r}"]
        problems = []
        if path.endswith(".infinite") and set(cli) != set(python):
            problems.append(f"{path}: materialist {cli!r}, python {python!r}")
        for key, value in python.items():
            if key not in cli:
                problems.append(f"{path}.{key}: missing")
            else:
                problems += compare(f"{path}.{key}", cli[key], value, tolerance, worst)
        return problems
    if isinstance(python, list):
        if not isinstance(cli, list) or len(cli) != len(python):
            return [f"{path}: expected {len(python)} items, got {cli!r}"]
        problems = []
        for i, (c, p) in enumerate(zip(cli, python)):
            problems += compare(f"{path}[{i}]", c, p, tolerance, worst)
        return problems
    if python is None or isinstance(python, (str, bool)):
        return [] if cli == python else [f"{path}: expected {python!r}, got {cli!r}"]
    if cli is None or isinstance(cli, (str, bool)):
        return [f"{path}: expected {python!r}, got {cli!r}"]
    difference = abs(float(cli) - float(python)) / max(1.0, abs(float(python)))
    if difference > worst[0]:
        worst[0], worst[1] = difference, path
    if difference > tolerance:
        return [f"{path}: materialist {cli!r}, python {python!r}"]
    return []


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cli", default="build/native/materialist")
    parser.add_argument("--tolerance", type=float, default=1e-6)
    options = parser.parse_args()
    failed = total = 0
    overall = 0.0
    for name, args, expected in cases():
        total += 1
        try:
            run = subprocess.run([options.cli] + args, capture_output=True, text=True,
                                 check=False)
        except OSError as error:
            print(f"match_stats_crosscheck: cannot run {options.cli}: {error}")
            return 2
        if run.returncode != 0:
            print(f"{name}: materialist exited {run.returncode}: {run.stderr.strip()}")
            return 2
        worst = [0.0, "-"]
        problems = compare("$", json.loads(run.stdout), expected, options.tolerance, worst)
        overall = max(overall, worst[0])
        status = "ok" if not problems else "MISMATCH"
        print(f"{status:8} {name}: largest difference {worst[0]:.2e} ({worst[1]})")
        for problem in problems:
            print(f"         {problem}")
        failed += bool(problems)
    print(f"match statistics: {total - failed} of {total} cases agree within {options.tolerance:g} "
          f"(largest difference {overall:.2e})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
