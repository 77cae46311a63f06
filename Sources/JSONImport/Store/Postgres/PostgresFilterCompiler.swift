/// Filters and sort keys in PostgreSQL's SQL, selecting and ordering rows exactly as the SQLite
/// store's do:
///
/// - `=` and `!=` are `IS NOT DISTINCT FROM` and `IS DISTINCT FROM` (plain `=` for a value that
///   is not NULL, which selects the same rows and can use an index), `NOT` is `IS NOT TRUE`;
/// - text compares and sorts bytewise, under its columns' `COLLATE "C"`;
/// - a decimal compares and sorts by ``decimalKey(_:)``, text whose byte order is
///   ``DecimalOrder``'s;
/// - `LIKE` is `ILIKE … ESCAPE ''` under `COLLATE "C"`, which folds only ASCII letters and has
///   no escape character, on the text SQLite matches (``likeText(_:_:)``);
/// - NULL sorts first ascending and last descending, as in SQLite.
enum PostgresFilterSyntax: FilterSyntax {
    static func isNotTrue(_ condition: String) -> String { "(\(condition)) IS NOT TRUE" }

    static func isNotDistinct(_ a: String, from b: String, valueIsNull: Bool) -> String {
        valueIsNull ? "\(a) IS NOT DISTINCT FROM \(b)" : "\(a) = \(b)"
    }

    static func isDistinct(_ a: String, from b: String) -> String { "\(a) IS DISTINCT FROM \(b)" }

    /// A decimal by its key; anything else as it is (a text column is `COLLATE "C"`, and a
    /// value compared with it takes that on).
    static func compared(_ column: String, _ attribute: AttributeSpec) -> String {
        attribute.type == .decimal ? decimalKey(column) : column
    }

    /// One array parameter, whatever the number of values (a statement with thousands of
    /// parameters is more than libpq reads the description of): `= ANY(?::int8[])`, decimals by
    /// their keys.
    static func isIn(_ compared: String, _ values: [StoredValue], _ attribute: AttributeSpec) -> (sql: String, parameters: [StoredValue]) {
        let array = StoredValue.text(arrayLiteral(values, attribute))
        if attribute.type == .decimal {
            return ("\(compared) IN (SELECT \(decimalKey("u.v")) FROM unnest(?::text[]) AS u(v))", [array])
        }
        let type = SQLDialect.postgres.typeName(of: attribute.type).replacingOccurrences(of: " COLLATE \"C\"", with: "")
        return ("\(compared) = ANY(?::\(type)[])", [array])
    }

    /// `values` as the text of a PostgreSQL array: numbers as they are, dates as ISO 8601
    /// instants, text quoted.
    static func arrayLiteral(_ values: [StoredValue], _ attribute: AttributeSpec) -> String {
        let elements = values.map { value -> String in
            switch value {
            case .null: return "NULL"
            case .integer(let v): return String(v)
            case .real(let v) where attribute.type == .date: return DateCoding.format(v, format: .iso8601)
            case .real(let v): return v.isFinite ? "\(v)" : (v.isNaN ? "NaN" : v > 0 ? "Infinity" : "-Infinity")
            case .text(let text):
                var quoted = "\""
                for character in text {
                    if character == "\"" || character == "\\" { quoted.append("\\") }
                    quoted.append(character)
                }
                return quoted + "\""
            }
        }
        return "{" + elements.joined(separator: ",") + "}"
    }

    /// A decimal's bound text is compared by its key, computed once for the statement.
    static func comparedValue(_ placeholder: String, _ attribute: AttributeSpec) -> String {
        attribute.type == .decimal ? boundDecimalKey(placeholder) : placeholder
    }

    /// The key of the decimal text bound at `placeholder`, computed once for the statement.
    private static func boundDecimalKey(_ placeholder: String) -> String {
        "(SELECT \(decimalKey("p.v")) FROM (SELECT \(placeholder)::text AS v) p)"
    }

    /// `jsonb` containment: numbers compare by exact value, strings by their text; decimals,
    /// held as strings, by the numbers they spell (their keys, see ``decimalKey(_:)``).
    static func contains(_ column: String, _ element: StoredValue, of type: ScalarType) -> (sql: String, parameters: [StoredValue]) {
        if type == .decimal, case .text = element {
            let elements = "jsonb_array_elements_text((\(column))::jsonb) AS e(v)"
            return ("EXISTS (SELECT 1 FROM \(elements) WHERE \(decimalKey("e.v")) = \(boundDecimalKey("?")))", [element])
        }
        return ("(\(column))::jsonb @> ?::jsonb", [.text("[" + ValueConversion.jsonElement(element, of: type) + "]")])
    }

    static func like(_ column: String, _ attribute: AttributeSpec) -> String {
        "(\(likeText(column, attribute)) COLLATE \"C\") ILIKE ? ESCAPE ''"
    }

    static func orderTerm(_ key: String, descending: Bool) -> String {
        descending ? "\(key) DESC NULLS LAST" : "\(key) NULLS FIRST"
    }

    /// A decimal's key reads its text many times: from a column, not from a subquery run for
    /// each read.
    static var comparesInsideSubqueries: Bool { true }

    // MARK: Decimals

    /// Text that sorts, bytewise, as ``DecimalOrder`` orders the decimal text `x`: equal for
    /// the same number however it is spelled, NULL for NULL.
    ///
    /// A number is `±0.d₁d₂…dₙ × 10^e` with `d₁` and `dₙ` not zero. Its key is a class (`0`
    /// negative, `1` zero, `2` positive), then `e` offset by 2⁶² in 19 digits, then the digits;
    /// a negative number's exponent and digits are complemented, and its digits end in `:`
    /// (above every digit), so that a longer run of digits sorts first. Text that is not a
    /// number is `3` and the text itself. Nothing is converted to `numeric`, so any number of
    /// digits and any exponent work; an exponent written past 2⁵⁰ counts as 2⁵⁰, as in DecimalOrder.
    static func decimalKey(_ x: String) -> String {
        let body = "ltrim(\(x), '-')"
        let mantissa = "split_part(translate(\(body), 'E', 'e'), 'e', 1)"
        let exponentText = "split_part(translate(\(body), 'E', 'e'), 'e', 2)"
        let digits = "replace(\(mantissa), '.', '')"
        let fromFirstSignificant = "ltrim(\(digits), '0')"
        let significant = "rtrim(\(fromFirstSignificant), '0')"
        let leadingZeros = "(length(\(digits)) - length(\(fromFirstSignificant)))"
        let integerDigits = "length(split_part(\(mantissa), '.', 1))"
        let exponentDigits = "ltrim(ltrim(\(exponentText), '+-'), '0')"
        let saturation = "1125899906842624"  // 2^50
        let exponentValue = "(CASE WHEN length(\(exponentDigits)) > 16 THEN \(saturation) "
            + "ELSE least(coalesce(nullif(\(exponentDigits), '')::int8, 0), \(saturation)) END)"
        let exponentSign = "(CASE WHEN left(\(exponentText), 1) = '-' THEN -1 ELSE 1 END)"
        let exponent = "(\(integerDigits) - \(leadingZeros) + \(exponentSign) * \(exponentValue))"
        let offset = "4611686018427387904"  // 2^62: every exponent a text can spell stays in 19 digits
        return """
            (CASE WHEN \(x) IS NULL THEN NULL \
            WHEN \(x) !~ '\(numberPattern)' THEN '3' || \(x) \
            WHEN \(significant) = '' THEN '1' \
            WHEN left(\(x), 1) = '-' THEN '0' || (\(offset) - \(exponent))::text \
            || translate(\(significant), '0123456789', '9876543210') || ':' \
            ELSE '2' || (\(offset) + \(exponent))::text || \(significant) END) COLLATE "C"
            """
    }

    /// JSON number text (``NumberSyntax``), as a regular expression.
    static let numberPattern = #"^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$"#

    // MARK: LIKE

    /// The text SQLite's `LIKE` reads for a value of `attribute`: text as it is, an integer in
    /// decimal digits, a Boolean as `0` or `1`, a UUID in lowercase, and a double or a date
    /// (seconds since 1970) as SQLite prints a REAL (``sqliteRealText(_:)``).
    static func likeText(_ column: String, _ attribute: AttributeSpec) -> String {
        switch attribute.type {
        case .scalar(.int), .scalar(.uuid): return "\(column)::text"
        case .scalar(.bool): return "\(column)::int4::text"
        case .scalar(.double): return sqliteRealText(column)
        case .scalar(.date): return sqliteRealText("extract(epoch FROM \(column))::float8")
        default: return column
        }
    }

    /// The `float8` `x` as SQLite writes a REAL as text (`%!.15g`): 15 significant digits,
    /// trailing zeros dropped but one digit kept after the point (`100.0`), and an exponent
    /// of at least two digits below 10⁻⁴ or from 10¹⁵ on (`1.0e-05`, `1.23456789012346e+15`).
    /// PostgreSQL's conversion of a `float8` to `numeric` rounds to the same 15 digits.
    static func sqliteRealText(_ x: String) -> String {
        let text = "abs(\(x))::numeric::text"
        let integerPart = "split_part(\(text), '.', 1)"
        let fraction = "split_part(\(text), '.', 2)"
        let digits = "rtrim(ltrim(\(integerPart) || \(fraction), '0'), '0')"
        // One less than the integer digits, else minus one more than the fraction's leading zeros.
        let exponent = "(CASE WHEN \(integerPart) <> '0' THEN length(\(integerPart)) - 1 "
            + "ELSE length(ltrim(\(fraction), '0')) - length(\(fraction)) - 1 END)"
        let scientific = "left(\(digits), 1) || '.' || coalesce(nullif(substr(\(digits), 2), ''), '0') || 'e' "
            + "|| CASE WHEN \(exponent) < 0 THEN '-' ELSE '+' END || CASE WHEN abs(\(exponent)) < 10 THEN '0' ELSE '' END "
            + "|| abs(\(exponent))::text"
        let fixed = "\(text) || CASE WHEN \(fraction) = '' THEN '.0' ELSE '' END"
        return """
            (CASE WHEN \(x) = 0 THEN '0.0' WHEN \(x) = 'Infinity' THEN 'Inf' WHEN \(x) = '-Infinity' THEN '-Inf' \
            ELSE CASE WHEN \(x) < 0 THEN '-' ELSE '' END \
            || CASE WHEN \(exponent) < -4 OR \(exponent) > 14 THEN \(scientific) ELSE \(fixed) END END)
            """
    }
}

/// The filter compiler of the PostgreSQL store.
typealias PostgresFilterCompiler = FilterCompiler<PostgresFilterSyntax>
