#!/usr/bin/env python3
"""Runs the hostile input corpus (Tests/EndToEndTests/Fixtures/Hostile/manifest.json) through a
built CLI, as the end-to-end test HostileInputTests does, and prints one line per case and a
summary. Handy with a release build, and to review messages after a change.

  python3 Scripts/reliability/hostile_corpus.py [--binary PATH] [--filter TEXT] [--record]

--record writes each refused case's first error line (its file path made relative) into
expectations.json for review; rerun make_hostile_corpus.py afterwards to update the manifest.

Checks per case: the exit status; no signal; an `error:` first line on stderr containing the
expected text; no control character but line feed and tab on stderr (nor on stdout for a
`terminal` case); the store unchanged (integrity_check ok, content hash equal); under 10 s.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import support  # noqa: E402

HOSTILE = os.path.join(support.ROOT, "Tests", "EndToEndTests", "Fixtures", "Hostile")
TIME_LIMIT = 10.0


def generate(spec, directory):
    """Writes a generated input; returns its path (or its text for `{generated-text}`)."""
    parts = [(text.encode(), count) for text, count in spec["parts"]]
    if "file" not in spec:
        return b"".join(text * count for text, count in parts).decode()
    path = os.path.join(directory, spec["file"])
    with open(path, "wb") as f:
        for text, count in parts:
            chunk = max(1, (1 << 20) // len(text))
            while count > 0:
                n = min(chunk, count)
                f.write(text * n)
                count -= n
    return path


def expand(spec):
    """The arguments of `arguments`: `template` with `{n}` counted up from `first`."""
    return [spec["template"].replace("{n}", str(n)) for n in range(spec["first"], spec["first"] + spec["count"])]


def has_controls(text):
    """Whether `text` holds a control character (C0, DEL, C1) other than a line feed or tab."""
    return any((ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F for c in text)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", help="jsonimport to run (default: build the release CLI)")
    parser.add_argument("--filter", default="", help="run only cases whose name contains this")
    parser.add_argument("--record", action="store_true", help="write observed messages to expectations.json")
    args = parser.parse_args()
    binary = args.binary or support.build_release()
    cases = [c for c in json.load(open(os.path.join(HOSTILE, "manifest.json"))) if args.filter in c["name"]]

    work = tempfile.mkdtemp(prefix="jsonimport-hostile-")
    pristine = os.path.join(work, "pristine.sqlite")
    mappings = os.path.join(HOSTILE, "Mappings", "types.yml")
    seeded = subprocess.run([binary, "--mappings", mappings, "--store", pristine, "--quiet", "import", "Item",
                             "seed.json"], cwd=HOSTILE, capture_output=True, text=True)
    if seeded.returncode != 0:
        sys.exit(f"cannot seed the store: {seeded.stderr}")
    before = support.StoreState(pristine)

    failures, observed, slowest = [], {}, (0.0, "")
    for c in cases:
        store = os.path.join(work, "store.sqlite")
        support.copy_store(pristine, store)
        generated = None
        if "generate" in c:
            generated = generate(c["generate"], work)
        argv = []
        for a in c["args"]:
            if a == "{arguments}":
                argv += expand(c["arguments"])
            elif generated and "{generated" in a:
                argv.append(a.replace("{generated-text}", generated).replace("{generated}", generated))
            else:
                argv.append(a)
        case_mappings = c.get("mappings", mappings)
        if case_mappings == "{generated}":
            case_mappings = generated
        began = time.monotonic()
        try:
            result = subprocess.run([binary, "--mappings", case_mappings, "--store", store] + argv, cwd=HOSTILE,
                                    capture_output=True, timeout=60)
            code, stderr = result.returncode, result.stderr.decode("utf-8", "replace")
            stdout = result.stdout.decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            code, stderr, stdout = "timeout", "", ""
        elapsed = time.monotonic() - began
        slowest = max(slowest, (elapsed, c["name"]))
        first = stderr.splitlines()[0] if stderr else ""
        after = support.StoreState(store)
        problems = []
        if code != c["exit"]:
            problems.append(f"exit {code}, expected {c['exit']}")
        if c["exit"] != 0 and not first.startswith("error: "):
            problems.append("no 'error:' line")
        if c.get("stderr") and c["stderr"] not in stderr:
            problems.append(f"stderr lacks {c['stderr']!r}")
        if has_controls(stderr):
            problems.append("control characters on stderr")
        if c.get("terminal") and has_controls(stdout):
            problems.append("control characters on stdout")
        if after.integrity != "ok" or after.exact != before.exact:
            problems.append("store changed")
        if elapsed > TIME_LIMIT:
            problems.append(f"took {elapsed:.1f}s")
        if generated and os.path.isfile(generated):
            os.remove(generated)
        shown = first if len(first) < 200 else first[:200] + "…"
        print(f"{'FAIL' if problems else 'ok  '} {c['name']}: exit {code} {elapsed:.2f}s {shown}")
        if problems:
            failures.append(f"{c['name']}: {'; '.join(problems)}")
        if c["exit"] != 0 and first:
            observed[c["name"]] = first[len("error: "):].replace(work + "/", "")[:160]

    refused = sum(1 for c in cases if c["exit"] != 0)
    for failure in failures:
        print(f"  FAILED: {failure}")
    print(f"hostile corpus: {len(cases) - len(failures)}/{len(cases)} cases as expected ({refused} to be refused, "
          f"{len(cases) - refused} to succeed harmlessly); slowest {slowest[1]} {slowest[0]:.2f}s")
    if args.record:
        path = os.path.join(HOSTILE, "expectations.json")
        kept = json.load(open(path)) if os.path.exists(path) else {}
        kept.update(observed)
        with open(path, "w") as f:
            json.dump(kept, f, indent=1, ensure_ascii=False, sort_keys=True)
            f.write("\n")
    shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
