#!/usr/bin/env python3
"""Hostile inputs through the CLI: each gives a clear message, keeps every game before it, and
the process's memory stays bounded.

    tests/hostile/cli_hostile.py [CLI]      (default CLI: build/native/materialist)

The inputs (a 1 GB line, a million one-ply games, 10^5 nested variations, a zstd bomb and a zip
bomb of 1 GiB of zeros each, 100 MB of games followed by binary data) are written to a temporary
folder and removed afterwards. Each case is read with -j 1 and, where the file is cut into
parts, with -j 2 as well. Prints one line per case and "N passed, N failed"; exits non-zero when
a case fails. The browser's counterpart is tests/e2e/hostile.mjs.
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(REPO, "tests", "fixtures", "pgn")
MB = 1 << 20
# The CLI's resident memory may not exceed this on any of these inputs (it reads in 1 MiB
# chunks and keeps the histogram, never the text).
RSS_BOUND_MB = 96
ARTICLE_VALUES = {"N": 288, "B": 345, "R": 480, "Q": 1077}


def read_fixture(name):
    with open(os.path.join(FIXTURES, name), "rb") as f:
        return f.read()


def run_cli(cli, args):
    """Runs `fit --json` on args: (exit status, parsed JSON or None, stderr, peak RSS in MB)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen([cli, "fit", "--no-progress", "--json", *args], stdout=out, stderr=err)
        # wait4, not wait(): the rusage of this child alone (ru_maxrss in KiB on Linux).
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read().decode("utf-8", "replace")
    try:
        data = json.loads(stdout)
    except ValueError:
        data = None
    return process.returncode, data, stderr, usage.ru_maxrss / 1024


class Cases:
    def __init__(self, cli):
        self.cli = cli
        self.passed = 0
        self.failed = 0

    def check(self, name, args, expect):
        """Runs the case; `expect(status, data, stderr)` returns a list of problems."""
        status, data, stderr, rss = run_cli(self.cli, args)
        problems = expect(status, data, stderr) if data is not None else [f"no JSON (exit {status}): {stderr.strip()}"]
        if rss > RSS_BOUND_MB:
            problems.append(f"peak memory {rss:.0f} MB > {RSS_BOUND_MB} MB")
        if problems:
            self.failed += 1
            print(f"FAIL  {name}: " + "; ".join(problems))
        else:
            self.passed += 1
            print(f"PASS  {name} (peak memory {rss:.0f} MB)")
        sys.stdout.flush()
        return data


def skipped_one(detail):
    def expect(status, data, stderr):
        problems = []
        if status != 0:
            problems.append(f"exit {status}: {stderr.strip()}")
        if data["games"] != 39 or data["used"] != 38 or data["skipped"] != 1:
            problems.append(f"games {data['games']}, used {data['used']}, skipped {data['skipped']}")
        issues = data.get("issues", [])
        if not issues or detail not in issues[0].get("detail", "") or issues[0].get("game") != 20:
            problems.append(f"the skipped game's reason: {issues[:1]}")
        return problems
    return expect


def not_pgn(status, data, stderr):
    problems = []
    if status == 0:
        problems.append("exit 0 for a file of zeros")
    errors = [f.get("error", "") for f in data.get("files", [])]
    if not any("binary data" in e for e in errors):
        problems.append(f"file errors: {errors}")
    if "binary data" not in stderr:
        problems.append(f"stderr does not say 'binary data': {stderr.strip()[:200]}")
    return problems


def main():
    cli = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "build/native/materialist"))
    cases = Cases(cli)
    article = read_fixture("OpenRating.pgn")
    first_19 = article[: article.index(b"\n\n[Event", 20000)] + b"\n\n"
    folder = tempfile.mkdtemp(prefix="materialist-hostile-")
    try:
        def write(name, parts):
            path = os.path.join(folder, name)
            with open(path, "wb") as f:
                for data, times in parts:
                    for _ in range(times):
                        f.write(data)
            return path

        nested = write("nested.pgn", [
            (first_19, 1),
            (b'[Event "nested"]\n[Result "1-0"]\n\n1. e4 ' + b"(1. d4 " * 100000 + b")" * 100000 + b" e5 1-0\n\n", 1),
            (first_19, 1)])
        cases.check("10^5 nested variations: one game skipped with its reason", [nested],
                    skipped_one("nested deeper"))

        one_line = write("one-line.pgn", [
            (first_19, 1), (b'[Event "one line"]\n[Result "1-0"]\n\n1. e4 ', 1), (b"x" * MB, 1024),
            (b" 1-0\n\n", 1), (first_19, 1)])
        for jobs in ("1", "2"):
            cases.check(f"a 1 GB line (-j {jobs}): one game skipped with its reason", ["-j", jobs, one_line],
                        skipped_one("token longer"))
        os.remove(one_line)

        one_ply = write("one-ply.pgn", [(b'[Result "1-0"]\n\n1. e4 1-0\n\n', 1000000), (article, 1)])

        def article_after_one_ply(status, data, stderr):
            problems = [] if status == 0 else [f"exit {status}: {stderr.strip()}"]
            if data["games"] != 1002997:
                problems.append(f"games {data['games']}, expected 1002997")
            values = data.get("values") or {}
            for piece, expected in ARTICLE_VALUES.items():
                if abs(values.get(piece, 0) - expected) > 2:
                    problems.append(f"{piece} = {values.get(piece)}, the article's {expected}")
            return problems
        for jobs in ("1", "2"):
            cases.check(f"a million one-ply games, then the article's (-j {jobs})",
                        ["--preset", "article", "-j", jobs, one_ply], article_after_one_ply)
        os.remove(one_ply)

        # 1 GiB of zeros: a whole number of the decoder's 64 KiB output chunks (a frame ending
        # there was once read as truncated).
        zeros = write("zeros.pgn", [(bytes(MB), 1024)])
        subprocess.run(["zstd", "-q", "-3", zeros, "-o", zeros + ".zst"], check=True)
        subprocess.run(["zip", "-q", "-1", "-j", os.path.join(folder, "bomb.zip"), zeros], check=True)
        os.remove(zeros)
        cases.check("a zstd bomb (1 GiB of zeros) is not PGN: binary data", [zeros + ".zst"], not_pgn)
        cases.check("a zip bomb (1 GiB of zeros) is not PGN: binary data", [os.path.join(folder, "bomb.zip")], not_pgn)

        lichess = read_fixture("lichess-2021-10-first999.pgn")
        plain_path = write("plain.pgn", [(lichess, 1)])
        _, plain, _, _ = run_cli(cli, [plain_path])
        times = -(-100_000_000 // len(lichess))
        noise = random.Random(12345).randbytes(4 * MB)
        then_binary = write("then-binary.pgn", [(lichess, times), (noise, 1)])

        def games_before_binary(status, data, stderr):
            problems = [] if status == 0 else [f"exit {status}: {stderr.strip()}"]
            if data["used"] != plain["used"] * times:
                problems.append(f"used {data['used']}, expected {plain['used'] * times}")
            if data["games"] < plain["games"] * times:
                problems.append(f"games {data['games']}, expected at least {plain['games'] * times}")
            binary = [i for i in data.get("issues", []) if "binary data" in i.get("detail", "")]
            if not binary:
                problems.append("no skipped game says 'binary data'")
            return problems
        for jobs in ("1", "2"):
            cases.check(f"100 MB of games, then binary data (-j {jobs}): every game before it counts",
                        ["-j", jobs, then_binary], games_before_binary)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{cases.passed} passed, {cases.failed} failed")
    return 0 if cases.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
