import Testing

@testable import JSONImport

/// Names a draft gives: properties and entities after JSON keys.
@Suite struct DraftNamesTests {
    @Test(arguments: [
        ("created_at", "createdAt"), ("avatarURL", "avatarURL"), ("html-url", "htmlUrl"), ("_id", "id"),
        ("first name", "firstName"), ("naïve", "naive"), ("+1", "plus1"), ("-1", "minus1"), ("2fa", "field2fa"),
        ("日本", "field"), ("reads.total", "readsTotal"), ("ID", "id"),
    ])
    func propertyNamesAreLowerCamelCaseIdentifiers(key: String, name: String) {
        #expect(DraftNames.propertyName(for: key) == name)
        #expect(DraftNames.isValidName(name))
    }

    @Test(arguments: [
        ("repos", "Repo"), ("labels", "Label"), ("categories", "Category"), ("addresses", "Address"),
        ("branches", "Branch"), ("people", "Person"), ("status", "Status"), ("data", "Data"),
        ("pull_requests", "PullRequest"), ("statuses", "Status"), ("series", "Series"),
    ])
    func listElementsAreNamedInTheSingular(key: String, name: String) {
        #expect(DraftNames.entityName(for: key, isList: true) == name)
    }

    @Test func valuesKeepTheirKeysNumber() {
        #expect(DraftNames.entityName(for: "settings", isList: false) == "Settings")
        #expect(DraftNames.entityName(for: "2024", isList: false) == "Item2024")
    }

    @Test func timeNamesEndInAWordForAPointInTime() {
        #expect(DraftNames.isTimeName("created_at") && DraftNames.isTimeName("publishedOn") && DraftNames.isTimeName("timestamp"))
        #expect(!DraftNames.isTimeName("category") && !DraftNames.isTimeName("attempts"))
    }
}
