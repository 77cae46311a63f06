#!/usr/bin/env python3
"""Import benchmark: jsonimport side by side with the reference programs of the bench kit.

  python3 Benchmarks/bench.py [--users 50000] [--runs 3] [--kit ../shared/bench] [--jsonl-gb 1.0]
                              [--jsonl-records 2000000] [--jsonl-random-ids] [--jsonl-only]

Builds our CLI (release), the C++ simdjson + SQLite floor, the Swift Codable baseline, and uses
the Python baseline; generates the kit's payload (and its --mutate variant) in a scratch
directory; then, for each scenario, runs every program --runs times, alternating programs,
each from a fresh store (or a fresh copy of a populated one), and prints the median wall time,
rows/s, MB/s, peak memory and the ratio to the C++ program: of the medians, and the median of
the ratios within each round (robust to load that drifts during the run). `--skip Swift --skip
Python` alternates our CLI with the C++ program alone.

Scenarios: fresh import; re-import of the same file (all unchanged); import of the mutated
file. With --jsonl-gb, also a JSON Lines import of a file of about that many GB by our CLI
alone, reporting its peak memory. With --jsonl-records N, also a JSON Lines import of N small
one-table records ({"id": i, "login": "user<i>", "score": i.5, "bio": 200 x}, mapped as
`Item`), --runs times, reporting the median time and the highest peak memory; with
--jsonl-random-ids, again with ids scattered over 62 bits instead of 1, 2, 3... --jsonl-only
runs the JSON Lines imports alone (no reference programs, no scenarios).
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


# GNU time's report, on the last line of what it prints: wall seconds, peak RSS (KB), user and
# system CPU seconds.
TIME = ["/usr/bin/time", "-f", "%e %M %U %S"]


def time_report(cmd, returncode, stderr):
    """Wall seconds, peak RSS (MB) and CPU seconds (user + system) from TIME's output."""
    if returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{stderr[-2000:]}")
    wall, rss, user, system = stderr.strip().splitlines()[-1].split()
    return float(wall), int(rss) / 1024, float(user) + float(system)


def timed(cmd, env=None):
    """Wall seconds and peak RSS (MB) of one run, measured by GNU time."""
    out = subprocess.run(TIME + cmd, capture_output=True, text=True, env=env)
    wall, rss, _ = time_report(cmd, out.returncode, out.stderr)
    return wall, rss


def build_ours():
    print("building jsonimport (release)...", file=sys.stderr)
    sh(["swift", "build", "-c", "release", "--product", "jsonimport"], cwd=ROOT, stdout=subprocess.DEVNULL)
    return os.path.join(ROOT, ".build", "release", "jsonimport"), os.path.join(ROOT, "Benchmarks", "mapping.yml")


def build(kit, scratch, ours, mapping):
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
    return {
        FLOOR: lambda db, js: [limit, db, js],
        "jsonimport": lambda db, js: [ours, "--quiet", "--mappings", mapping, "--store", db, "import", "User", js],
        "Swift Codable": lambda db, js: [swift_baseline, db, js],
        "Python json+sqlite3": lambda db, js: [sys.executable, os.path.join(kit, "py_baseline.py"), db, js],
    }


def row_count(ours, mapping, db):
    out = subprocess.run([ours, "--mappings", mapping, "--store", db, "stats", "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    stats = json.loads(out)
    return sum(stats["entities"].values()) + sum(stats["links"].values())


def github_jsonl(ours, mapping, gen, scratch, users):
    """Size (GB), wall time and peak memory of importing `users` of the kit's payload as JSON Lines."""
    big = os.path.join(scratch, "big.jsonl")
    print(f"generating {users} users as JSON Lines...", file=sys.stderr)
    sh([sys.executable, gen, "--users", str(users), "--out", big, "--jsonl"])
    db = os.path.join(scratch, "big.db")
    wall, rss = timed([ours, "--quiet", "--mappings", mapping, "--store", db, "import", "User", big])
    gb = os.path.getsize(big) / 1e9
    remove(big, db)
    return gb, wall, rss


def remove(*paths):
    """Deletes files and stores (with their -wal and -shm files): the large ones fill the disk."""
    for path in paths:
        for name in (path, path + "-wal", path + "-shm"):
            if os.path.exists(name):
                os.remove(name)


SMALL_MAPPING = """version: 1
entities:
  Item:
    primaryKey: id
    attributes: { id: int, login: string, score: double, bio: string }
"""


def small_records(ours, scratch, count, runs, random_ids=False):
    """Median wall time and highest peak memory of importing `count` small JSON Lines records,
    with ids 1, 2, 3... or, with `random_ids`, scattered over 62 bits (no two close together)."""
    path = os.path.join(scratch, "small.jsonl")
    mapping = os.path.join(scratch, "small.yml")
    with open(mapping, "w") as f:
        f.write(SMALL_MAPPING)
    print(f"generating {count} small JSON Lines records...", file=sys.stderr)
    bio = "x" * 200
    with open(path, "w") as f:
        for i in range(1, count + 1):
            key = (i * 0x9E3779B97F4A7C15) % (1 << 62) if random_ids else i
            f.write(f'{{"id": {key}, "login": "user{i}", "score": {i}.5, "bio": "{bio}"}}\n')
    size = os.path.getsize(path)
    samples = []
    for run in range(max(runs, 1)):
        db = os.path.join(scratch, f"small-{run}.db")
        samples.append(timed([ours, "--quiet", "--mappings", mapping, "--store", db, "import", "Item", path]))
        remove(db)
    remove(path)
    return size, statistics.median(w for w, _ in samples), max(m for _, m in samples), len(samples)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=50000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--kit", default=os.path.join(ROOT, "..", "shared", "bench"))
    parser.add_argument("--skip", action="append", default=[], help="leave out a program (by name prefix)")
    parser.add_argument("--jsonl-gb", type=float, default=0.0)
    parser.add_argument("--jsonl-records", type=int, default=0)
    parser.add_argument("--jsonl-random-ids", action="store_true")
    parser.add_argument("--jsonl-only", action="store_true")
    args = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="jsonimport-bench-")
    ours, mapping = build_ours()
    gen = os.path.join(args.kit, "gen.py")
    payload = os.path.join(scratch, "users.json")
    print(f"generating {args.users} users...", file=sys.stderr)
    sh([sys.executable, gen, "--users", str(args.users), "--out", payload])
    size_mb = os.path.getsize(payload) / 1e6
    if not args.jsonl_only:
        compare(args, scratch, ours, mapping, gen, payload, size_mb)

    if args.jsonl_gb > 0:
        users = int(args.jsonl_gb * 1e9 / (size_mb * 1e6 / args.users))
        gb, wall, rss = github_jsonl(ours, mapping, gen, scratch, users)
        print(f"\nJSON Lines: {gb:.2f} GB in {wall:.1f} s ({gb * 1000 / wall:.0f} MB/s), peak memory {rss:.0f} MB")
    for random_ids in [False, True] if args.jsonl_random_ids else [False]:
        if args.jsonl_records <= 0:
            break
        size, wall, rss, runs = small_records(ours, scratch, args.jsonl_records, args.runs, random_ids)
        ids = "random ids" if random_ids else "ids 1, 2, 3..."
        print(f"\nJSON Lines, small records ({ids}): {args.jsonl_records:,} records, {size / 1e9:.2f} GB, in {wall:.1f} s "
              f"({args.jsonl_records / wall:,.0f} records/s; median of {runs}), peak memory {rss:.0f} MB")
    shutil.rmtree(scratch, ignore_errors=True)


def compare(args, scratch, ours, mapping, gen, payload, size_mb):
    """The scenarios: every program, alternating, --runs times each."""
    programs = build(os.path.abspath(args.kit), scratch, ours, mapping)
    programs = {k: v for k, v in programs.items() if not any(k.startswith(s) for s in args.skip)}
    mutated = os.path.join(scratch, "users_mut.json")
    sh([sys.executable, gen, "--users", str(args.users), "--out", mutated, "--mutate", "10", "--seed", "7"])

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


if __name__ == "__main__":
    main()
