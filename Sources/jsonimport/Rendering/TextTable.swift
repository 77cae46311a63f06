import JSONImport

/// Lays out rows of cells in aligned columns separated by two spaces, for text reports.
/// Control characters in cells (payload data in `query --format table`) are shown as `\u{1B}`.
///
/// ```
/// User     key: id    attributes: 10  relationships: 3
/// Address  owned      attributes: 3   relationships: 0
/// ```
struct TextTable {
    private(set) var rows: [[String]] = []

    mutating func append(_ cells: [String]) {
        rows.append(cells.map { TerminalText.escaped($0) })
    }

    /// The rows, one per line, each column padded to its widest cell (the last is not padded).
    var rendered: String {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in
            rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        return rows.map { cells in
            cells.enumerated().map { column, cell in
                column == cells.count - 1
                    ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ") + "\n"
        }.joined()
    }
}
