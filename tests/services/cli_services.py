#!/usr/bin/env python3
"""The CLI's --lichess and --chesscom against the local stand-in of the services
(tests/e2e/services-stub.mjs, started here on a free port; MATERIALIST_LICHESS_URL and
MATERIALIST_CHESSCOM_URL point the CLI at it): games streamed and fitted from the player's
side, chess.com's months newest first, and the exit status 3 with a message for an unknown
user, a rate limit (with the wait) and no network. The real services are never called.

    tests/services/cli_services.py [CLI]      (default CLI: build/native/materialist)

Prints one line per case and "N passed, N failed"; exits non-zero when a case fails.
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import urllib.request

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STUB = os.path.join(REPO, "tests", "e2e", "services-stub.mjs")


def requests_of(base):
    """The paths the stand-in was asked so far."""
    with urllib.request.urlopen(base + "/__requests", timeout=10) as answer:
        return json.load(answer)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cases:
    def __init__(self, cli, base):
        self.cli, self.base = cli, base
        self.passed = self.failed = 0

    def run(self, *args, base=None):
        env = dict(os.environ)
        env["MATERIALIST_LICHESS_URL"] = base or self.base
        env["MATERIALIST_CHESSCOM_URL"] = base or self.base
        return subprocess.run([self.cli, *args], capture_output=True, text=True, env=env, timeout=120)

    def check(self, name, condition, detail=""):
        if condition:
            self.passed += 1
            print(f"PASS {name}")
        else:
            self.failed += 1
            print(f"FAIL {name}: {detail}")


def main():
    cli = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "build", "native", "materialist")
    port = free_port()
    stub = subprocess.Popen(["node", STUB, "--port", str(port)], stdout=subprocess.PIPE, text=True)
    try:
        line = stub.stdout.readline().strip()
        if not line.startswith("listening "):
            print(f"the stand-in did not start: {line!r}")
            print("0 passed, 1 failed")
            return 1
        cases = Cases(cli, line.split(" ", 1)[1])

        r = cases.run("fit", "--json", "--no-progress", "--lichess", "bob", "--speed", "blitz",
                      "--rated", "--max-games", "300")
        out = json.loads(r.stdout) if r.stdout.strip() else {}
        cases.check("lichess: the player's games fitted from their side", r.returncode == 0
                    and 100 < out.get("games", 0) <= 300 and out.get("pointOfView") == "player"
                    and any(c["name"] == "player-edge" for c in out.get("coefficients", [])),
                    f"exit {r.returncode}: {r.stderr[-400:]} {str(out)[:300]}")
        cases.check("lichess: the filters in the export's address",
                    "perfType=blitz&rated=true&max=300" in " ".join(f["name"] for f in out.get("files", [])),
                    str(out.get("files")))

        r = cases.run("fit", "--both-sides", "--chesscom", "bob", "--since", "2021-09-01")
        cases.check("chess.com: months from --since, newest first, both sides", r.returncode == 0
                    and 0 <= r.stderr.find("2021/10/pgn") < r.stderr.find("2021/09/pgn")
                    and "2021/08" not in r.stdout + r.stderr and "Player's edge" not in r.stdout,
                    f"exit {r.returncode}: {r.stderr[-400:]} {r.stdout[:600]}")


        r = cases.run("compare", "--no-progress", "--lichess", "bob", "--each", "tc=bullet",
                      "--each", "tc=blitz")
        cases.check("compare: the player's speeds side by side", r.returncode == 0
                    and "tc=bullet" in r.stdout and "tc=blitz" in r.stdout and "Player's edge" in r.stdout,
                    f"exit {r.returncode}: {r.stderr[-400:]} {r.stdout[:400]}")

        r = cases.run("fit", "--json", "--no-progress", "--chesscom", "bob", "--since", "2021-10-02")
        out = json.loads(r.stdout) if r.stdout.strip() else {}
        cases.check("chess.com: the days within the months are a date filter", r.returncode == 1
                    and out.get("error", {}).get("code") == "filtered-out"
                    and out.get("filteredReasons", {}).get("date") == 399,
                    f"exit {r.returncode}: {r.stdout[-600:]} {r.stderr[-300:]}")

        r = cases.run("fit", "--json", "--lichess", "ratelimited")
        out = json.loads(r.stdout) if r.stdout.strip() else {}
        error = out.get("error", {})
        cases.check("a rate limit: exit 3, the wait said", r.returncode == 3
                    and error.get("code") == "rate-limited" and "wait 42 s" in error.get("message", ""),
                    f"exit {r.returncode}: {r.stdout[-400:]} {r.stderr[-400:]}")

        r = cases.run("fit", "--chesscom", "unknownplayer")
        cases.check("an unknown user: exit 3, the message", r.returncode == 3
                    and 'chess.com has no player "unknownplayer" (HTTP 404)' in r.stderr,
                    f"exit {r.returncode}: {r.stderr[-400:]}")

        r = cases.run("fit", "--lichess", "unknownplayer")
        cases.check("an unknown lichess user: exit 3", r.returncode == 3
                    and 'lichess has no player "unknownplayer"' in r.stderr, f"exit {r.returncode}: {r.stderr[-400:]}")

        r = cases.run("fit", "--chesscom", "nogames")
        cases.check("an empty archive list: exit 3", r.returncode == 3
                    and "chess.com has no games of \"nogames\"" in r.stderr, f"exit {r.returncode}: {r.stderr[-400:]}")

        r = cases.run("fit", "--lichess", "bob", base=f"http://127.0.0.1:{free_port()}")
        cases.check("no network: exit 3, the message", r.returncode == 3
                    and "could not reach lichess" in r.stderr and "no network" in r.stderr,
                    f"exit {r.returncode}: {r.stderr[-400:]}")

        r = cases.run("fit", "--lichess", "bob", "--since", "2021/10/01")
        cases.check("a bad day: exit 2", r.returncode == 2 and "YYYY-MM-DD" in r.stderr, r.stderr[-300:])

        # stats hashes the bytes it read: one download, not a second one to hash (which could
        # differ, and counts against the service's rate limit).
        asked_before = requests_of(cases.base)
        with tempfile.TemporaryDirectory() as tmp:
            r = cases.run("stats", "--no-progress", "--lichess", "bob", "-o", os.path.join(tmp, "bob.mstats"))
        asked = [p for p in requests_of(cases.base)[len(asked_before):] if p.startswith("/api/games/user/bob")]
        cases.check("stats: a player's games downloaded once", r.returncode == 0 and len(asked) == 1,
                    f"exit {r.returncode}: {r.stderr[-300:]}; asked {asked}")
    finally:
        stub.terminate()
        stub.wait(timeout=10)
    print(f"{cases.passed} passed, {cases.failed} failed")
    return 0 if cases.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
