/// The version of the JSONImport package, shared by the library and the `jsonimport` tool.
///
/// `jsonimport --version` prints `jsonimport` followed by this string.
///
/// ```swift
/// print("JSONImport \(JSONImportVersion.current)")
/// ```
public enum JSONImportVersion {
    /// The current release, in semantic-versioning form (`MAJOR.MINOR.PATCH`).
    public static let current = "0.1.0"
}
