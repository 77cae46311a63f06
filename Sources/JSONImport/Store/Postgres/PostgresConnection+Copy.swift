internal import CLibPQ

/// Bulk loading: rows go into a table (a session's temporary staging table) with one binary
/// `COPY`, streamed as they are encoded, however many there are.
extension PostgresConnection {
    /// Copies the rows `writeRows` appends into `columns` of `table` (unqualified, found on the
    /// search path, so a temporary table comes first) and returns how many went in.
    ///
    /// ```swift
    /// try connection.copy(into: "staged_user", columns: [.init("id", .int8), .init("login", .text)]) { rows in
    ///     for user in users { try rows.appendRow([.integer(user.id), .text(user.login)]) }
    /// }
    /// ```
    ///
    /// A `COPY` stands alone: it cannot run in a pipeline. When `writeRows` throws, or the
    /// server refuses a row, no row goes in; inside a transaction, the transaction is then
    /// failed (see ``pipeline(_:)``). Rows for a table that has no index yet are held back and
    /// sent with the rows of later copies into it (see ``PostgresHeldCopies``): then a throw of
    /// `writeRows` leaves the transaction as it was.
    ///
    /// - Throws: the error `writeRows` throws; ``StoreError`` `other` for a value that cannot
    ///   go in its column's type, or the server's error (a constraint of the table, a type that
    ///   is not the column's).
    @discardableResult
    func copy(
        into table: String, columns: [PostgresCopyColumn], _ writeRows: (inout PostgresCopyWriter) throws -> Void
    ) throws -> Int {
        if try willCopy(into: table) { return try hold(into: table, columns: columns, writeRows) }
        try sendHeldCopies()
        return try runCopy(into: table, columns: columns) { failedToSend in
            var writer = PostgresCopyWriter(connection: self, table: table, columns: columns)
            defer { failedToSend = writer.hasFailedToSend }
            try writeRows(&writer)
            try writer.finish()
        }
    }

    /// Runs a `COPY` into `columns` of `table`, whose data `sendRows` sends, and returns the
    /// rows the server took. When `sendRows` throws, the copy is abandoned, and the error
    /// thrown is the server's when `sendRows` says it failed to send (the server says why it
    /// stopped taking data), otherwise the one `sendRows` threw.
    func runCopy(
        into table: String, columns: [PostgresCopyColumn], _ sendRows: (_ failedToSend: inout Bool) throws -> Void
    ) throws -> Int {
        let sql = "COPY \(quote(table)) (\(columns.map { quote($0.name) }.joined(separator: ", "))) FROM STDIN (FORMAT binary)"
        let operation = "copying into \(table)"
        statementLog?.append(sql)
        guard let raw = PQexec(handle, sql) else { throw error(nil, sql: sql).during(operation) }
        let start = PostgresResult(raw)
        guard start.status == PGRES_COPY_IN else {
            _ = try check(start, sql: sql)
            preconditionFailure("\(sql) did not start a copy")
        }
        var failedToSend = false
        do {
            try sendRows(&failedToSend)
        } catch {
            let serverError = endCopy(abortingWith: "the rows could not be written", sql: sql)
            if failedToSend, case .failure(let serverError) = serverError { throw serverError.during(operation) }
            if let error = error as? StoreError { throw error.during(operation) }
            throw error
        }
        switch endCopy(abortingWith: nil, sql: sql) {
        case .success(let count): return count
        case .failure(let error): throw error.during(operation)
        }
    }

    /// Ends the copy in progress, or abandons it with `reason`, and reads the server's answer:
    /// the rows it took, or its error.
    private func endCopy(abortingWith reason: String?, sql: String) -> Result<Int, StoreError> {
        // A failure to end it shows in the answer, or as the connection's error.
        _ = PQputCopyEnd(handle, reason)
        var outcome: Result<Int, StoreError>?
        while let raw = PQgetResult(handle) {
            let result = PostgresResult(raw)
            // Still copying: the end did not reach the server, and asking again would not help.
            if result.status == PGRES_COPY_IN { break }
            if outcome == nil { outcome = result.isSuccess ? .success(result.rowsAffected) : .failure(error(result, sql: sql)) }
        }
        return outcome ?? .failure(error(nil, sql: sql))
    }

    /// Sends the first `count` of `bytes` as data of the `COPY` in progress, a slice of at most
    /// 1 MB at a time (libpq holds what it is given until it is sent).
    func putCopyData(_ bytes: [UInt8], count: Int) throws(StoreError) {
        let slice = 1 << 20
        let sent = bytes.withUnsafeBytes { buffer in
            stride(from: 0, to: count, by: slice).allSatisfy { start in
                let base = buffer.baseAddress!.advanced(by: start).assumingMemoryBound(to: CChar.self)
                return PQputCopyData(handle, base, Int32(min(slice, count - start))) == 1
            }
        }
        guard sent else { throw error(nil, sql: nil) }
    }
}
