/// The version of the layout of a store's tables, recorded in its metadata table when the store
/// is created. A build reads stores of its own format version; a store of a newer one, or one
/// whose version cannot be read, is refused before anything is written to it.
enum StoreFormat {
    /// The format version this build writes and reads.
    static let current = 1

    /// Checks, with reads that change nothing in the file, that `connection` holds nothing yet (a
    /// new store) or a store this build reads.
    ///
    /// - Throws: ``StoreError`` `notAStore` for another application's database,
    ///   `unsupportedFormat` for a store of a newer or unreadable format version, or the error
    ///   reading the file.
    static func check(_ connection: SQLiteConnection) throws(StoreError) {
        let table = StorageSchema.metadataTable
        let objects = try connection.rows("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
        if objects.isEmpty { return }
        guard objects.contains([.text(table)]) else {
            throw StoreError(.notAStore, "'\(connection.name)' is a database but not a JSONImport store")
        }
        let rows = try connection.rows("SELECT \"value\" FROM \(quote(table)) WHERE \"key\" = 'format'")
        try check(recorded: rows.first?.first, store: connection.name)
    }

    /// Checks the format version a store records (`nil` when it records none).
    ///
    /// - Throws: ``StoreError`` `unsupportedFormat` for a missing, unreadable or newer version.
    static func check(recorded: StoredValue?, store name: String) throws(StoreError) {
        let store = "store '\(name)'"
        guard let recorded else {
            throw StoreError(.unsupportedFormat, "\(store): no format version recorded; this build's format version is \(current)")
        }
        let version: Int? =
            switch recorded {
            case .text(let text): Int(text)
            case .integer(let number): Int(exactly: number)
            case .null, .real: nil
            }
        guard let version, version > 0 else {
            throw StoreError(
                .unsupportedFormat,
                "\(store): format version \(recorded.shown) cannot be read; this build's format version is \(current)")
        }
        guard version <= current else {
            throw StoreError(
                .unsupportedFormat, "\(store): format version \(version) is newer than this build's format version \(current)")
        }
    }
}
