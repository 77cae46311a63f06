import Foundation

/// The shape of a payload.
public enum PayloadFormat: String, Sendable, Hashable, CaseIterable {
    /// One JSON document: an object, an array of records, or either under a root key path.
    case json
    /// One record per non-empty line.
    case jsonl

    /// The format a file name implies.
    public init(fileName: String) {
        let lower = fileName.lowercased()
        self = lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") ? .jsonl : .json
    }
}

/// A payload to import.
public enum ImportSource: Sendable, Hashable {
    /// A file path; `-` reads standard input.
    case file(String)
    /// Bytes in memory, with the name errors should show.
    case data(Data, name: String)

    /// The format its name implies: JSON Lines for a `.jsonl` or `.ndjson` file, else JSON.
    package var impliedFormat: PayloadFormat {
        if case .file(let path) = self { return PayloadFormat(fileName: path) }
        return .json
    }

    var name: String {
        switch self {
        case .file(let path): return path
        case .data(_, let name): return name
        }
    }
}
