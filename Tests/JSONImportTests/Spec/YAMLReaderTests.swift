import Testing

@testable import JSONImport

@Suite struct YAMLReaderTests {
    private func compose(_ text: String) throws -> YAMLNode {
        try #require(try YAMLComposer.compose(text).root)
    }

    private func composeError(_ text: String) -> YAMLError? {
        do {
            _ = try YAMLComposer.compose(text)
            return nil
        } catch {
            return error
        }
    }

    private func value(_ node: YAMLNode, _ key: String) -> YAMLNode? {
        node.mapping?.first { $0.key.scalar?.value == key }?.value
    }

    @Test func buildsTreeWithStylesTagsAndOneBasedPositions() throws {
        let root = try compose("a: plain\nb: 'single'\nc:\n  - \"double\"\n  - !!str 12\nd: |\n  text\n")
        let pairs = try #require(root.mapping)
        #expect(pairs.map { $0.key.scalar?.value } == ["a", "b", "c", "d"])
        #expect(pairs[0].value.scalar == YAMLScalar(value: "plain", style: .plain))
        #expect(pairs[0].value.mark == YAMLMark(line: 1, column: 4))
        #expect(pairs[1].value.scalar?.style == .singleQuoted)
        let items = try #require(pairs[2].value.sequence)
        #expect(items[0].scalar?.style == .doubleQuoted)
        #expect(items[0].mark == YAMLMark(line: 4, column: 5))
        #expect(items[1].tag == "tag:yaml.org,2002:str")
        #expect(items[1].resolved == .string("12"))
        #expect(pairs[3].value.scalar == YAMLScalar(value: "text\n", style: .literal))
    }

    @Test func resolvesPlainScalarsByTheCoreSchema() throws {
        let root = try compose(
            "[~, null, true, False, 12, -0x1, 0o17, 1.5, .5, 1e3, .inf, yes, '12', 99999999999999999999]")
        let values = try #require(root.sequence).map(\.resolved)
        #expect(values[0] == .null && values[1] == .null)
        #expect(values[2] == .bool(true) && values[3] == .bool(false))
        #expect(values[4] == .int(12, text: "12"))
        #expect(values[5] == .string("-0x1"))
        #expect(values[6] == .int(15, text: "15"))
        #expect(values[7] == .float(1.5, text: "1.5"))
        #expect(values[8] == .float(0.5, text: ".5"))
        #expect(values[9] == .float(1000, text: "1e3"))
        #expect(values[10] == .float(.infinity, text: ".inf"))
        #expect(values[11] == .string("yes"))
        #expect(values[12] == .string("12"))
        #expect(values[13] == .int(nil, text: "99999999999999999999"))
    }

    @Test func aliasesShareTheAnchoredNode() throws {
        let root = try compose("a: &x {k: [1, 2]}\nb: *x\n")
        let b = try #require(value(root, "b"))
        #expect(b.mapping?.first?.value.sequence?.count == 2)
        #expect(b.mark == YAMLMark(line: 1, column: 4))
        #expect(root.size == 1 + 2 * (1 + 5))
    }

    @Test func mergeKeysKeepExplicitKeysFirstAndEarlierSourcesOverLaterOnes() throws {
        let text = """
            a: &a {x: 1, y: 1}
            b: &b {y: 2, z: 2}
            one:
              <<: *a
              x: 0
            many:
              w: 0
              <<: [*a, *b]
            """
        let root = try compose(text)
        let one = try #require(value(root, "one")?.mapping)
        #expect(one.map { $0.key.scalar?.value } == ["y", "x"])
        #expect(one.map { $0.value.scalar?.value } == ["1", "0"])
        let many = try #require(value(root, "many")?.mapping)
        #expect(many.map { $0.key.scalar?.value } == ["w", "x", "y", "z"])
        #expect(many.map { $0.value.scalar?.value } == ["0", "1", "1", "2"])
    }

    @Test func quotedMergeKeyIsAnOrdinaryKey() throws {
        let root = try compose("'<<': {a: 1}\n")
        #expect(root.mapping?.first?.key.scalar?.value == "<<")
    }

    @Test func mergeKeyNeedsMappings() {
        #expect(
            composeError("a: &s 1\nb:\n  <<: *s\n")
                == YAMLError("merge key '<<' takes a mapping or a list of mappings, found number 1", line: 1, column: 4)
        )
    }

    @Test func billionLaughsStopsAtTheNodeLimit() {
        var text = "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n"
        for i in 1...9 {
            let refs = Array(repeating: "*l\(i - 1)", count: 10).joined(separator: ", ")
            text += "l\(i): &l\(i) [\(refs)]\n"
        }
        let error = composeError(text)
        #expect(error?.message == "document expands to more than 1000000 nodes (aliases expanding aliases?)")
        #expect(error?.line == 6)
    }

    @Test func smallerNodeLimitApplies() throws {
        // 1 root + 2 keys + 4 for the list + 1 for b's list, then 4 per alias.
        #expect(throws: YAMLError.self) {
            try YAMLComposer.compose("a: &a [1, 2, 3]\nb: [*a, *a, *a]\n", maximumNodeCount: 16)
        }
        _ = try YAMLComposer.compose("a: &a [1, 2, 3]\nb: [*a, *a]\n", maximumNodeCount: 16)
    }

    @Test func recursiveAliasIsRejected() {
        #expect(
            composeError("a: &x\n  b: *x\n")
                == YAMLError("alias '*x' refers to a node that contains it (recursive alias)", line: 2, column: 6))
    }

    @Test func undefinedAliasIsRejected() {
        #expect(
            composeError("a: *nope\n&nope b: 1\n")
                == YAMLError("alias '*nope' refers to no anchor '&nope' defined before it", line: 1, column: 4))
    }

    @Test func secondDocumentIsRejected() {
        #expect(
            composeError("a: 1\n---\nb: 2\n")
                == YAMLError("a mapping file holds one YAML document; found a second one", line: 2, column: 1))
    }

    @Test func emptyTextHasNoRoot() throws {
        #expect(try YAMLComposer.compose("").root == nil)
        #expect(try YAMLComposer.compose("# only a comment\n").root == nil)
    }

    @Test func unknownTagsAreProblemsThatDoNotStopComposition() throws {
        let document = try YAMLComposer.compose("a: !foo 1\nb: !!str {c: 1}\nc: !!int 3\n")
        #expect(
            document.problems == [
                YAMLError("unknown tag '!foo'", line: 1, column: 4),
                YAMLError("tag '!!str' cannot be used on a mapping", line: 2, column: 4),
            ])
        #expect(document.root?.mapping?.count == 3)
    }

    @Test func syntaxErrorsCarryLibyamlPositionsOneBased() {
        #expect(
            composeError("key: value: other\n")
                == YAMLError("mapping values are not allowed in this context", line: 1, column: 11))
        #expect(
            composeError("a:\n\tb: 1\n")
                == YAMLError(
                    "found character that cannot start any token (while scanning for the next token)", line: 2,
                    column: 1))
    }

    @Test func deepNestingIsRejected() {
        let text = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(composeError(text)?.message == "collections are nested more than 256 levels deep")
    }
}
