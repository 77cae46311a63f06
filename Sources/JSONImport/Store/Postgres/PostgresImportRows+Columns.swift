/// The columns the row path copies rows with, the form values take in them (the cache's), and
/// the statements that merge staged rows into the tables (see
/// ``PostgresImportRows/takeHandOver()``).
extension PostgresImportRows {
    static func columnType(_ type: AttributeType) -> PostgresColumnType {
        switch type {
        case .scalar(.int): return .int8
        case .scalar(.double): return .float8
        case .scalar(.bool): return .bool
        case .scalar(.date): return .timestamptz
        case .scalar(.uuid): return .uuid
        default: return .text
        }
    }

    /// The staging table of `entity`'s changed rows, one per transaction: named by the entity's
    /// place in the mappings, not its table, whose name could take it past the 63 bytes of a
    /// PostgreSQL name.
    static func stageName(_ entity: EntityPlan) -> String { "_jsonimport_stage_\(entity.index)" }

    /// The columns a new row is written with: its row id (unless it is the key), attributes,
    /// link columns, bookkeeping timestamps and stub mark.
    func insertColumns(_ entity: EntityPlan) -> [PostgresCopyColumn] {
        var columns = stageColumns(entity)
        if entity.spec.hasTimestamps {
            columns.insert(contentsOf: ["_created_at", "_updated_at", "_seen_at"].map { PostgresCopyColumn($0, .timestamptz) },
                at: columns.count - (entity.spec.isOwned ? 0 : 1))
        }
        return columns
    }

    func insertValues(_ entity: EntityPlan, id: Int64, _ row: PostgresRowCache.Row) -> [StoredValue] {
        var values: [StoredValue] = []
        forEachField(entity, id: id, row, timestamps: true) { values.append($0) }
        return values
    }

    /// The `INSERT` of one new row, with the values of `insertValues`.
    func insertSQL(_ entity: EntityPlan) -> String {
        let columns = insertColumns(entity)
        return "INSERT INTO \(entity.table) (\(columns.map { quote($0.name) }.joined(separator: ", "))) VALUES ("
            + columns.indices.map { "$\($0 + 1)" }.joined(separator: ", ") + ")"
    }

    /// The columns a changed row is staged with: row id (unless it is the key), attributes,
    /// link columns and stub mark.
    func stageColumns(_ entity: EntityPlan) -> [PostgresCopyColumn] {
        var columns: [PostgresCopyColumn] = entity.keyIsRowID ? [] : [PostgresCopyColumn("_id", .int8)]
        columns += entity.spec.attributes.map { PostgresCopyColumn($0.name, Self.columnType($0.type)) }
        columns += entity.selfColumns.map { PostgresCopyColumn(entity.relationships[$0].columnName!, .int8) }
        if !entity.spec.isOwned { columns.append(PostgresCopyColumn("_stub", .bool)) }
        return columns
    }

    /// The columns of `entity`'s staging table: those a changed row is staged with, and
    /// `_updated_at` for an entity with timestamps, NULL but for rows stamped (see
    /// ``PostgresRowCache/stamp(_:rows:at:)``).
    func stagedColumns(_ entity: EntityPlan) -> [PostgresCopyColumn] {
        stageColumns(entity) + (entity.spec.hasTimestamps ? [PostgresCopyColumn("_updated_at", .timestamptz)] : [])
    }

    /// Calls `body` with the value of each column of row `id` in turn: those of
    /// ``stageColumns(_:)``, or with `timestamps`, of ``insertColumns(_:)``.
    func forEachField<E: Error>(
        _ entity: EntityPlan, id: Int64, _ row: PostgresRowCache.Row, timestamps: Bool, _ body: (StoredValue) throws(E) -> Void
    ) throws(E) {
        if !entity.keyIsRowID { try body(.integer(id)) }
        for i in row.values.indices { try body(row.values[i]) }
        for i in row.columns.indices { try body(row.columns[i].map(StoredValue.integer) ?? .null) }
        if timestamps && entity.spec.hasTimestamps {
            for _ in 0..<3 { try body(.real(row.stampedAt)) }
        }
        if !entity.spec.isOwned { try body(.integer(row.isStub ? 1 : 0)) }
    }

    /// Per unique link column and non-key `unique` attribute of `entity`: the `UPDATE` clearing
    /// it in the staged rows that change it.
    func releaseSQL(_ entity: EntityPlan) -> [String] {
        let stage = quote(Self.stageName(entity))
        let links = entity.selfColumns.compactMap { r -> String? in
            guard case .selfColumn(let name, true) = entity.relationships[r].storage else { return nil }
            return name
        }
        // And the unique values a staged row gives up, which another row may take in this
        // hand-over (keys never change).
        let uniques = entity.uniqueSlots.map { entity.spec.attributes[$0].name }
        return (links + uniques).map { name in
            let column = quote(name)
            return "UPDATE \(entity.table) AS t SET \(column) = NULL FROM \(stage) AS s "
                + "WHERE \(stagedRows(entity)) AND t.\(column) IS NOT NULL AND t.\(column) IS DISTINCT FROM s.\(column)"
        }
    }

    /// The `UPDATE` writing the staged rows of `entity` over the table's.
    func mergeSQL(_ entity: EntityPlan) -> String {
        // A row's tenant never changes: Citus refuses to update a distribution column.
        let keys = Set(entity.keySlots.map { entity.spec.attributes[$0].name } + [entity.spec.tenantAttribute].compactMap { $0 })
        let sets = stageColumns(entity).map(\.name).filter { !keys.contains($0) && $0 != "_id" }.map { "\(quote($0)) = s.\(quote($0))" }
            + (entity.spec.hasTimestamps ? [#""_updated_at" = coalesce(s."_updated_at", t."_updated_at")"#] : [])
        let stage = quote(Self.stageName(entity))
        return "UPDATE \(entity.table) AS t SET " + sets.joined(separator: ", ") + " FROM \(stage) AS s WHERE \(stagedRows(entity))"
    }

    /// The condition pairing the rows of `entity` (alias `t`) with the staged ones (`s`). The
    /// table's rows are found by their ids in the stage, through the primary key's index: the
    /// server, whose statistics do not know the rows the transaction wrote, would otherwise
    /// read the whole table to pair a few hundred rows (and does, once it holds a few
    /// thousand).
    func stagedRows(_ entity: EntityPlan) -> String {
        "t.\(entity.rowID) = s.\(entity.rowID) AND t.\(entity.rowID) = ANY(ARRAY(SELECT \(entity.rowID) FROM \(quote(Self.stageName(entity)))))"
            + PostgresEngine.tenantJoin(entity.spec, "t", "s")
    }

    /// The index in `entity`'s `selfColumns` of the link column `column`.
    func columnIndex(_ entity: EntityPlan, _ column: String) throws(StoreError) -> Int {
        guard let j = entity.selfColumns.firstIndex(where: { entity.relationships[$0].columnName == column }) else {
            throw StoreError(.other, "\(entity.spec.name) has no link column \(column)")
        }
        return j
    }

    // MARK: Values

    /// The key `key` of `entity` as the cache holds it.
    func cacheKey(_ key: [Value], _ entity: EntityPlan) -> [StoredValue] {
        cacheKey(stored: key.map(\.stored), entity)
    }

    /// The key `key` (values as ``Value/stored`` gives them) of `entity` as the cache holds it.
    func cacheKey(stored key: [StoredValue], _ entity: EntityPlan) -> [StoredValue] {
        // A key of no type `asStored` changes is its own form, shared rather than copied.
        guard entity.keySlots.contains(where: { Self.isChangedWhenStored(entity.types[$0]) }) else { return key }
        return zip(key, entity.keySlots).map { value, slot in Self.asStored(value, entity.types[slot]) }
    }

    /// Whether ``asStored(_:_:)`` may change a value of `type`.
    static func isChangedWhenStored(_ type: AttributeType) -> Bool {
        switch type {
        case .scalar(.date), .scalar(.double), .scalar(.uuid): return true
        default: return false
        }
    }

    /// `value`, written to a column for an attribute of `type`, as the server gives it back: a
    /// date to the microsecond, a UUID in lowercase with dashes, an integer in a `float8`
    /// column as a double (the types of ``isChangedWhenStored(_:)``).
    ///
    /// The value is taken, not copied, and the type switched over before it: a switch over the
    /// pair would copy the value (a retain and a release of a text) for every value stored.
    static func asStored(_ value: consuming StoredValue, _ type: AttributeType) -> StoredValue {
        switch type {
        case .scalar(.date):
            if case .real(let seconds) = value {
                guard let microseconds = PostgresTimestamp.microseconds(fromSeconds: seconds) else { return value }
                return .real(PostgresTimestamp.seconds(fromMicroseconds: microseconds))
            }
            if case .integer(let seconds) = value { return .real(Double(seconds)) }
            return value
        case .scalar(.double):
            if case .integer(let number) = value { return .real(Double(number)) }
            return value
        case .scalar(.uuid):
            guard case .text(let text) = value, let bytes = PostgresUUID.bytes(text) else { return value }
            return .text(bytes.withUnsafeBytes(PostgresUUID.text))
        default:
            return value
        }
    }
}
