#!/usr/bin/python3
"""Fits piece values over many PGN files on a Dask cluster, with exactly one machine's result.

    scripts/dask_fit.py [runner options] [materialist fit options] FILE_OR_GLOB...

The inputs (local paths, or on a filesystem every worker sees) are cut into tasks: a plain PGN
file larger than --range-mb into byte ranges (`materialist stats --range`, cut at game starts),
anything else (compressed files, zip archives, small files) whole. Each task runs `materialist
stats` on a worker and returns its statistics file (docs/MSTATS.md); the client merges them with
`materialist fit`, which prints the text or JSON the CLI prints for the files themselves.

Runner options:
  --scheduler ADDRESS   an existing Dask scheduler (tcp://host:8786); default: a LocalCluster
  --workers N           the LocalCluster's worker processes (default 2), one thread each
  --cli PATH            the materialist binary (default: build/native/materialist, then PATH);
                        every worker runs it from the same path
  --range-mb M          plain files larger than M MB are read in ranges of M MB (default 256;
                        with --bootstrap files are read whole: replicates number games from the
                        file's start)
  --keep-stats DIR      also keep the statistics files in DIR
Every other option goes to both `materialist stats` and `materialist fit` (data and model
options: --preset, --filter, --bishop-pair, --bootstrap, ...; output options: --json, --units).
"""

import glob
import os
import shutil
import subprocess
import sys
import tempfile

RUNNER_OPTIONS = {"--scheduler", "--workers", "--cli", "--range-mb", "--keep-stats"}
# Options of materialist that take a value (the rest are switches).
VALUED = {
    "--preset", "--quiet-plies", "--skip-plies", "--filter", "--each", "--solver", "--outcomes",
    "--iterations", "--alpha", "--lambda", "--units", "--bootstrap", "--seed", "--log-every",
    "-j", "--jobs", "--chunk-bytes", "--max-games", "--max-mb", "--export-mat", "--imbalance",
}
# Magic numbers of the inputs read whole (materialist decodes them as it reads).
COMPRESSED = (b"\x28\xb5\x2f\xfd", b"\x1f\x8b", b"BZh", b"PK\x03\x04", b"\xfd7zXZ", b"7z\xbc\xaf")


def usage_error(message):
    print(f"dask_fit: {message} (see the top of {sys.argv[0]})", file=sys.stderr)
    sys.exit(2)


def parse_args(argv):
    runner = {"--workers": "2", "--range-mb": "256"}
    options, patterns = [], []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in RUNNER_OPTIONS or arg in VALUED:
            if i + 1 >= len(argv):
                usage_error(f"{arg} needs a value")
            if arg in RUNNER_OPTIONS:
                runner[arg] = argv[i + 1]
            else:
                options += [arg, argv[i + 1]]
            i += 2
        elif arg.startswith("-") and arg != "-":
            options.append(arg)
            i += 1
        else:
            patterns.append(arg)
            i += 1
    if not patterns:
        usage_error("no input files")
    if "--each" in options or "--export-mat" in options:
        usage_error("--each and --export-mat need the games on one machine: use materialist")
    return runner, options, patterns


def expand(patterns):
    files = []
    for pattern in patterns:
        matches = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else [pattern]
        if not matches:
            usage_error(f"{pattern} matches no file")
        files += matches
    return files


def find_cli(path):
    if path:
        return os.path.abspath(path)
    here = os.path.dirname(os.path.abspath(__file__))
    built = os.path.join(here, "..", "build", "native", "materialist")
    if os.access(built, os.X_OK):
        return os.path.abspath(built)
    found = shutil.which("materialist")
    if not found:
        usage_error("no materialist binary: build it, or give --cli PATH")
    return found


def tasks_of(files, range_bytes, whole_only):
    """(file index, path, range or None) for every task, in file order."""
    tasks = []
    for index, path in enumerate(files):
        try:
            size = os.path.getsize(path)
            with open(path, "rb") as f:
                head = f.read(8)
        except OSError:
            size, head = 0, b""  # materialist says what is wrong with it
        plain = not head.startswith(COMPRESSED) and not path.lower().endswith(".mat")
        if whole_only or not plain or size <= range_bytes:
            tasks.append((index, path, None))
            continue
        for start in range(0, size, range_bytes):
            tasks.append((index, path, (start, min(size, start + range_bytes))))
    return tasks


def run_stats(cli, options, task):
    """On a worker: `materialist stats` of one task; its statistics file's bytes."""
    index, path, byte_range = task
    with tempfile.TemporaryDirectory(prefix="materialist-dask-") as tmp:
        out = os.path.join(tmp, "part.mstats")
        command = [cli, "stats", "--no-progress", *options, "--file-index", str(index)]
        if byte_range:
            command += ["--range", f"{byte_range[0]}:{byte_range[1]}"]
        command += [path, "-o", out]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            return (done.returncode, done.stderr.strip())
        with open(out, "rb") as f:
            return (0, f.read())


def stats_options(options):
    """The fit's options for `stats`: without the output ones, one thread unless -j is given."""
    out, i = [], 0
    while i < len(options):
        arg = options[i]
        valued = arg in VALUED
        if arg not in ("--json", "--units", "--log-every"):
            out += options[i:i + (2 if valued else 1)]
        i += 2 if valued else 1
    if "-j" not in out and "--jobs" not in out and not any(a.startswith("-j") for a in out):
        out += ["-j", "1"]
    return out


def main(argv):
    runner, options, patterns = parse_args(argv)
    files = expand(patterns)
    cli = find_cli(runner.get("--cli"))
    range_bytes = max(1, int(float(runner["--range-mb"]) * 1e6))
    whole_only = "--bootstrap" in options
    tasks = tasks_of(files, range_bytes, whole_only)

    from dask.distributed import Client, LocalCluster

    cluster = None
    if "--scheduler" in runner:
        client = Client(runner["--scheduler"])
    else:
        cluster = LocalCluster(n_workers=int(runner["--workers"]), threads_per_worker=1,
                               processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        workers = len(client.scheduler_info()["workers"])
        print(f"dask_fit: {len(files)} files, {len(tasks)} tasks on {workers} workers",
              file=sys.stderr)
        futures = client.map(run_stats, [cli] * len(tasks), [stats_options(options)] * len(tasks),
                             tasks, pure=False)
        results = client.gather(futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()

    with tempfile.TemporaryDirectory(prefix="materialist-dask-") as tmp:
        names = []
        for (index, path, byte_range), (status, body) in zip(tasks, results):
            if status != 0:
                print(f"dask_fit: stats of {path}{f' {byte_range}' if byte_range else ''} "
                      f"failed: {body}", file=sys.stderr)
                return status
            name = os.path.join(tmp, f"{index:06d}-{byte_range[0] if byte_range else 0:015d}.mstats")
            with open(name, "wb") as f:
                f.write(body)
            names.append(name)
        if "--keep-stats" in runner:
            os.makedirs(runner["--keep-stats"], exist_ok=True)
            for name in names:
                shutil.copy(name, runner["--keep-stats"])
        return subprocess.run([cli, "fit", *options, *names]).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
