#!/usr/bin/env python3
"""Import benchmark: jsonimport side by side with the reference programs of the bench kit.

  python3 Benchmarks/bench.py [--users 50000] [--runs 3] [--kit ../shared/bench] [--jsonl-gb 1.0]

Builds our CLI (release), the C++ simdjson + SQLite floor, the Swift Codable baseline, and uses
the Python baseline; generates the kit's payload (and its --mutate variant) in a scratch
directory; then, for each scenario, runs every program --runs times, alternating programs,
each from a fresh store (or a fresh copy of a populated one), and prints the median wall time,
rows/s, MB/s, peak memory and the ratio to the C++ program: of the medians, and the median of
the ratios within each round (robust to load that drifts during the run). `--skip Swift --skip
Python` alternates our CLI with the C++ program alone.

Scenarios: fresh import; re-import of the same file (all unchanged); import of the mutated
file. With --jsonl-gb, also a JSON Lines import of a file of about that many GB by our CLI
alone, reporting its peak memory.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLOOR = "C++ simdjson+SQLite"


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def timed(cmd, env=None):
    """Wall seconds and peak RSS (MB) of one run, measured by GNU time."""
    out = subprocess.run(["/usr/bin/time", "-f", "%e %M"] + cmd, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{out.stderr[-2000:]}")
    wall, rss = out.stderr.strip().splitlines()[-1].split()
    return float(wall), int(rss) / 1024


def build(kit, scratch):
    print("building jsonimport (release)...", file=sys.stderr)
    sh(["swift", "build", "-c", "release", "--product", "jsonimport"], cwd=ROOT, stdout=subprocess.DEVNULL)
    ours = os.path.join(ROOT, ".build", "release", "jsonimport")
    print("building the C++ floor...", file=sys.stderr)
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "simdjson", "sqlite3"], capture_output=True,
                           text=True, check=True).stdout.split()
    limit = os.path.join(scratch, "limit")
    sh(["g++", "-O2", "-std=c++17", "-o", limit, os.path.join(kit, "limit", "limit.cpp")] + flags)
    print("building the Swift Codable baseline (release)...", file=sys.stderr)
    baseline_dir = os.path.join(scratch, "swift_baseline")
    shutil.copytree(os.path.join(kit, "swift_baseline"), baseline_dir)
    for root, dirs, files in os.walk(baseline_dir):
        for name in dirs + files:
            os.chmod(os.path.join(root, name), 0o755)
    sh(["swift", "build", "-c", "release"], cwd=baseline_dir, stdout=subprocess.DEVNULL)
    swift_baseline = os.path.join(baseline_dir, ".build", "release", "swift-baseline")
    mapping = os.path.join(ROOT, "Benchmarks", "mapping.yml")
    return {
        FLOOR: lambda db, js: [limit, db, js],
        "jsonimport": lambda db, js: [ours, "--quiet", "--mappings", mapping, "--store", db, "import", "User", js],
        "Swift Codable": lambda db, js: [swift_baseline, db, js],
        "Python json+sqlite3": lambda db, js: [sys.executable, os.path.join(kit, "py_baseline.py"), db, js],
    }, ours, mapping


def row_count(ours, mapping, db):
    out = subprocess.run([ours, "--mappings", mapping, "--store", db, "stats", "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    stats = json.loads(out)
    return sum(stats["entities"].values()) + sum(stats["links"].values())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=50000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--kit", default=os.path.join(ROOT, "..", "shared", "bench"))
    parser.add_argument("--skip", action="append", default=[], help="leave out a program (by name prefix)")
    parser.add_argument("--jsonl-gb", type=float, default=0.0)
    args = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="jsonimport-bench-")
    programs, ours, mapping = build(os.path.abspath(args.kit), scratch)
    programs = {k: v for k, v in programs.items() if not any(k.startswith(s) for s in args.skip)}
    gen = os.path.join(args.kit, "gen.py")
    payload = os.path.join(scratch, "users.json")
    mutated = os.path.join(scratch, "users_mut.json")
    print(f"generating {args.users} users...", file=sys.stderr)
    sh([sys.executable, gen, "--users", str(args.users), "--out", payload])
    sh([sys.executable, gen, "--users", str(args.users), "--out", mutated, "--mutate", "10", "--seed", "7"])
    size_mb = os.path.getsize(payload) / 1e6

    # A populated store per program, for the re-import and mutation scenarios.
    populated = {}
    for name, cmd in programs.items():
        db = os.path.join(scratch, f"populated-{len(populated)}.db")
        timed(cmd(db, payload))
        populated[name] = db
    rows = row_count(ours, mapping, populated["jsonimport"]) if "jsonimport" in populated else 0

    def fresh_copy(name, i):
        db = os.path.join(scratch, f"run-{i}.db")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)
        return db

    def copy_of(name, i):
        db = fresh_copy(name, i)
        shutil.copyfile(populated[name], db)
        return db

    scenarios = [("fresh import", payload, fresh_copy), ("re-import, same file", payload, copy_of),
                 ("import of the mutated file", mutated, copy_of)]
    results = {}
    for scenario, js, prepare in scenarios:
        print(f"running: {scenario}", file=sys.stderr)
        samples = {name: [] for name in programs}
        for run in range(args.runs):
            for name, cmd in programs.items():
                db = prepare(name, run)
                samples[name].append(timed(cmd(db, js)))
        floor_walls = [w for w, _ in samples.get(FLOOR, [])]
        results[scenario] = {
            name: (statistics.median(w for w, _ in s), max(m for _, m in s),
                   statistics.median(w / f for (w, _), f in zip(s, floor_walls)) if floor_walls else None)
            for name, s in samples.items()}

    print(f"\nPayload: {args.users} users, {size_mb:.1f} MB, {rows} rows; median of {args.runs} runs, alternating programs.")
    print("'ratio to C++' divides the medians; 'per round' is the median of the ratios within each round of runs.\n")
    print("| scenario | program | wall (s) | rows/s | MB/s | peak memory (MB) | ratio to C++ | per round |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for scenario, per in results.items():
        base = per.get(FLOOR, (None, None, None))[0]
        for name, (wall, rss, paired) in per.items():
            ratio = f"{wall / base:.2f}×" if base else "-"
            per_round = f"{paired:.2f}×" if paired else "-"
            print(f"| {scenario} | {name} | {wall:.2f} | {rows / wall:,.0f} | {size_mb / wall:.1f} | {rss:.0f} | {ratio} | {per_round} |")

    if args.jsonl_gb > 0:
        users = int(args.jsonl_gb * 1e9 / (size_mb * 1e6 / args.users))
        big = os.path.join(scratch, "big.jsonl")
        print(f"generating about {args.jsonl_gb} GB of JSON Lines ({users} users)...", file=sys.stderr)
        sh([sys.executable, gen, "--users", str(users), "--out", big, "--jsonl"])
        db = os.path.join(scratch, "big.db")
        wall, rss = timed(programs["jsonimport"](db, big))
        gb = os.path.getsize(big) / 1e9
        print(f"\nJSON Lines: {gb:.2f} GB in {wall:.1f} s ({gb * 1000 / wall:.0f} MB/s), peak memory {rss:.0f} MB")
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
