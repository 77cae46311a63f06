// A plain C view of a parsed JSON document, produced by simdjson's On-Demand API.
//
// The whole document is validated and flattened into a tape of nodes in document order:
// a container node is followed by its children (an object by alternating key and value
// nodes), and `end` is the index just past its last descendant, so a subtree is skipped
// in O(1). A string without escape sequences points into the input; the others are unescaped
// into the parser's own buffer. Numbers keep a pointer to their source text so that decimals
// and "number as string" conversions stay exact. Everything a document returns stays valid
// while its input does, until the next parse on the same parser.
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
  /// String: unescaped UTF-8 bytes (in the input when it has no escapes). Number: the
  /// number's source text. Otherwise NULL.
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

/// Streaming the records of a document: the elements of the array at a key path (records are
/// handed over in batches as they are parsed, on a worker thread when asked), or the one value
/// there. The whole document is validated as by ji_parse; a syntax error is reported after every
/// record that precedes it.
typedef struct ji_stream ji_stream;

/// How the records sit in a streamed document.
enum {
  JI_RECORDS_MISSING = 0,   // the key path is not in the document
  JI_RECORDS_ELEMENTS = 1,  // the elements of the array at the key path
  JI_RECORDS_SINGLE = 2     // the value at the key path (whatever its type)
};

/// Starts streaming `len` bytes at `buf` (readable up to `len + ji_padding()`, unchanged until
/// ji_stream_destroy) through `parser`, which must not be used otherwise meanwhile. `path` holds
/// `path_count` keys of `path_lengths` bytes. With `batch_nodes` other than 0, a worker thread
/// parses ahead of the reader and hands records over in batches of about that many nodes; with
/// 0, the reader's thread parses them all as one batch. NULL when out of memory.
ji_stream *ji_stream_start(ji_parser *parser, const uint8_t *buf, size_t len, const uint8_t *const *path,
                           const size_t *path_lengths, size_t path_count, size_t batch_nodes);

/// Starts parsing `len` bytes at `buf` (as ji_stream_start) on a worker thread before the key
/// path of the records is known: simdjson's first pass over the whole text runs, then the worker
/// waits for ji_stream_route. `batch_nodes` must not be 0. NULL when out of memory or when no
/// thread can be had (the caller then starts a stream when it knows the path).
ji_stream *ji_stream_prepare(ji_parser *parser, const uint8_t *buf, size_t len, size_t batch_nodes);

/// Gives a prepared stream its key path (as ji_stream_start takes it), once; the worker walks
/// on. Returns 0 when out of memory (the stream must then be destroyed), 1 otherwise.
int ji_stream_route(ji_stream *stream, const uint8_t *const *path, const size_t *path_lengths, size_t path_count);

/// The next batch of records: `*nodes` holds `*count` nodes, one complete subtree per record,
/// valid until the call after the next (a reader may look at a batch and the one after it).
/// Returns 1 for a batch, 0 at the end, -1 on a syntax error (the parser's ji_error_* describe
/// it).
int ji_stream_next(ji_stream *stream, const ji_node **nodes, size_t *count);

/// How the records sit (JI_RECORDS_*): known with the first batch, or at the end.
int ji_stream_shape(ji_stream *stream);

/// After ji_stream_next failed: the 0-based index of the record being read when the error was
/// found (the records completed before it), or -1 when it lies before the records or after them.
long ji_stream_error_record(ji_stream *stream);

/// Stops the worker, if any, and frees the stream.
void ji_stream_destroy(ji_stream *stream);

/// Maps `size` bytes of the regular file open as `fd` read-only (private to the process), with
/// ji_padding() zero bytes readable after them; NULL when it cannot (errno says why). Should the
/// file become shorter meanwhile, reading the pages it lost does not stop the process with
/// SIGBUS: they read as zeros from then on, and ji_mapped_file_damaged says so.
uint8_t *ji_map_file(int fd, size_t size);

/// Whether pages of the mapping at `base` were lost (the file became shorter) since it was made.
int ji_mapped_file_damaged(const uint8_t *base);

/// Unmaps a mapping of ji_map_file.
void ji_unmap_file(uint8_t *base, size_t size);

/// Has glibc's allocator keep the memory it frees for its next allocations: blocks up to
/// `mapping_threshold` bytes come from its heaps rather than mappings of their own (unmapped
/// when freed), and a heap gives memory back only past `trim_threshold` bytes free. A value of
/// 0 or less leaves that threshold as it is. 1 when every threshold asked for was set; 0 when
/// one was refused, or without glibc.
int ji_keep_freed_memory(long mapping_threshold, long trim_threshold);

/// Whether glibc's allocator gives one of up to `count` (at most 64) blocks of `size` bytes,
/// allocated one after another and held, a mapping of its own (1), or takes them all from its
/// heaps (0); -1 when it cannot tell. Held, the blocks use up the free chunks large enough for
/// them, which the allocator would hand out whatever its threshold.
int ji_allocator_maps(size_t size, int count);

/// The 1-based line and column (in characters: UTF-8 lead bytes) of byte `offset` of `buf`.
void ji_line_column(const uint8_t *buf, size_t len, size_t offset, size_t *line, size_t *column);

#ifdef __cplusplus
}
#endif

#endif
