/// A draft mapping inferred from sample payloads: a starting point to review, which already
/// validates and imports the samples it came from.
///
/// The samples are read as an import reads them (files, standard input as `-`, JSON Lines by
/// file name, a root key path), and every record is walked once, counting what each key held;
/// no value is kept. From those counts the draft takes:
///
/// - attribute types that accept every value seen: `int`, `double`, `bool`, `string`; ISO 8601
///   strings as `date`, integers under a time-like name (`created_at`) in the range of recent
///   epoch seconds or milliseconds as `date` with `format: epoch` / `epochMillis`; `uuid`;
///   `url` (absolute, with `://`); `decimal` for numbers whose text matters (`4.90`, numbers
///   sent only as strings); `""` beside such values as `nullIf: ""`; lists of scalars as `[T]`;
///   anything no type takes together (objects and strings, lists of lists) as `json`;
/// - nested objects as entities: keyed by `id` (or `<entity>_id`, `uuid`, `sha`, `key`, …) when
///   every object has one, else owned; a key holding objects is a `one` relationship, a list
///   of them a `many`. Objects met in several places are one entity when their names and keys
///   agree (the same name and shape, or the same key and most keys in common);
/// - the `keyStyle` that gives the most JSON keys from lowerCamelCase property names, and an
///   explicit `key` for the rest;
/// - the `root` of samples that wrap their records (`{"items": [...], "total_count": 9}`);
/// - comments saying which keys some records lacked or held `null`, and why a type was chosen.
///
/// ```swift
/// let draft = try MappingDraft(inferring: "User", from: [.file("users.json")])
/// try draft.yaml.write(toFile: "Mappings/users.yml", atomically: true, encoding: .utf8)
/// let mapper = try Mapper(spec: draft.spec, store: .inMemory)
/// ```
///
/// The README's "Drafting a mapping with infer" lists every rule.
///
/// - Complexity: O(n) in the members of the sample records.
public struct MappingDraft: Sendable, Hashable {
    /// The root entity's name.
    public let entity: String
    /// The mapping file, YAML with comments.
    public let yaml: String
    /// The draft, loaded and validated (its locations name the file `ENTITY.yml`).
    public let spec: MappingSpec
    /// Where the root records sit in the JSON samples; `nil` when at the top.
    public let root: JSONKeyPath?
    /// How many root records the samples held.
    public let recordCount: Int

    /// Infers a draft mapping for `entity` from sample payloads.
    ///
    /// - Parameters:
    ///   - entity: the name of the root entity, which the samples' records belong to.
    ///   - sources: the samples, read as ``Mapper/importSources(_:as:options:progress:)-65fws`` reads
    ///     payloads.
    ///   - options: the root key path, the format and the reading limits.
    /// - Throws: ``ImportError`` when a sample cannot be read or is not JSON (with its file,
    ///   line and column); ``InferenceError`` when `entity` is not a valid name, the samples
    ///   hold no records, a record is not an object, or JSON samples keep their records in
    ///   different places.
    public init(inferring entity: String, from sources: [ImportSource], options: InferenceOptions = .default) throws {
        guard DraftNames.isValidName(entity) else {
            throw InferenceError(.invalidName, "invalid entity name '\(entity)': names must match [A-Za-z_][A-Za-z0-9_]* and not begin with '_'")
        }
        var reader = SampleReader(entity: entity, options: options)
        for source in sources { try reader.read(source) }
        guard reader.collector.recordCount > 0 else {
            let names = sources.map { "'\($0.name)'" }.joined(separator: ", ")
            throw InferenceError(
                .noRecords, sources.isEmpty ? "no samples to infer a mapping from" : "no records to infer a mapping from in \(names)",
                at: ErrorLocation(file: sources.count == 1 ? sources[0].name : nil))
        }
        let root = try reader.root()
        let builder = try DraftBuilder(shapes: reader.collector.shapes, rootEntity: entity)
        let yaml = DraftWriter(entities: builder.entities, keyStyle: builder.keyStyle, root: root, sources: sources.map(\.name)).text
        do {
            spec = try MappingSpec.load(yaml: yaml, file: "\(entity).yml")
        } catch {
            throw InferenceError(.invalidDraft, "the draft inferred for \(entity) does not validate: \(error)")
        }
        self.entity = entity
        self.yaml = yaml
        self.root = root.map { JSONKeyPath(segments: $0.segments) }
        self.recordCount = reader.collector.recordCount
    }

    /// Infers a draft mapping off the caller's executor; see ``init(inferring:from:options:)``.
    /// Cancelling the task stops the reading at the next record and throws `CancellationError`.
    public init(inferring entity: String, from sources: [ImportSource], options: InferenceOptions = .default) async throws {
        self = try await Mapper.offExecutor { try MappingDraft(inferring: entity, from: sources, options: options) }
    }
}
