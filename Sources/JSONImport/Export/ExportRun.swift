/// One export: selects the root rows page by page and writes each record as soon as it is
/// built, so memory does not grow with the number of records (SPEC 4.1 `export`).
///
/// Everything is read in one read transaction, so the records form one consistent snapshot
/// even while other processes import. Root rows come in primary-key order (row-id order for an
/// owned entity), stubs left out; pages continue after the last key of the previous page
/// (`(k1, k2) > (?, ?)`), so each page costs the same however deep into the table it is.
struct ExportRun {
    let store: Store
    let request: ExportRequest
    /// The root rows to write, in this order, instead of those the request's keys and filter
    /// select (a query's selection).
    var rows: [Int64]? = nil
    /// Root rows read per page.
    var pageSize = 256

    /// Checks the request against the mappings, then writes the export to `sink` in chunks.
    ///
    /// - Returns: the number of root records written.
    /// - Throws: ``QueryError`` for an unknown entity or field, a malformed filter, a key that
    ///   does not convert or a negative depth (nothing is written then); ``StoreError``; and
    ///   whatever `sink` throws.
    func run(into sink: (String) throws -> Void) throws -> Int {
        let entity = try store.entityPlan(request.entity)
        try checkFields(of: entity)
        guard request.depth >= 0 else { throw QueryError("the depth must be 0 or more; got \(request.depth)") }
        let selection = rows == nil ? try Self.selection(of: request, entity: entity, store: store) : nil
        let exporter = RecordExporter(reader: store.reader)
        let wrapper = request.format == .json ? Wrapper(root: entity.spec.root) : nil
        return try store.transaction(.read) {
            var buffer = ""
            func write(_ text: String) throws {
                buffer += text
                if buffer.utf8.count >= Self.chunkSize {
                    try sink(buffer)
                    buffer = ""
                }
            }
            // Pages of listed rows follow each other by position, pages of selected rows by
            // the last key read.
            var position = 0
            var lastKey: [StoredValue]?
            func nextPage() throws -> [Int64] {
                if let rows {
                    let end = min(position + pageSize, rows.count)
                    defer { position = end }
                    return Array(rows[position..<end])
                }
                guard let page = try selection?.page(after: lastKey, limit: pageSize) else { return [] }
                lastKey = page.lastKey
                return page.rows
            }
            var page = try nextPage()
            try write(wrapper?.opening ?? "")
            var count = 0
            while !page.isEmpty {
                try exporter.prefetch(entity, rows: page, depth: request.depth, fields: request.fields)
                for row in page {
                    let record = try exporter.record(entity, row: row, depth: request.depth, fields: request.fields)
                    if wrapper != nil { try write(count == 0 ? "\n" : ",\n") }
                    try write(RecordValue.object(record).jsonText)
                    if wrapper == nil { try write("\n") }
                    count += 1
                }
                page = try nextPage()
            }
            if let wrapper { try write((count == 0 ? "" : "\n") + wrapper.closing) }
            if !buffer.isEmpty { try sink(buffer) }
            return count
        }
    }

    /// Output is handed to the sink in pieces of about this many bytes.
    static let chunkSize = 64 * 1024

    private func checkFields(of entity: EntityPlan) throws {
        let names = entity.spec.attributes.map(\.name) + entity.spec.relationships.map(\.name)
        for field in request.fields.names where !names.contains(field) {
            throw QueryError(.unknownField, "\(entity.spec.name) has no field '\(field)'\(Suggestion.hint(for: field, among: names))")
        }
    }

    /// The text around the records of a JSON export: `[` … `]`, inside the entity's `root`
    /// key path when it has one (`{"data":{"articles":[` … `]}}`).
    struct Wrapper {
        let opening: String
        let closing: String

        init(root: JSONKeyPath?) {
            let segments = root?.segments ?? []
            opening = segments.map { "{" + RecordValue.string($0).jsonText + ":" }.joined() + "["
            closing = "]" + String(repeating: "}", count: segments.count) + "\n"
        }
    }
}
