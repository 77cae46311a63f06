#!/usr/bin/env python3
"""Concurrent writers and readers (SPEC 5): WRITERS processes import different and overlapping
files into one store at once while READERS processes poll `stats --format json`.

  python3 Scripts/reliability/concurrency_test.py [--writers 4] [--readers 2] [--users 10000]
                                                  [--rounds 3] [--binary PATH] [--work DIR]

Writer k imports users [k*U/2, k*U/2 + U): each file shares half its users with the next one.
A user's record is the same in every file that holds it, so the store after any set of
imports depends only on which imports committed, not on their order. Before the run, the
stats of every such set (2^WRITERS of them, the empty store included) are computed by importing
their union into a fresh store.

Checks, each round starting from a store that does not exist yet (so the writers also race
to create it):
- every writer exits 0, and no `database is locked` / busy error reaches its stderr;
- the final stats equal those of all the files together;
- every stats a reader printed equals the stats of some set of committed imports (a reader
  never sees an import half done, or a count from one state next to a count from another).

SCRATCH sets the SwiftPM scratch path used for the release build (default .build).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import support  # noqa: E402
from support import log  # noqa: E402


def run(binary, store, args, work):
    return subprocess.run([binary, "--mappings", support.MAPPING, "--store", store, "--quiet"] + args,
                          capture_output=True, text=True, cwd=work)


def stats(binary, store, work):
    result = run(binary, store, ["stats", "--format", "json"], work)
    if result.returncode != 0:
        raise RuntimeError(result.stderr)
    return result.stdout.strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--readers", type=int, default=2)
    parser.add_argument("--users", type=int, default=10000, help="users per file (default 10000)")
    parser.add_argument("--rounds", type=int, default=3)
    support.add_run_options(parser)
    args = parser.parse_args()

    binary, work = support.prepare_run(args, "concurrency")
    u = args.users
    files = support.overlapping_files(work, args.writers, u)
    log(f"computing the stats of the {2 ** args.writers} sets of committed imports...")
    committed = support.committed_stats(binary, files, work)
    everything = next(s for s, subsets in committed.items() if frozenset(range(args.writers)) in subsets)

    failures, observed_total, writer_seconds = [], 0, []
    store = os.path.join(work, "store.sqlite")
    for round_number in range(1, args.rounds + 1):
        support.remove_store(store)
        done = threading.Event()
        observations = []

        def poll():
            while not done.is_set():
                result = run(binary, store, ["stats", "--format", "json"], work)
                if result.returncode == 0:
                    observations.append(result.stdout.strip())
                elif os.path.exists(store) and "does not exist" not in result.stderr:
                    observations.append("error: " + result.stderr.strip())

        readers = [threading.Thread(target=poll) for _ in range(args.readers)]
        for reader in readers:
            reader.start()
        began = time.monotonic()
        writers = [subprocess.Popen([binary, "--mappings", support.MAPPING, "--store", store, "--quiet",
                                     "import", "User", name], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                    text=True, cwd=work) for name, _ in files]
        results = [(w.wait(), w.stderr.read()) for w in writers]
        writer_seconds.append(time.monotonic() - began)
        done.set()
        for reader in readers:
            reader.join()

        for k, (code, stderr) in enumerate(results):
            if code != 0 or stderr:
                failures.append(f"round {round_number}: writer {k} exited {code}: {stderr.strip()}")
        final = stats(binary, store, work)
        if final != everything:
            failures.append(f"round {round_number}: final stats {final} differ from {everything}")
        seen = set()
        for observation in observations:
            if observation not in committed:
                failures.append(f"round {round_number}: a reader saw a state no set of imports commits: {observation}")
            else:
                seen.add(observation)
        observed_total += len(observations)
        log(f"round {round_number}: writers took {writer_seconds[-1]:.1f}s; readers polled {len(observations)} "
            f"times and saw {len(seen)} distinct committed states")

    for failure in failures:
        print(f"  FAILED: {failure}")
    print(f"concurrency test: {args.rounds} rounds of {args.writers} writers ({u} users each, half shared) and "
          f"{args.readers} readers; {observed_total} reads checked; {len(failures)} failures")
    if not args.work and not failures:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
