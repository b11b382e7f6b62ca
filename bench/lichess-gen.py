#!/usr/bin/env python3
"""Writes a lichess-like PGN stream to stdout (bench/lichess.sh pipes it into zstd).

   usage: bench/lichess-gen.py SIZE_MB META.json > games.pgn

The repository's real games (tests/fixtures/pgn: lichess-2021-10-first999.pgn, lichess-100.pgn,
OpenRating.pgn), copied over and over in that order until SIZE_MB * 10^6 bytes are written. Every
copy of a game gets its own Site tag (https://lichess.org/ and a unique 8-character id, so no
two games are byte-identical) and its own WhiteElo/BlackElo (added to the engine games, which have
none): White uniform in 800..2800, Black = White + a triangular difference in -400..400 (two
uniform draws), clamped to 800..2800: rating differences vary as in a lichess pool and the keys
do not simply repeat. Deterministic: a 64-bit LCG with a fixed seed, so the same SIZE_MB gives
the same bytes and a smaller size is a prefix of a larger one. Streams: one game template per
fixture game in memory (about 5 MB), output written 1 MB at a time. META.json gets
{"pgnBytes", "games", "sizeMb", "generator"} at the end.
"""
import json
import os
import sys

GENERATOR = "lichess-gen 1"  # bump when the output changes (bench/lichess.sh keys its cache on it)
FIXTURES = ["lichess-2021-10-first999.pgn", "lichess-100.pgn", "OpenRating.pgn"]
BASE62 = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
MASK = (1 << 64) - 1


def games_of(path):
    """Yields each game's lines (bytes, without line ends), header then movetext."""
    with open(path, "rb") as f:
        text = f.read().replace(b"\r\n", b"\n").rstrip(b"\x1a\n")
    game = []
    in_moves = False
    for line in text.split(b"\n"):
        if line.startswith(b"[Event ") and in_moves:
            yield game
            game, in_moves = [], False
        if line and not line.startswith(b"["):
            in_moves = True
        game.append(line)
    if game:
        yield game


def template(lines):
    """A game as a bytes %-format with three fields: the Site id, WhiteElo, BlackElo."""
    header = [line for line in lines if line.startswith(b"[")]
    rest = lines[len(header):]
    kept = [line.replace(b"%", b"%%") for line in header
            if not line.startswith((b"[Site ", b"[WhiteElo ", b"[BlackElo "))]
    # Site after Event, the ratings where lichess has them (after the last of White, Black,
    # Result, UTCDate, UTCTime), the other tags in their order.
    at = 1 + max((i for i, line in enumerate(kept)
                  if line.startswith((b"[White ", b"[Black ", b"[Result ", b"[UTCDate ", b"[UTCTime "))),
                 default=0)
    head = kept[:1] + [b'[Site "https://lichess.org/%s"]'] + kept[1:at] \
        + [b'[WhiteElo "%d"]', b'[BlackElo "%d"]'] + kept[at:]
    body = b"\n".join(line.replace(b"%", b"%%") for line in rest).strip(b"\n")
    return b"\n".join(head) + b"\n\n" + body + b"\n\n"


def main():
    size_mb, meta = float(sys.argv[1]), sys.argv[2]
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "pgn")
    templates = [template(g) for name in FIXTURES for g in games_of(os.path.join(root, name))]
    target = int(size_mb * 1e6)
    out = sys.stdout.buffer
    state = 0x9E3779B97F4A7C15
    written = games = 0
    buffer, buffered = [], 0
    while written < target:
        for t in templates:
            state = (state * 6364136223846793005 + 1442695040888963407) & MASK
            white = 800 + (state >> 40) % 2001
            black = min(2800, max(800, white + (state >> 20) % 401 + (state >> 6) % 401 - 400))
            n = games
            site = bytearray(8)
            for i in range(7, -1, -1):
                site[i] = BASE62[n % 62]
                n //= 62
            game = t % (bytes(site), white, black)
            buffer.append(game)
            buffered += len(game)
            games += 1
            if buffered >= 1 << 20:
                out.write(b"".join(buffer))
                written += buffered
                buffer, buffered = [], 0
                if written >= target:
                    break
    if buffer:
        out.write(b"".join(buffer))
        written += buffered
    out.flush()
    with open(meta, "w") as f:
        json.dump({"pgnBytes": written, "games": games, "sizeMb": size_mb, "generator": GENERATOR}, f)


if __name__ == "__main__":
    main()
