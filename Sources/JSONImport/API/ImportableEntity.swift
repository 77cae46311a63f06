/// A Swift type that names the mapping entity it is stored as.
///
/// Every Swift API call that takes a type (`map(_:_:options:)`,
/// ``Mapper/find(_:id:)-(_,Encodable)``, ``Mapper/save(_:options:)-xa8k``, …) stores and reads it as the entity
/// whose name is the type's name. A type whose name differs from its entity adopts this
/// protocol and says which one:
///
/// ```swift
/// struct GitHubUser: Codable, ImportableEntity {
///     static let entityName = "User"
///     var id: Int
///     var login: String
/// }
/// let users = try mapper.map(GitHubUser.self, json)
/// ```
///
/// Adopting it without declaring `entityName` keeps the type's name.
public protocol ImportableEntity {
    /// The name of the entity in the mappings.
    static var entityName: String { get }
}

extension ImportableEntity {
    /// The type's own name, when it does not declare one.
    public static var entityName: String { String(describing: Self.self) }
}

/// The entity a Swift type is stored as: its declared ``ImportableEntity/entityName``, else
/// the type's name.
func entityName<T>(of type: T.Type) -> String {
    if let named = type as? any ImportableEntity.Type { return named.entityName }
    return String(describing: type)
}
