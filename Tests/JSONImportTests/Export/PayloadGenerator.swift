import Foundation

@testable import JSONImport

/// A mapping with every attribute type and date format, key paths, owned `one` and `many`
/// targets, foreign-key and link-table relationships with and without back sides, `by: id`,
/// `by: object` and `auto` references, `append`, one ↔ one, a composite key and a `uuid` key.
let generatedMappingYAML = """
    version: 1
    defaults:
      keyStyle: snake_case
    entities:
      User:
        primaryKey: id
        attributes:
          id: int
          login: { type: string, required: true }
          name: string
          email: { key: contact.email, type: string }
          createdAt: date
          lastSeen: { type: date, format: epochMillis }
          birthday: { type: date, format: "yyyy-MM-dd" }
          joinedAt: { type: date, format: epoch }
          isAdmin: { key: site_admin, type: bool, default: false }
          score: double
          balance: decimal
          homepage: url
          token: uuid
          topics: "[string]"
          luckyNumbers: "[int]"
          logins: "[date]"
          prices: "[decimal]"
          meta: json
          secret: { type: string, export: false }
          level: { key: [stats, level.current], type: int, default: 1 }
        relationships:
          address: { to: Address, kind: one, onDelete: cascade }
          previousAddresses: { to: Address, kind: many }
          repos: { to: Repo, kind: many, onDelete: cascade }
          followers: { to: User, kind: many, key: follower_ids, by: id }
          bestFriend: { to: User, kind: one }
          badges: { to: Badge, kind: many, policy: append }
          profile: { to: Profile, kind: one }
      Address:
        attributes:
          street: string
          city: { type: string, required: true }
          zip: { key: postal.code, type: string }
      Repo:
        primaryKey: id
        cleanup: orphans
        attributes:
          id: int
          name: { type: string, required: true }
          stars: { key: stargazers_count, type: int, default: 0 }
          language: string
          pushedAt: date
        relationships:
          owner: { to: User, kind: one, inverse: repos }
          tags: { to: Tag, kind: many }
          contributors: { to: User, kind: many, by: object }
      Tag:
        primaryKey: name
        cleanup: orphans
        attributes:
          name: { type: string, transform: lowercase }
          color: string
        relationships:
          repos: { to: Repo, kind: many, inverse: tags }
      Badge:
        primaryKey: [kind, rank]
        attributes:
          kind: string
          rank: int
          title: string
      Profile:
        primaryKey: id
        cleanup: orphans
        attributes:
          id: uuid
          motto: string
        relationships:
          user: { to: User, kind: one, inverse: profile }
    """

/// SplitMix64: a small, fast, seeded generator, so every failing case can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random payloads for ``generatedMappingYAML``: users with addresses, repos, tags, followers,
/// badges and profiles; keys and values left out, `null`, or in any of the forms import accepts.
struct PayloadGenerator {
    var random: SeededGenerator

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    /// A JSON array of `count` user records.
    mutating func users(_ count: Int) -> String {
        RecordValue.array((0..<count).map { _ in user(depth: 0) }).jsonText
    }

    /// A JSON array of repo records naming their owner.
    mutating func repos(_ count: Int) -> String {
        RecordValue.array((0..<count).map { _ in
            var object = repo(depth: 1)
            object["owner"] = .int(Int64(Int.random(in: 1...30, using: &random)))
            return .object(object)
        }).jsonText
    }

    /// A JSON array of tag records listing their repos (the back side of `Repo.tags`).
    mutating func tags(_ count: Int) -> String {
        RecordValue.array((0..<count).map { _ in
            var object = RecordObject([("name", .string(tagName()))])
            maybe(&object, "color") { .string($0.pick(["f05138", "00ff00", "ABCDEF"])) }
            maybe(&object, "repos") { generator in
                .array((0..<Int.random(in: 0...3, using: &generator.random)).map { _ in
                    .int(Int64(Int.random(in: 100...140, using: &generator.random)))
                })
            }
            return .object(object)
        }).jsonText
    }

    // MARK: Records

    private mutating func user(depth: Int) -> RecordValue {
        var object = RecordObject()
        object["id"] = .int(Int64(Int.random(in: 1...30, using: &random)))
        object["login"] = .string(pick(["ana", "bo", "chloé", "dmitri", "O'Brien", "zoë-ångström"]) + "\(next(100))")
        maybe(&object, "name") { .string($0.text()) }
        maybe(&object, "contact") { generator in
            generator.chance(0.2) ? .null : .object(RecordObject([("email", generator.nullable { .string($0.text()) })]))
        }
        maybe(&object, "created_at") { $0.nullable { .string($0.isoDate()) } }
        maybe(&object, "last_seen") { generator in
            let millis = Int64(generator.next(2_000_000_000_000))
            return generator.chance(0.5) ? .int(millis) : .string(String(millis))
        }
        maybe(&object, "birthday") { .string(DateCoding.format(Double($0.next(20_000)) * 86_400, format: .pattern("yyyy-MM-dd"))) }
        maybe(&object, "joined_at") { .number($0.pick(["1612137600", "1612137600.5", "0", "-86400"])) }
        maybe(&object, "site_admin") { $0.pick([.bool(true), .bool(false), .int(1), .string("false")]) }
        maybe(&object, "score") { $0.pick([.number("0"), .number("-1.5"), .number("3.14159"), .number("1e-7"), .string("71.25"), .null]) }
        maybe(&object, "balance") { $0.pick([.number("12.50"), .number("0.00"), .string("-3"), .number("1e3"), .null]) }
        maybe(&object, "homepage") { .string("https://example.com/u/\($0.next(1000))?q=a%20b") }
        maybe(&object, "token") { generator in .string(generator.uuid()) }
        maybe(&object, "topics") { generator in .array((0..<generator.next(4)).map { _ in .string(generator.text()) }) }
        maybe(&object, "lucky_numbers") { generator in .array((0..<generator.next(4)).map { _ in .int(Int64(generator.next(1000)) - 500) }) }
        maybe(&object, "logins") { generator in .array((0..<generator.next(3)).map { _ in .string(generator.isoDate()) }) }
        maybe(&object, "prices") { generator in .array((0..<generator.next(3)).map { _ in generator.pick([.number("4.90"), .string("0.10"), .number("7")]) }) }
        maybe(&object, "meta") { $0.json(depth: 0) }
        maybe(&object, "secret") { .string($0.text()) }
        maybe(&object, "stats") { .object(RecordObject([("level.current", .int(Int64($0.next(10))))])) }
        maybe(&object, "address") { $0.chance(0.2) ? .null : $0.address() }
        maybe(&object, "previous_addresses") { generator in
            generator.chance(0.1) ? .null : .array((0..<generator.next(3)).map { _ in generator.address() })
        }
        if depth < 1 {
            maybe(&object, "repos") { generator in .array((0..<generator.next(3)).map { _ in .object(generator.repo(depth: depth + 1)) }) }
        }
        maybe(&object, "follower_ids") { generator in
            generator.chance(0.1) ? .null : .array((0..<generator.next(4)).map { _ in .int(Int64(generator.next(40) + 1)) })
        }
        maybe(&object, "best_friend") { generator in
            if depth < 1 && generator.chance(0.3) { return generator.user(depth: depth + 1) }
            return generator.chance(0.2) ? .null : .int(Int64(generator.next(40) + 1))
        }
        maybe(&object, "badges") { generator in .array((0..<generator.next(3)).map { _ in generator.badge() }) }
        maybe(&object, "profile") { generator in
            if generator.chance(0.2) { return .null }
            let id = generator.pick(Self.profileIDs)
            guard generator.chance(0.6) else { return .string(id) }
            return .object(RecordObject([("id", .string(id)), ("motto", generator.nullable { .string($0.text()) })]))
        }
        return .object(object)
    }

    private mutating func repo(depth: Int) -> RecordObject {
        var object = RecordObject([("id", .int(Int64(100 + next(40)))), ("name", .string(text()))])
        maybe(&object, "stargazers_count") { .int(Int64($0.next(5000))) }
        maybe(&object, "language") { $0.nullable { .string($0.pick(["Swift", "C", "Rust"])) } }
        maybe(&object, "pushed_at") { .string($0.isoDate()) }
        maybe(&object, "tags") { generator in
            .array((0..<generator.next(4)).map { _ in
                generator.chance(0.5)
                    ? .string(generator.tagName())
                    : .object(RecordObject([("name", .string(generator.tagName())), ("color", generator.nullable { _ in .string("c0ffee") })]))
            })
        }
        maybe(&object, "contributors") { generator in
            .array((0..<generator.next(3)).map { _ in
                .object(RecordObject([("id", .int(Int64(generator.next(30) + 1))), ("login", .string("c\(generator.next(1000))"))]))
            })
        }
        return object
    }

    private mutating func address() -> RecordValue {
        var object = RecordObject([("city", .string(pick(["Oslo", "Malmö", "東京", "San Francisco"])))])
        maybe(&object, "street") { .string($0.text()) }
        maybe(&object, "postal") { .object(RecordObject([("code", $0.nullable { .string("\($0.next(99999))") })])) }
        return .object(object)
    }

    private mutating func badge() -> RecordValue {
        let kind = RecordValue.string(pick(["gold", "silver", "bronze"]))
        let rank = RecordValue.int(Int64(next(3)))
        if chance(0.4) { return .array([kind, rank]) }
        return .object(RecordObject([("kind", kind), ("rank", rank), ("title", nullable { .string($0.text()) })]))
    }

    // MARK: Values

    static let profileIDs = (1...8).map { String(format: "3F2504E0-4F89-41D3-9A0C-0305E82C33%02d", $0) }

    private mutating func text() -> String {
        pick(["plain", "", "  padded  ", "O'Brien \"quoted\"", "back\\slash", "line\nbreak\ttab", "ünïcødé ☕ 日本語", "مرحبا"])
    }

    private mutating func tagName() -> String { pick(["swift", "Swift", "db", "DB", "cli", "web", "rust", "Go"]) }

    private mutating func isoDate() -> String {
        let seconds = Double(next(2_000_000_000)) + (chance(0.5) ? Double(next(1000)) / 1000 : 0)
        guard chance(0.5) else { return DateCoding.format(seconds, format: .iso8601) }
        let offset = pick([3600, -7200, 19800])
        let local = DateCoding.format(seconds + Double(offset), format: .iso8601).dropLast()
        let sign = offset < 0 ? "-" : "+"
        return local + sign + DateCoding.pad(abs(offset) / 3600, 2) + ":" + DateCoding.pad(abs(offset) / 60 % 60, 2)
    }

    private mutating func uuid() -> String {
        let hex = (0..<32).map { _ in String(next(16), radix: 16) }.joined()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.suffix(12)]
        let text = parts.joined(separator: "-")
        return chance(0.5) ? text.uppercased() : text
    }

    private mutating func json(depth: Int) -> RecordValue {
        switch next(depth < 2 ? 7 : 5) {
        case 0: return .null
        case 1: return .bool(chance(0.5))
        case 2: return .number(pick(["1.50", "-0.0", "12345678901234567890", "2e10"]))
        case 3: return .string(text())
        case 4: return .int(Int64(next(100)))
        case 5: return .array((0..<next(3)).map { _ in json(depth: depth + 1) })
        default: return .object(RecordObject((0..<next(3)).map { ("k\($0)", json(depth: depth + 1)) }))
        }
    }

    // MARK: Randomness

    private mutating func next(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &random) }

    private mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }

    private mutating func pick<T>(_ values: [T]) -> T { values[next(values.count)] }

    private mutating func nullable(_ make: (inout PayloadGenerator) -> RecordValue) -> RecordValue {
        chance(0.2) ? .null : make(&self)
    }

    /// Sets `key` to a made value three times in four; leaves it out otherwise.
    private mutating func maybe(_ object: inout RecordObject, _ key: String, _ make: (inout PayloadGenerator) -> RecordValue) {
        guard chance(0.75) else { return }
        object[key] = make(&self)
    }
}
