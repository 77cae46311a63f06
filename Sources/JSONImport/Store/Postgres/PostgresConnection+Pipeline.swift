internal import CLibPQ

/// One statement of a pipeline and the values bound to its parameters.
struct PostgresStatement {
    var sql: String
    var parameters: [StoredValue]
    /// Planned each time it runs rather than prepared once, for a statement without
    /// parameters: one whose best plan changes as its tables grow within a transaction (the
    /// server keeps the plan of a prepared statement without parameters for as long as its
    /// tables' definitions stand, made for the sizes they had at its first run), or one on a
    /// table an earlier statement of the pipeline creates.
    var isPlannedEachRun = false

    init(_ sql: String, _ parameters: [StoredValue] = [], isPlannedEachRun: Bool = false) {
        precondition(!isPlannedEachRun || parameters.isEmpty, "a statement planned at each run takes no parameters")
        self.sql = sql
        self.parameters = parameters
        self.isPlannedEachRun = isPlannedEachRun
    }
}

/// What a statement of a pipeline did: the rows it inserted, updated, deleted or returned, and
/// the rows it returned (`RETURNING`, a `SELECT`).
struct PostgresStatementResult: Equatable {
    var rowsAffected: Int
    var rows: [[StoredValue]]
}

/// The failure of a pipeline: the first statement that failed, by its index in the list, and
/// its error. The statements after it did not run.
struct PostgresPipelineError: Error, Equatable {
    var statementIndex: Int
    var error: StoreError
}

/// Pipelines: a list of statements sent at once and answered at once, one round trip for all of
/// them (libpq's pipeline mode with one `Sync`), for a merge whose statements do not need each
/// other's results on the client.
extension PostgresConnection {
    /// Runs `statements` in order in one round trip and returns what each did.
    ///
    /// Outside a transaction the statements run as one implicit transaction: all of them are
    /// kept, or, when one fails, none. Inside one (``beginWrite(lockTimeout:)``), a failure
    /// leaves the transaction failed: roll it back, or back to a savepoint taken before the
    /// pipeline, before anything else runs in it.
    ///
    /// Statements new to the connection are prepared first, one round trip each, once (but
    /// those planned at each run). `COPY` and statements separated by semicolons cannot run in
    /// a pipeline.
    ///
    /// - Throws: ``PostgresPipelineError`` with the index of the first statement that failed.
    func pipeline(_ statements: [PostgresStatement]) throws(PostgresPipelineError) -> [PostgresStatementResult] {
        var decoded: [PostgresStatementResult] = []
        try pipeline(statements) { (index, result) throws(StoreError) in
            decoded.append(PostgresStatementResult(rowsAffected: result.rowsAffected, rows: try result.rows(sql: statements[index].sql)))
        }
        return decoded
    }

    /// Runs `statements` as ``pipeline(_:)`` does and hands each result, by the index of its
    /// statement, to `body` as it arrives: `body` works on one result while the server runs
    /// the statements after it. When `body` throws, the results after are read and dropped,
    /// and the error is thrown as the failure of that statement.
    func pipeline(
        _ statements: [PostgresStatement], each body: (Int, PostgresResult) throws(StoreError) -> Void
    ) throws(PostgresPipelineError) {
        let prepared = try prepare(statements)
        guard PQenterPipelineMode(handle) == 1 else {
            throw PostgresPipelineError(statementIndex: 0, error: error(nil, sql: statements.first?.sql))
        }
        defer { PQexitPipelineMode(handle) }
        for (index, (statement, preparedStatement)) in zip(statements, prepared).enumerated() {
            let sent: Int32
            if let preparedStatement {
                let values = PostgresParameters(statement.parameters, types: preparedStatement.parameterTypes)
                sent = values.withArrays {
                    PQsendQueryPrepared(handle, preparedStatement.name, Int32(values.count), $0, $1, $2, 1)
                }
            } else {
                sent = PQsendQueryParams(handle, statement.sql, 0, nil, nil, nil, nil, 1)
            }
            guard sent == 1 else { throw PostgresPipelineError(statementIndex: index, error: error(nil, sql: statement.sql)) }
        }
        guard PQpipelineSync(handle) == 1 else {
            throw PostgresPipelineError(statementIndex: 0, error: error(nil, sql: statements.first?.sql))
        }
        try results(of: statements, body)
    }

    /// The prepared statements of `statements`, prepared first when new to the connection
    /// (`nil` for those planned at each run).
    private func prepare(_ statements: [PostgresStatement]) throws(PostgresPipelineError) -> [PreparedStatement?] {
        if let first = statements.first {
            do { try willRun(first.sql) } catch { throw PostgresPipelineError(statementIndex: 0, error: error) }
        }
        var prepared: [PreparedStatement?] = []
        for (index, statement) in statements.enumerated() {
            do {
                if statement.isPlannedEachRun { statementLog?.append(statement.sql) }
                prepared.append(statement.isPlannedEachRun ? nil : try self.prepared(statement.sql))
            } catch {
                throw PostgresPipelineError(statementIndex: index, error: error)
            }
        }
        return prepared
    }

    /// Reads the answer to every statement of a pipeline, up to its `Sync`, and hands each
    /// checked result to `body`.
    private func results(
        of statements: [PostgresStatement], _ body: (Int, PostgresResult) throws(StoreError) -> Void
    ) throws(PostgresPipelineError) {
        var answered = 0
        var failure: PostgresPipelineError?
        for (index, statement) in statements.enumerated() {
            // Each statement's results end with a null one.
            while let raw = PQgetResult(handle) {
                let result = PostgresResult(raw)
                guard failure == nil, result.status != PGRES_PIPELINE_ABORTED else { continue }
                do throws(StoreError) {
                    try body(index, try check(result, sql: statement.sql))
                    answered += 1
                } catch {
                    failure = PostgresPipelineError(statementIndex: index, error: error)
                }
            }
            if failure == nil, answered <= index {
                failure = PostgresPipelineError(statementIndex: index, error: error(nil, sql: statement.sql))
            }
            if !isConnected { break }
        }
        while isConnected, let raw = PQgetResult(handle) {
            if PostgresResult(raw).status == PGRES_PIPELINE_SYNC { break }
        }
        if let failure { throw failure }
    }
}
