import Foundation

/// Walks sample records and counts what every place of them held, into ``ObjectShape``s.
///
/// Shape 0 holds the root records; every other shape is the objects under one key of the
/// objects of another shape (their value, or the elements of their lists). Shapes are made in
/// the order their first object is met, depth first, which is the order the draft lists
/// entities in.
///
/// A value type, so that the walk's many accesses to the shapes need no exclusivity checks at
/// run time.
///
/// - Complexity: O(n) in the members of the records, with one byte comparison per member when
///   objects of a place list their keys in the same order.
struct ShapeCollector {
    private(set) var shapes = [ObjectShape(key: "", isListElement: true, parent: nil)]

    /// Root records added.
    var recordCount: Int { shapes[0].count }

    /// Adds one root record, an object.
    mutating func add(record: JSONValue) {
        precondition(record.kind == .object, "a root record is an object")
        observe(record, in: 0)
    }

    private mutating func observe(_ object: JSONValue, in shape: Int) {
        shapes[shape].count += 1
        var position = 0
        var previous = -1
        for (key, value) in object.members {
            defer { position += 1 }
            guard let field = field(key, at: position, after: previous, in: shape) else { continue }
            previous = field
            shapes[shape].fields[field].values.present += 1
            switch value.kind {
            case .null:
                shapes[shape].fields[field].values.nulls += 1
            case .object:
                shapes[shape].fields[field].values.objects += 1
                observe(value, in: child(of: shape, field: field, isListElement: false))
            case .array:
                observeList(value, field: field, in: shape)
            case .bool, .number, .string:
                shapes[shape].fields[field].values.scalars.observe(value)
            }
        }
    }

    private mutating func observeList(_ list: JSONValue, field: Int, in shape: Int) {
        shapes[shape].fields[field].values.arrays += 1
        guard list.count > 0 else {
            shapes[shape].fields[field].values.emptyArrays += 1
            return
        }
        for element in list.elements {
            switch element.kind {
            case .null:
                shapes[shape].fields[field].values.elementNulls += 1
            case .object:
                shapes[shape].fields[field].values.elementObjects += 1
                observe(element, in: child(of: shape, field: field, isListElement: true))
            case .array:
                shapes[shape].fields[field].values.elementArrays += 1
            case .bool, .number, .string:
                shapes[shape].fields[field].values.elements.observe(element)
            }
        }
    }

    /// The shape of the objects under `field` of `shape`, made when first needed.
    private mutating func child(of shape: Int, field: Int, isListElement: Bool) -> Int {
        let existing = isListElement ? shapes[shape].fields[field].elementShape : shapes[shape].fields[field].objectShape
        if let existing { return existing }
        let child = shapes.count
        shapes.append(ObjectShape(key: shapes[shape].fields[field].key, isListElement: isListElement, parent: shape))
        if isListElement {
            shapes[shape].fields[field].elementShape = child
        } else {
            shapes[shape].fields[field].objectShape = child
        }
        return child
    }

    /// The field of `shape` for member `key` at `position`, the member before it having matched
    /// field `previous`; made when new; `nil` when the shape is full and the key is new.
    private mutating func field(_ key: UnsafeBufferPointer<UInt8>, at position: Int, after previous: Int, in shape: Int) -> Int? {
        let order = shapes[shape].lastOrder
        if position < order.count, matches(key, shapes[shape].fields[order[position]].keyBytes) {
            return order[position]
        }
        // A key left out (or one added) shifts the positions: the fields after the last match
        // come next.
        let count = shapes[shape].fields.count
        var found: Int?
        for candidate in (previous + 1)..<max(previous + 1, min(previous + 5, count))
        where matches(key, shapes[shape].fields[candidate].keyBytes) {
            found = candidate
            break
        }
        if found == nil {
            let name = String(decoding: key, as: UTF8.self)
            found = shapes[shape].fieldIndex[name]
            if found == nil {
                guard count < ObjectShape.maximumFields else {
                    shapes[shape].isOverfull = true
                    return nil
                }
                shapes[shape].fields.append(FieldShape(key: name, keyBytes: Array(key)))
                shapes[shape].fieldIndex[name] = count
                found = count
            }
        }
        if position < order.count {
            shapes[shape].lastOrder[position] = found!
        } else {
            shapes[shape].lastOrder.append(found!)
        }
        return found
    }

    private func matches(_ key: UnsafeBufferPointer<UInt8>, _ bytes: [UInt8]) -> Bool {
        bytes.count == key.count && bytes.withUnsafeBufferPointer { stored in
            key.isEmpty || memcmp(stored.baseAddress!, key.baseAddress!, key.count) == 0
        }
    }
}
