"""Shared pieces of the reliability scripts: building the CLI, GitHub-like payloads, and the
content hash of a store.

Only the Python standard library is used (sqlite3 included), so the scripts run on a clean
machine once Scripts/bootstrap.sh has installed the system libraries.
"""
import hashlib
import itertools
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAPPING = os.path.join(ROOT, "Benchmarks", "mapping.yml")
TIMESTAMP_COLUMNS = ("_created_at", "_updated_at", "_seen_at")


def log(message):
    print(message, file=sys.stderr, flush=True)


def bootstrap():
    """Installs the system libraries and the sqlite3 shell when they are missing."""
    subprocess.run(["bash", os.path.join(ROOT, "Scripts", "bootstrap.sh")], check=True)


def build_release(scratch=None):
    """Builds the release CLI and returns its path. `scratch` is SwiftPM's --scratch-path."""
    scratch = scratch or os.environ.get("SCRATCH") or os.path.join(ROOT, ".build")
    args = ["swift", "build", "-c", "release", "--product", "jsonimport", "--scratch-path", scratch]
    log("building jsonimport (release)...")
    subprocess.run(args, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    bin_path = subprocess.run(args[:-2] + ["--scratch-path", scratch, "--show-bin-path"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout.strip()
    return os.path.join(bin_path, "jsonimport")


def add_run_options(parser):
    """The options every reliability run takes: the CLI to test and the scratch directory."""
    parser.add_argument("--binary", help="a built jsonimport (default: build the release CLI)")
    parser.add_argument("--work", help="scratch directory (default: a new temporary one, removed after)")


def prepare_run(args, name):
    """Installs what is missing, builds the CLI unless --binary names one, and makes the scratch
    directory; returns (binary, work)."""
    bootstrap()
    binary = os.path.abspath(args.binary) if args.binary else build_release()
    work = args.work or tempfile.mkdtemp(prefix=f"jsonimport-{name}-")
    os.makedirs(work, exist_ok=True)
    return binary, work


# MARK: Payloads

WORDS = ["api", "kit", "core", "cli", "db", "sync", "cache", "json", "http", "ui", "lab", "tools"]
LANGS = ["Swift", "Python", "C", "Rust", "Go", "Zig", None]
CITIES = ["Zürich", "São Paulo", "Kraków", "Tokyo", "Москва", "北京", "Lima"]
TAGS = [f"{w}-{l.lower()}" for w in WORDS for l in LANGS if l] + ["ios", "linux", "web"]


def user(uid, variant=0):
    """User `uid` as the API sends it; a function of (uid, variant) alone, so files that share
    a user hold the same record. Repo ids are derived from the user id, so users own disjoint
    repos; about one follower in six is a user no payload holds (a stub)."""
    r = random.Random(uid * 7919 + variant)
    login = f"u{uid}" + ("x" if variant and r.random() < 0.3 else "")
    repos = []
    for k in range(r.randint(0, 5)):
        if variant and r.random() < 0.2:
            continue  # dropped from the list: an orphan for the clean-up pass
        rid = uid * 10 + k
        tags = sorted({r.choice(TAGS) for _ in range(r.randint(0, 3))})
        repos.append({"id": rid, "name": f"{r.choice(WORDS)}-{rid}", "stars": r.randint(0, 5000),
                      "language": r.choice(LANGS), "tags": [{"name": t} for t in tags]})
    followers = sorted({(r.randint(1, 200_000) if r.random() < 0.85 else 9_000_000 + r.randint(0, 999))
                        for _ in range(r.randint(0, 4))} - {uid})
    record = {"id": uid, "login": login, "name": f"User {uid}", "email": f"{login}@example.com",
              "created_at": f"20{10 + uid % 14}-0{1 + uid % 9}-1{uid % 9}T0{uid % 10}:00:00Z",
              "site_admin": uid % 97 == 0, "score": round(r.uniform(0, 100), 4),
              "bio": None if r.random() < 0.3 else f"Bio of {uid} ☕ \"quoted\"\n",
              "address": None if r.random() < 0.05 else {"street": f"{uid} Main St", "city": r.choice(CITIES),
                                                         "zip": f"{uid % 100000:05d}"},
              "repos": repos, "follower_ids": followers, "node_id": f"N{uid}", "type": "User"}
    return record


def write_payload(path, ids, variant=0, jsonl=False):
    with open(path, "w", encoding="utf-8") as f:
        if jsonl:
            for uid in ids:
                f.write(json.dumps(user(uid, variant), ensure_ascii=False, separators=(",", ":")) + "\n")
        else:
            f.write("[\n" + ",\n".join(json.dumps(user(uid, variant), ensure_ascii=False, separators=(",", ":"))
                                       for uid in ids) + "\n]\n")


# MARK: Stores

def overlapping_files(work, count, users):
    """Writes `count` payloads into `work`: file k holds users [k*U/2, k*U/2 + U), so each shares
    half its users with the next. Returns (path, set of user ids) per file."""
    files = []
    for k in range(count):
        ids = range(1 + k * users // 2, 1 + k * users // 2 + users)
        name = os.path.join(work, f"part{k}.json")
        write_payload(name, ids)
        files.append((name, set(ids)))
    return files


def committed_stats(binary, files, work):
    """The `stats --format json` of every set of committed imports of `files`, computed by
    importing the union of each set into a fresh SQLite store: stats text → the sets (frozensets
    of file indexes) giving it. A user's record is the same in every file holding it, so the
    store after a set of imports depends only on which files the set holds."""
    committed = {}
    payload = os.path.join(work, "union.json")
    store = os.path.join(work, "reference.sqlite")
    for size in range(len(files) + 1):
        for subset in itertools.combinations(range(len(files)), size):
            write_payload(payload, sorted(set().union(*(files[k][1] for k in subset))))
            remove_store(store)
            base = [binary, "--mappings", MAPPING, "--store", store, "--quiet"]
            subprocess.run(base + ["import", "User", payload], check=True, cwd=work)
            stats = subprocess.run(base + ["stats", "--format", "json"], check=True, capture_output=True, text=True,
                                   cwd=work).stdout.strip()
            committed.setdefault(stats, []).append(frozenset(subset))
    return committed


def remove_store(path):
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


def copy_store(source, target):
    """Copies a closed store (its WAL must have been checkpointed: the tool's last connection
    does that on close)."""
    remove_store(target)
    with open(source, "rb") as s, open(target, "wb") as t:
        t.write(s.read())
    if os.path.exists(source + "-wal"):
        with open(source + "-wal", "rb") as s, open(target + "-wal", "wb") as t:
            t.write(s.read())


class StoreState:
    """What a store holds: the schema and every row of every table, in a stable order.

    `exact` hashes everything; `content` leaves out the timestamp bookkeeping columns (an
    operation run twice stamps different instants), and `instants` collects their values so
    that a caller can check that one operation stamped a single instant."""

    def __init__(self, path):
        self.integrity = None
        self.instants = set()
        self.row_count = 0
        exact, content = hashlib.sha256(), hashlib.sha256()
        if not os.path.exists(path):
            self.exists = False
            self.exact = self.content = "absent"
            return
        self.exists = True
        db = sqlite3.connect(path, timeout=60)
        try:
            self.integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
            tables = db.execute(
                "SELECT name, sql, sql LIKE '%WITHOUT ROWID%' FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%' ORDER BY name").fetchall()
            for name, sql, without_rowid in tables:
                exact.update(f"table {name}: {sql}\n".encode())
                content.update(f"table {name}: {sql}\n".encode())
                columns = [row[1] for row in db.execute(f'PRAGMA table_info("{name}")')]
                selected = ([] if without_rowid else ["rowid"]) + columns
                masked = {i for i, c in enumerate(selected) if c in TIMESTAMP_COLUMNS}
                query = "SELECT " + ", ".join(f'"{c}"' for c in selected) + f' FROM "{name}"'
                rows = db.execute(query).fetchall()
                self.row_count += len(rows) if not name.startswith("_") else 0
                for row in sorted(rows, key=repr):
                    exact.update((repr(row) + "\n").encode())
                    content.update((repr(tuple(None if i in masked else v for i, v in enumerate(row))) + "\n").encode())
                    self.instants.update(v for i, v in enumerate(row) if i in masked and v is not None)
            self.exact = exact.hexdigest()
            self.content = content.hexdigest()
        finally:
            db.close()
