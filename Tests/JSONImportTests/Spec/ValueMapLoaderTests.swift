import Testing

@testable import JSONImport

/// `nullIf`, `map` / `mapDefault` and `present` in the mappings (SPEC 1.2), each checked where
/// it is written.
@Suite struct ValueMapLoaderTests {
    @Test func valueMapsConvertTheirValuesAndTakeJSONValuesAsKeys() throws {
        let spec = try MappingSpec.load(yaml: userMapping(
            "  state: { type: int, map: { open: 1, closed: 2, 3: 3 }, mapDefault: 0 }",
            "  home: { type: url, nullIf: [\"\", N/A, 0] }",
            "  isBot: { key: bot, type: bool, present: true }"), file: "m.yml")
        let user = spec[entity: "User"]
        let state = try #require(user.attribute(named: "state"))
        #expect(state.valueMap == [
            ValueMapEntry(key: .string("open"), value: .integer(1)), ValueMapEntry(key: .string("closed"), value: .integer(2)),
            ValueMapEntry(key: .number("3"), value: .integer(3)),
        ])
        #expect(state.mapDefault == .integer(0))
        #expect(user.attribute(named: "home")?.nullValues == [.string(""), .string("N/A"), .number("0")])
        #expect(user.attribute(named: "isBot")?.isPresence == true)
    }

    @Test(arguments: [
        ("  a: { type: int, map: { open: one } }",
         "m.yml:6:36: error: invalid 'map' value for 'User.a': expected int, found string \"one\""),
        ("  a: { type: int, mapDefault: 1 }", "m.yml:6:23: error: 'mapDefault' of 'User.a' needs a 'map'"),
        ("  a: { type: int, map: { x: 1 }, mapDefault: z }",
         "m.yml:6:50: error: invalid 'mapDefault' for 'User.a': expected int, found string \"z\""),
        ("  a: { type: string, present: true }", "m.yml:6:26: error: 'present' applies only to bool attributes ('User.a' is string)"),
        ("  a: { type: int, nullIf: [[1]] }",
         "m.yml:6:32: error: 'nullIf' takes JSON values (a string, number or bool) or a list of them, found a list"),
        ("  a: { type: json, map: { x: 1 } }", "m.yml:6:24: error: 'map' applies to scalar attributes other than json ('User.a' is json)"),
        ("  a: { type: int, map: { ~: 1 } }", "m.yml:6:30: error: 'map' of 'User.a' cannot map null: null is never looked up and stays null"),
    ])
    func eachProblemIsReportedWhereItIsWritten(line: String, error: String) {
        #expect(loadErrors(userMapping(line)).first == error)
    }
}
