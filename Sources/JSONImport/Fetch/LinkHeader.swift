import Foundation

/// The links of an HTTP `Link` header (RFC 8288): `<https://api.example.com/users?page=2>;
/// rel="next", <…?page=9>; rel="last"`.
struct LinkHeader {
    /// One link: its target as written between `<` and `>`, and its relation types.
    struct Link: Equatable {
        let target: String
        let relations: [String]
    }

    let links: [Link]

    /// Parses a header value; several headers joined with `,` read as one. Links that cannot be
    /// read are left out.
    init(_ value: String) {
        var links: [Link] = []
        var rest = Substring(value)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let target = String(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
            var relations: [String] = []
            // Parameters up to the comma that ends the link (commas inside quotes excluded).
            while let parameter = Self.nextParameter(&rest) {
                guard parameter.name.lowercased() == "rel", relations.isEmpty else { continue }
                relations = parameter.value.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { $0.lowercased() }
            }
            links.append(Link(target: target, relations: relations))
        }
        self.links = links
    }

    /// The target of the first link whose relation types hold `relation` (`next`).
    func target(of relation: String) -> String? {
        links.first { $0.relations.contains(relation) }?.target
    }

    /// Reads `; name=value` or `; name="value"` from the start of `text`; `nil` (having read up
    /// to the next link) at the comma that ends the link or at the end.
    private static func nextParameter(_ text: inout Substring) -> (name: String, value: String)? {
        text = text.drop { $0 == " " || $0 == "\t" }
        guard text.first == ";" else {
            if let comma = text.firstIndex(of: ",") { text = text[text.index(after: comma)...] } else { text = text[text.endIndex...] }
            return nil
        }
        text = text.dropFirst().drop { $0 == " " || $0 == "\t" }
        let nameEnd = text.firstIndex { $0 == "=" || $0 == ";" || $0 == "," } ?? text.endIndex
        let name = text[..<nameEnd].trimmingCharacters(in: .whitespaces)
        text = text[nameEnd...]
        guard text.first == "=" else { return (name, "") }
        text = text.dropFirst().drop { $0 == " " || $0 == "\t" }
        var value = ""
        if text.first == "\"" {
            text = text.dropFirst()
            var isEscaped = false
            while let character = text.first {
                text = text.dropFirst()
                if isEscaped {
                    value.append(character)
                    isEscaped = false
                } else if character == "\\" {
                    isEscaped = true
                } else if character == "\"" {
                    break
                } else {
                    value.append(character)
                }
            }
        } else {
            let end = text.firstIndex { $0 == ";" || $0 == "," } ?? text.endIndex
            value = text[..<end].trimmingCharacters(in: .whitespaces)
            text = text[end...]
        }
        return (name, value)
    }
}
