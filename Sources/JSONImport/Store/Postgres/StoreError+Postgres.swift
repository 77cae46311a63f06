extension StoreError.Code {
    /// The code for a PostgreSQL SQLSTATE: integrity violations (class 23) are `constraint`;
    /// a lock not granted in time, a cancelled statement and a deadlock are `busy`; a full
    /// disk is `full`; connection, database and authentication failures are `cannotOpen`; a
    /// write in a read-only transaction is `readOnly`; anything else is `postgres`.
    init(sqlState: String) {
        switch sqlState {
        case _ where sqlState.hasPrefix("23"): self = .constraint
        case "55P03", "57014", "40P01": self = .busy
        case "53100": self = .full
        case _ where sqlState.hasPrefix("08") || sqlState.hasPrefix("28"): self = .cannotOpen
        case "3D000": self = .cannotOpen
        case "25006": self = .readOnly
        default: self = .postgres
        }
    }
}
