/// A Swift value that cannot be written as a record of its entity.
struct PayloadError: Error, CustomStringConvertible {
    let path: String
    let message: String

    var description: String { "\(path): \(message)" }
}
