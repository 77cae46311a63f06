#!/usr/bin/env python3
"""Fetch benchmark: `jsonimport fetch` of the bench payload from a local paged API, side by side
with `jsonimport import` of the same records from one file.

  python3 Benchmarks/fetch_bench.py [--users 50000] [--per-page 1000] [--runs 5] [--kit ../shared/bench]

Builds the release CLI, generates the kit's payload in a scratch directory, serves it with
Scripts/example-api.py on 127.0.0.1 in pages of --per-page users (`Link` headers, an ETag per
page), then runs, --runs times and alternating the two, each into a fresh store:

  import   jsonimport import User M.json
  fetch    jsonimport fetch User http://127.0.0.1:PORT/users   (every page fetched and imported)

and, into a copy of a store the fetch filled, the fetch again (every page answers 304 Not
Modified) beside the import of the same file again. Prints the median wall time of each, the
ratio of the medians (fetch / import) and the median of the ratios within each round.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIME = ["/usr/bin/time", "-f", "%e %M"]


def timed(cmd):
    """Wall seconds and peak RSS (MB) of one run."""
    out = subprocess.run(TIME + cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), out.stderr[-2000:]))
    wall, rss = out.stderr.strip().splitlines()[-1].split()
    return float(wall), int(rss) / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, default=50000)
    parser.add_argument("--per-page", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--kit", default=os.path.join(ROOT, "..", "shared", "bench"))
    args = parser.parse_args()

    print("building jsonimport (release)...", file=sys.stderr)
    subprocess.run(["swift", "build", "-c", "release", "--product", "jsonimport"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    ours = os.path.join(ROOT, ".build", "release", "jsonimport")
    mapping = os.path.join(ROOT, "Benchmarks", "mapping.yml")
    scratch = tempfile.mkdtemp(prefix="jsonimport-fetch-bench-")
    server = None
    try:
        payload = os.path.join(scratch, "M.json")
        subprocess.run([sys.executable, os.path.join(args.kit, "gen.py"), "--users", str(args.users), "--out", payload],
                       check=True, stdout=subprocess.DEVNULL)
        server = subprocess.Popen(
            [sys.executable, os.path.join(ROOT, "Scripts", "example-api.py"), "--port", "0", "--payload", payload,
             "--per-page", str(args.per_page)], stdout=subprocess.PIPE, text=True)
        banner = server.stdout.readline().split()
        if len(banner) < 2 or not banner[1].startswith("http://127.0.0.1:"):
            sys.exit("the example API did not start")
        url = banner[1]
        size_mb = os.path.getsize(payload) / 1e6
        print("payload: %d users, %.1f MB; %s in pages of %d" % (args.users, size_mb, url, args.per_page), file=sys.stderr)

        def run(kind, store):
            command = [ours, "--quiet", "--mappings", mapping, "--store", store]
            command += ["fetch", "User", url] if kind == "fetch" else ["import", "User", payload]
            return timed(command)

        # A store the fetch filled, for the second scenario: what every page's ETag was.
        filled = os.path.join(scratch, "filled.sqlite")
        run("fetch", filled)

        scenarios = [("fresh", None), ("again (fetch: all 304)", filled)]
        for name, source in scenarios:
            samples = {"import": [], "fetch": []}
            for i in range(args.runs):
                for kind in ("import", "fetch") if i % 2 == 0 else ("fetch", "import"):
                    store = os.path.join(scratch, "%s-%d.sqlite" % (kind, i))
                    for suffix in ("", "-wal", "-shm"):
                        if os.path.exists(store + suffix):
                            os.remove(store + suffix)
                    if source is not None:
                        # The import runs again into the store its own first run made.
                        if kind == "import":
                            run("import", store)
                        else:
                            shutil.copy(source, store)
                    samples[kind].append(run(kind, store))
            walls = {kind: [wall for wall, _ in runs] for kind, runs in samples.items()}
            ratio = statistics.median(walls["fetch"]) / statistics.median(walls["import"])
            per_round = statistics.median(f / i for f, i in zip(walls["fetch"], walls["import"]))
            print("\n%s, %d runs" % (name, args.runs))
            print("| program | wall (s) | peak memory (MB) |\n|---|---:|---:|")
            for kind in ("import", "fetch"):
                rss = max(r for _, r in samples[kind])
                print("| %s | %.2f | %.0f |" % (kind, statistics.median(walls[kind]), rss))
            print("fetch / import: %.2fx (median of rounds %.2fx)" % (ratio, per_round))
    finally:
        if server is not None:
            server.kill()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
