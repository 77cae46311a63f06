#!/usr/bin/env python3
"""Writes the hostile input corpus: Tests/EndToEndTests/Fixtures/Hostile/.

  python3 Scripts/reliability/make_hostile_corpus.py

Every case is one `jsonimport` command line that must be refused cleanly: exit 1 (invalid
input) or 2 (usage), an `error:` line that says where, no crash, the store unchanged, in
bounded time. A few cases must instead succeed without doing harm (`exit: 0`): SQL text given
as a value is bound, never spliced. The end-to-end test HostileInputTests runs them all.

Output:
- `Mappings/types.yml`: an entity with every attribute type and every kind of relationship;
  `seed.json`: the records the store holds before each case;
- one file per case under `json/`, `jsonl/`, `types/`, `yaml/`;
- `manifest.json`: the cases, in this form:
    {"name": "json/truncated-1", "args": ["import", "Item", "json/truncated-1.json"],
     "exit": 1, "stderr": "json/truncated-1.json:1:2: invalid JSON"}
  `args` follow `--mappings Mappings/types.yml --store STORE` (a case naming `mappings` uses that
  file instead); paths are relative to the Hostile folder, where the command runs. `{generated}`
  in an argument is a file the test writes at run time (`generate` says what; these are the huge
  ones, cheap to make and not worth checking in). `{arguments}` stands for many arguments
  (`arguments`: `template` with `{n}` counted up from `first`, `count` of them: 100,000 `--id`s).
  `stderr` must appear in the error output. No case's stderr may hold a control character
  other than a line feed or tab (text meant for a terminal escapes them), nor its stdout when
  the case is marked `terminal`.

Expected messages are filled in from `expectations.json` (case name -> substring), kept beside
the manifest so that a changed message shows up as a reviewed diff.
"""
import json
import os
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Tests", "EndToEndTests", "Fixtures", "Hostile")

MAPPING = """\
# Every attribute type and every kind of relationship, for the hostile input corpus.
version: 1
defaults:
  keyStyle: asIs
entities:
  Item:
    primaryKey: id
    attributes:
      id: int
      name: { type: string, required: true }
      count: int
      ratio: double
      flag: bool
      when: date
      epoch: { type: date, format: epoch }
      price: decimal
      uid: uuid
      link: url
      extra: json
      tags: "[string]"
      nums: "[int]"
      level: { type: int, min: 0, max: 10 }
      code: { type: string, pattern: "[A-Z]{3}" }
      kind: { type: string, enum: [a, b] }
    relationships:
      parent:   { to: Item, kind: one, by: id, missing: error }
      children: { to: Item, kind: many, by: object }
      owner:    { to: Owner, kind: one }
      notes:    { to: Note, kind: many }
  Owner:
    primaryKey: [org, login]
    attributes:
      org: string
      login: string
  Note:
    attributes:
      text: string
"""

# Item 4's name holds what would retitle the window, return the cursor, and CSI (C1).
SEED = [
    {"id": 4, "name": "four\u001b]0;pwned\u0007\rfake\u007f\u009b2J"},
    {"id": 1, "name": "one", "count": 1, "ratio": 0.5, "flag": True, "when": "2024-01-02T03:04:05Z",
     "epoch": 1700000000, "price": "9.99", "uid": "123e4567-e89b-12d3-a456-426614174000",
     "link": "https://example.com/1", "extra": {"a": [1, 2]}, "tags": ["x", "y"], "nums": [1, 2],
     "level": 3, "code": "ABC", "kind": "a", "owner": {"org": "acme", "login": "ana"},
     "notes": [{"text": "hello"}], "children": [{"id": 2, "name": "two"}]},
    {"id": 3, "name": "three", "parent": 1, "owner": ["acme", "ana"]},
]

cases = []


def reset_output():
    """Empties the output folder, keeping the reviewed expectations."""
    if os.path.isdir(OUT):
        for entry in os.listdir(OUT):
            if entry != "expectations.json":
                path = os.path.join(OUT, entry)
                shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
    os.makedirs(OUT, exist_ok=True)


reset_output()


def case(name, args, exit_code=1, files=None, mappings=None, generate=None, arguments=None, terminal=False):
    """Adds a case; `files` maps a path under Hostile/ to its bytes."""
    entry = {"name": name, "args": args, "exit": exit_code}
    if mappings:
        entry["mappings"] = mappings
    if generate:
        entry["generate"] = generate
    if arguments:
        entry["arguments"] = arguments
    if terminal:
        entry["terminal"] = True
    cases.append(entry)
    for path, data in (files or {}).items():
        full = os.path.join(OUT, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode("utf-8"))


def payload(name, data, fmt="json", extra=()):
    """A payload case: `import Item FILE`."""
    path = f"{name}.{fmt}"
    case(name, ["import", "Item", path] + list(extra), files={path: data})


# MARK: Malformed JSON

truncated = ['[', '[{', '[{"id"', '[{"id":', '[{"id": 1', '[{"id": 1,', '[{"id": 1, "name": "a',
             '[{"id": 1}', '{"id": tru', '{"id": nul', '{"id": 1e', '{"id": -', '"abc', '{"id": 1, "name": "a\\',
             '{"id": 1, "name": "\\u00', '{"id": 1, "name"', '{"id": 1, "name" "x"}', '[{"id": 1}, ', '{',
             '{"id": f']
for i, text in enumerate(truncated):
    payload(f"json/truncated-{i + 1}", text)

trailing = ['[] x', '{"id": 1, "name": "a"} {"id": 2}', '[]]', '{"id": 1, "name": "a"}}', '[] // comment',
            '[]\x00', '[],', '[1] [2]', '[] /* c */', '{"id": 1, "name": "a"}\nnull']
for i, text in enumerate(trailing):
    payload(f"json/trailing-{i + 1}", text)

escapes = [r'"\x41"', r'"\u12"', r'"\u12G4"', r'"\q"', r'"\'"', '"tab\there"', '"new\nline"', '"nul\x00byte"',
           r'"\U0001F600"', r'"\u"', '"\\\x7f"', '"\\ "']
for i, text in enumerate(escapes):
    payload(f"json/escape-{i + 1}", '[{"id": 1, "name": ' + text + '}]')

surrogates = [r'"\uD800"', r'"\uDC00"', r'"\uD800\u0041"', r'"\uD800\uD800"', r'"a\uDBFF"', r'"\uDFFF\uD800"',
              r'"\uD83D"']
for i, text in enumerate(surrogates):
    payload(f"json/lone-surrogate-{i + 1}", '[{"id": 1, "name": ' + text + '}]')
payload("json/lone-surrogate-in-key", '[{"id": 1, "name": "a", "\\uD800": 1}]')

invalid_utf8 = [b'\xff', b'\xc0\x80', b'\xed\xa0\x80', b'\xe2\x82', b'\xf5\x80\x80\x80', b'\xf8\x88\x80\x80\x80',
                b'\x80', b'\xc3', b'\xf0\x9f\x98']
for i, raw in enumerate(invalid_utf8):
    payload(f"json/invalid-utf8-string-{i + 1}", b'[{"id": 1, "name": "a' + raw + b'b"}]')
payload("json/invalid-utf8-key", b'[{"id": 1, "name": "a", "k\xff": 1}]')
payload("json/invalid-utf8-outside-strings", b'[{"id": 1, \xff "name": "a"}]')
payload("json/invalid-utf8-at-end", b'[{"id": 1, "name": "a"}]\xc3')
payload("json/utf16-le-bom", '\ufeff[{"id": 1, "name": "a"}]'.encode("utf-16-le"))

numbers = ['NaN', 'Infinity', '-Infinity', 'nan', 'inf', '+1', '01', '.5', '1.', '0x10', '1e', '--1', '1e+',
           '-', '1.5.2', '1_000', '١٢']
for i, text in enumerate(numbers):
    payload(f"json/number-{i + 1}", '[{"id": 1, "name": "a", "count": ' + text + '}]')

payload("json/duplicate-key", '[{"id": 1, "name": "a", "name": "b"}]')
payload("json/duplicate-key-escaped", '[{"id": 1, "name": "a", "n\\u0061me": "b"}]')
payload("json/duplicate-key-nested", '[{"id": 1, "name": "a", "extra": {"k": 1, "k": 2}}]')
payload("json/duplicate-key-deep", '[{"id": 1, "name": "a", "children": [{"id": 2, "name": "b", "id": 3}]}]')
payload("json/duplicate-key-many", '[{' + ", ".join(f'"k{i}": {i}' for i in range(100)) + ', "k99": 0}]')

payload("json/nesting-513-arrays", "[" * 513 + "]" * 513)
payload("json/nesting-600-objects", '{"a":' * 600 + "1" + "}" * 600)
payload("json/nesting-deep-in-json-attribute", '[{"id": 1, "name": "a", "extra": ' + "[" * 600 + "]" * 600 + "}]")
payload("json/nesting-deep-unclosed", "[" * 100000)

payload("json/empty", "")
payload("json/whitespace-only", " \n\t\r\n ")
payload("json/top-level-number", "42")
payload("json/top-level-string", '"records"')
payload("json/top-level-null", "null")
payload("json/top-level-true", "true")
payload("json/array-of-numbers", "[1, 2, 3]")
payload("json/array-of-arrays", "[[]]")
payload("json/array-with-null", '[{"id": 1, "name": "a"}, null]')
payload("json/nul-byte-only", "\x00")

case("json/root-path-missing", ["import", "Item", "json/rooted.json", "--root", "data.items"],
     files={"json/rooted.json": '{"data": {"other": []}}'})
case("json/root-path-through-array", ["import", "Item", "json/rooted-array.json", "--root", "data.items"],
     files={"json/rooted-array.json": '{"data": [{"items": []}]}'})
case("json/second-file-invalid", ["import", "Item", "json/good.json", "json/truncated-1.json"],
     files={"json/good.json": '[{"id": 7, "name": "seven"}]'})
case("json/missing-file", ["import", "Item", "json/does-not-exist.json"])
case("json/directory-as-file", ["import", "Item", "json"])

# MARK: JSON Lines

jsonl = {
    "bad-middle-line": '{"id": 5, "name": "a"}\n{"id": 6, "name": \n{"id": 7, "name": "c"}\n',
    "truncated-last-line": '{"id": 5, "name": "a"}\n{"id": 6, "name": "b"',
    "two-values-on-a-line": '{"id": 5, "name": "a"} {"id": 6, "name": "b"}\n',
    "invalid-utf8-line": b'{"id": 5, "name": "a"}\n{"id": 6, "name": "\xff"}\n',
    "array-line": '[{"id": 5, "name": "a"}]\n',
    "type-error-line-3": '{"id": 5, "name": "a"}\n\n{"id": "x", "name": "b"}\n',
    "deep-line": "[" * 1000 + "]" * 1000 + "\n",
    "nul-line": '{"id": 5, "name": "a"}\n\x00\n',
}
for name, data in jsonl.items():
    payload(f"jsonl/{name}", data, fmt="jsonl")
case("jsonl/root-with-jsonl", ["import", "Item", "jsonl/array-line.jsonl", "--root", "data"], exit_code=2)

# MARK: Type confusion, out-of-range values, constraint violations

def record(**fields):
    base = {"id": 10, "name": "ten"}
    base.update(fields)
    return json.dumps([base], ensure_ascii=False)


def raw_record(field, text):
    return '[{"id": 10, "name": "ten", "' + field + '": ' + text + '}]'


confusion = {
    "count": ['"x"', 'true', '1.5', '[]', '{}', '"1.5"', '""', '" 1"', '"0x10"', '"1e3"',
              '9223372036854775808', '-9223372036854775809', '1e19', '"9223372036854775808"', '1e400',
              '123456789012345678901234567890'],
    "ratio": ['"abc"', 'true', '[]', '{}', '"NaN"', '"Infinity"', '"1e999"', '1e400', '-1e400', '""'],
    "flag": ['"yes"', '2', '-1', '0.5', '[]', '{}', '"TRUE"', '""', '"on"'],
    "when": ['"not a date"', '12345', '"2024-13-01T00:00:00Z"', '"2024-02-30T00:00:00Z"', '[]', 'true',
             '"2024-01-01T25:00:00Z"', '""'],
    "epoch": ['"abc"', 'true', '[]', '{}', '1e400', '"1e999"'],
    "price": ['"abc"', 'true', '[]', '{}', '"1e"', '"NaN"', '""', '" 1"'],
    "uid": ['"xyz"', '123', '"123e4567-e89b-12d3-a456-42661417400"', '[]', '"123e4567-e89b-12d3-a456-42661417400g"',
            '"123e4567+e89b-12d3-a456-426614174000"'],
    "link": ['123', '[]', '""', '"ht tp://x y"', 'true'],
    "name": ['[]', '{}', 'null'],
    "tags": ['"a"', '[1, []]', '[{}]', '{}', '[null, [1]]', '7'],
    "nums": ['[1, "x"]', '[1.5]', '[[1]]', '"1,2"', '[9223372036854775808]', '[true]'],
    "level": ['-1', '11', '"abc"', '1e3', '10.5'],
    "code": ['"abcd"', '"AB"', '"ABCD"', '123'],
    "kind": ['"c"', '"A"', '1', '"a "'],
    "id": ['"x"', 'true', '1.5', '[]', '{}', 'null', '9223372036854775808', '"9223372036854775808"', '""'],
    "parent": ['"x"', '999', '[1, 2]', '{"id": 1}', '1.5', 'true'],
    "children": ['"x"', '[1.5]', '{"id": 1}', '[{"name": "no key"}]', '[{"id": "x", "name": "b"}]', '7', '[[]]'],
    "owner": ['["acme"]', '"x"', '["acme", "ana", "extra"]', '{"org": "acme"}', '[["acme"], "ana"]', '5'],
    "notes": ['[1]', '"x"', '{"text": "a"}', '[{"text": []}]', '[[{"text": "a"}]]'],
}
for field, values in confusion.items():
    for i, text in enumerate(values):
        if field == "id":
            data = '[{"id": ' + text + ', "name": "ten"}]'
        elif field == "name":
            data = '[{"id": 10, "name": ' + text + '}]'
        else:
            data = raw_record(field, text)
        payload(f"types/{field}-{i + 1}", data)
payload("types/id-missing", '[{"name": "no key"}]')
payload("types/name-missing-on-insert", '[{"id": 10}]')
payload("types/second-record-bad", '[{"id": 10, "name": "ten"}, {"id": 11, "name": "eleven", "count": "x"}]')
payload("types/huge-number-text", raw_record("count", "1" * 5000))
payload("types/huge-decimal-exponent", raw_record("ratio", "1e" + "9" * 400))

# MARK: Malformed and hostile YAML (the store is never written: mappings load first)

def yaml_case(name, text, command=("validate",)):
    path = f"yaml/{name}.yml"
    case(f"yaml/{name}", list(command), mappings=path, files={path: text})


ITEM = "entities:\n  Item:\n    primaryKey: id\n    attributes:\n      id: int\n"
yaml_case("tab-indentation", "entities:\n\tItem:\n\t\tprimaryKey: id\n")
yaml_case("tab-after-indent", "entities:\n  Item:\n  \tprimaryKey: id\n")
yaml_case("bad-indentation", "entities:\n  Item:\n    primaryKey: id\n   attributes:\n      id: int\n")
yaml_case("bad-dedent", "entities:\n    Item:\n  primaryKey: id\n")
yaml_case("unclosed-flow-sequence", ITEM + "      tags: [string\n")
yaml_case("unclosed-flow-mapping", "entities: {Item: {primaryKey: id\n")
yaml_case("unclosed-double-quote", ITEM + '      name: "string\n')
yaml_case("unclosed-single-quote", ITEM + "      name: 'string\n")
yaml_case("duplicate-yaml-key", ITEM + "      id: string\n")
yaml_case("two-documents", ITEM + "---\n" + ITEM)
yaml_case("recursive-alias", "entities: &a\n  Item: *a\n")
yaml_case("recursive-alias-in-list", "x: &a [1, *a]\nentities: {}\n")
yaml_case("undefined-alias", "entities: *nothing\n")
yaml_case("alias-before-anchor", "entities:\n  Item: *later\nlater: &later {}\n")
laughs = 'version: 1\na: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
for level in "bcdefghi":
    previous = chr(ord(level) - 1)
    laughs += f"{level}: &{level} [" + ",".join(["*" + previous] * 10) + "]\n"
yaml_case("billion-laughs", laughs + "entities: {}\n")
yaml_case("billion-laughs-in-entities", laughs.replace("version: 1\n", "") + "entities:\n  Item: *i\n")
yaml_case("quadratic-blowup", "a: &a " + "x" * 100000 + "\nb: &b [" + ",".join(["*a"] * 2000) + "]\nentities: {}\n")
yaml_case("merge-key-recursive", "base: &base\n  <<: *base\nentities: {}\n")
yaml_case("merge-key-scalar", ITEM + "      <<: 5\n")
yaml_case("unknown-tag-python", "entities: !!python/object:os.system {}\n")
yaml_case("unknown-tag-custom", ITEM + "      name: !custom string\n")
yaml_case("unknown-tag-binary", ITEM + "      name: !!binary c3RyaW5n\n")
yaml_case("tag-on-mapping", "entities: !!set {Item}\n")
yaml_case("deep-flow-nesting", "entities: " + "[" * 300 + "]" * 300 + "\n")
yaml_case("deep-block-nesting", "".join("  " * i + f"k{i}:\n" for i in range(300)) + "entities: {}\n")
yaml_case("invalid-utf8", b"entities:\n  It\xffem:\n    primaryKey: id\n")
yaml_case("nul-byte", "entities:\n  Item\x00:\n")
yaml_case("control-character", "entities:\n  Item\x07: {}\n")
yaml_case("empty-file", "")
yaml_case("scalar-document", "just a string\n")
yaml_case("entities-is-a-list", "entities:\n  - Item\n")
yaml_case("version-2", "version: 2\n" + ITEM)
yaml_case("unknown-top-level-key", "entitys: {}\n")
yaml_case("unknown-type", ITEM + "      name: strng\n")
yaml_case("huge-key", ITEM + "      " + "k" * 100000 + ": string\n")
yaml_case("directive-only", "%YAML 1.1\n")
yaml_case("unknown-directive", "%FOO bar\n---\n" + ITEM)
yaml_case("reserved-indicator", ITEM + "      name: @string\n")
yaml_case("flow-in-block-key", "{a: 1}: b\nentities: {}\n")
# Names that try to reach SQL: only [A-Za-z_][A-Za-z0-9_]* is accepted, and identifiers are quoted.
yaml_case("sql-entity-name", 'entities:\n  "Item\\"; DROP TABLE Item; --":\n    primaryKey: id\n    attributes:\n      id: int\n',
          command=("import", "Item", "seed.json"))
yaml_case("sql-attribute-name", ITEM + '      "name\\" TEXT); DROP TABLE Item; --": string\n',
          command=("import", "Item", "seed.json"))
yaml_case("sql-table-name", ITEM.replace("    primaryKey: id\n", '    primaryKey: id\n    table: "x\\"; DROP TABLE Item; --"\n'),
          command=("import", "Item", "seed.json"))
yaml_case("sql-primary-key", ITEM.replace("primaryKey: id", "primaryKey: \"id); DROP TABLE Item; --\""),
          command=("import", "Item", "seed.json"))
yaml_case("sql-relationship-name", ITEM + "    relationships:\n      \"p' OR '1'='1\": { to: Item, kind: one }\n",
          command=("import", "Item", "seed.json"))
yaml_case("sql-target-name", ITEM + "    relationships:\n      parent: { to: \"Item; DROP TABLE Item\", kind: one }\n",
          command=("import", "Item", "seed.json"))
yaml_case("sql-quote-in-name", "entities:\n  \"It'em\":\n    primaryKey: id\n    attributes:\n      id: int\n",
          command=("import", "Item", "seed.json"))
yaml_case("underscore-name", "entities:\n  _jsonimport_meta:\n    primaryKey: id\n    attributes:\n      id: int\n",
          command=("import", "Item", "seed.json"))
yaml_case("bad-pattern", ITEM + "      code: { type: string, pattern: \"[A-Z\" }\n")
yaml_case("bad-default", ITEM + "      count: { type: int, default: \"x'); DROP TABLE Item; --\" }\n")

# MARK: Filters and names on the command line (usage errors, exit 2)

def where(name, expression, command="query", exit_code=2):
    args = [command, "Item", "--where", expression]
    case(f"where/{name}", args + (["--format", "json"] if command == "query" else []), exit_code=exit_code)


where("statement-after", "id = 1; DROP TABLE Item")
where("comment", "id = 1 --")
where("comment-block", "id = 1 /* x */")
where("union", "id = 1 UNION SELECT * FROM sqlite_master")
where("subquery", "id IN (SELECT id FROM Item)")
where("name-with-quote", "\"id\" = 1")
where("name-with-bracket", "[id] = 1")
where("name-with-backtick", "`id` = 1")
where("unknown-name-sql", "sqlite_master.name = 'x'")
where("unknown-field", "nmae = 'a'")
where("unknown-relationship-path", "owner.password = 'x'")
where("empty-in", "id IN ()")
where("unterminated-string", "name = 'abc")
where("double-equals", "id == 1")
where("dangling-or", "id = 1 OR")
where("empty", "")
where("only-not", "NOT")
where("function-call", "length(name) > 1")
where("arithmetic", "id + 1 = 2")
where("like-number", "name LIKE 5")
case("where/deep-parentheses", ["query", "Item", "--where", "{generated-text}", "--format", "json"], exit_code=2,
     generate={"parts": [["(", 50000], ["id = 1", 1], [")", 50000]]})
# A run of NOTs folds away (an even number of them cancels out): it runs.
case("where/deep-not", ["query", "Item", "--where", "{generated-text}", "--format", "json"], exit_code=0,
     generate={"parts": [["NOT ", 25000], ["id = 1", 1]]})
where("control-character", "id = 1\x07")
where("hex-number", "id = 0x10")
where("delete-statement-after", "id = 1; DELETE FROM Item", command="delete")
case("where/delete-deep-parentheses", ["delete", "Item", "--where", "{generated-text}"], exit_code=2,
     generate={"parts": [["(", 50000], ["id = 1", 1], [")", 50000]]})
case("names/order-injection", ["query", "Item", "--order", "id; DROP TABLE Item", "--format", "json"], exit_code=2)
case("names/order-desc-injection", ["query", "Item", "--order", "id DESC, (SELECT 1):desc", "--format", "json"],
     exit_code=2)
case("names/fields-injection", ["query", "Item", "--fields", "id,name FROM Item; --", "--format", "json"], exit_code=2)
case("names/id-injection", ["query", "Item", "--id", "1 OR 1=1", "--format", "json"], exit_code=2)
case("names/delete-id-injection", ["delete", "Item", "--id", "1; DROP TABLE Item"], exit_code=2)
case("names/entity-injection", ["query", "Item; DROP TABLE Item", "--format", "json"], exit_code=2)
case("names/import-entity-injection", ["import", "Item\" --", "seed.json"], exit_code=2)
case("names/clean-entity-injection", ["clean", "--older-than", "1d", "--entity", "Item'; --"], exit_code=2)
case("names/owner-key-arity", ["query", "Owner", "--id", "acme", "--format", "json"], exit_code=2)
case("names/limit-injection", ["query", "Item", "--limit", "1; DROP TABLE Item", "--format", "json"], exit_code=2)
# SQL text as a value is bound as a parameter: the command succeeds and matches nothing.
where("value-injection", "name = 'x'' OR ''1''=''1'", exit_code=0)
where("value-injection-like", "name LIKE '%''; DROP TABLE Item; --'", exit_code=0)
where("delete-value-injection", "name = 'x'' OR 1=1 --'", command="delete", exit_code=0)

# MARK: Resource limits

payload("limits/depth-over-max-depth", '[{"id": 1, "name": "a", "extra": [[[[1]]]]}]', extra=["--max-depth", "4"])
payload("limits/size-over-max-payload-size", record(extra="x" * 200), extra=["--max-payload-size", "100"])
payload("limits/jsonl-line-over-max-payload-size",
        json.dumps({"id": 5, "name": "a" * 200}) + "\n", fmt="jsonl", extra=["--max-payload-size", "100"])
case("limits/max-depth-zero", ["import", "Item", "seed.json", "--max-depth", "0"], exit_code=2)
case("limits/max-depth-not-a-number", ["import", "Item", "seed.json", "--max-depth", "deep"], exit_code=2)
case("limits/max-depth-huge", ["import", "Item", "seed.json", "--max-depth", "99999999999999999999"], exit_code=2)
case("limits/max-payload-size-unit", ["import", "Item", "seed.json", "--max-payload-size", "1X"], exit_code=2)
case("limits/max-payload-size-negative", ["import", "Item", "seed.json", "--max-payload-size", "-1"], exit_code=2)

# MARK: Limits of SQLite: the command runs, or is a usage error naming the limit

def ids(first, count, option="--id"):
    return {"template": option + "={n}", "first": first, "count": count}


case("limits/ids-5000", ["query", "Item", "{arguments}", "--format", "json"], exit_code=0, arguments=ids(1, 5000))
case("limits/ids-100000", ["query", "Item", "{arguments}", "--format", "json"], exit_code=0,
     arguments=ids(1, 100000))
case("limits/export-ids-100000", ["export", "Item", "{arguments}"], exit_code=0, arguments=ids(1, 100000))
# None of these ids is stored: the store stays as it was.
case("limits/delete-ids-100000", ["delete", "Item", "{arguments}"], exit_code=0, arguments=ids(1000, 100000))
case("limits/owner-ids-5000", ["query", "Owner", "{arguments}", "--format", "json"], exit_code=0,
     arguments={"template": "--id=acme,user{n}", "first": 1, "count": 5000})
case("limits/order-2000", ["query", "Item", "{arguments}", "--format", "json"], exit_code=0,
     arguments={"template": "--order=name", "first": 1, "count": 2000})


def path(*steps):
    return ".".join(steps)


where("path-10-link-tables", path(*["children"] * 10, "name") + " = 'x'", exit_code=0)
where("path-32-relationships", path(*["children", "parent"] * 16, "name") + " = 'x'", exit_code=0)
where("path-33-relationships", path(*["children"] * 33, "name") + " = 'x'")
where("path-33-relationships-by-key", path(*["parent"] * 33) + " = 1")
where("export-path-33-relationships", path(*["children"] * 33, "name") + " = 'x'", command="export")
where("delete-path-33-relationships", path(*["children"] * 33, "name") + " = 'x'", command="delete")
where("not-23", "NOT " * 23 + "id = 1", exit_code=0)
where("delete-not-23", "NOT " * 23 + "id != 999", command="delete", exit_code=0)


def nested(levels):
    text = "id = 1"
    for level in range(levels):
        text = ["NOT ({})", "id = 1 OR ({})", "id = 2 AND ({})"][level % 3].format(text)
    return text


where("nesting-32", nested(32), exit_code=0)
where("nesting-33", nested(33))
where("export-nesting-33", nested(33), command="export")
where("delete-nesting-33", nested(33), command="delete")
where("like-50000-bytes", "name LIKE '" + "%" * 50000 + "'", exit_code=0)
where("like-50001-bytes", "name LIKE '" + "%" * 50001 + "'")
where("delete-like-50001-bytes", "name LIKE '" + "é" * 25001 + "'", command="delete")


def wide(count, extra=""):
    return ("entities:\n  Wide:\n    primaryKey: id\n    attributes:\n      id: int\n"
            + "".join(f"      a{i}: string\n" for i in range(1, count)) + extra)


yaml_case("columns-1997-attributes", wide(1997))
yaml_case("columns-1997-attributes-import", wide(1997), command=("import", "Wide", "seed.json"))
yaml_case("columns-with-link-columns", wide(1995, "    relationships:\n      a: { to: Wide, kind: one }\n"
                                                  "      b: { to: Wide, kind: one }\n"))

# MARK: Control characters from data, shown escaped on a terminal

case("terminal/query-table", ["query", "Item", "--id", "4", "--fields", "id,name", "--format", "table"], exit_code=0,
     terminal=True)
case("terminal/bad-value", ["import", "Item", "terminal/bad-value.json"],
     files={"terminal/bad-value.json": r'[{"id": 5, "name": "n", "count": "x\u001b[2J\u007f\u009b"}]'})
case("terminal/skipped-record", ["import", "Item", "terminal/bad-value.json", "--on-error", "skip", "--dry-run"],
     exit_code=0, terminal=True)
case("terminal/entity-name", ["query", "It\x1b]0;x\x07em", "--format", "json"], exit_code=2)
case("terminal/id-value", ["query", "Item", "--id", "1\x1b[2J\x9b", "--format", "json"], exit_code=2)
yaml_case("terminal-escaped-name", 'entities:\n  "It\\eem":\n    primaryKey: id\n    attributes:\n      id: int\n')

# MARK: Huge inputs, written by the test at run time

MB = 1 << 20


def huge(name, parts, args=("import", "Item", "{generated}"), file="huge.json", **options):
    case(f"huge/{name}", list(args), generate={"file": file, "parts": parts}, **options)


huge("string-100mb-unterminated", [['[{"id": 1, "name": "', 1], ["a", 100 * MB]])
huge("string-100mb-bad-escape-at-end", [['[{"id": 1, "name": "', 1], ["a", 100 * MB], ['\\x"}]', 1]])
huge("string-100mb-as-int", [['[{"id": 1, "name": "a", "count": "', 1], ["7", 100 * MB], ['"}]', 1]])
huge("string-50mb-of-escapes-as-uuid", [['[{"id": 1, "name": "a", "uid": "', 1], ["\\n", 25 * MB], ['"}]', 1]])
huge("payload-over-max-payload-size", [['[{"id": 1, "name": "', 1], ["a", 100 * MB], ['"}]', 1]],
     args=("import", "Item", "{generated}", "--max-payload-size", "10M"))
huge("nesting-1e6-arrays", [["[", 1000000], ["]", 1000000]])
huge("nesting-1e6-objects", [['{"a":', 1000000], ["1", 1], ["}", 1000000]])
huge("nesting-1e6-unclosed-objects", [['{"a":', 1000000]])
huge("nesting-1e6-yaml-flow", [["entities: ", 1], ["[", 1000000]], args=("validate",), file="huge.yml",
     mappings="{generated}")
huge("nesting-1e6-yaml-block", [["entities:\n", 1], ["- ", 1000000], ["x\n", 1]], args=("validate",),
     file="huge.yml", mappings="{generated}")
huge("array-3e4-records-last-bad", [["[", 1], ['{"id": 1, "name": "a"},', 30000], ['{"id": "last"}]', 1]])
huge("array-1e6-numbers", [["[", 1], ["1,", 1000000], ["1]", 1]])
huge("array-1e6-ints-last-bad", [['[{"id": 1, "name": "a", "nums": [', 1], ["1,", 1000000], ['"x"]}]', 1]])
huge("jsonl-3e4-lines-last-bad", [['{"id": 1, "name": "a"}\n', 30000], ['{"id": "last"}\n', 1]],
     file="huge.jsonl")
case("huge/where-100kb", ["query", "Item", "--where", "{generated-text}", "--format", "json"], exit_code=2,
     generate={"parts": [["name = 'a' OR ", 8000], ["nmae = 'a'", 1]]})
case("huge/where-2000-conditions", ["query", "Item", "--where", "{generated-text}", "--format", "json"], exit_code=2,
     generate={"parts": [["name = 'a' OR ", 2000], ["id = 1", 1]]})
case("huge/where-20000-values", ["query", "Item", "--where", "{generated-text}", "--format", "json"], exit_code=2,
     generate={"parts": [["id IN (", 1], ["1, ", 20000], ["2)", 1]]})


def main():
    write("Mappings/types.yml", MAPPING)
    write("seed.json", json.dumps(SEED, indent=1, ensure_ascii=False) + "\n")
    expectations_path = os.path.join(OUT, "expectations.json")
    expectations = json.load(open(expectations_path)) if os.path.exists(expectations_path) else {}
    names = [c["name"] for c in cases]
    assert len(names) == len(set(names)), "duplicate case names"
    for c in cases:
        if c["name"] in expectations:
            c["stderr"] = expectations[c["name"]]
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(c, ensure_ascii=False) for c in cases) + "\n]\n")
    print(f"{len(cases)} cases ({sum(c['exit'] != 0 for c in cases)} to be refused) in {OUT}")


def write(path, text):
    full = os.path.join(OUT, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
