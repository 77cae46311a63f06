import Foundation
import Testing

@testable import JSONImport

@Suite struct MappingLoaderTopLevelTests {
    @Test func versionOneLoads() throws {
        let spec = try MappingSpec.load(yaml: "version: 1\n" + userMapping())
        #expect(spec.entities.map(\.name) == ["User"])
        #expect(spec.files == ["mappings.yml"])
    }

    @Test func otherVersionsAreErrors() {
        #expect(
            renderedError("version: 2\n" + userMapping()) == """
                m.yml:1:10: error: unsupported version '2' (only version 1 exists)
                version: 2
                         ^
                """)
        #expect(
            loadErrors("version: '1'\n" + userMapping()) == [
                "m.yml:1:10: error: unsupported version '1' (only version 1 exists)"
            ])
    }

    @Test func unknownTopLevelKeySuggestsTheClosest() {
        #expect(
            renderedError("entites: {}\n") == """
                m.yml:1:1: error: unknown key 'entites' at the top level (did you mean 'entities'?)
                entites: {}
                ^
                m.yml:1:1: error: missing top-level key 'entities'
                entites: {}
                ^
                """)
    }

    @Test func aFileThatIsNotUTF8IsPlacedAtItsFirstBadByte() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).yml")
        try Data("entities:\n  Ité".utf8 + [0xFF] + Data("m: {}\n".utf8)).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: MappingLoadError.self) { try MappingSpec.load(from: file.path) }
        do {
            _ = try MappingSpec.load(from: file.path)
        } catch {
            #expect(error.diagnostics.map(\.summary) == ["\(file.path):2:6: error: '\(file.path)' is not UTF-8 text: invalid byte sequence"])
        }
    }

    @Test func emptyFileIsAnError() {
        #expect(loadErrors("# nothing\n") == ["m.yml:1:1: error: mapping file is empty: expected top-level 'entities'"])
        #expect(loadErrors("- a\n") == ["m.yml:1:1: error: expected a mapping at the top level, found a list"])
    }

    @Test func emptyEntitiesLoadNothing() throws {
        #expect(try MappingSpec.load(yaml: "entities: {}\n").entities.isEmpty)
    }

    @Test func defaultsAcceptOnlyKeyStyle() {
        #expect(
            loadErrors("defaults:\n  keystyle: snake_case\n  timestamps: false\n" + userMapping()) == [
                "m.yml:2:3: error: unknown key 'keystyle' in 'defaults' (did you mean 'keyStyle'?)",
                "m.yml:3:3: error: unknown key 'timestamps' in 'defaults'",
            ])
        #expect(
            loadErrors("defaults:\n  keyStyle: snake\n" + userMapping()) == [
                "m.yml:2:13: error: invalid keyStyle 'snake' (expected one of: asIs, snake_case, camelCase, kebab-case)"
            ])
    }

    @Test func syntaxErrorsKeepTheirPositionAndOtherFilesAreStillChecked() {
        let errors = loadErrors(files: [
            ("a.yml", "entities:\n  User:\n    attributes: [id: int\n"),
            ("b.yml", "entities:\n  Tag:\n    attributes: {name: strin}\n"),
        ])
        #expect(
            errors == [
                "a.yml:4:1: error: did not find expected ',' or ']' (while parsing a flow sequence)",
                "b.yml:3:24: error: unknown type 'strin' (did you mean 'string'?)",
            ])
    }

    @Test func tabsUsedForIndentationAreNamed() {
        #expect(
            renderedError("entities:\n  User:\n\tattributes: {}\n") == """
                m.yml:3:1: error: tab character where YAML expects spaces (tabs cannot indent YAML): found character that cannot start any token (while scanning for the next token)
                \tattributes: {}
                ^
                """)
    }

    @Test func multipleDocumentsAreAnError() {
        #expect(
            loadErrors(userMapping() + "---\n" + userMapping()) == [
                "m.yml:6:1: error: a mapping file holds one YAML document; found a second one"
            ])
    }

    @Test func unknownTagsAreReportedWithTheRest() {
        #expect(
            loadErrors(userMapping("  name: !strng string", "  bio: strg")) == [
                "m.yml:6:13: error: unknown tag '!strng'",
                "m.yml:7:12: error: unknown type 'strg' (did you mean 'string'?)",
            ])
    }

    @Test func recursiveAndUndefinedAliasesAreErrors() {
        #expect(
            loadErrors("entities: &e\n  User: *e\n") == [
                "m.yml:2:9: error: alias '*e' refers to a node that contains it (recursive alias)"
            ])
        #expect(
            loadErrors(userMapping("  name: *type")) == [
                "m.yml:6:13: error: alias '*type' refers to no anchor '&type' defined before it"
            ])
    }

    @Test func billionLaughsIsAnErrorNotAHang() {
        var text = "entities:\n  A:\n    attributes:\n      l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n"
        for i in 1...7 {
            text += "      l\(i): &l\(i) [" + Array(repeating: "*l\(i - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        #expect(
            loadErrors(text) == [
                "m.yml:9:51: error: document expands to more than 1000000 nodes (aliases expanding aliases?)"
            ])
    }

    @Test func everyProblemIsReportedInFileOrderThenPosition() {
        let errors = loadErrors(files: [
            (
                "b.yml",
                "entities:\n  B:\n    attributes: {x: int}\n    relationships:\n      a: {to: Nope, kind: one}\n"
            ),
            ("a.yml", "entities:\n  A:\n    primaryKey: y\n    attributes: {x: bogus}\n"),
        ])
        #expect(
            errors == [
                "b.yml:5:15: error: unknown entity 'Nope'",
                "a.yml:3:17: error: primary key 'y' names no attribute of 'A'",
                "a.yml:4:21: error: unknown type 'bogus'",
            ])
    }
}

@Suite struct MappingLoaderEncodingTests {
    @Test func byteOrderMarkAndCRLFLineEndingsAreAccepted() throws {
        let text = "\u{FEFF}entities:\r\n  User:\r\n    attributes: {id: int}\r\n"
        #expect(try MappingSpec.load(yaml: text).entities.map(\.name) == ["User"])
        #expect(
            renderedError("entities:\r\n  User:\r\n    attributes: {id: intt}\r\n") == """
                m.yml:3:22: error: unknown type 'intt' (did you mean 'int'?)
                    attributes: {id: intt}
                                     ^
                """)
    }
}
