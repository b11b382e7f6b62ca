"""What the cross-check scripts share: reading the rows the CLI exports and running the CLI.

`materialist rows` writes one row per line: dP dN dB dR dQ result (0 black wins, 1 draw,
2 white wins), and with --game-ids the game id after them. Imported by sklearn_crosscheck.py
and statsmodels_crosscheck.py (run as /usr/bin/python3 scripts/<name>.py: their folder is on
the import path); numpy is imported here, so an ImportError reaches their setup message.
"""

import json
import subprocess

import numpy as np

PIECES = ["P", "N", "B", "R", "Q"]


def load_rows(path, game_ids=False):
    """(x, result) or, with game_ids, (x, result, game): x the float material differences."""
    columns = 7 if game_ids else 6
    rows = np.loadtxt(path, ndmin=2, dtype=np.int64)
    if rows.shape[1] < columns:
        expected = f"{columns} columns" + (" (rows --game-ids)" if game_ids else "")
        raise ValueError(f"{path}: expected {expected}, found {rows.shape[1]}")
    x, result = rows[:, :5].astype(float), rows[:, 5]
    return (x, result, rows[:, 6]) if game_ids else (x, result)


def cli_fit_json(cli, source, outcomes, lam):
    """The report of `cli fit --solver newton --json` on `source` (a .mat or a PGN)."""
    command = [cli, "fit", "--solver", "newton", "--outcomes", outcomes, "--lambda", lam,
               "--json", "--no-progress", source]
    completed = subprocess.run(command, capture_output=True, text=True)
    if completed.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({completed.returncode}): "
                           f"{completed.stderr.strip()}")
    return json.loads(completed.stdout)
