#!/usr/bin/env python3
"""PostgreSQL import benchmark: jsonimport's PostgreSQL store against the floor, `psql` loading
the same final rows with binary COPY.

  python3 Benchmarks/bench_postgres.py [--users 50000] [--runs 3] [--kit ../shared/bench]
                                       [--server postgres://…] [--skip-concurrency] [--skip-cleanup]
                                       [--cleanup-rows 1000000] [--cleanup-orphans 100000]

Starts a throwaway cluster (`bash Scripts/postgres.sh start`, stopped at the end, also on
failure) unless --server names one; builds the release CLI once; generates the kit's payload
and its 10 % mutation (`gen.py --mutate 10 --seed 7`) in a scratch directory. Every store is a
new schema of the server, dropped after its run.

The floor: the final rows of every table of a store that imported the payload, dumped once with
binary COPY, loaded by one `psql` process in one transaction (`\\copy … FROM … WITH (FORMAT
binary)`) into a new schema whose tables have the store's columns and types (collations
included) and nothing else: no keys, indexes, defaults, NOT NULL or other constraints. Its first
load is checked: the same tables, row counts and rows (EXCEPT ALL both ways) as the store's.
Every scenario is paired with this same floor.

Scenarios, each --runs times, alternating the floor and our CLI as bench.py does:
- fresh import: `jsonimport import` of the payload into a new schema;
- re-import, same file: into a schema populated by one import of the payload just before
  (untimed, then VACUUM ANALYZE, as a store some time after its import);
- import of the mutated file: the mutated payload, into such a populated schema;
- concurrency: one importer on the whole file, then 2 and 4 importers at once of disjoint
  halves and quarters of its users, each round into a new schema; the ratio is one importer's
  time over the group's (aggregate rows/s over one importer's). The same parts are also
  imported one after another by one importer, into a new schema, and the group is compared
  with that too: the comparison of the design notes (two importers at once against the same
  imports in a row), where the whole file's one import also gains from loading its tables
  before their indexes, which only the first of several imports can. Parts are disjoint in users
  and repos; tags and stub users (follower ids of no user in the payload) may be named by
  several parts, and follower links may point at a user of another part: printed.
- clean-up: Benchmarks/CleanupScale on a PostgreSQL store (`Mapper.clean()` on
  --cleanup-rows rows of which --cleanup-orphans hang from nothing), --runs times.
rows/s is the total row count of the store's tables (entity, link and bookkeeping tables)
after the scenario, over its wall time; the ratios compare wall times. Client CPU is what the
measured process used (GNU time); server CPU is what the server's processes used meanwhile
(read from /proc, so only for a server on this machine that this user can see).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ beside the sources
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

ROOT = bench.ROOT
FLOOR = "psql binary COPY (floor)"
OURS = "jsonimport"
COPY_SIGNATURE = b"PGCOPY\n\xff\r\n\x00"
SEP = "\x1f"  # psql's field separator here: no table, column or type name holds it

# (ratio to the floor at most, rows/s at least), judged on the per-round ratio.
TARGETS = {"fresh import": (3.0, 125_000), "re-import, same file": (2.2, None),
           "import of the mutated file": (2.8, None)}
CONCURRENCY_TARGET = 0.9  # aggregate rows/s over one importer's, at least
CLEANUP_TARGET = 2.5  # seconds, at most


def ident(name):
    return '"' + name.replace('"', '""') + '"'


def literal(text):
    return "'" + text.replace("'", "''") + "'"


def without_schema(url):
    """The libpq URL of a store URL: without its `schema` parameter, which libpq refuses."""
    base, _, query = url.partition("?")
    pairs = [p for p in query.split("&") if p and not p.startswith("schema=")]
    return base + ("?" + "&".join(pairs) if pairs else "")


class Server:
    """The PostgreSQL server the stores live on: a throwaway cluster of Scripts/postgres.sh, or
    the one --server names. Every schema made here is dropped by `drop` or at `close`."""

    def __init__(self, url):
        self.started = url is None
        if self.started:
            print("starting a throwaway PostgreSQL cluster...", file=sys.stderr)
            url = subprocess.run(["bash", os.path.join(ROOT, "Scripts", "postgres.sh"), "start"],
                                 capture_output=True, text=True, check=True).stdout.strip()
        self.url = without_schema(url)
        self.schemas = set()
        self.count = 0
        self.version = self.psql("SHOW server_version").strip()
        self.postmaster = self._postmaster()

    def psql(self, sql):
        """What `sql` prints (unaligned, tuples only); stops at the first error."""
        out = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-F", SEP, "-v", "ON_ERROR_STOP=1",
                              "-d", self.url, "-c", sql], capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"psql failed: {sql[:300]}\n{out.stderr[-2000:]}")
        return out.stdout

    def rows(self, sql):
        return [line.split(SEP) for line in self.psql(sql).splitlines() if line]

    def store(self, schema):
        """The store URL of `schema`."""
        return self.url + ("&" if "?" in self.url else "?") + "schema=" + schema

    def new_schema(self, purpose):
        """A name for a schema that does not exist yet (nothing is created)."""
        self.count += 1
        name = f"bench{os.getpid()}_{self.count}_{purpose}"
        if self.psql(f"SELECT count(*) FROM pg_namespace WHERE nspname = {literal(name)}").strip() != "0":
            sys.exit(f"schema {name} already exists")
        self.schemas.add(name)
        return name

    def drop(self, schema):
        self.psql(f"DROP SCHEMA IF EXISTS {ident(schema)} CASCADE")
        self.schemas.discard(schema)

    def close(self):
        if self.started:
            subprocess.run(["bash", os.path.join(ROOT, "Scripts", "postgres.sh"), "stop", self.url])
        else:
            for schema in list(self.schemas):
                self.drop(schema)

    def tables(self, schema):
        return [r[0] for r in self.rows(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            f"WHERE n.nspname = {literal(schema)} AND c.relkind IN ('r', 'p') ORDER BY c.relname COLLATE \"C\"")]

    def counts(self, schema):
        """Rows per table of `schema`, in table order."""
        tables = self.tables(schema)
        sql = " UNION ALL ".join(f"SELECT {literal(t)}, count(*) FROM {ident(schema)}.{ident(t)}" for t in tables)
        found = {t: int(n) for t, n in self.rows(sql)}
        return {t: found[t] for t in tables}

    def columns(self, schema):
        """Per table: its column definitions (name, type, collation), in column order."""
        rows = self.rows(
            "SELECT c.relname, string_agg(format('%I %s%s', a.attname, format_type(a.atttypid, a.atttypmod), "
            "CASE WHEN a.attcollation <> 0 THEN ' COLLATE ' || quote_ident(cn.nspname) || '.' || quote_ident(co.collname) "
            "ELSE '' END), ', ' ORDER BY a.attnum) "
            "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped "
            "LEFT JOIN pg_collation co ON co.oid = a.attcollation LEFT JOIN pg_namespace cn ON cn.oid = co.collnamespace "
            f"WHERE n.nspname = {literal(schema)} AND c.relkind IN ('r', 'p') GROUP BY c.relname")
        return dict(rows)

    def vacuum(self, schema):
        tables = ", ".join(f"{ident(schema)}.{ident(t)}" for t in self.tables(schema))
        self.psql(f"VACUUM (ANALYZE) {tables}")

    def _postmaster(self):
        """The server's process id, if it runs on this machine where /proc shows it."""
        try:
            data = self.psql("SHOW data_directory").strip()
            with open(os.path.join(data, "postmaster.pid")) as f:
                pid = int(f.readline())
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                return pid if b"postgres" in f.read() else None
        except (OSError, ValueError, SystemExit):
            return None

    def _children(self):
        """(pid, process title) of the postmaster's children."""
        out = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) != self.postmaster:
                        continue
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    out.append((int(entry), f.read().decode(errors="replace")))
            except (OSError, IndexError, ValueError):
                continue
        return out

    def cpu(self):
        """CPU seconds the server has used so far: the postmaster, its children alive and those
        it has reaped; None for a server this machine does not show. First waits (up to 2 s)
        for client backends to end, so that none ends while they are read."""
        if self.postmaster is None:
            return None
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline and any(
                "[local]" in title or "(" in title for _, title in self._children()):
            time.sleep(0.01)

        def ticks(pid):
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                return sum(int(x) for x in fields[11:15])  # utime, stime, cutime, cstime
            except (OSError, IndexError, ValueError):
                return 0
        total = sum(ticks(pid) for pid, _ in self._children()) + ticks(self.postmaster)
        return total / os.sysconf("SC_CLK_TCK")


def measure_serial(server, cmds):
    """measure()'s figures for `cmds` run one after another: walls and CPU summed."""
    runs = [measure(server, [cmd]) for cmd in cmds]
    server_cpu = [r[3] for r in runs]
    return (sum(r[0] for r in runs), max(r[1] for r in runs), sum(r[2] for r in runs),
            None if None in server_cpu else sum(server_cpu))


def measure(server, cmds):
    """(wall, highest peak MB, client CPU of all, server CPU) of `cmds` run at once."""
    before = server.cpu()
    start = time.monotonic()
    runs = []
    for cmd in cmds:
        report = tempfile.TemporaryFile("w+")
        runs.append((cmd, report, subprocess.Popen(bench.TIME + cmd, stdout=subprocess.DEVNULL, stderr=report)))
    codes = [p.wait() for _, _, p in runs]
    wall = time.monotonic() - start
    after = server.cpu()
    reports = []
    for (cmd, report, _), code in zip(runs, codes):
        report.seek(0)
        reports.append(bench.time_report(cmd, code, report.read()))
        report.close()
    return (wall, max(r[1] for r in reports), sum(r[2] for r in reports),
            after - before if before is not None else None)


class Floor:
    """The final rows of every table of a store, dumped once with binary COPY, and `psql`
    loading them into a new schema of the same column types without constraints."""

    def __init__(self, server, scratch, store):
        self.server = server
        self.store = store
        self.directory = os.path.join(scratch, "floor")
        os.makedirs(self.directory)
        self.columns = server.columns(store)
        self.tables = server.tables(store)
        self.files = {t: os.path.join(self.directory, f"{i}.bin") for i, t in enumerate(self.tables)}
        dump = os.path.join(self.directory, "dump.sql")
        with open(dump, "w") as f:
            for t in self.tables:
                f.write(f"\\copy {ident(store)}.{ident(t)} TO {literal(self.files[t])} WITH (FORMAT binary)\n")
        bench.sh(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", server.url, "-f", dump])
        self.checked = False

    def prepare(self):
        """A new schema with the store's tables, columns only, and the psql command that loads it."""
        schema = self.server.new_schema("floor")
        self.server.psql(f"CREATE SCHEMA {ident(schema)}; " + " ".join(
            f"CREATE TABLE {ident(schema)}.{ident(t)} ({self.columns[t]});" for t in self.tables))
        script = os.path.join(self.directory, f"load-{schema}.sql")
        with open(script, "w") as f:
            f.write("BEGIN;\n")
            for t in self.tables:
                f.write(f"\\copy {ident(schema)}.{ident(t)} FROM {literal(self.files[t])} WITH (FORMAT binary)\n")
            f.write("COMMIT;\n")
        return schema, ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", self.server.url, "-f", script]

    def check(self, schema):
        """Stops unless `schema`, loaded by the floor, is what the floor promises."""
        server, store = self.server, self.store
        problems = []
        for t, path in self.files.items():
            with open(path, "rb") as f:
                if f.read(len(COPY_SIGNATURE)) != COPY_SIGNATURE:
                    problems.append(f"{path} is not binary COPY")
        if server.tables(schema) != self.tables:
            problems.append("not the store's tables")
        if server.columns(schema) != self.columns:
            problems.append("not the store's column types")
        if server.counts(schema) != server.counts(store):
            problems.append("not the store's row counts")
        for t in self.tables:
            a, b = f"{ident(store)}.{ident(t)}", f"{ident(schema)}.{ident(t)}"
            differ = server.psql(f"SELECT (SELECT count(*) FROM (TABLE {a} EXCEPT ALL TABLE {b}) x) + "
                                 f"(SELECT count(*) FROM (TABLE {b} EXCEPT ALL TABLE {a}) y)").strip()
            if differ != "0":
                problems.append(f"{t}: {differ} rows differ from the store's")
        extras = self._structure(schema)
        if any(extras.values()):
            problems.append(f"has {extras}")
        if problems:
            sys.exit("the floor is not what it should be: " + "; ".join(problems))
        self.checked = True
        store_extras = self._structure(store)
        return (f"floor checked: {len(self.tables)} tables dumped and loaded with binary COPY, the store's "
                f"column types and collations, the same rows; none of the store's {store_extras['constraints']} "
                f"constraints, {store_extras['indexes']} indexes and {store_extras['not null or default']} "
                "NOT NULL or default columns")

    def _structure(self, schema):
        """Constraints, indexes, triggers and NOT NULL or default columns of `schema`'s tables."""
        space = f"(SELECT oid FROM pg_namespace WHERE nspname = {literal(schema)})"
        row = self.server.rows(
            f"SELECT (SELECT count(*) FROM pg_constraint WHERE connamespace = {space}), "
            f"(SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid WHERE c.relnamespace = {space}), "
            f"(SELECT count(*) FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid WHERE c.relnamespace = {space}), "
            f"(SELECT count(*) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
            f"WHERE c.relnamespace = {space} AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped "
            "AND (a.attnotnull OR a.atthasdef))")[0]
        return dict(zip(["constraints", "indexes", "triggers", "not null or default"], map(int, row)))


def split(payload, scratch, parts):
    """Writes the payload's users in `parts` contiguous slices; returns the files and a line on
    what the parts share."""
    with open(payload, encoding="utf-8") as f:
        users = json.load(f)
    slices = [users[k * len(users) // parts:(k + 1) * len(users) // parts] for k in range(parts)]
    files = []
    for k, part in enumerate(slices):
        path = os.path.join(scratch, f"part-{parts}-{k}.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(part, f, ensure_ascii=False, separators=(",", ":"))
        files.append(path)
    owner = {u["id"]: k for k, part in enumerate(slices) for u in part}
    named = {}  # tag name or stub id -> the parts naming it
    cross = 0
    for k, part in enumerate(slices):
        for u in part:
            for repo in u.get("repos") or []:
                for tag in repo.get("tags") or []:
                    named.setdefault(("tag", tag["name"]), set()).add(k)
            for f in u.get("follower_ids") or []:
                if f in owner:
                    cross += owner[f] != k
                else:
                    named.setdefault(("stub", f), set()).add(k)

    def shared(kind):
        keys = [parts_ for (what, _), parts_ in named.items() if what == kind]
        return sum(len(p) > 1 for p in keys), len(keys)
    tags, stubs = shared("tag"), shared("stub")
    note = (f"{parts} parts of {len(slices[0]):,}–{len(slices[-1]):,} users (disjoint users and repos): "
            f"{tags[0]:,} of {tags[1]:,} tags and {stubs[0]:,} of {stubs[1]:,} stub users are named by more "
            f"than one part; {cross:,} follower links point at a user of another part")
    return files, note


def cleanup(server, rows, orphans, runs):
    """Median seconds of Mapper.clean() with the orphans and on the cleaned store, per run."""
    print("building cleanup-scale (release)...", file=sys.stderr)
    bench.sh(["swift", "build", "-c", "release", "--product", "cleanup-scale"], cwd=ROOT, stdout=subprocess.DEVNULL)
    program = os.path.join(ROOT, ".build", "release", "cleanup-scale")
    with_orphans, idle = [], []
    for _ in range(runs):
        schema = server.new_schema("cleanup")
        out = subprocess.run([program, str(rows), str(orphans), server.store(schema)], capture_output=True, text=True)
        server.drop(schema)
        if out.returncode != 0:
            sys.exit(f"cleanup-scale failed:\n{out.stdout}{out.stderr[-2000:]}")
        for line in out.stdout.splitlines():
            if line.startswith("clean-up pass with orphans:"):
                with_orphans.append(float(line.split(":")[1].split()[0]))
            elif line.startswith("clean-up pass on the cleaned store:"):
                idle.append(float(line.split(":")[1].split()[0]))
    return statistics.median(with_orphans), statistics.median(idle)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=50000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--kit", default=os.path.join(ROOT, "..", "shared", "bench"))
    parser.add_argument("--server", help="a postgres:// URL of a server to use instead of a throwaway cluster")
    parser.add_argument("--skip-concurrency", action="store_true")
    parser.add_argument("--skip-cleanup", action="store_true")
    parser.add_argument("--cleanup-rows", type=int, default=1_000_000)
    parser.add_argument("--cleanup-orphans", type=int, default=100_000)
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    scratch = tempfile.mkdtemp(prefix="jsonimport-bench-pg-")
    server = None
    try:
        ours, mapping = bench.build_ours()
        server = Server(args.server)
        run(args, scratch, server, ours, mapping)
    finally:
        if server is not None:
            server.close()
        shutil.rmtree(scratch, ignore_errors=True)


def run(args, scratch, server, ours, mapping):
    load = os.getloadavg()[0]
    gen = os.path.join(args.kit, "gen.py")
    payload = os.path.join(scratch, "users.json")
    mutated = os.path.join(scratch, "users_mut.json")
    print(f"generating {args.users} users and the mutated file...", file=sys.stderr)
    bench.sh([sys.executable, gen, "--users", str(args.users), "--out", payload])
    bench.sh([sys.executable, gen, "--users", str(args.users), "--out", mutated, "--mutate", "10", "--seed", "7"])
    size_mb = os.path.getsize(payload) / 1e6

    def import_cmd(schema, *files):
        return [ours, "--quiet", "--busy-timeout", "3600", "--mappings", mapping, "--store", server.store(schema),
                "import", "User", *files]

    print("importing the payload once, for the floor's rows...", file=sys.stderr)
    reference = server.new_schema("reference")
    bench.timed(import_cmd(reference, payload))
    counts = server.counts(reference)
    rows = sum(counts.values())
    floor = Floor(server, scratch, reference)

    def fresh():
        schema = server.new_schema("fresh")
        return schema, import_cmd(schema, payload)

    def populated(js):
        schema = server.new_schema("populated")
        bench.timed(import_cmd(schema, payload))
        server.vacuum(schema)
        return schema, import_cmd(schema, js)

    scenarios = [("fresh import", fresh),
                 ("re-import, same file", lambda: populated(payload)),
                 ("import of the mutated file", lambda: populated(mutated))]
    results, rows_after, floor_note = {}, {}, None
    for scenario, prepare in scenarios:
        print(f"running: {scenario}", file=sys.stderr)
        samples = {FLOOR: [], OURS: []}
        for _ in range(args.runs):
            for name in samples:
                schema, cmd = floor.prepare() if name == FLOOR else prepare()
                samples[name].append(measure(server, [cmd]))
                if name == FLOOR and not floor.checked:
                    floor_note = floor.check(schema)
                if name == OURS and scenario not in rows_after:
                    rows_after[scenario] = sum(server.counts(schema).values())
                server.drop(schema)
        results[scenario] = samples

    concurrency, notes = {}, []
    if not args.skip_concurrency:
        groups = {1: [payload]}
        for parts in (2, 4):
            groups[parts], note = split(payload, scratch, parts)
            notes.append(note)
        concurrency = {parts: [] for parts in groups}
        serial = {parts: [] for parts in groups if parts > 1}
        for round_ in range(args.runs):
            print(f"running: concurrent importers, round {round_ + 1}", file=sys.stderr)
            for parts, files in groups.items():
                if parts > 1:
                    schema = server.new_schema(f"serial{parts}")
                    serial[parts].append(measure_serial(server, [import_cmd(schema, f) for f in files]))
                    server.drop(schema)
                schema = server.new_schema(f"concurrent{parts}")
                concurrency[parts].append(measure(server, [import_cmd(schema, f) for f in files]))
                final = server.counts(schema)
                # The seen tables record rows an import saw unchanged (parts sharing rows see
                # them), and the metadata table an import that saw every row of a table.
                def entities(found):
                    return {t: n for t, n in found.items() if not t.endswith("__seen") and t != "_jsonimport_meta"}
                if entities(final) != entities(counts):
                    notes.append(f"WARNING: {parts} importers left {final}, one import of the whole file {counts}")
                server.drop(schema)

    cleanup_times = None
    if not args.skip_cleanup:
        print(f"running: clean-up of {args.cleanup_orphans:,} orphans among {args.cleanup_rows:,} rows", file=sys.stderr)
        cleanup_times = cleanup(server, args.cleanup_rows, args.cleanup_orphans, args.runs)

    server.drop(reference)
    print(f"\nPayload: {args.users} users, {size_mb:.1f} MB; PostgreSQL {server.version}"
          f"{' (throwaway cluster, unix socket)' if server.started else ''}; load average {load:.1f} at the start, "
          f"{os.getloadavg()[0]:.1f} at the end.")
    print(f"Store after one import: {rows:,} rows in {len(counts)} tables ("
          + ", ".join(f"{t} {n:,}" for t, n in counts.items()) + ").")
    print(floor_note + ".")
    for note in notes:
        print(note + ".")
    print(f"Median of {args.runs} run{'s' if args.runs != 1 else ''}, alternating programs. 'ratio' divides the "
          "medians, 'per round' is the median of the ratios within each round; targets are judged on 'per round'. "
          "Concurrent rows: the ratio is one importer's wall time over the group's (aggregate rows/s over one "
          "importer's); client CPU sums the group. 'One after another' rows sum the walls of one importer "
          "importing the same parts in turn; the rows 'against the same parts' divide that by the group's wall.\n")
    print("| scenario | program | wall (s) | rows/s | MB/s | peak memory (MB) | client CPU (s) | server CPU (s) "
          "| ratio | per round | target | met |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")

    def cells(samples, rows_):
        wall = statistics.median(s[0] for s in samples)
        server_cpu = [s[3] for s in samples if s[3] is not None]
        return (wall, f"{wall:.2f} | {rows_ / wall:,.0f}", f"{max(s[1] for s in samples):.0f} | "
                f"{statistics.median(s[2] for s in samples):.2f} | "
                + (f"{statistics.median(server_cpu):.2f}" if server_cpu else "-"))

    for scenario, samples in results.items():
        floor_walls = [s[0] for s in samples[FLOOR]]
        base = statistics.median(floor_walls)
        most, least = TARGETS[scenario]
        for name, s in samples.items():
            wall, timing, usage = cells(s, rows if name == FLOOR else rows_after[scenario])
            mb = "-" if name == FLOOR else f"{size_mb / wall:.1f}"
            per_round = statistics.median(w / f for (w, *_), f in zip(s, floor_walls))
            target = met = ""
            if name == OURS:
                target = f"≤ {most}×" + (f", ≥ {least:,} rows/s" if least else "")
                ok = per_round <= most and (least is None or rows_after[scenario] / wall >= least)
                met = "yes" if ok else "no"
            print(f"| {scenario} | {name} | {timing} | {mb} | {usage} | {wall / base:.2f}× | {per_round:.2f}× "
                  f"| {target} | {met} |")
    if concurrency:
        single = [s[0] for s in concurrency[1]]
        for parts, s in concurrency.items():
            if parts > 1:
                wall, timing, usage = cells(serial[parts], rows)
                print(f"| 1 importer, the {'halves' if parts == 2 else 'quarters'} one after another | {OURS} "
                      f"| {timing} | {size_mb / wall:.1f} | {usage} | {statistics.median(single) / wall:.2f}× | | | |")
            wall, timing, usage = cells(s, rows)
            label = ("1 importer, whole file" if parts == 1
                     else f"{parts} importers at once, disjoint {'halves' if parts == 2 else 'quarters'}")
            per_round = statistics.median(one / w for (w, *_), one in zip(s, single))
            target = f"≥ {CONCURRENCY_TARGET}×" if parts > 1 else ""
            met = ("yes" if per_round >= CONCURRENCY_TARGET else "no") if parts > 1 else ""
            program = OURS if parts == 1 else f"{OURS} ×{parts}"
            print(f"| {label} | {program} | {timing} | {size_mb / wall:.1f} | {usage} "
                  f"| {statistics.median(single) / wall:.2f}× | {per_round:.2f}× | {target} | {met} |")
        for parts, s in concurrency.items():
            if parts == 1:
                continue
            one_by_one = [w for w, *_ in serial[parts]]
            per_round = statistics.median(one / w for (w, *_), one in zip(s, one_by_one))
            wall = statistics.median(w for w, *_ in s)
            print(f"| {parts} importers at once, against the same parts one after another | {OURS} ×{parts} "
                  f"| {wall:.2f} | - | - | - | - | - | {statistics.median(one_by_one) / wall:.2f}× | {per_round:.2f}× "
                  f"| ≥ {CONCURRENCY_TARGET}× | {'yes' if per_round >= CONCURRENCY_TARGET else 'no'} |")
    if cleanup_times:
        with_orphans, idle = cleanup_times
        what = f"{args.cleanup_orphans:,} orphans among {args.cleanup_rows:,} rows"
        print(f"| clean-up, {what} | Mapper.clean() | {with_orphans:.2f} | - | - | - | - | - | - | - "
              f"| ≤ {CLEANUP_TARGET} s | {'yes' if with_orphans <= CLEANUP_TARGET else 'no'} |")
        print(f"| clean-up again, on the cleaned store | Mapper.clean() | {idle:.2f} | - | - | - | - | - | - | - | | |")


if __name__ == "__main__":
    main()
