/// What an import, delete or clean did, per SPEC 4.2.
public struct ImportReport: Sendable, Hashable {
    /// The root entity imported or deleted from; `nil` for `clean`.
    public var entity: String?
    /// Root records read.
    public var records: Int = 0
    /// Root records left out under `onError: skip`.
    public var skipped: Int = 0
    /// `true` when the import ran as a dry run: everything was counted, then rolled back.
    public var dryRun: Bool = false
    /// For a fetch: every HTTP request sent, retries included; `nil` for other operations.
    public var requests: Int?
    /// For a fetch: the `304 Not Modified` responses among ``requests``; `nil` for other operations.
    public var notModified: Int?
    /// Per entity, in declaration order: every entity with touched or deleted rows.
    public var changes: [(entity: String, counts: Counts)] = []
    /// Rows the clean-up pass removed, per entity (non-zero only).
    public var orphansRemoved: [(entity: String, count: Int)] = []
    /// Rows this import created that are still stubs, per entity (non-zero only).
    public var stubs: [(entity: String, count: Int)] = []
    /// References dropped under `missing: skip`, per `Entity.relationship` (non-zero only).
    public var skippedLinks: [(relationship: String, count: Int)] = []
    /// Records that changed nothing because the stored row has a greater `version`, per entity
    /// (non-zero only, SPEC 2.2 step 0).
    public var staleRecords: [(entity: String, count: Int)] = []
    /// Record errors: the one that stopped an aborted import, or every skipped record's.
    public var errors: [ImportIssue] = []
    /// Every deleted row and why (filled with `explain`).
    public var deletions: [Deletion]?
    /// The operation that produced the report (it shapes the text summary only).
    public var operation: Operation = .import
    /// The row of each root record imported, in payload order: what `map` reads back (filled
    /// only for it).
    var rootRows: [Int64] = []

    /// Creates an empty report.
    ///
    /// - Parameter entity: the root entity; `nil` for `clean`.
    public init(entity: String?) { self.entity = entity }

    /// The operations that report what they did.
    public enum Operation: String, Sendable, Hashable {
        case `import`, delete, clean
    }

    /// Row counts for one entity (SPEC 2.2 "Counting").
    public struct Counts: Sendable, Hashable {
        /// Rows that did not exist before the operation (stubs it created included).
        public var inserted = 0
        /// Rows whose attributes or links differ from before the operation.
        public var updated = 0
        /// Touched rows that did not change; bookkeeping columns never count as a change.
        public var unchanged = 0
        /// Rows that existed before and were deleted (prune, delete, cascade, eviction, clean-up).
        public var deleted = 0

        /// Creates counts; every count is 0 by default.
        ///
        /// - Parameters:
        ///   - inserted: rows that did not exist before.
        ///   - updated: rows whose attributes or links changed.
        ///   - unchanged: touched rows that did not change.
        ///   - deleted: rows that existed before and were deleted.
        public init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0, deleted: Int = 0) {
            self.inserted = inserted
            self.updated = updated
            self.unchanged = unchanged
            self.deleted = deleted
        }
    }

    /// The counts for `entity` (zeros when it has none).
    public func counts(for entity: String) -> Counts {
        changes.first { $0.entity == entity }?.counts ?? Counts()
    }

    /// Whether two reports have the same JSON form, deletions included.
    ///
    /// - Parameters:
    ///   - a: a report.
    ///   - b: another report.
    /// - Returns: `true` when their JSON forms (with `explain`) are equal.
    public static func == (a: ImportReport, b: ImportReport) -> Bool {
        a.json(explain: true) == b.json(explain: true)
    }

    /// Hashes the JSON form, deletions included, consistently with `==`.
    ///
    /// - Parameter hasher: the hasher to feed.
    public func hash(into hasher: inout Hasher) { hasher.combine(json(explain: true)) }
}

/// What failed in an import, delete or clean-up, and where: a record that could not be imported,
/// or what stopped the whole operation (invalid JSON, an unreadable file, a store error).
public struct ImportIssue: Error, Sendable, Hashable, CustomStringConvertible {
    /// The payload's file name as given (`-` for standard input, `<data>` for in-memory input);
    /// `nil` when no payload file is involved (a store error, a deletion).
    public let file: String?
    /// 0-based index of the root record in its file (among non-empty lines for JSON Lines);
    /// `nil` when the problem lies outside any record (an unreadable file, a syntax error
    /// before the first record or after the last).
    public let record: Int?
    /// JSONPath from the payload document's root: `$[17].repos[2].stars`; `$` for a problem
    /// with the whole payload.
    public let path: String
    /// What is wrong with the value at ``path``.
    public let message: String
    /// 1-based line: for JSON Lines, and for syntax errors.
    public let line: Int?
    /// 1-based column, in characters, of a syntax error.
    public let column: Int?
    /// 0-based byte offset of a syntax error in the file.
    public let offset: Int?

    /// Creates an issue.
    ///
    /// - Parameters:
    ///   - file: the payload's name as given (`-` for standard input, `<data>` in memory), or
    ///     `nil` when no payload is involved.
    ///   - record: 0-based index of the root record in its file, or `nil` outside any record.
    ///   - path: JSONPath of the bad value, such as `$[17].repos[2].stars`.
    ///   - message: what is wrong.
    ///   - line: 1-based line for JSON Lines and syntax errors; `nil` otherwise.
    ///   - column: 1-based column of a syntax error.
    ///   - offset: 0-based byte offset of a syntax error.
    public init(
        file: String?, record: Int?, path: String, message: String, line: Int? = nil, column: Int? = nil,
        offset: Int? = nil
    ) {
        self.file = file
        self.record = record
        self.path = path
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `file[:line]: record N at PATH: message`, or `file: message` outside any record.
    public var description: String {
        let place = [file, line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":")
        let head = place.isEmpty ? "" : "\(place): "
        guard let record else { return head + message }
        return "\(head)record \(record) at \(path): \(message)"
    }
}

/// A deleted row and why (SPEC 4.2 `deletions`).
public struct Deletion: Sendable, Hashable {
    /// Why a row was deleted: `prune` (sync mode), `delete` (asked for), `cascade` (an
    /// `onDelete: cascade` rule), `evict` (not seen since the `clean --older-than` cutoff) or
    /// `orphan` (the clean-up pass).
    public enum Reason: String, Sendable, Hashable {
        case prune, delete, cascade, evict, orphan, tombstone
    }

    /// The entity of the deleted row.
    public let entity: String
    /// The primary key: one value, an array for composite keys, `.null` for owned rows.
    public let key: [StoredValue]
    /// Why the row was deleted.
    public let reason: Reason
}
