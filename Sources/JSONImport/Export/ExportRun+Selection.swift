extension ExportRun {
    /// The root rows an export writes, read a page at a time in key order.
    ///
    /// For `User` with a filter, a page after the key 42 is
    ///
    /// ```sql
    /// SELECT r."id", r."id" FROM "User" r
    /// WHERE (r."score" > ?) AND r."_stub" = 0 AND (r."id") > (?)
    /// ORDER BY r."id" LIMIT 256
    /// ```
    struct Selection {
        let connection: SQLiteConnection
        /// `SELECT rowid, order columns… FROM T r WHERE` with the request's conditions.
        private let base: String
        private let conditions: [String]
        private let parameters: [StoredValue]
        private let orderColumns: [String]

        /// One page: the row ids, and the order columns of the last row (where the next page
        /// starts), `nil` when the page is empty.
        struct Page {
            let rows: [Int64]
            let lastKey: [StoredValue]?
        }

        /// - Throws: ``QueryError`` for a malformed filter or unknown name in it, or a key that
        ///   does not convert.
        init(request: ExportRequest, entity: EntityPlan, store: Store) throws {
            connection = store.connection
            let spec = entity.spec
            var conditions: [String] = []
            var parameters: [StoredValue] = []
            if let filter = request.filter {
                do throws(FilterError) {
                    var compiler = FilterCompiler(plan: store.plan)
                    conditions.append(try compiler.compile(FilterParser.parse(filter), on: entity, alias: "r"))
                    parameters += compiler.parameters
                } catch {
                    throw QueryError(error.description)
                }
            }
            if !request.ids.isEmpty {
                let (condition, keys) = RecordReader.keyCondition(
                    entity, keys: try request.ids.map { try store.key(of: entity, from: $0) })
                conditions.append(condition)
                parameters.append(keys)
            }
            if !spec.isOwned { conditions.append("r.\"_stub\" = 0") }
            self.conditions = conditions
            self.parameters = parameters
            orderColumns = (spec.isOwned ? [spec.rowIDColumn] : spec.primaryKey).map { "r.\(quote($0))" }
            base = "SELECT r.\(entity.rowID), \(orderColumns.joined(separator: ", ")) FROM \(entity.table) r"
        }

        /// The next `limit` rows after the row whose order columns hold `key` (from the start
        /// when `nil`).
        func page(after key: [StoredValue]?, limit: Int) throws -> Page {
            var conditions = self.conditions
            if key != nil {
                conditions.append("(\(orderColumns.joined(separator: ", "))) > (\(orderColumns.map { _ in "?" }.joined(separator: ", ")))")
            }
            var sql = base
            if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
            sql += " ORDER BY \(orderColumns.joined(separator: ", ")) LIMIT \(limit)"
            let rows = try connection.rows(sql, parameters + (key ?? []))
            let ids = rows.compactMap { row -> Int64? in
                if case .integer(let id) = row[0] { return id }
                return nil
            }
            return Page(rows: ids, lastKey: rows.last.map { Array($0.dropFirst()) })
        }
    }
}
