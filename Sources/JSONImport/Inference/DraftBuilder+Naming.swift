/// Names in the draft: entities, properties, and the key styles that turn property names back
/// into the JSON keys.
extension DraftBuilder {
    /// Gives every entity a unique name: the root the name asked for, every other entity the
    /// name of the key its objects were first met under. A name taken already (names compare
    /// ignoring case, as tables do) gets the name of the entity it was met in first before it
    /// (`RepoOwner`), then a number.
    mutating func nameEntities() {
        var entityOfShape: [Int: Int] = [:]
        for (index, entity) in entities.enumerated() {
            for shape in entity.shapes { entityOfShape[shape] = index }
        }
        var taken: Set<String> = []
        for index in entities.indices {
            var name = index == 0 ? rootEntity : entities[index].suggestedName
            if taken.contains(name.lowercased()), let parent = parentEntity(of: index, entityOfShape) {
                name = String((entities[parent].name + name).prefix(DraftNames.maximumLength))
            }
            entities[index].name = Self.claim(name, in: &taken)
        }
    }

    /// `base`, or `base` followed by the first number from 2 that makes it a name not in
    /// `taken` (ignoring case), kept within ``DraftNames/maximumLength``; added to `taken`.
    private static func claim(_ base: String, in taken: inout Set<String>) -> String {
        var name = base
        var number = 2
        while taken.contains(name.lowercased()) {
            let suffix = String(number)
            name = String(base.prefix(DraftNames.maximumLength - suffix.count)) + suffix
            number += 1
        }
        taken.insert(name.lowercased())
        return name
    }

    /// The entity, named already, whose objects held the first objects of `index`.
    private func parentEntity(of index: Int, _ entityOfShape: [Int: Int]) -> Int? {
        for shape in entities[index].shapes {
            if let parent = shapes[shape].parent, let entity = entityOfShape[parent], entity < index { return entity }
        }
        return nil
    }

    /// Gives every key a property name unique in its entity (ignoring case, as columns are),
    /// and notes where each entity is reached from.
    mutating func nameProperties() {
        for index in entities.indices {
            var taken: Set<String> = []
            for position in entities[index].fields.indices {
                let base = DraftNames.propertyName(for: entities[index].fields[position].key)
                entities[index].fields[position].property = Self.claim(base, in: &taken)
            }
        }
        for entity in entities {
            for field in entity.fields {
                guard let target = field.role.target else { continue }
                let place = "\(entity.name).\(field.property)"
                if !entities[target].places.contains(place) { entities[target].places.append(place) }
            }
        }
    }

    /// The styles in the order the file's default prefers them when several fit equally: `asIs`
    /// needs no line of its own.
    static let keyStyles: [KeyStyle] = [.asIs, .snakeCase, .camelCase, .kebabCase]

    /// Picks the file's `keyStyle`, the one that fits the most entities (an entity fits the
    /// styles that turn the most of its property names back into their keys), and an entity's
    /// own where the file's does not fit it. Keys no style gives get an explicit `key`.
    mutating func chooseKeyStyles() {
        let fitting = entities.map(Self.fittingStyles)
        // The most entities, then the most keys given.
        var most = (entities: -1, keys: -1)
        for style in Self.keyStyles {
            let score = (fitting.filter { $0.contains(style) }.count, entities.map { Self.keysGiven(by: style, in: $0) }.reduce(0, +))
            if score > most { (keyStyle, most) = (style, score) }
        }
        // An entity's own style names what its keys look like: camelCase rather than asIs.
        for index in entities.indices where !fitting[index].contains(keyStyle) {
            entities[index].keyStyle = [KeyStyle.camelCase, .snakeCase, .kebabCase, .asIs].first(where: fitting[index].contains)
        }
    }

    /// The styles under which the most property names of `entity` give their keys, in
    /// ``keyStyles`` order.
    private static func fittingStyles(_ entity: DraftEntity) -> [KeyStyle] {
        let scores = keyStyles.map { keysGiven(by: $0, in: entity) }
        let best = scores.max() ?? 0
        return zip(keyStyles, scores).filter { $0.1 == best }.map(\.0)
    }

    /// How many of the entity's keys `style` gives from their property names.
    private static func keysGiven(by style: KeyStyle, in entity: DraftEntity) -> Int {
        entity.fields.filter { style.key(for: $0.property) == $0.key }.count
    }
}
