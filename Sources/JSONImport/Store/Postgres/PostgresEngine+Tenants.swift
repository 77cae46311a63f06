/// Tenants (SPEC 6): every statement the row path sends about rows of a distributed entity
/// names the tenants of the open transaction, so that a distributed PostgreSQL (Citus) runs it
/// on those tenants' shards only.
///
/// Rows link only within their tenant, so every row a write transaction reads or writes
/// belongs to a tenant it has named: in a key it looked up, or in a row it inserted. Reads by
/// row id or by link follow rows already known, and find nothing outside those tenants.
extension PostgresEngine {
    /// `AND alias."tenant" = ANY($n::type[])` for a row of distributed `entity`, with its
    /// parameter, or nothing. `alias` `nil` names the column bare.
    func tenantFilter(_ entity: EntitySpec, alias: String?, parameter n: Int) -> (sql: String, parameters: [StoredValue]) {
        // A transaction that named none (`delete`, which names its rows by query) reaches every tenant.
        guard !rowPath.tenants.isEmpty else { return ("", []) }
        return Self.tenantFilter(entity, tenants: rowPath.tenants, alias: alias, parameter: n)
    }

    /// `AND alias."tenant" = ANY($n::type[])` naming `tenants`, with its parameter, or
    /// nothing when `entity` is not distributed.
    static func tenantFilter(
        _ entity: EntitySpec, tenants: some Collection<StoredValue>, alias: String?, parameter n: Int
    ) -> (sql: String, parameters: [StoredValue]) {
        guard let name = entity.tenantAttribute, let attribute = entity.attribute(named: name) else { return ("", []) }
        let column = (alias.map { "\($0)." } ?? "") + quote(name)
        let type = Self.arrayType(of: attribute.type)
        return (" AND \(column) = ANY($\(n)::\(type)[])", [tenantArray(tenants, type: type)])
    }

    /// The array parameter of the `tenants` of array type `type` (`int8`, `text` or `uuid`):
    /// a transaction may name tenants of several types, of entities that do not link.
    static func tenantArray(_ tenants: some Collection<StoredValue>, type: String) -> StoredValue {
        let values = tenants.filter { value in
            if case .integer = value { return type == "int8" }
            return type != "int8"
        }
        return .text("{" + values.map(arrayElement).sorted().joined(separator: ",") + "}")
    }

    /// `AND t."tenant" = s."tenant"` joining two rows of distributed `entity`, or nothing when
    /// its row id is its tenant (the join on the row id says it).
    static func tenantJoin(_ entity: EntitySpec, _ t: String, _ s: String) -> String {
        guard let name = entity.tenantAttribute, name != entity.rowIDColumn else { return "" }
        return " AND \(t).\(quote(name)) = \(s).\(quote(name))"
    }
}
