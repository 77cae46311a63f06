#!/usr/bin/env python3
"""Crash safety (SPEC 2.3): kills the release CLI with SIGKILL at random moments of large
imports, deletes and cleans, and checks after each kill that the store is intact and holds
either the state before the operation or the state after it, never anything in between.

  python3 Scripts/reliability/crash_test.py [--kills 60] [--users 20000] [--seed 1]
                                            [--binary PATH] [--work DIR]

Each operation starts from a snapshot store. It is first run to completion once, which gives
the state after it and its duration T; then, again and again, it is started on a fresh copy of
the snapshot and killed after a random delay: every other kill in [0, 1.1 T], the others
around the commit and the checkpoint that follows it (aimed by what earlier kills found). After each kill:

- `PRAGMA integrity_check` must say `ok`;
- the store's content hash (the schema and every row of every table, see support.StoreState)
  must equal the snapshot's exactly, or the finished run's with the timestamp bookkeeping
  columns left out, and then every instant the operation stamped must be a single one;
- `jsonimport stats` must open the store again.

A run that ends before its kill lands counts as "finished", not as a kill. The last line is
the summary; the exit status is 1 when any check failed.

SCRATCH sets the SwiftPM scratch path used for the release build (default .build).
"""
import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import support  # noqa: E402
from support import log  # noqa: E402


class Scenario:
    """An operation (CLI arguments) run on a copy of a snapshot store."""

    def __init__(self, name, snapshot, args):
        self.name, self.snapshot, self.args = name, snapshot, args
        self.before = self.after = None
        self.duration = 0.0
        # Where the commit seems to be: late kills aim around it, and it moves later after a
        # late kill that found the state before, earlier after one that found the state after.
        self.commit = 0.0


class CrashTest:
    def __init__(self, binary, work, users, rng):
        self.binary, self.work, self.users, self.rng = binary, work, users, rng
        self.mappings = support.MAPPING
        self.store = os.path.join(work, "store.sqlite")
        self.failures = []

    def cli(self, args, store, check=True):
        result = subprocess.run([self.binary, "--mappings", self.mappings, "--store", store, "--quiet"] + args,
                                capture_output=True, text=True, cwd=self.work)
        if check and result.returncode != 0:
            sys.exit(f"failed: jsonimport {' '.join(args)}\n{result.stderr}")
        return result

    def path(self, name):
        return os.path.join(self.work, name)

    def prepare(self):
        """Payloads and snapshot stores; returns the scenarios."""
        n = self.users
        ids = list(range(1, n + 1))
        support.write_payload(self.path("empty.json"), [])
        support.write_payload(self.path("base.json"), ids)
        support.write_payload(self.path("mutated.json"), ids, variant=1)
        support.write_payload(self.path("more.jsonl"), list(range(n // 2, n + n // 2)), variant=2, jsonl=True)
        log(f"payloads: {n} users, base.json {os.path.getsize(self.path('base.json')) / 1e6:.1f} MB")

        empty = self.path("snap-empty.sqlite")
        self.cli(["import", "User", "empty.json"], empty)
        base = self.path("snap-base.sqlite")
        self.cli(["import", "User", "base.json"], base)
        orphans = self.path("snap-orphans.sqlite")
        support.copy_store(base, orphans)
        self.cli(["import", "User", "mutated.json", "--no-cleanup"], orphans)
        stale = self.path("snap-stale.sqlite")
        support.copy_store(base, stale)
        db = __import__("sqlite3").connect(stale)
        db.execute('UPDATE "User" SET "_seen_at" = 0 WHERE "id" % 3 = 0')
        db.commit()
        db.close()
        # Checkpoints and closes the WAL left by the update above.
        self.cli(["stats"], stale)

        return [
            Scenario("create", None, ["import", "User", "base.json"]),
            Scenario("import-fresh", empty, ["import", "User", "base.json"]),
            Scenario("import-update", base, ["import", "User", "mutated.json"]),
            Scenario("import-jsonl-prune", base, ["import", "User", "more.jsonl", "--prune"]),
            Scenario("delete", base, ["delete", "User", "--where", f"id <= {n // 2} OR score > 90"]),
            Scenario("clean", orphans, ["clean"]),
            Scenario("evict", stale, ["clean", "--older-than", "3650d", "--entity", "User"]),
        ]

    def start(self, scenario):
        support.remove_store(self.store)
        if scenario.snapshot:
            support.copy_store(scenario.snapshot, self.store)
        return subprocess.Popen(
            [self.binary, "--mappings", self.mappings, "--store", self.store, "--quiet"] + scenario.args,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=self.work)

    def reference(self, scenario):
        """Runs the scenario to completion: the states before and after, and its duration."""
        support.remove_store(self.store)
        if scenario.snapshot:
            support.copy_store(scenario.snapshot, self.store)
        scenario.before = support.StoreState(self.store)
        began = time.monotonic()
        process = self.start(scenario)
        _, stderr = process.communicate()
        scenario.duration = time.monotonic() - began
        if process.returncode != 0:
            sys.exit(f"failed: {scenario.name}: {stderr.decode()}")
        scenario.after = support.StoreState(self.store)
        scenario.commit = scenario.duration * 0.95
        log(f"{scenario.name}: {scenario.duration:.2f}s, rows {scenario.before.row_count} -> {scenario.after.row_count}")

    def kill_once(self, scenario, number, total):
        # Half the kills anywhere in the run; half around the commit and the WAL checkpoint
        # that the last connection runs as it closes (runs take longer or shorter as the
        # machine's load changes, so the aim follows what the kills find).
        late = number % 2 == 0
        if late:
            delay = self.rng.uniform(scenario.commit * 0.9, scenario.commit * 1.1)
        else:
            delay = self.rng.uniform(0, scenario.duration * 1.1)
        process = self.start(scenario)
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        _, stderr = process.communicate()
        killed = process.returncode == -signal.SIGKILL
        state = support.StoreState(self.store)
        verdict = self.judge(scenario, state)
        if not killed and process.returncode != 0:
            verdict = f"FAILED (exit {process.returncode}: {stderr.decode().strip()})"
        if verdict in ("before", "after") and state.exists:
            reopened = self.cli(["stats"], self.store, check=False)
            if reopened.returncode != 0:
                verdict = f"FAILED (store does not open again: {reopened.stderr.strip()})"
        if late:
            scenario.commit *= 1.08 if verdict == "before" and killed else 0.95
        what = "kill" if killed else "finished before kill"
        log(f"[{number}] {scenario.name}: {what} at {delay:.3f}s of {scenario.duration:.2f}s -> {verdict}")
        if verdict.startswith("FAILED"):
            keep = self.path(f"failed-{number}-{scenario.name}.sqlite")
            support.copy_store(self.store, keep)
            self.failures.append(f"{scenario.name} at {delay:.3f}s: {verdict} (store kept in {keep})")
        return killed, verdict

    @staticmethod
    def judge(scenario, state):
        if state.exists and state.integrity != "ok":
            return f"FAILED (integrity_check: {state.integrity})"
        if state.exact == scenario.before.exact:
            return "before"
        # A killed first import may leave a store holding its schema and no rows.
        if not scenario.before.exists and state.row_count == 0:
            return "before"
        if state.content == scenario.after.content:
            stamped = state.instants - scenario.before.instants
            if len(stamped) > 1:
                return f"FAILED (rows stamped with {len(stamped)} different instants)"
            return "after"
        return "FAILED (neither the state before nor the state after)"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=60, help="SIGKILLs to land (default 60)")
    parser.add_argument("--users", type=int, default=20000, help="users per payload (default 20000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the kill delays (default 1)")
    support.add_run_options(parser)
    args = parser.parse_args()

    binary, work = support.prepare_run(args, "crash")
    test = CrashTest(binary, work, args.users, random.Random(args.seed))
    scenarios = test.prepare()
    for scenario in scenarios:
        test.reference(scenario)

    kills, finished, failed_kills, states = 0, 0, 0, {"before": 0, "after": 0}
    per_scenario = {s.name: 0 for s in scenarios}
    attempt = 0
    while kills < args.kills and attempt < args.kills * 3:
        scenario = scenarios[attempt % len(scenarios)]
        attempt += 1
        killed, verdict = test.kill_once(scenario, attempt, args.kills)
        if killed:
            kills += 1
            per_scenario[scenario.name] += 1
            failed_kills += verdict.startswith("FAILED")
        else:
            finished += 1
        if verdict in states:
            states[verdict] += 1

    by_scenario = ", ".join(f"{name} {count}" for name, count in per_scenario.items())
    print(f"kills: {kills} ({by_scenario}); runs that finished before their kill: {finished}")
    print(f"states found: before {states['before']}, after {states['after']}; failures: {len(test.failures)}")
    for failure in test.failures:
        print(f"  FAILED: {failure}")
    print(f"crash test: {kills - failed_kills}/{kills} kills survived, {len(test.failures)} failures")
    if not args.work and not test.failures:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if test.failures else 0)


if __name__ == "__main__":
    main()
