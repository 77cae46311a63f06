import Foundation
import Testing
@testable import JSONImport

/// Teams and members (`many` ↔ `one`, a foreign key on Member), articles and labels (`many` ↔
/// `many`, a link table), orders with owned lines, composite keys, and every `missing` rule.
private let relationsYAML = """
    entities:
      Team:
        primaryKey: id
        attributes:
          id: int
          name: string
        relationships:
          members: { to: Member, kind: many }
      Member:
        primaryKey: id
        attributes:
          id: int
          name: string
        relationships:
          team: { to: Team, kind: one, inverse: members }
      Article:
        primaryKey: id
        attributes:
          id: int
          title: string
        relationships:
          labels: { to: Label, kind: many }
          extraLabels: { to: Label, kind: many, key: extra_labels, policy: append }
      Label:
        primaryKey: name
        attributes:
          name: string
        relationships:
          articles: { to: Article, kind: many, inverse: labels }
      Order:
        primaryKey: id
        attributes:
          id: int
        relationships:
          lines: { to: Line, kind: many }
          shipping: { to: Place, kind: one }
      Line:
        attributes:
          sku: string
          qty: int
      Place:
        attributes:
          city: string
      Note:
        cleanup: none
        attributes:
          text: string
      Membership:
        primaryKey: [team, user]
        attributes:
          team: string
          user: int
          role: string
      Grant:
        primaryKey: id
        attributes:
          id: int
        relationships:
          membership: { to: Membership, kind: one, by: id }
          memberships: { to: Membership, kind: many }
      Post:
        primaryKey: id
        attributes:
          id: int
        relationships:
          author: { to: Member, kind: one, by: id, missing: stub }
          editors: { to: Member, kind: many, missing: skip }
          reviewer: { to: Member, kind: one, missing: skip }
          approver: { to: Member, kind: one, missing: error }
          section: { to: Team, kind: one, by: object }
    """

/// Attributes with every rule of SPEC 1.2 that validation and transforms apply.
private let rulesYAML = """
    entities:
      Thing:
        primaryKey: code
        attributes:
          code: { type: string, transform: [trim, uppercase] }
          size: { type: string, enum: [S, M, L], transform: uppercase }
          stars: { type: int, min: 0, max: 5 }
          ratio: { type: double, min: 0.5 }
          nick: { type: string, min: 2, max: 3 }
          tags: { type: "[string]", max: 2 }
          zip: { type: string, pattern: "[0-9]{4}" }
          title: { type: string, transform: [trim, emptyIsNull], required: true }
          comment: { type: string, transform: [emptyIsNull, trim] }
          lower: { type: string, transform: lowercase }
          kind: { type: string, default: plain }
          email: { type: string, unique: true }
    """

@Suite struct ImportRulesTests {
    // MARK: 2.1 Payloads

    @Test func payloadIsOneObjectOrAnArrayOfRecords() throws {
        let mapper = try makeMapper()
        #expect(try mapper.importJSON(#"{"id": 1}"#, as: "User").records == 1)
        #expect(try mapper.importJSON(#"[{"id": 2}, {"id": 3}, {"id": 4}]"#, as: "User").records == 3)
        #expect(try mapper.importJSON("[]", as: "User").records == 0)
        #expect(try mapper.storedRows("User", "id", orderedBy: "id") == [[.integer(1)], [.integer(2)], [.integer(3)], [.integer(4)]])
    }

    @Test func rootKeyPathFindsTheRecordsAndErrorsGiveTheirPathUnderIt() throws {
        let yaml = """
            entities:
              Item:
                primaryKey: id
                root: data.items
                attributes:
                  id: int
                  name: { type: string, required: true }
            """
        let mapper = try makeMapper(yaml)
        let report = try mapper.importJSON(#"{"data": {"items": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]}, "meta": {}}"#, as: "Item")
        #expect(report.records == 2)
        let bad = #"{"data": {"items": [{"id": 3, "name": "c"}, {"id": 4, "name": null}]}}"#
        #expect(issue(try mapper.importJSON(bad, as: "Item")) == "<data> record 1 at $.data.items[1].name: 'name' is required, found null")
        let single = #"{"data": {"items": {"id": 5, "name": null}}}"#
        #expect(issue(try mapper.importJSON(single, as: "Item")) == "<data> record 0 at $.data.items.name: 'name' is required, found null")
        #expect(try mapper.storedRows("Item", "id", orderedBy: "id") == [[.integer(1)], [.integer(2)]])
    }

    @Test func rootOptionOverridesTheEntitysRoot() throws {
        let mapper = try makeMapper()
        let report = try mapper.importJSON(
            #"{"page": {"users": [{"id": 1}, {"id": "x"}]}}"#, as: "User", options: .init(root: "page.users", onError: .skip))
        #expect(report.records == 2)
        #expect(report.errors.map(\.path) == ["$.page.users[1].id"])
    }

    @Test func jsonLinesNumberRecordsAmongNonEmptyLinesAndGiveTheLine() throws {
        let mapper = try makeMapper()
        let payload = "{\"id\": 1}\n\n   \n{\"id\": 2}\n{\"id\": 3, \"repos\": [{\"id\": 9, \"stars\": -1, \"name\": \"r\"}]}\n"
        let report = try mapper.importData(Data(payload.utf8), as: "User", options: .init(format: .jsonl, onError: .skip))
        #expect(report.records == 3)
        #expect(report.errors == [ImportIssue(file: "<data>", record: 2, path: "$.repos[0].stars", message: "value -1 is below the minimum 0", line: 5)])
        #expect(try mapper.storedRows("User", "id", orderedBy: "id") == [[.integer(1)], [.integer(2)]])
    }

    @Test func rootKeyPathWithJSONLinesIsAUsageError() throws {
        let mapper = try makeMapper()
        #expect {
            try mapper.importData(Data("{\"id\": 1}\n".utf8), as: "User", options: .init(root: "data", format: .jsonl))
        } throws: { ($0 as? ImportError)?.code == .usage }
        #expect(try mapper.rowCount("User") == 0)
    }

    @Test func syntaxErrorGivesLineAndCharacterColumnAndKeepsNothingOfTheImport() throws {
        let mapper = try makeMapper()
        let good = ImportSource.data(Data(#"[{"id": 1}]"#.utf8), name: "good.json")
        let bad = ImportSource.data(Data("[{\"id\": 2},\n {\"login\": \"é\", x}]".utf8), name: "bad.json")
        #expect {
            try mapper.importSources([good, bad], as: "User")
        } throws: { error in
            guard let error = error as? ImportError, error.code == .invalidJSON else { return false }
            // `x` is the 17th character of line 2 but its 18th byte; byte 29 of the file.
            return error.message.hasPrefix("bad.json:2:17: invalid JSON (byte 29)")
        }
        #expect(try mapper.rowCount("User") == 0)
    }

    // MARK: 2.2.1 Identity

    @Test func missingOrNullPrimaryKeyIsARecordError() throws {
        let mapper = try makeMapper()
        #expect(issue(try mapper.importJSON(#"[{"id": 1}, {"login": "x"}]"#, as: "User"))
            == "<data> record 1 at $[1].id: missing primary key 'id' (key 'id')")
        #expect(issue(try mapper.importJSON(#"{"id": null, "login": "x"}"#, as: "User"))
            == "<data> record 0 at $.id: missing primary key 'id' (key 'id')")
        #expect(try mapper.rowCount("User") == 0)
    }

    @Test func primaryKeyIsReadBeforeTheOtherAttributes() throws {
        let yaml = """
            entities:
              Item:
                primaryKey: id
                attributes:
                  count: int
                  id: int
            """
        let mapper = try makeMapper(yaml)
        #expect(issue(try mapper.importJSON(#"{"count": "many"}"#, as: "Item"))
            == "<data> record 0 at $.id: missing primary key 'id' (key 'id')")
        #expect(issue(try mapper.importJSON(#"{"count": "many", "id": "x"}"#, as: "Item"))
            == #"<data> record 0 at $.id: expected int, found string "x""#)
    }

    @Test func primaryKeyIsTransformedBeforeRowsAreMatched() throws {
        let mapper = try makeMapper(rulesYAML)
        try mapper.importJSON(#"{"code": " ab ", "title": "first"}"#, as: "Thing")
        let report = try mapper.importJSON(#"{"code": "AB", "title": "second"}"#, as: "Thing")
        #expect(report.counts(for: "Thing").list == [0, 1, 0, 0])
        #expect(try mapper.storedRows("Thing", "code", "title") == [[.text("AB"), .text("second")]])
    }

    // MARK: 2.2.2 Attributes: missing, null, default, required

    @Test func nullClearsAnAttributeWhileAMissingKeyLeavesItAsItIs() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"{"id": 1, "login": "ana", "name": "Ana", "score": 2.5}"#, as: "User")
        let report = try mapper.importJSON(#"{"id": 1, "name": null, "login": "ana"}"#, as: "User")
        #expect(report.counts(for: "User").list == [0, 1, 0, 0])
        #expect(try mapper.storedRows("User", "login", "name", "score") == [[.text("ana"), .null, .real(2.5)]])
    }

    @Test func defaultIsStoredOnInsertOnlyAndNeverReplacesNull() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"[{"id": 1}, {"id": 2, "site_admin": true}, {"id": 3, "site_admin": null}]"#, as: "User")
        #expect(try mapper.storedRows("User", "isAdmin", orderedBy: "id") == [[.integer(0)], [.integer(1)], [.null]])
        let report = try mapper.importJSON(#"[{"id": 2}, {"id": 3}]"#, as: "User")
        #expect(report.counts(for: "User").list == [0, 0, 2, 0])
        #expect(try mapper.storedRows("User", "isAdmin", orderedBy: "id") == [[.integer(0)], [.integer(1)], [.null]])
    }

    @Test func requiredNullIsAlwaysAnError() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"{"id": 1, "repos": [{"id": 5, "name": "kit"}]}"#, as: "User")
        #expect(issue(try mapper.importJSON(#"{"id": 5, "name": null}"#, as: "Repo"))
            == "<data> record 0 at $.name: 'name' is required, found null")
        #expect(try mapper.storedRows("Repo", "name") == [[.text("kit")]])
    }

    @Test func requiredMissingIsAnErrorOnInsertWithoutDefaultButFineOnUpdate() throws {
        let mapper = try makeMapper()
        #expect(issue(try mapper.importJSON(#"[{"id": 5, "name": "kit"}, {"id": 6, "stars": 1}]"#, as: "Repo"))
            == "<data> record 1 at $[1].name: missing required attribute 'name' (key 'name')")
        try mapper.importJSON(#"{"id": 5, "name": "kit"}"#, as: "Repo")
        let update = try mapper.importJSON(#"{"id": 5, "stars": 3}"#, as: "Repo")
        #expect(update.counts(for: "Repo").list == [0, 1, 0, 0])
        #expect(try mapper.storedRows("Repo", "name", "stars") == [[.text("kit"), .integer(3)]])
    }

    @Test func requiredMissingOnInsertTakesTheDefaultWhenThereIsOne() throws {
        let yaml = """
            entities:
              Item:
                primaryKey: id
                attributes:
                  id: int
                  state: { type: string, required: true, default: open }
            """
        let mapper = try makeMapper(yaml)
        try mapper.importJSON(#"{"id": 1}"#, as: "Item")
        #expect(try mapper.storedRows("Item", "state") == [[.text("open")]])
    }

    @Test func keyPathThroughNullIsNullAndThroughAMissingKeyIsMissing() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"[{"id": 1, "contact": {"email": "a@x.io"}}, {"id": 2, "contact": {"email": "b@x.io"}}]"#, as: "User")
        try mapper.importJSON(#"[{"id": 1, "contact": null}, {"id": 2, "contact": {"phone": "1"}}]"#, as: "User")
        #expect(try mapper.storedRows("User", "email", orderedBy: "id") == [[.null], [.text("b@x.io")]])
        try mapper.importJSON(#"{"id": 2}"#, as: "User")
        #expect(try mapper.storedRows("User", "email", orderedBy: "id") == [[.null], [.text("b@x.io")]])
    }

    @Test func jsonKeysTheMappingDoesNotNameAreIgnored() throws {
        let mapper = try makeMapper()
        let report = try mapper.importJSON(#"{"id": 1, "login": "a", "followers_url": "x", "plan": {"name": "pro"}, "name": "A"}"#, as: "User")
        #expect(report.errors.isEmpty)
        #expect(try mapper.storedRows("User", "login", "name") == [[.text("a"), .text("A")]])
    }

    // MARK: 2.2.2 Validation and transforms

    @Test func aDecimalEnumAllowsTheSameNumberSpelledOtherwise() throws {
        let mapper = try makeMapper("entities:\n  Rate:\n    primaryKey: id\n    attributes:\n      id: int\n      rate: { type: decimal, enum: [1.5, 2] }\n")
        let report = try mapper.importJSON(#"[{"id": 1, "rate": 1.50}, {"id": 2, "rate": "2.0"}, {"id": 3, "rate": 2.5}]"#, as: "Rate", options: .init(onError: .skip))
        #expect(report.errors.map(\.message) == [#""2.5" is not one of the allowed values ("1.5", "2")"#])
        #expect(try mapper.storedRows("Rate", "rate") == [[.text("1.50")], [.text("2.0")]])
    }

    @Test func enumIsCheckedAfterTransforms() throws {
        let mapper = try makeMapper(rulesYAML)
        try mapper.importJSON(#"{"code": "a", "title": "t", "size": "m"}"#, as: "Thing")
        #expect(try mapper.storedRows("Thing", "size") == [[.text("M")]])
        #expect(issue(try mapper.importJSON(#"{"code": "b", "title": "t", "size": "xl"}"#, as: "Thing"))
            == #"<data> record 0 at $.size: "XL" is not one of the allowed values ("S", "M", "L")"#)
    }

    @Test func minAndMaxBoundNumbersInclusively() throws {
        let mapper = try makeMapper(rulesYAML)
        try mapper.importJSON(#"[{"code": "a", "title": "t", "stars": 0, "ratio": 0.5}, {"code": "b", "title": "t", "stars": 5}]"#, as: "Thing")
        #expect(issue(try mapper.importJSON(#"{"code": "c", "title": "t", "stars": 6}"#, as: "Thing"))
            == "<data> record 0 at $.stars: value 6 is above the maximum 5")
        #expect(issue(try mapper.importJSON(#"{"code": "c", "title": "t", "stars": -1}"#, as: "Thing"))
            == "<data> record 0 at $.stars: value -1 is below the minimum 0")
        #expect(issue(try mapper.importJSON(#"{"code": "c", "title": "t", "ratio": 0.25}"#, as: "Thing"))
            == "<data> record 0 at $.ratio: value 0.25 is below the minimum 0.5")
    }

    @Test func minAndMaxCountCharactersOfStrings() throws {
        let mapper = try makeMapper(rulesYAML)
        // "né" is 2 characters (3 UTF-8 bytes); "👍🏽ab" is 3 characters.
        try mapper.importJSON(#"[{"code": "a", "title": "t", "nick": "né"}, {"code": "b", "title": "t", "nick": "👍🏽ab"}]"#, as: "Thing")
        #expect(issue(try mapper.importJSON(#"{"code": "c", "title": "t", "nick": "x"}"#, as: "Thing"))
            == "<data> record 0 at $.nick: length 1 is below the minimum 2")
        #expect(issue(try mapper.importJSON(#"{"code": "c", "title": "t", "nick": "abcd"}"#, as: "Thing"))
            == "<data> record 0 at $.nick: length 4 is above the maximum 3")
    }

    @Test func minAndMaxCountElementsOfArrays() throws {
        let mapper = try makeMapper(rulesYAML)
        try mapper.importJSON(#"{"code": "a", "title": "t", "tags": ["long tag", "another"]}"#, as: "Thing")
        #expect(issue(try mapper.importJSON(#"{"code": "c", "title": "t", "tags": ["a", "b", "c"]}"#, as: "Thing"))
            == "<data> record 0 at $.tags: count 3 is above the maximum 2")
    }

    @Test func patternMustMatchTheWholeString() throws {
        let mapper = try makeMapper(rulesYAML)
        try mapper.importJSON(#"{"code": "a", "title": "t", "zip": "0150"}"#, as: "Thing")
        #expect(issue(try mapper.importJSON(#"{"code": "c", "title": "t", "zip": "01500"}"#, as: "Thing"))
            == #"<data> record 0 at $.zip: "01500" does not match the pattern [0-9]{4}"#)
        #expect(issue(try mapper.importJSON(#"{"code": "c", "title": "t", "zip": "x0150"}"#, as: "Thing"))
            == #"<data> record 0 at $.zip: "x0150" does not match the pattern [0-9]{4}"#)
    }

    @Test func transformsTrimLowercaseUppercaseAndEmptyIsNull() throws {
        let mapper = try makeMapper(rulesYAML)
        try mapper.importJSON(#"{"code": "\u00a0 k1\t\n", "title": " Title ", "lower": "MiXeD Ünï", "comment": ""}"#, as: "Thing")
        #expect(try mapper.storedRows("Thing", "code", "title", "lower", "comment")
            == [[.text("K1"), .text("Title"), .text("mixed ünï"), .null]])
    }

    @Test func transformsApplyInTheOrderGiven() throws {
        let mapper = try makeMapper(rulesYAML)
        // title: [trim, emptyIsNull] turns blanks into null (then `required` refuses it);
        // comment: [emptyIsNull, trim] keeps them as an empty string.
        try mapper.importJSON(#"{"code": "a", "title": "t", "comment": "   "}"#, as: "Thing")
        #expect(try mapper.storedRows("Thing", "comment") == [[.text("")]])
        #expect(issue(try mapper.importJSON(#"{"code": "b", "title": "   "}"#, as: "Thing"))
            == "<data> record 0 at $.title: 'title' is required, found null")
    }

    @Test func uniqueConstraintFailureIsARecordError() throws {
        let mapper = try makeMapper(rulesYAML)
        let payload = #"[{"code": "a", "title": "t", "email": "x@y"}, {"code": "b", "title": "t", "email": "x@y"}, {"code": "c", "title": "t"}]"#
        let failure = issue(try mapper.importJSON(payload, as: "Thing"))
        #expect(failure == #"<data> record 1 at $[1].email: 'email' must be unique: "x@y" (key 'email') is also held by Thing "A""#)
        let report = try mapper.importJSON(payload, as: "Thing", options: .init(onError: .skip))
        #expect(report.errors.map(\.record) == [1])
        #expect(try mapper.storedRows("Thing", "code", orderedBy: "code") == [[.text("A")], [.text("C")]])
    }

    // MARK: 2.2.3 Relationships

    @Test func nestedOneIsImportedAndLinkedNullUnlinksAndMissingKeepsTheLink() throws {
        let mapper = try makeMapper(relationsYAML)
        try mapper.importJSON(#"{"id": 1, "section": {"id": 10, "name": "News"}}"#, as: "Post")
        #expect(try mapper.links("Post", "section") == [#"{"id":1,"section":10}"#])
        #expect(try mapper.storedRows("Team", "name") == [[.text("News")]])
        try mapper.importJSON(#"{"id": 1}"#, as: "Post")
        #expect(try mapper.links("Post", "section") == [#"{"id":1,"section":10}"#])
        let report = try mapper.importJSON(#"{"id": 1, "section": null}"#, as: "Post")
        #expect(report.counts(for: "Post").list == [0, 1, 0, 0])
        #expect(try mapper.links("Post", "section") == [#"{"id":1,"section":null}"#])
    }

    @Test func byObjectRefusesAKeyAndByIdRefusesAnObject() throws {
        let mapper = try makeMapper(relationsYAML)
        #expect(issue(try mapper.importJSON(#"{"id": 1, "section": 10}"#, as: "Post"))
            == "<data> record 0 at $.section: expected object for Team, found number 10")
        #expect(issue(try mapper.importJSON(#"{"id": 1, "author": {"id": 3}}"#, as: "Post"))
            == "<data> record 0 at $.author: expected a key of Member, found object")
    }

    @Test func autoReferencesMapObjectsAsNestedAndAnythingElseAsKeys() throws {
        let mapper = try makeMapper(relationsYAML)
        try mapper.importJSON(#"{"id": 1, "members": [{"id": 7, "name": "Kim"}, 8]}"#, as: "Team")
        #expect(try mapper.links("Team", "members") == [#"{"id":1,"members":[7,8]}"#])
        #expect(try mapper.storedRows("Member", "id", "name", "_stub", orderedBy: "id")
            == [[.integer(7), .text("Kim"), .integer(0)], [.integer(8), .null, .integer(1)]])
    }

    @Test func manyNullClearsTheLinksUnderReplaceAndChangesNothingUnderAppend() throws {
        let mapper = try makeMapper(relationsYAML)
        try mapper.importJSON(#"{"id": 1, "labels": ["a", "b"], "extra_labels": ["c"]}"#, as: "Article")
        let report = try mapper.importJSON(#"{"id": 1, "labels": null, "extra_labels": null}"#, as: "Article")
        #expect(try mapper.links("Article", "labels", "extraLabels") == [#"{"id":1,"labels":[],"extraLabels":["c"]}"#])
        #expect(report.counts(for: "Article").list == [0, 1, 0, 0])
    }

    @Test func missingRelationshipKeyLeavesTheLinksAsTheyAre() throws {
        let mapper = try makeMapper(relationsYAML)
        try mapper.importJSON(#"{"id": 1, "labels": ["a", "b"]}"#, as: "Article")
        let report = try mapper.importJSON(#"{"id": 1, "title": "T"}"#, as: "Article")
        #expect(try mapper.links("Article", "labels") == [#"{"id":1,"labels":["a","b"]}"#])
        #expect(report.changes.map(\.entity) == ["Article"])
    }

    @Test func compositeKeyReferencesAreArraysOfKeyValuesInKeyOrder() throws {
        let mapper = try makeMapper(relationsYAML)
        try mapper.importJSON(#"[{"team": "red", "user": 1, "role": "lead"}, {"team": "red", "user": 2}]"#, as: "Membership")
        let report = try mapper.importJSON(#"{"id": 1, "membership": ["red", 2], "memberships": [["red", 1], {"team": "blue", "user": 1}]}"#, as: "Grant")
        #expect(report.counts(for: "Membership").list == [1, 0, 0, 0])
        #expect(report.stubs.isEmpty)
        #expect(try mapper.links("Grant", "membership", "memberships") == [#"{"id":1,"membership":["red",2],"memberships":[["red",1],["blue",1]]}"#])
        #expect(issue(try mapper.importJSON(#"{"id": 2, "membership": "red"}"#, as: "Grant"))
            == #"<data> record 0 at $.membership: expected an array of 2 key values of Membership, found string "red""#)
    }

    @Test func compositePrimaryKeysUpsertByAllTheirValues() throws {
        let mapper = try makeMapper(relationsYAML)
        try mapper.importJSON(#"[{"team": "red", "user": 1, "role": "lead"}, {"team": "blue", "user": 1, "role": "dev"}]"#, as: "Membership")
        let report = try mapper.importJSON(#"[{"team": "red", "user": 1, "role": "dev"}, {"team": "red", "user": "2"}]"#, as: "Membership")
        #expect(report.counts(for: "Membership").list == [1, 1, 0, 0])
        #expect(try mapper.storedRows("Membership", "team", "user", "role", orderedBy: "team", "user") == [
            [.text("blue"), .integer(1), .text("dev")], [.text("red"), .integer(1), .text("dev")],
            [.text("red"), .integer(2), .null],
        ])
    }

    @Test func missingStubInsertsAKeyOnlyRowThatARecordLaterFills() throws {
        let mapper = try makeMapper(relationsYAML)
        let first = try mapper.importJSON(#"{"id": 1, "author": 3}"#, as: "Post")
        #expect(first.counts(for: "Member").list == [1, 0, 0, 0])
        #expect(first.stubs.map { "\($0.entity) \($0.count)" } == ["Member 1"])
        #expect(try mapper.storedRows("Member", "id", "name", "_stub") == [[.integer(3), .null, .integer(1)]])
        let second = try mapper.importJSON(#"{"id": 3, "name": "Ola"}"#, as: "Member")
        #expect(second.stubs.isEmpty)
        #expect(second.counts(for: "Member").list == [0, 1, 0, 0])
        #expect(try mapper.storedRows("Member", "id", "name", "_stub") == [[.integer(3), .text("Ola"), .integer(0)]])
    }

    @Test func missingSkipDropsTheLinkAndCountsItPerRelationship() throws {
        let mapper = try makeMapper(relationsYAML)
        try mapper.importJSON(#"{"id": 1, "name": "Kim"}"#, as: "Member")
        let report = try mapper.importJSON(#"[{"id": 1, "editors": [1, 2, 3], "reviewer": 4}, {"id": 2, "editors": [5]}]"#, as: "Post")
        #expect(report.skippedLinks.map { "\($0.relationship) \($0.count)" } == ["Post.editors 3", "Post.reviewer 1"])
        #expect(report.stubs.isEmpty)
        #expect(try mapper.links("Post", "editors", "reviewer") == [#"{"id":1,"editors":[1],"reviewer":null}"#, #"{"id":2,"editors":[],"reviewer":null}"#])
        #expect(try mapper.rowCount("Member") == 1)
    }

    @Test func missingErrorIsARecordError() throws {
        let mapper = try makeMapper(relationsYAML)
        #expect(issue(try mapper.importJSON(#"[{"id": 1}, {"id": 2, "approver": 9}]"#, as: "Post"))
            == "<data> record 1 at $[1].approver: no Member with key 9 (missing: error)")
        try mapper.importJSON(#"{"id": 9}"#, as: "Member")
        try mapper.importJSON(#"{"id": 2, "approver": 9}"#, as: "Post")
        #expect(try mapper.links("Post", "approver") == [#"{"id":2,"approver":9}"#])
    }

    @Test func replacePolicySetsTheWholeLinkListInPayloadOrder() throws {
        let mapper = try makeMapper(relationsYAML)
        try mapper.importJSON(#"{"id": 1, "labels": ["c", "a", "b"]}"#, as: "Article")
        #expect(try mapper.links("Article", "labels") == [#"{"id":1,"labels":["c","a","b"]}"#])
        let report = try mapper.importJSON(#"{"id": 1, "labels": ["b", "d", "c"]}"#, as: "Article")
        #expect(try mapper.links("Article", "labels") == [#"{"id":1,"labels":["b","d","c"]}"#])
        #expect(report.counts(for: "Article").list == [0, 1, 0, 0])
        // Links whose payload order differs from their targets' row order: the same list again
        // changes nothing.
        let same = try mapper.importJSON(#"{"id": 1, "labels": ["b", "d", "c"]}"#, as: "Article")
        #expect(same.counts(for: "Article").list == [0, 0, 1, 0])
        let reordered = try mapper.importJSON(#"{"id": 1, "labels": ["c", "b", "d"]}"#, as: "Article")
        #expect(try mapper.links("Article", "labels") == [#"{"id":1,"labels":["c","b","d"]}"#])
        #expect(reordered.counts(for: "Article").list == [0, 1, 0, 0])
    }

    @Test func appendPolicyAddsLinksAtTheEndAndRemovesNone() throws {
        let mapper = try makeMapper(relationsYAML)
        try mapper.importJSON(#"{"id": 1, "extra_labels": ["c", "a"]}"#, as: "Article")
        let report = try mapper.importJSON(#"{"id": 1, "extra_labels": ["b", "a"]}"#, as: "Article")
        #expect(try mapper.links("Article", "extraLabels") == [#"{"id":1,"extraLabels":["c","a","b"]}"#])
        #expect(report.counts(for: "Article").list == [0, 1, 0, 0])
        let again = try mapper.importJSON(#"{"id": 1, "extra_labels": ["a"]}"#, as: "Article")
        #expect(again.counts(for: "Article").list == [0, 0, 1, 0])
        #expect(try mapper.links("Article", "extraLabels") == [#"{"id":1,"extraLabels":["c","a","b"]}"#])
    }

    @Test func forwardAndBackSidesShareOneLink() throws {
        let mapper = try makeMapper(relationsYAML)
        try mapper.importJSON(#"{"id": 1, "members": [{"id": 7}, {"id": 8}]}"#, as: "Team")
        #expect(try mapper.links("Member", "team") == [#"{"id":7,"team":1}"#, #"{"id":8,"team":1}"#])
        try mapper.importJSON(#"{"id": 9, "team": 1}"#, as: "Member")
        #expect(try mapper.links("Team", "members") == [#"{"id":1,"members":[7,8,9]}"#])
        try mapper.importJSON(#"{"id": 8, "team": {"id": 2, "name": "Blue"}}"#, as: "Member")
        #expect(try mapper.links("Team", "members") == [#"{"id":1,"members":[7,9]}"#, #"{"id":2,"members":[8]}"#])
        #expect(try mapper.statistics().links.map { "\($0.name) \($0.count)" }.first { $0.hasPrefix("Team.members") } == "Team.members 3")
    }

    @Test func manyToManyFromTheBackSideAppendsAtTheEndOfTheForwardOrder() throws {
        let mapper = try makeMapper(relationsYAML)
        try mapper.importJSON(#"[{"id": 1, "labels": ["b", "a"]}, {"id": 2, "labels": ["a"]}]"#, as: "Article")
        let report = try mapper.importJSON(#"{"name": "c", "articles": [2, 1]}"#, as: "Label")
        #expect(try mapper.links("Article", "labels") == [#"{"id":1,"labels":["b","a","c"]}"#, #"{"id":2,"labels":["a","c"]}"#])
        #expect(try mapper.links("Label", "articles") == [#"{"name":"a","articles":[1,2]}"#, #"{"name":"b","articles":[1]}"#, #"{"name":"c","articles":[1,2]}"#])
        #expect(report.counts(for: "Article").list == [0, 2, 0, 0])
        #expect(report.counts(for: "Label").list == [1, 0, 0, 0])
        // The back side's replace policy removes the links it no longer lists.
        try mapper.importJSON(#"{"name": "a", "articles": [2]}"#, as: "Label")
        #expect(try mapper.links("Article", "labels") == [#"{"id":1,"labels":["b","c"]}"#, #"{"id":2,"labels":["a","c"]}"#])
    }

    // MARK: 2.4 Owned entities

    @Test func ownedOneIsUpdatedInPlace() throws {
        let mapper = try makeMapper(relationsYAML)
        try mapper.importJSON(#"{"id": 1, "shipping": {"city": "Oslo"}}"#, as: "Order")
        let rowBefore = try mapper.storedRows("Place", "_id")
        let report = try mapper.importJSON(#"{"id": 1, "shipping": {"city": "Bergen"}}"#, as: "Order")
        #expect(report.counts(for: "Place").list == [0, 1, 0, 0])
        #expect(try mapper.storedRows("Place", "_id") == rowBefore)
        #expect(try mapper.links("Order", "shipping") == [#"{"id":1,"shipping":{"city":"Bergen"}}"#])
        let same = try mapper.importJSON(#"{"id": 1, "shipping": {"city": "Bergen"}}"#, as: "Order")
        #expect(same.counts(for: "Place").list == [0, 0, 1, 0])
    }

    @Test func ownedManyIsMatchedByPosition() throws {
        let mapper = try makeMapper(relationsYAML)
        try mapper.importJSON(#"{"id": 1, "lines": [{"sku": "a", "qty": 1}, {"sku": "b", "qty": 2}, {"sku": "c", "qty": 3}]}"#, as: "Order")
        let changed = try mapper.importJSON(#"{"id": 1, "lines": [{"sku": "a", "qty": 1}, {"sku": "b", "qty": 5}, {"sku": "c", "qty": 3}, {"sku": "d", "qty": 4}]}"#, as: "Order")
        #expect(changed.counts(for: "Line").list == [1, 1, 2, 0])
        #expect(changed.counts(for: "Order").list == [0, 1, 0, 0])
        let shorter = try mapper.importJSON(#"{"id": 1, "lines": [{"sku": "a", "qty": 1}, {"sku": "b", "qty": 5}]}"#, as: "Order")
        #expect(shorter.counts(for: "Line").list == [0, 0, 2, 2])
        #expect(shorter.orphansRemoved.map { "\($0.entity) \($0.count)" } == ["Line 2"])
        #expect(try mapper.storedRows("Line", "sku", "qty", orderedBy: "sku") == [[.text("a"), .integer(1)], [.text("b"), .integer(5)]])
        #expect(try mapper.links("Order", "lines") == [#"{"id":1,"lines":[{"sku":"a","qty":1},{"sku":"b","qty":5}]}"#])
    }

    @Test func ownedRowsThatLostTheirPlaceStayWithoutCleanup() throws {
        let mapper = try makeMapper(relationsYAML)
        try mapper.importJSON(#"{"id": 1, "lines": [{"sku": "a"}, {"sku": "b"}]}"#, as: "Order")
        let report = try mapper.importJSON(#"{"id": 1, "lines": []}"#, as: "Order", options: .init(cleanup: false))
        #expect(report.orphansRemoved.isEmpty)
        #expect(try mapper.rowCount("Line") == 2)
        // The next import with clean-up on catches up, though it removes no link itself.
        let next = try mapper.importJSON(#"{"id": 1, "lines": []}"#, as: "Order")
        #expect(next.orphansRemoved.map { "\($0.entity) \($0.count)" } == ["Line 2"])
        #expect(try mapper.rowCount("Line") == 0)
    }

    @Test func ownedEntityAsRootIsAUsageErrorUnlessItsCleanupIsNone() throws {
        let mapper = try makeMapper(relationsYAML)
        #expect {
            try mapper.importJSON(#"{"sku": "a"}"#, as: "Line")
        } throws: { ($0 as? ImportError)?.code == .usage }
        try mapper.importJSON(#"[{"text": "x"}, {"text": "x"}]"#, as: "Note")
        let report = try mapper.importJSON(#"{"text": "x"}"#, as: "Note")
        #expect(report.counts(for: "Note").list == [1, 0, 0, 0])
        #expect(try mapper.rowCount("Note") == 3)
    }

    // MARK: 2.2.4 Same key several times

    @Test func theSameKeyTwiceInOneImportIsOneRowAndLaterValuesWin() throws {
        let mapper = try makeMapper()
        let payload = #"""
            [{"id": 1, "login": "a", "name": "First", "repos": [{"id": 5, "name": "x", "tags": [{"name": "Swift"}]}]},
             {"id": 2, "repos": [{"id": 6, "name": "y", "tags": [{"name": "swift"}, {"name": "db"}]}], "follower_ids": [1]},
             {"id": 1, "name": "Second", "score": 2}]
            """#
        let report = try mapper.importJSON(payload, as: "User")
        #expect(report.records == 3)
        #expect(report.counts(for: "User").list == [2, 0, 0, 0])
        #expect(report.counts(for: "Tag").list == [2, 0, 0, 0])
        #expect(try mapper.storedRows("User", "id", "login", "name", "score", orderedBy: "id") == [
            [.integer(1), .text("a"), .text("Second"), .real(2)], [.integer(2), .null, .null, .null],
        ])
    }

    // MARK: Counting

    @Test func stubsAreCountedAsInsertedAndAsStubs() throws {
        let mapper = try makeMapper()
        let report = try mapper.importJSON(#"[{"id": 1, "follower_ids": [2, 3]}, {"id": 3}]"#, as: "User")
        #expect(report.counts(for: "User").list == [3, 0, 0, 0])
        #expect(report.stubs.map { "\($0.entity) \($0.count)" } == ["User 1"])
    }

    @Test func aTeamThatLosesAMemberToAnotherTeamsImportIsTouched() throws {
        let mapper = try makeMapper(relationsYAML)
        try mapper.importJSON(#"[{"id": 1, "members": [{"id": 7}, {"id": 8}]}, {"id": 2, "members": []}]"#, as: "Team")
        let report = try mapper.importJSON(#"{"id": 2, "members": [7]}"#, as: "Team")
        #expect(report.counts(for: "Team").list == [0, 2, 0, 0])
        #expect(report.counts(for: "Member").list == [0, 1, 0, 0])
        #expect(try mapper.links("Team", "members") == [#"{"id":1,"members":[8]}"#, #"{"id":2,"members":[7]}"#])
    }

    @Test func aRowOnlyReferencedWhoseLinksDidNotChangeIsNotTouched() throws {
        let mapper = try makeMapper(relationsYAML)
        try mapper.importJSON(#"{"id": 1, "members": [7, 8]}"#, as: "Team")
        let report = try mapper.importJSON(#"{"id": 1, "members": [7, 8]}"#, as: "Team")
        #expect(report.changes.map(\.entity) == ["Team"])
        #expect(report.counts(for: "Team").list == [0, 0, 1, 0])
        let back = try mapper.importJSON(#"{"id": 7, "team": 1}"#, as: "Member")
        #expect(back.changes.map(\.entity) == ["Member"])
    }

    @Test func theTargetOfAForwardLinkWithoutBackSideIsNotTouchedByItsChanges() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"[{"id": 2}, {"id": 3}, {"id": 1, "follower_ids": [2]}]"#, as: "User")
        let report = try mapper.importJSON(#"{"id": 1, "follower_ids": [3]}"#, as: "User")
        #expect(report.counts(for: "User").list == [0, 1, 0, 0])
    }

    @Test func aStubFilledLaterInTheSameImportIsInsertedButNoStub() throws {
        let mapper = try makeMapper()
        let report = try mapper.importJSON(#"[{"id": 1, "follower_ids": [2]}, {"id": 2, "login": "bo"}]"#, as: "User")
        #expect(report.counts(for: "User").list == [2, 0, 0, 0])
        #expect(report.stubs.isEmpty)
        #expect(try mapper.storedRows("User", ids: [2], "_stub") == [[.integer(0)]])
    }

    @Test func aRowCreatedAndRemovedByTheSameImportIsCountedNowhere() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"{"id": 5, "name": "x", "tags": [{"name": "old"}]}"#, as: "Repo")
        let report = try mapper.importJSON(#"[{"id": 5, "name": "x", "tags": [{"name": "new"}]}, {"id": 5, "name": "x", "tags": []}]"#, as: "Repo")
        #expect(report.counts(for: "Tag").list == [0, 0, 0, 1])
        #expect(report.orphansRemoved.map { "\($0.entity) \($0.count)" } == ["Tag 1"])
        #expect(try mapper.rowCount("Tag") == 0)
    }

    @Test func oneToOneLinkTakenByAnotherRowTouchesTheRowThatLostIt() throws {
        let yaml = """
            entities:
              Person:
                primaryKey: id
                attributes:
                  id: int
                relationships:
                  desk: { to: Desk, kind: one }
              Desk:
                primaryKey: id
                attributes:
                  id: int
                relationships:
                  person: { to: Person, kind: one, inverse: desk }
            """
        let mapper = try makeMapper(yaml)
        try mapper.importJSON(#"[{"id": 1, "desk": 10}, {"id": 2}]"#, as: "Person")
        let report = try mapper.importJSON(#"{"id": 2, "desk": 10}"#, as: "Person")
        #expect(report.counts(for: "Person").list == [0, 2, 0, 0])
        #expect(report.counts(for: "Desk").list == [0, 1, 0, 0])
        #expect(try mapper.links("Person", "desk") == [#"{"id":1,"desk":null}"#, #"{"id":2,"desk":10}"#])
        #expect(try mapper.links("Desk", "person") == [#"{"id":10,"person":2}"#])
        let newcomer = try mapper.importJSON(#"{"id": 3, "desk": {"id": 10}}"#, as: "Person")
        #expect(newcomer.counts(for: "Person").list == [1, 1, 0, 0])
        #expect(try mapper.links("Desk", "person") == [#"{"id":10,"person":3}"#])
    }

    @Test func bookkeepingNeverMakesARowUpdatedButSeenAtAdvances() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"{"id": 1, "login": "a"}"#, as: "User")
        let first = try mapper.storedRows("User", "_created_at", "_updated_at", "_seen_at")[0]
        Thread.sleep(forTimeInterval: 0.01)
        let again = try mapper.importJSON(#"{"id": 1, "login": "a"}"#, as: "User")
        #expect(again.counts(for: "User").list == [0, 0, 1, 0])
        let second = try mapper.storedRows("User", "_created_at", "_updated_at", "_seen_at")[0]
        #expect(second[0] == first[0] && second[1] == first[1])
        #expect(second[2] != first[2])
        Thread.sleep(forTimeInterval: 0.01)
        try mapper.importJSON(#"{"id": 1, "login": "b"}"#, as: "User")
        let third = try mapper.storedRows("User", "_created_at", "_updated_at")[0]
        #expect(third[0] == first[0] && third[1] != first[1])
    }

    @Test func seenAtAdvancesOnExactlyTheRowsAnImportContained() throws {
        let mapper = try makeMapper()
        let users = (1...100).map { #"{"id": \#($0), "login": "u\#($0)"}"# }
        try mapper.importJSON("[\(users.joined(separator: ","))]", as: "User")
        try mapper.rewriteTimestamp("_seen_at", of: "User", .set(0))
        // A run of 40 consecutive rows (set by range), and scattered ones (set by list).
        let seen = Array(11...50) + [3, 60, 62, 64, 99]
        let again = seen.map { #"{"id": \#($0), "login": "u\#($0)"}"# }
        let report = try mapper.importJSON("[\(again.joined(separator: ","))]", as: "User")
        #expect(report.counts(for: "User").list == [0, 0, seen.count, 0])
        let advanced = try mapper.storedRows("User", "id", "_seen_at", orderedBy: "id").filter { ($0[1].number ?? 0) > 0 }.map { [$0[0]] }
        #expect(advanced == seen.sorted().map { [StoredValue.integer(Int64($0))] })
        // Rows seen again, with rows seen for the first time since: all advance alike.
        Thread.sleep(forTimeInterval: 0.01)
        let later = Array(41...70)
        try mapper.importJSON("[\(later.map { #"{"id": \#($0), "login": "u\#($0)"}"# }.joined(separator: ","))]", as: "User")
        var times: [Int: Double] = [:]
        for row in try mapper.storedRows("User", "id", "_seen_at") { times[Int(row[0].number!)] = row[1].number ?? 0 }
        #expect(Set(later.map { times[$0]! }).count == 1)
        #expect(times[41]! > times[11]! && times[11]! > 0 && times[1] == 0)
    }

    /// Rows kept from before their entity had timestamps have no `seenAt`: an import that
    /// contains only some of the rows leaves the others without one.
    @Test func rowsFromBeforeTimestampsStayUnseenUntilAnImportContainsThem() throws {
        let path = NSTemporaryDirectory() + "timestamps-\(UUID().uuidString).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let plain = "entities:\n  User:\n    primaryKey: id\n    timestamps: false\n    attributes: { id: int, login: string }\n"
        func users(_ ids: ClosedRange<Int>) -> String { "[" + ids.map { #"{"id": \#($0), "login": "u\#($0)"}"# }.joined(separator: ",") + "]" }
        try Mapper(spec: MappingSpec.load(yaml: plain, file: "a.yml"), store: TestStore.persistent(path)).importJSON(users(1...10), as: "User")
        let stamped = plain.replacingOccurrences(of: "    timestamps: false\n", with: "")
        let mapper = try Mapper(spec: MappingSpec.load(yaml: stamped, file: "b.yml"), store: TestStore.persistent(path))
        try mapper.importJSON(users(1...9), as: "User")
        let rows = try mapper.storedRows("User", "id", "_seen_at", orderedBy: "id")
        #expect(rows.map { $0[1] == .null } == Array(repeating: false, count: 9) + [true])
    }

    @Test func reimportingTheSamePayloadReportsEverythingUnchanged() throws {
        let mapper = try makeMapper(relationsYAML)
        let teams = #"[{"id": 1, "name": "Red", "members": [{"id": 7, "name": "Kim"}, 8]}, {"id": 2, "members": [9]}]"#
        let articles = #"[{"id": 1, "labels": ["b", "a"], "extra_labels": ["z"]}, {"id": 2, "labels": [{"name": "a"}]}]"#
        let orders = #"[{"id": 1, "lines": [{"sku": "a", "qty": 1}, {"sku": "b"}], "shipping": {"city": "Oslo"}}]"#
        for (payload, entity) in [(teams, "Team"), (articles, "Article"), (orders, "Order")] {
            try mapper.importJSON(payload, as: entity)
            let again = try mapper.importJSON(payload, as: entity)
            #expect(again.changes.allSatisfy { $0.counts.inserted == 0 && $0.counts.updated == 0 && $0.counts.deleted == 0 },
                    "\(entity): \(again.json())")
            #expect(again.stubs.isEmpty && again.orphansRemoved.isEmpty)
        }
    }

    // MARK: 2.3 A whole import

    @Test func dryRunCountsEverythingAndKeepsNothing() throws {
        let mapper = try makeMapper()
        try mapper.importJSON(#"{"id": 1, "login": "a"}"#, as: "User")
        let before = try mapper.storedContent()
        let report = try mapper.importJSON(#"[{"id": 1, "login": "b"}, {"id": 2, "follower_ids": [3], "repos": [{"id": 5, "name": "x"}]}]"#,
                                           as: "User", options: .init(dryRun: true))
        #expect(report.dryRun)
        #expect(report.counts(for: "User").list == [2, 1, 0, 0])
        #expect(report.counts(for: "Repo").list == [1, 0, 0, 0])
        #expect(report.stubs.map { "\($0.entity) \($0.count)" } == ["User 1"])
        #expect(try mapper.storedContent() == before)
    }

    @Test func abortLeavesTheStoreExactlyAsItWas() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("import-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let storePath = directory.appendingPathComponent("store.sqlite").path
        let spec = try MappingSpec.load(yaml: githubYAML, file: "test.yml")
        let mapper = try Mapper(spec: spec, store: .file(storePath))
        try mapper.importJSON(#"{"id": 1, "login": "a", "address": {"city": "Oslo"}, "repos": [{"id": 5, "name": "x", "tags": [{"name": "t"}]}]}"#, as: "User")
        let before = try mapper.storedContent()
        let payload = #"""
            [{"id": 1, "login": "changed", "address": {"city": "Rome"}, "repos": [{"id": 6, "name": "y", "tags": [{"name": "u"}]}]},
             {"id": 2, "follower_ids": [1, 4]},
             {"id": 3, "repos": [{"id": 7, "name": "z", "stars": -2}]}]
            """#
        #expect {
            try mapper.importJSON(payload, as: "User")
        } throws: { error in
            guard let error = error as? ImportError else { return false }
            return error.code == .invalidRecord && error.report.changes.isEmpty && error.report.stubs.isEmpty
                && error.report.errors.map(\.path) == ["$[2].repos[0].stars"]
        }
        #expect(try mapper.storedContent() == before)
        let reopened = try Mapper(spec: spec, store: .file(storePath))
        #expect(try reopened.storedContent() == before)
    }

    @Test func skipKeepsEveryOtherRecordAndListsEverySkippedOne() throws {
        let mapper = try makeMapper()
        let payload = #"""
            [{"id": 1, "repos": [{"id": 5, "name": "ok", "tags": [{"name": "kept"}]}]},
             {"id": 2, "address": {"city": "Oslo"}, "repos": [{"id": 6, "name": "bad", "stars": -1, "tags": [{"name": "lost"}]}], "follower_ids": [9]},
             {"id": "three"},
             {"id": 4, "name": "ok"}]
            """#
        let report = try mapper.importJSON(payload, as: "User", options: .init(onError: .skip))
        #expect(report.records == 4)
        #expect(report.skipped == 2)
        #expect(report.errors == [
            ImportIssue(file: "<data>", record: 1, path: "$[1].repos[0].stars", message: "value -1 is below the minimum 0"),
            ImportIssue(file: "<data>", record: 2, path: "$[2].id", message: #"expected int, found string "three""#),
        ])
        #expect(report.counts(for: "User").list == [2, 0, 0, 0])
        #expect(report.stubs.isEmpty)
        #expect(report.changes.map(\.entity) == ["User", "Repo", "Tag"])
        #expect(try mapper.storedRows("User", "id", orderedBy: "id") == [[.integer(1)], [.integer(4)]])
        #expect(try mapper.storedRows("Tag", "name") == [[.text("kept")]])
        #expect(try mapper.rowCount("Address") == 0)
    }
}

/// The record error a failed import raised, as `file record N at PATH: MESSAGE`; `nil` when
/// the import succeeded.
private func issue(_ body: @autoclosure () throws -> ImportReport) -> String? {
    do {
        _ = try body()
        return nil
    } catch let error as ImportError {
        guard let first = error.report.errors.first else { return "\(error.code): \(error.message)" }
        return "\(first.file ?? "nil") record \(first.record.map(String.init) ?? "nil") at \(first.path): \(first.message)"
    } catch {
        return "\(error)"
    }
}

extension Mapper {
    /// Every record of `entity` with its key and `fields`, as minified JSON, in key order.
    fileprivate func links(_ entity: String, _ fields: String...) throws -> [String] {
        let key = spec.entities.first { $0.name == entity }?.primaryKey ?? []
        return try query(entity).includingStubs().records(fields: key + fields).map { RecordValue.object($0).jsonText }
    }
}
