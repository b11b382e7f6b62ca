#!/usr/bin/python3
"""scripts/dask_fit.py on a Dask LocalCluster of two workers gives one `materialist fit` of the
same files, value for value: the fixtures cut into byte ranges and read whole (a .zst), text and
JSON, a bootstrap, and a scheduler given by its address.

    tests/dask/dask_fit_test.py --cli build/native/materialist

Prints one line per check and "N passed, N failed"; exit status 0 when every check passes.
"""

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIXTURES = [
    os.path.join(ROOT, "tests/fixtures/pgn/OpenRating.pgn"),
    os.path.join(ROOT, "tests/fixtures/pgn/lichess-2021-10-first999.pgn"),
    os.path.join(ROOT, "tests/fixtures/archive/lichess-100.pgn.zst"),
]
RUNNER = os.path.join(ROOT, "scripts/dask_fit.py")
TIMINGS = ("parseSeconds", "fitSeconds", "seconds")


def run(command):
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    return done.returncode, done.stdout, done.stderr


def without_timings(document):
    data = json.loads(document)
    for key in TIMINGS:
        data.pop(key, None)
    return data


def differences(a, b, path="$"):
    """Every place where two JSON values differ (numbers compared exactly)."""
    if isinstance(a, dict) and isinstance(b, dict):
        found = [f"{path}: keys {sorted(set(a) ^ set(b))}"] if set(a) != set(b) else []
        for key in sorted(set(a) & set(b)):
            found += differences(a[key], b[key], f"{path}.{key}")
        return found
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} items against {len(b)}"]
        found = []
        for i, (x, y) in enumerate(zip(a, b)):
            found += differences(x, y, f"{path}[{i}]")
        return found
    return [] if a == b and type(a) is type(b) else [f"{path}: {a!r} against {b!r}"]


def check_same(name, cli, options, runner_options, text=False):
    status, one, err = run([cli, "fit", "--no-progress", *options, *FIXTURES])
    if status != 0:
        return [f"materialist fit failed: {err}"]
    status, dask, err = run([sys.executable, RUNNER, "--cli", cli, *runner_options, *options,
                             *FIXTURES])
    if status != 0:
        return [f"dask_fit failed ({status}): {err}"]
    if text:
        return [] if dask == one else ["the text differs:\n" + dask + "\n---\n" + one]
    found = differences(without_timings(dask), without_timings(one))
    theta = without_timings(dask).get("theta")
    if not theta or len(theta) < 5:
        found.append("no theta in the output")
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    args = parser.parse_args()
    cli = os.path.abspath(args.cli)

    # Ranges of 0.5 MB: OpenRating.pgn (2.8 MB) and the lichess games (2.3 MB) in 6 and 5 ranges,
    # cut inside games and moved to game starts; the .zst read whole.
    ranges = ["--workers", "2", "--range-mb", "0.5"]
    checks = [
        ("ranges, --json", lambda: check_same("json", cli, ["--json"], ranges)),
        ("ranges, text", lambda: check_same("text", cli, [], ranges, text=True)),
        ("bishop pair, bootstrap 20, --json",
         lambda: check_same("bootstrap", cli, ["--json", "--bishop-pair", "--bootstrap", "20"],
                            ranges)),
    ]

    def with_scheduler():
        from dask.distributed import LocalCluster
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster:
            return check_same("scheduler", cli, ["--json", "--preset", "article"],
                              ["--scheduler", cluster.scheduler_address, "--range-mb", "1"])

    checks.append(("an existing scheduler's address, article preset", with_scheduler))

    passed = failed = 0
    for name, check in checks:
        found = check()
        if found:
            failed += 1
            print(f"FAIL {name}:")
            for line in found[:20]:
                print(f"  {line}")
        else:
            passed += 1
            print(f"ok   {name}: the same as one materialist fit")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
