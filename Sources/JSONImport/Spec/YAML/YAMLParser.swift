internal import CYAML

/// Owns one libyaml parser and the copy of the text it reads; frees both in `deinit`.
///
/// Hands out events one at a time; each ``YAMLEvent`` owns its libyaml event.
final class YAMLParser {
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let input: UnsafeMutableBufferPointer<UInt8>
    private let isInitialized: Bool

    init(text: String) {
        parser = .allocate(capacity: 1)
        let utf8 = Array(text.utf8)
        // One spare byte so an empty text still has a valid address.
        input = .allocate(capacity: utf8.count + 1)
        _ = input.initialize(from: utf8 + [0])
        isInitialized = yaml_parser_initialize(parser) != 0
        if isInitialized {
            yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(parser, input.baseAddress, utf8.count)
        }
    }

    deinit {
        if isInitialized { yaml_parser_delete(parser) }
        parser.deallocate()
        input.deallocate()
    }

    /// The next event of the stream.
    ///
    /// - Throws: ``YAMLError`` with libyaml's message and 1-based position for a syntax error.
    func nextEvent() throws(YAMLError) -> YAMLEvent {
        guard isInitialized else { throw YAMLError("cannot start the YAML parser (out of memory)", line: 1, column: 1) }
        let event = YAMLEvent()
        guard yaml_parser_parse(parser, event.raw) != 0 else { throw currentError() }
        event.isFilled = true
        return event
    }

    /// Turns libyaml's error state into a ``YAMLError``; the only place that reads it.
    private func currentError() -> YAMLError {
        let state = parser.pointee
        var message = state.problem.map { String(cString: $0) } ?? "invalid YAML"
        if let context = state.context.map({ String(cString: $0) }) {
            message += " (\(context))"
        }
        switch state.error {
        case YAML_READER_ERROR:
            let (line, column) = position(ofByte: state.problem_offset)
            return YAMLError(message, line: line, column: column)
        case YAML_MEMORY_ERROR:
            return YAMLError("out of memory while reading YAML", line: 1, column: 1)
        default:
            let mark = state.problem_mark
            return YAMLError(message, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
        }
    }

    /// 1-based line and character column of a byte offset in the input.
    private func position(ofByte offset: Int) -> (Int, Int) {
        var line = 1
        var column = 1
        for byte in input.prefix(min(offset, input.count - 1)) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}

/// Owns one libyaml event and frees it in `deinit`.
final class YAMLEvent {
    /// The event kinds the composer handles.
    enum Kind {
        case streamStart, streamEnd, documentStart, documentEnd
        case alias, scalar, sequenceStart, sequenceEnd, mappingStart, mappingEnd
    }

    let raw: UnsafeMutablePointer<yaml_event_t>
    fileprivate var isFilled = false

    fileprivate init() {
        raw = .allocate(capacity: 1)
    }

    deinit {
        if isFilled { yaml_event_delete(raw) }
        raw.deallocate()
    }

    var kind: Kind {
        switch raw.pointee.type {
        case YAML_STREAM_START_EVENT: return .streamStart
        case YAML_DOCUMENT_START_EVENT: return .documentStart
        case YAML_DOCUMENT_END_EVENT: return .documentEnd
        case YAML_ALIAS_EVENT: return .alias
        case YAML_SCALAR_EVENT: return .scalar
        case YAML_SEQUENCE_START_EVENT: return .sequenceStart
        case YAML_SEQUENCE_END_EVENT: return .sequenceEnd
        case YAML_MAPPING_START_EVENT: return .mappingStart
        case YAML_MAPPING_END_EVENT: return .mappingEnd
        default: return .streamEnd
        }
    }

    /// Where the event starts, 1-based.
    var mark: YAMLMark {
        let start = raw.pointee.start_mark
        return YAMLMark(line: Int(start.line) + 1, column: Int(start.column) + 1)
    }

    /// The anchor a node declares, or the anchor an alias refers to.
    var anchor: String? {
        let data = raw.pointee.data
        switch raw.pointee.type {
        case YAML_ALIAS_EVENT: return data.alias.anchor.map { String(cString: $0) }
        case YAML_SCALAR_EVENT: return data.scalar.anchor.map { String(cString: $0) }
        case YAML_SEQUENCE_START_EVENT: return data.sequence_start.anchor.map { String(cString: $0) }
        case YAML_MAPPING_START_EVENT: return data.mapping_start.anchor.map { String(cString: $0) }
        default: return nil
        }
    }

    /// The explicit tag of a node, in full.
    var tag: String? {
        let data = raw.pointee.data
        switch raw.pointee.type {
        case YAML_SCALAR_EVENT: return data.scalar.tag.map { String(cString: $0) }
        case YAML_SEQUENCE_START_EVENT: return data.sequence_start.tag.map { String(cString: $0) }
        case YAML_MAPPING_START_EVENT: return data.mapping_start.tag.map { String(cString: $0) }
        default: return nil
        }
    }

    /// The text and style of a scalar event.
    var scalar: YAMLScalar {
        let data = raw.pointee.data.scalar
        let bytes = UnsafeBufferPointer(start: data.value, count: data.length)
        let style: YAMLScalar.Style
        switch data.style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: style = .literal
        case YAML_FOLDED_SCALAR_STYLE: style = .folded
        default: style = .plain
        }
        return YAMLScalar(value: String(decoding: bytes, as: UTF8.self), style: style)
    }
}
