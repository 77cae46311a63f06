#!/usr/bin/env python3
"""Store faults (SPEC 4, 5): runs the crash test's seven operations, and a fresh import under
--on-error skip, on large stores that cannot take their writes, and checks that each is a store
error naming its cause with the store left as it was.

  python3 Scripts/reliability/fault_test.py [--users 20000] [--sizes 6] [--binary PATH] [--work DIR]

Needs root (it mounts file systems). Faults, for every operation (a first import creating the
store, a fresh import, under abort and skip, an update with clean-up, a JSON Lines import with
--prune, delete, clean, clean --older-than):

- disk full: the store on a tmpfs of SIZES sizes, from a little more than the store to about
  what the operation needs at its peak (the store, its write-ahead log, the checkpoint);
- file-size limit: RLIMIT_FSIZE (`ulimit -f`) at SIZES sizes up to about the largest file the
  operation writes, with SIGXFSZ at its default action (the tool must ignore it itself);
- read-only: the store's folder seen through a read-only bind mount.

After each run:
- the tool ended by an exit (no signal) with 0 (the operation fitted) or 3; with 3, stderr is one
  `error: store 'PATH': CAUSE (while OPERATION)` line, CAUSE `disk full`, `file too large` or
  `read-only`, with no record, savepoint or SQL text in it;
- `PRAGMA integrity_check` says `ok` and the store holds the state before the operation (exit 3)
  or the one after it (exit 0, timestamp columns left out), as in crash_test.py;
- a first import that failed left no file at all (no store, -wal, -shm or PATH.new);
- `jsonimport stats` opens the store again where it is (on the full disk, under the limit).

The last line is the summary; the exit status is 1 when any check failed.
"""
import argparse
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import support  # noqa: E402
from crash_test import CrashTest, Scenario  # noqa: E402
from support import log  # noqa: E402

CAUSES = {"disk-full": "disk full", "file-size": "file too large", "read-only": "read-only"}
SQL_WORDS = re.compile(r"\b(INSERT|SELECT|UPDATE|DELETE FROM|CREATE|DROP|COMMIT|SAVEPOINT|PRAGMA)\b")


class Mount:
    """A file system mounted for a run, unmounted on exit from the `with` block."""

    def __init__(self, *arguments, read_only_remount=False):
        self.point = tempfile.mkdtemp(prefix="jsonimport-fault-mount-")
        self.arguments, self.read_only_remount = arguments, read_only_remount

    def __enter__(self):
        self._mount(list(self.arguments) + [self.point])
        if self.read_only_remount:
            self._mount(["-o", "remount,bind,ro", self.point])
        return self.point

    def __exit__(self, *_):
        subprocess.run(["umount", "-l", self.point], check=False)
        os.rmdir(self.point)

    def _mount(self, arguments):
        result = subprocess.run(["mount"] + arguments, capture_output=True, text=True)
        if result.returncode != 0:
            subprocess.run(["umount", "-l", self.point], check=False, capture_output=True)
            sys.exit(f"cannot mount ({' '.join(arguments)}): {result.stderr.strip()}; the fault test needs root")


def file_size_limit(limit):
    """A preexec function: the limit, and SIGXFSZ at its default action and unblocked."""
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGXFSZ])
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
    return apply


def store_size(path):
    return sum(os.path.getsize(path + s) for s in ("", "-wal") if os.path.exists(path + s))


class FaultTest:
    def __init__(self, crash, sizes):
        self.crash, self.sizes = crash, sizes
        self.failures, self.outcomes = [], {}

    def run(self, scenario, store, limit=None):
        """Runs `scenario` on `store`, under the file-size `limit` if one is given."""
        return subprocess.run(
            [self.crash.binary, "--mappings", self.crash.mappings, "--store", store, "--quiet"] + scenario.args,
            capture_output=True, text=True, cwd=self.crash.work,
            preexec_fn=file_size_limit(limit) if limit else None)

    def check(self, scenario, fault, detail, process, store, readable, reopen=True):
        """Judges a run: its exit and message, the state it left at `readable` (the store's
        path or, for a read-only view, the real file), and that the store opens again."""
        problems = []
        code, stderr = process.returncode, process.stderr
        if code < 0:
            problems.append(f"killed by signal {-code}")
        elif code == 3:
            lines = stderr.splitlines()
            if len(lines) != 1 or not lines[0].startswith(f"error: store '{store}': {CAUSES[fault]}"):
                problems.append(f"message: {stderr.strip()!r}")
            if re.search(r"record|savepoint", stderr) or SQL_WORDS.search(stderr):
                problems.append(f"message names a record or SQL: {stderr.strip()!r}")
        elif code != 0:
            problems.append(f"exit {code}: {stderr.strip()!r}")
        outcome = "fitted" if code == 0 else "refused"
        state = support.StoreState(readable)
        if state.exists and state.integrity != "ok":
            problems.append(f"integrity_check: {state.integrity}")
        elif code == 0 and state.content != scenario.after.content:
            problems.append("exit 0 but not the state after")
        elif code != 0:
            if scenario.before.exists and state.exact != scenario.before.exact:
                problems.append("refused but not the state before")
            folder = os.path.dirname(readable)
            if not scenario.before.exists and os.listdir(folder):
                problems.append(f"a failed first import left files: {sorted(os.listdir(folder))}")
        if reopen and state.exists:
            again = subprocess.run(
                [self.crash.binary, "--mappings", self.crash.mappings, "--store", store, "--quiet", "stats"],
                capture_output=True, text=True, cwd=self.crash.work)
            if again.returncode != 0:
                problems.append(f"store does not open again: {again.stderr.strip()!r}")
        key = (fault, outcome)
        self.outcomes[key] = self.outcomes.get(key, 0) + 1
        verdict = "ok" if not problems else "FAILED (" + "; ".join(problems) + ")"
        message = stderr.strip().splitlines()[0] if code == 3 and stderr.strip() else ""
        log(f"{scenario.name}, {fault} {detail}: exit {code} {outcome} -> {verdict} {message}")
        if problems:
            self.failures.append(f"{scenario.name}, {fault} {detail}: {verdict}")

    def place(self, scenario, store):
        support.remove_store(store)
        if scenario.snapshot:
            support.copy_store(scenario.snapshot, store)

    def disk_full(self, scenario, need):
        base = store_size(scenario.snapshot) if scenario.snapshot else 0
        for k in range(self.sizes):
            size = base + 256 * 1024 + (need - base) * k // max(self.sizes - 1, 1)
            size = (size + 4095) // 4096 * 4096
            with Mount("-t", "tmpfs", "-o", f"size={size}", "tmpfs") as folder:
                store = os.path.join(folder, "store.sqlite")
                try:
                    self.place(scenario, store)
                except OSError as error:
                    log(f"{scenario.name}, disk-full {size // 1024} KB: the snapshot does not fit ({error}); skipped size")
                    continue
                process = self.run(scenario, store)
                self.check(scenario, "disk-full", f"{size // 1024} KB", process, store, store)

    def file_size(self, scenario, largest):
        folder = os.path.join(self.crash.work, "limited")
        os.makedirs(folder, exist_ok=True)
        store = os.path.join(folder, "store.sqlite")
        base = os.path.getsize(scenario.snapshot) if scenario.snapshot else 0
        for k in range(self.sizes):
            limit = max(base, 64 * 1024) + (largest - base) * k // max(self.sizes - 1, 1)
            limit = (limit + 4095) // 4096 * 4096
            self.place(scenario, store)
            process = self.run(scenario, store, limit=limit)
            # `stats` reopens it without the limit: the check is that the store is intact.
            self.check(scenario, "file-size", f"{limit // 1024} KB", process, store, store)
            for name in os.listdir(folder):
                os.remove(os.path.join(folder, name))

    def read_only(self, scenario):
        folder = os.path.join(self.crash.work, "read-only-source")
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        real = os.path.join(folder, "store.sqlite")
        self.place(scenario, real)
        with Mount("--bind", folder, read_only_remount=True) as view:
            store = os.path.join(view, "store.sqlite")
            process = self.run(scenario, store)
            self.check(scenario, "read-only", "bind mount", process, store, real, reopen=False)
        shutil.rmtree(folder, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=20000, help="users per payload (default 20000)")
    parser.add_argument("--sizes", type=int, default=6, help="disk sizes and file-size limits per operation (default 6)")
    support.add_run_options(parser)
    args = parser.parse_args()
    if os.geteuid() != 0:
        sys.exit("the fault test mounts file systems: run it as root")

    binary, work = support.prepare_run(args, "fault")
    crash = CrashTest(binary, work, args.users, rng=None)
    scenarios = crash.prepare()
    # Under --on-error skip each record runs in a savepoint, which a failing store takes away.
    empty = next(s.snapshot for s in scenarios if s.name == "import-fresh")
    scenarios.append(Scenario("import-fresh-skip", empty, ["import", "User", "base.json", "--on-error", "skip"]))
    test = FaultTest(crash, args.sizes)
    for scenario in scenarios:
        crash.reference(scenario)
        after = crash.store
        # The peak: the store before, a write-ahead log about as large as the rows written,
        # and the store after the checkpoint; the largest file, the larger of the two.
        before = store_size(scenario.snapshot) if scenario.snapshot else 0
        written = max(store_size(after), before)
        test.disk_full(scenario, need=before + 2 * written + 1024 * 1024)
        test.file_size(scenario, largest=written + 512 * 1024)
        test.read_only(scenario)

    counts = ", ".join(f"{fault} {outcome} {n}" for (fault, outcome), n in sorted(test.outcomes.items()))
    runs = sum(test.outcomes.values())
    print(f"runs: {runs} ({counts})")
    for failure in test.failures:
        print(f"  FAILED: {failure}")
    print(f"fault test: {runs - len(test.failures)}/{runs} runs passed, {len(test.failures)} failures")
    if not args.work and not test.failures:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if test.failures else 0)


if __name__ == "__main__":
    main()
