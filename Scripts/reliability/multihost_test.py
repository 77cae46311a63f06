#!/usr/bin/env python3
"""Many importers on many hosts (SPEC 6): a PostgreSQL server in a network namespace of its own,
importers and a reader in other namespaces ("hosts", joined to the server by veth pairs; no
traffic leaves them), all on one store, with faults.

  python3 Scripts/reliability/multihost_test.py [--hosts 3] [--users 2000] [--rounds 4]
                                                [--binary PATH] [--work DIR]

Needs root (namespaces, and the server runs as the `postgres` user). Importer k imports users
[k*U/2, k*U/2 + U): each file shares half its users with the next. A user's record is the same
in every file holding it, so the store after any set of committed imports depends only on
which imports committed. The stats of every such set (2^HOSTS of them) are computed first by
importing their union into a SQLite store: the two stores must agree byte for byte.

Rounds, each from a store that does not exist yet (the importers race to create it):
- plain: every importer must exit 0 and the final stats must be those of all the files;
- kill: one importer is killed (SIGKILL) at a random moment;
- link: one host's link is taken down at a random moment and brought back after the others
  finish; its importer must fail (exit 3) within the keepalive bound, unless it had committed
  (exit 0, its import in the final state), and the lock it held must come free for the others;
- server: the server is stopped with `pg_ctl stop -m immediate` mid-run and started again.
In every round the final stats must be those of a set of imports holding every importer that
exited 0 (and none that failed before connecting), and every stats the reader printed must be
those of some set of committed imports: never half an import.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import support  # noqa: E402
from support import log  # noqa: E402

# Namespace names carry this run's process id, so that runs on one machine never share one;
# those of runs that died without removing them are removed at the start (see Network).
RUN = os.getpid()
SERVER = f"ji-srv-{RUN}"
PORT = 5432
SCHEMA = "multihost"


def sh(*args, check=True, **kwargs):
    return subprocess.run(list(args), check=check, capture_output=True, text=True, **kwargs)


def host(k):
    return f"ji-h{k}-{RUN}"


class Network:
    """A server namespace and `count` host namespaces, host k on 10.231.k.2 reaching the server
    at 10.231.k.1 through a veth pair of its own."""

    def __init__(self, count):
        self.count = count

    def __enter__(self):
        self.remove_stale()
        sh("ip", "netns", "add", SERVER)
        sh("ip", "netns", "exec", SERVER, "ip", "link", "set", "lo", "up")
        for k in range(1, self.count + 1):
            sh("ip", "netns", "add", host(k))
            sh("ip", "netns", "exec", host(k), "ip", "link", "set", "lo", "up")
            sh("ip", "link", "add", f"ji-v{k}", "netns", host(k), "type", "veth", "peer", "name", f"ji-s{k}",
               "netns", SERVER)
            sh("ip", "netns", "exec", host(k), "ip", "addr", "add", f"10.231.{k}.2/24", "dev", f"ji-v{k}")
            sh("ip", "netns", "exec", SERVER, "ip", "addr", "add", f"10.231.{k}.1/24", "dev", f"ji-s{k}")
            self.link(k, up=True)
            sh("ip", "netns", "exec", SERVER, "ip", "link", "set", f"ji-s{k}", "up")
        return self

    def link(self, k, up):
        sh("ip", "netns", "exec", host(k), "ip", "link", "set", f"ji-v{k}", "up" if up else "down")

    @staticmethod
    def remove_stale():
        """Removes the namespaces of runs whose process is gone."""
        for line in sh("ip", "netns", "list").stdout.splitlines():
            name = (line.split() or [""])[0]
            found = re.fullmatch(r"ji-(?:srv|h\d+)-(\d+)", name)
            if found and not os.path.exists(f"/proc/{found.group(1)}"):
                sh("ip", "netns", "del", name, check=False)

    def remove(self):
        for k in range(1, self.count + 1):
            sh("ip", "netns", "del", host(k), check=False)
        sh("ip", "netns", "del", SERVER, check=False)

    def __exit__(self, *exc):
        self.remove()


class Server:
    """A throwaway cluster listening in the server namespace, its keepalives and TCP user
    timeout short so that the backend of a client whose link went down ends (and lets go of the
    store's lock) within seconds, whether it was waiting for the client or sending to it."""

    def __init__(self, work):
        self.dir = os.path.join(work, "cluster")
        self.bindir = sh("pg_config", "--bindir").stdout.strip()

    def owner(self, *args):
        return ["runuser", "-u", "postgres", "--"] + list(args)

    def create(self):
        os.makedirs(self.dir)
        shutil.chown(self.dir, "postgres")
        sh(*self.owner(f"{self.bindir}/initdb", "-D", f"{self.dir}/data", "-A", "trust", "-U", "postgres", "-E",
                       "UTF8", "--locale=C.UTF-8", "--no-sync"))
        with open(f"{self.dir}/data/pg_hba.conf", "a") as hba:
            hba.write("host all all 10.231.0.0/16 trust\n")

    def start(self):
        options = (f"-k {self.dir} -p {PORT} -c listen_addresses='*' -c fsync=off -c max_connections=100 "
                   "-c tcp_keepalives_idle=2 -c tcp_keepalives_interval=1 -c tcp_keepalives_count=2 -c tcp_user_timeout=5000")
        sh("ip", "netns", "exec", SERVER, *self.owner(f"{self.bindir}/pg_ctl", "-D", f"{self.dir}/data", "-l",
                                                      f"{self.dir}/log", "-w", "-s", "-o", options, "start"))

    def stop(self, mode="fast"):
        sh("ip", "netns", "exec", SERVER, *self.owner(f"{self.bindir}/pg_ctl", "-D", f"{self.dir}/data", "-w",
                                                      "-s", "-m", mode, "stop"), check=False)

    def psql(self, sql):
        return sh("ip", "netns", "exec", SERVER, *self.owner(f"{self.bindir}/psql", "-h", self.dir, "-p", str(PORT),
                                                             "-U", "postgres", "-XAtqc", sql)).stdout


def url(k):
    """The store as host k reaches it, with client keepalives and a user timeout short enough
    for a cut link to end the importer within seconds."""
    return (f"postgres://postgres@10.231.{k}.1:{PORT}/postgres?schema={SCHEMA}&connect_timeout=5"
            "&keepalives_idle=2&keepalives_interval=1&keepalives_count=2&tcp_user_timeout=5000")


def command(binary, k, args):
    return ["ip", "netns", "exec", host(k), binary, "--mappings", support.MAPPING, "--store", url(k), "--quiet",
            "--busy-timeout", "60"] + args


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hosts", type=int, default=3, help="importing hosts (default 3; one more reads)")
    parser.add_argument("--users", type=int, default=2000, help="users per file (default 2000)")
    parser.add_argument("--rounds", type=int, default=4, help="rounds, cycling plain, kill, link, server")
    parser.add_argument("--seed", type=int, default=1)
    support.add_run_options(parser)
    args = parser.parse_args()
    if os.geteuid() != 0:
        sys.exit("multihost_test.py needs root: it makes network namespaces and runs the server as postgres")
    random.seed(args.seed)
    binary, work = support.prepare_run(args, "multihost")
    shutil.chown(work, "postgres")
    os.chmod(work, 0o755)

    u = args.users
    files = support.overlapping_files(work, args.hosts, u)
    log(f"computing the stats of the {2 ** args.hosts} sets of committed imports (SQLite)...")
    committed = support.committed_stats(binary, files, work)

    failures, reads, figures = [], 0, []
    reader_host = args.hosts + 1
    with Network(args.hosts + 1) as network:
        server = Server(work)
        server.create()
        server.start()
        try:
            for number in range(1, args.rounds + 1):
                kind = ["plain", "kill", "link", "server"][(number - 1) % 4]
                server.psql(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE")
                done = threading.Event()
                observations = []

                def poll():
                    while not done.is_set():
                        result = subprocess.run(command(binary, reader_host, ["stats", "--format", "json"]),
                                                capture_output=True, text=True, cwd=work)
                        if result.returncode == 0:
                            observations.append(result.stdout.strip())
                        time.sleep(0.05)

                reader = threading.Thread(target=poll)
                reader.start()
                began = time.monotonic()
                importers = [subprocess.Popen(command(binary, k + 1, ["import", "User", name]),
                                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=work)
                             for k, (name, _) in enumerate(files)]
                victim = random.randrange(args.hosts)
                fault_at = random.uniform(0.1, 1.0)
                if kind != "plain":
                    time.sleep(fault_at)
                    # The fault hits an importer still running (imports of small files may be over).
                    running = [k for k, importer in enumerate(importers) if importer.poll() is None]
                    if not running and kind in ("kill", "link"):
                        figures.append(f"round {number} ({kind}): every import had ended by {fault_at:.1f} s, so no fault")
                        kind = "plain"
                    elif running:
                        victim = random.choice(running)
                if kind == "kill":
                    importers[victim].kill()
                elif kind == "link":
                    network.link(victim + 1, up=False)
                elif kind == "server":
                    server.stop("immediate")
                    server.start()
                results = []
                for k, importer in enumerate(importers):
                    try:
                        code = importer.wait(timeout=120)
                    except subprocess.TimeoutExpired:
                        importer.kill()
                        code = "timeout"
                    results.append((code, importer.stderr.read().strip(), time.monotonic() - began))
                if kind == "link":
                    network.link(victim + 1, up=True)
                done.set()
                reader.join()

                final = subprocess.run(command(binary, reader_host, ["stats", "--format", "json"]),
                                       capture_output=True, text=True, cwd=work)
                succeeded = {k for k, (code, _, _) in enumerate(results) if code == 0}
                for k, (code, stderr, seconds) in enumerate(results):
                    faulted = kind in ("kill", "link") and k == victim or kind == "server"
                    if code == "timeout":
                        failures.append(f"round {number} ({kind}): importer {k} did not end within 120 s")
                    elif code != 0 and not faulted:
                        failures.append(f"round {number} ({kind}): importer {k} exited {code}: {stderr}")
                    elif kind == "link" and k == victim and code not in (0, 3):
                        # 0: the link went down after the import committed (while the indexes of
                        # a new store were built, say); the final state must then hold it.
                        failures.append(f"round {number}: the cut importer exited {code}, not 3: {stderr}")
                states = committed.get(final.stdout.strip(), []) if final.returncode == 0 else []
                state = next((s for s in states if succeeded <= s), None)
                if final.returncode != 0 and not (kind in ("kill", "link", "server") and "does not exist" in final.stderr):
                    failures.append(f"round {number} ({kind}): stats failed: {final.stderr.strip()}")
                elif final.returncode == 0 and state is None:
                    failures.append(f"round {number} ({kind}): final stats are no committed state holding {sorted(succeeded)}")
                for observation in observations:
                    if observation not in committed:
                        failures.append(f"round {number} ({kind}): the reader saw a state no set of imports commits")
                reads += len(observations)
                slowest = max(seconds for _, _, seconds in results)
                figures.append(f"round {number} ({kind}): importers {[code for code, _, _ in results]}, "
                               f"{slowest:.1f} s, {len(observations)} reads, final state {sorted(state or [])}")
                log(figures[-1])
        finally:
            server.stop()

    for failure in failures:
        print(f"  FAILED: {failure}")
    print(f"multi-host test: {args.rounds} rounds of {args.hosts} importing hosts ({u} users each, half shared) and "
          f"1 reading host; {reads} reads checked; {len(failures)} failures")
    if not args.work and not failures:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
