// A plain C view of a parsed JSON document, produced by simdjson's On-Demand API.
//
// The whole document is validated and flattened into a tape of nodes in document order:
// a container node is followed by its children (an object by alternating key and value
// nodes), and `end` is the index just past its last descendant, so a subtree is skipped
// in O(1). Strings are unescaped into the parser's own buffer; numbers keep a pointer to
// their source text so that decimals and "number as string" conversions stay exact.
// Everything a document returns stays valid until the next parse on the same parser.
#ifndef CSIMDJSON_H
#define CSIMDJSON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  JI_NULL = 0,
  JI_FALSE = 1,
  JI_TRUE = 2,
  JI_INT = 3,     // fits in int64: num.i
  JI_UINT = 4,    // 2^63 ... 2^64-1: num.u
  JI_DOUBLE = 5,  // non-integral or exponent form: num.d
  JI_BIGNUM = 6,  // valid JSON number outside what int64/uint64/double hold; only its text is kept
  JI_STRING = 7,
  JI_ARRAY = 8,
  JI_OBJECT = 9
} ji_type;

typedef struct {
  /// String: unescaped UTF-8 bytes. Number: the number's source text. Otherwise NULL.
  const uint8_t *ptr;
  union {
    int64_t i;
    uint64_t u;
    double d;
  } num;
  /// String / number: byte length of `ptr`. Array: element count. Object: member count.
  uint32_t len;
  /// Index one past this node's last descendant.
  uint32_t end;
  /// Byte offset of the value in the source.
  uint32_t offset;
  uint8_t type;
} ji_node;

/// Errors beyond simdjson's own codes.
enum {
  JI_ERROR_DUPLICATE_KEY = 1000,
  JI_ERROR_TOO_DEEP = 1001,
  JI_ERROR_TOO_LARGE = 1002,
  JI_ERROR_NOT_CONTAINER = 1003
};

typedef struct ji_parser ji_parser;

/// Bytes that must be readable (any value) after the end of every input buffer.
size_t ji_padding(void);

/// 1 when this CPU can run the parser (on x86-64: AVX2, BMI1 and PCLMULQDQ, any x86-64 CPU
/// made since 2013), else 0.
int ji_cpu_supported(void);

/// A parser for documents up to `max_depth` levels of nesting; NULL when out of memory or
/// when the CPU is not supported.
ji_parser *ji_parser_create(size_t max_depth);
void ji_parser_destroy(ji_parser *parser);

/// Parses and validates `len` bytes at `buf` (readable up to `len + ji_padding()`).
/// Returns 0 on success, else an error code with ji_error_* describing it.
int ji_parse(ji_parser *parser, const uint8_t *buf, size_t len);

/// The tape of the last successful parse.
const ji_node *ji_nodes(const ji_parser *parser, size_t *count);

/// A readable description of the last error.
const char *ji_error_message(const ji_parser *parser);
/// The byte offset at which the last error was found (clamped to the input length).
size_t ji_error_offset(const ji_parser *parser);

/// The 1-based line and column (in characters: UTF-8 lead bytes) of byte `offset` of `buf`.
void ji_line_column(const uint8_t *buf, size_t len, size_t offset, size_t *line, size_t *column);

#ifdef __cplusplus
}
#endif

#endif
