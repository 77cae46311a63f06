import Foundation

/// The changes between the storage a store was created from and what the mappings need now
/// (SPEC 5): safe ones are applied in place, data-losing ones only when allowed.
public struct MigrationPlan: Sendable, Hashable {
    /// One change, described for people.
    public struct Change: Sendable, Hashable, CustomStringConvertible {
        /// What the change does, such as `add column User.email`.
        public let description: String
        /// `true` when applying it can lose stored data.
        public let losesData: Bool
    }

    /// Every change between the store and the mappings; empty when they match.
    public let changes: [Change]

    /// `true` when the store already matches the mappings.
    public var isEmpty: Bool { changes.isEmpty }
    /// `true` when any change can lose stored data; such a plan is applied only when data loss
    /// is allowed.
    public var losesData: Bool { changes.contains { $0.losesData } }

    /// Statements that apply it, in order.
    let statements: [String]
    /// The columns whose values change type, each converted just before the statement that
    /// rebuilds its table (see ``Migration/Conversion``).
    var conversions: [Migration.Conversion] = []
}

/// A migration that would lose data was refused.
public struct MigrationRefused: Error, Sendable, Hashable, CustomStringConvertible {
    /// The plan that was refused; nothing of it was applied.
    public let plan: MigrationPlan

    /// Creates the error for a refused plan.
    ///
    /// - Parameter plan: the plan, with at least one data-losing change.
    public init(plan: MigrationPlan) { self.plan = plan }

    /// The data-losing changes, one per line, and the command that applies them.
    public var description: String {
        let lines = plan.changes.filter(\.losesData).map { "  - \($0.description)" }
        return "the mappings need changes to the store that would lose data:\n"
            + lines.joined(separator: "\n")
            + "\nrun 'jsonimport migrate --allow-data-loss' to apply them"
    }
}

enum Migration {
    /// An attribute column whose values change type: before statement `before` of the plan
    /// (the one creating the table's new version) runs, its values are converted as an import
    /// converts their JSON form (the form `export` writes) and kept in the temporary table
    /// `values`, by the row id (the old table's column `rowID`); the rebuild copies them from
    /// there.
    struct Conversion: Sendable, Hashable {
        let table: String
        let column: String
        let from: AttributeType
        let to: AttributeType
        /// Whether the store recorded the old type, rather than it being read off the column's
        /// SQL type (which SQLite shares between `int` and `bool`, `double` and `date`).
        let isRecorded: Bool
        let rowID: String
        let values: String
        var before: Int
    }

    /// How the columns of one table differ between two states.
    private struct ColumnDiff {
        /// Changes that lose data, described.
        var losing: [String] = []
        /// Definitions of new columns that may be added in place.
        var adding: [String] = []
        /// Attribute columns whose type changes.
        var retyped: [String: (from: AttributeType, to: AttributeType)] = [:]
        /// Columns that turn from an attribute into a link or back: their values mean
        /// something else, so they are not copied.
        var cleared: Set<String> = []
        /// A link column whose target column changes (SQLite declares it) is rebuilt with no
        /// change of its own: its target's change names it, on every store.
        var rebuilds = false

        init(_ table: String, from old: StoreSchemaState, to new: StoreSchemaState) {
            let oldColumns = old.tables[table]!, newColumns = new.tables[table]!
            let newByName = Dictionary(newColumns.map { (StoreSchemaState.columnName($0), $0) }, uniquingKeysWith: { a, _ in a })
            let oldNames = Set(oldColumns.map(StoreSchemaState.columnName))
            for definition in oldColumns.sorted(by: { StoreSchemaState.columnName($0) < StoreSchemaState.columnName($1) }) {
                let name = StoreSchemaState.columnName(definition)
                guard let now = newByName[name] else {
                    losing.append("remove column \(table).\(name) and its values")
                    continue
                }
                let wasAttribute = old.types?[table]?[name] != nil, isAttribute = new.types?[table]?[name] != nil
                if old.types != nil, new.types != nil, wasAttribute != isAttribute {
                    losing.append("change column \(table).\(name) from \(wasAttribute ? "an attribute to a link" : "a link to an attribute")")
                    cleared.insert(name)
                } else if let types = Migration.typeChange(of: name, in: table, from: old, to: new) {
                    losing.append("change the type of \(table).\(name) from \(types.from) to \(types.to)")
                    retyped[name] = types
                } else if now != definition, definition.contains(" REFERENCES "), now.contains(" REFERENCES "),
                    Migration.withoutReference(now) == Migration.withoutReference(definition)
                {
                    rebuilds = true
                } else if now != definition {
                    losing.append("change column \(table).\(name) from '\(Migration.described(definition))' to '\(Migration.described(now))'")
                }
            }
            for definition in newColumns where !oldNames.contains(StoreSchemaState.columnName(definition)) {
                if definition.contains("PRIMARY KEY") || definition.contains("NOT NULL") {
                    losing.append("add key column \(table).\(StoreSchemaState.columnName(definition))")
                } else {
                    adding.append(definition)
                }
            }
        }
    }

    /// A column definition as a change names it: in SQLite's words, whatever the store's
    /// dialect, so that both stores describe a change alike (`"score" float8` reads
    /// `"score" REAL`).
    static func described(_ definition: String) -> String {
        let name = StoreSchemaState.columnName(definition)
        let quoted = quote(name)
        guard definition.hasPrefix(quoted) else { return definition }
        var rest = String(definition.dropFirst(quoted.count))
        let postgres = [
            (" text COLLATE \"C\"", " TEXT"), (" float8", " REAL"), (" int8", " INTEGER"), (" bool", " INTEGER"),
            (" timestamptz", " REAL"), (" uuid", " TEXT"),
        ]
        for (type, sqlite) in postgres where rest == type || rest.hasPrefix(type + " ") {
            rest = sqlite + rest.dropFirst(type.count).replacingOccurrences(of: "DEFAULT false", with: "DEFAULT 0")
            break
        }
        return quoted + rest
    }

    /// What it takes to go from `old` to `new`.
    static func plan(from old: StoreSchemaState, to new: StoreSchemaState) -> MigrationPlan {
        var changes: [MigrationPlan.Change] = []
        var statements: [String] = []
        var conversions: [Conversion] = []
        var rebuilt: Set<String> = []

        // A seen table (PostgreSQL) comes and goes with its entity's table: no change of its own.
        for table in new.tables.keys.sorted() where old.tables[table] == nil {
            if !StorageSchema.isSeenTable(table, among: new.tables.keys) {
                changes.append(.init(description: "add table \(table)", losesData: false))
            }
            statements.append(new.creates[table]!)
        }
        for table in old.tables.keys.sorted() where new.tables[table] == nil {
            if !StorageSchema.isSeenTable(table, among: old.tables.keys) {
                changes.append(.init(description: "remove table \(table) and its rows", losesData: true))
            }
            statements.append("DROP TABLE \(quote(table))")
        }
        for table in new.tables.keys.sorted() {
            guard let oldColumns = old.tables[table], let newColumns = new.tables[table] else { continue }
            // SQLite keeps some types in one column type (`bool` and `int` in `INTEGER`): the
            // columns may match where the types do not.
            guard oldColumns != newColumns || (old.types != nil && old.types?[table] != new.types?[table]) else { continue }
            let diff = ColumnDiff(table, from: old, to: new)
            let losing = diff.losing, adding = diff.adding
            if losing.isEmpty && !diff.rebuilds {
                for definition in adding {
                    changes.append(.init(description: "add column \(table).\(StoreSchemaState.columnName(definition))", losesData: false))
                    statements.append("ALTER TABLE \(quote(table)) ADD COLUMN \(definition)")
                }
            } else {
                changes += losing.map { .init(description: $0, losesData: true) }
                changes += adding.map { .init(description: "add column \(table).\(StoreSchemaState.columnName($0))", losesData: false) }
                var sources: [String: String] = Dictionary(uniqueKeysWithValues: diff.cleared.map { ($0, "NULL") })
                let rowID = oldColumns.contains { StoreSchemaState.columnName($0) == "_id" }
                    ? "_id" : oldColumns.first { $0.contains("PRIMARY KEY") }.map(StoreSchemaState.columnName) ?? "_id"
                var made: [String] = []
                for (column, types) in diff.retyped.sorted(by: { $0.key < $1.key }) {
                    let conversion = Conversion(
                        table: table, column: column, from: types.from, to: types.to, isRecorded: old.types != nil, rowID: rowID,
                        values: "_jsonimport_retyped_\(conversions.count)", before: statements.count)
                    conversions.append(conversion)
                    made.append(conversion.values)
                    sources[column] = "(SELECT m.\"value\" FROM \(quote(conversion.values)) AS m WHERE m.\"row\" = \(quote(table)).\(quote(rowID)))"
                }
                statements += rebuild(table, old: oldColumns, new: new, sources: sources)
                statements += made.map { "DROP TABLE \(quote($0))" }
                rebuilt.insert(table)
            }
        }
        for (name, statement) in old.indexes.sorted(by: { $0.key < $1.key }) where new.indexes[name] != statement {
            guard let table = old.indexTables[name], new.tables[table] != nil, !rebuilt.contains(table) else { continue }
            let isKey = name.hasSuffix("_key")
            changes.append(.init(description: isKey ? "change the primary key of \(table)" : "drop index \(name)", losesData: isKey))
            statements.append("DROP INDEX \(quote(name))")
        }
        for (name, statement) in new.indexes.sorted(by: { $0.key < $1.key }) {
            let table = new.indexTables[name] ?? ""
            guard old.indexes[name] != statement || rebuilt.contains(table) else { continue }
            if old.indexes[name] == nil && old.tables[table] != nil && !rebuilt.contains(table) {
                changes.append(.init(description: "add index \(name)", losesData: false))
            }
            statements.append(statement)
        }
        return MigrationPlan(changes: changes, statements: statements, conversions: conversions)
    }

    /// The types attribute `column` of `table` goes between, when they differ. Compared as
    /// recorded when both states record them; else as the column definitions store them, so
    /// that a store recorded before the types were finds no change its SQL types do not show.
    private static func typeChange(
        of column: String, in table: String, from old: StoreSchemaState, to new: StoreSchemaState
    ) -> (from: AttributeType, to: AttributeType)? {
        if old.types != nil, new.types != nil {
            guard let was = old.recordedType(of: column, in: table), let now = new.recordedType(of: column, in: table), was != now
            else { return nil }
            return (was, now)
        }
        guard let was = old.columnType(of: column, in: table), let stored = new.columnType(of: column, in: table), was != stored
        else { return nil }
        return (was, new.recordedType(of: column, in: table) ?? stored)
    }

    /// `plan` with the links to rows that take new ids removed: a table that loses its `_id`
    /// (its key becomes its one `int`) gives its rows their keys as ids, and links hold ids.
    /// Each link table of `spec` to or from such a table is emptied and each link column to it
    /// cleared, rather than left pointing at other rows, each a change that loses data.
    static func droppingLinks(
        in plan: MigrationPlan, from old: StoreSchemaState, to new: StoreSchemaState, spec: MappingSpec
    ) -> MigrationPlan {
        let renumbered = renumberedTables(from: old, to: new)
        guard !renumbered.isEmpty else { return plan }
        var changes: [MigrationPlan.Change] = []
        // The marks of when rows were seen (PostgreSQL) name them by id too.
        var statements = renumbered.sorted().map(StorageSchema.seenTable(of:)).filter { old.tables[$0] != nil }
            .map { "DELETE FROM \(quote($0))" }
        for link in spec.links {
            let source = spec[entity: link.source].table
            let target = spec[entity: link.target].table
            let why = "the rows of \(renumbered.contains(target) ? target : source) take their keys as ids"
            switch link.storage {
            case .linkTable(let name) where (renumbered.contains(source) || renumbered.contains(target)) && old.tables[name] != nil:
                changes.append(.init(description: "remove the links of \(link.source).\(link.forward) (\(why))", losesData: true))
                statements.append("DELETE FROM \(quote(name))")
            case .foreignKey(let table, let column, let onSource, _):
                let pointsTo = onSource ? target : source
                let held = old.tables[table]?.contains { StoreSchemaState.columnName($0) == column } ?? false
                guard renumbered.contains(pointsTo), held else { continue }
                changes.append(.init(description: "remove the links of \(link.source).\(link.forward) (\(why))", losesData: true))
                statements.append("UPDATE \(quote(table)) SET \(quote(column)) = NULL")
            default:
                continue
            }
        }
        var conversions = plan.conversions
        for i in conversions.indices { conversions[i].before += statements.count }
        return MigrationPlan(changes: plan.changes + changes, statements: statements + plan.statements, conversions: conversions)
    }

    /// The tables whose rows take other ids going from `old` to `new`: those that lose `_id`.
    private static func renumberedTables(from old: StoreSchemaState, to new: StoreSchemaState) -> Set<String> {
        Set(new.tables.keys.filter { table in
            let had = old.tables[table]?.contains { StoreSchemaState.columnName($0) == "_id" } ?? false
            return had && !new.tables[table]!.contains { StoreSchemaState.columnName($0) == "_id" }
        })
    }

    /// A column definition without the foreign key it declares, if any.
    private static func withoutReference(_ definition: String) -> Substring {
        definition.range(of: " REFERENCES ").map { definition[..<$0.lowerBound] } ?? definition[...]
    }

    /// The name `table`'s new version has while a migration rebuilds it.
    static func rebuilding(_ table: String) -> String { table + "__migrating" }

    /// Recreates `table` with its new columns, copying the columns both versions have, each
    /// from the expression `sources` gives it, if any (a converted value, `NULL`).
    private static func rebuild(_ table: String, old: [String], new: StoreSchemaState, sources given: [String: String]) -> [String] {
        let kept = Set(old.map(StoreSchemaState.columnName))
        let columns = new.tables[table]!.map(StoreSchemaState.columnName).filter(kept.contains)
        var targets = columns.map(quote)
        var sources = columns.map { given[$0] ?? quote($0) }
        // A row id the old table did not have (its key is no longer one `int`): each row keeps
        // the id it had, its old key, so that every link to it holds. (Left out, SQLite would
        // number the rows anew, and PostgreSQL's `int8` key has no default.)
        if new.tables[table]!.contains(where: { StoreSchemaState.columnName($0) == "_id" }), !kept.contains("_id"),
            let id = old.first(where: { $0.contains("PRIMARY KEY") })
        {
            targets.insert(quote("_id"), at: 0)
            sources.insert(quote(StoreSchemaState.columnName(id)), at: 0)
        }
        let temporary = rebuilding(table)
        let create = new.creates[table]!.replacingOccurrences(
            of: "CREATE TABLE \(quote(table))", with: "CREATE TABLE \(quote(temporary))")
        return [
            create,
            "INSERT INTO \(quote(temporary)) (\(targets.joined(separator: ", "))) "
                + "SELECT \(sources.joined(separator: ", ")) FROM \(quote(table))",
            "DROP TABLE \(quote(table))",
            "ALTER TABLE \(quote(temporary)) RENAME TO \(quote(table))",
        ]
    }
}
