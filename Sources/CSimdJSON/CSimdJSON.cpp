// Flattens a JSON document into the C tape described in CSimdJSON.h, using simdjson's
// On-Demand API. Every value is visited once, so the whole input is validated.
#include "CSimdJSON.h"

// On x86-64 this file (simdjson's On-Demand front end is all inline header code) is compiled
// for Haswell (AVX2) whatever the compiler's default target, inside a target region, so no
// machine-specific compiler flag is needed; ji_cpu_supported checks at run time that the CPU
// has it before anything else here runs.
#if defined(__x86_64__) && !defined(__AVX2__)
#define SIMDJSON_BUILTIN_IMPLEMENTATION haswell
#define JI_HASWELL_REGION 1
#pragma clang attribute push(__attribute__((target("avx2,bmi,pclmul,lzcnt,popcnt"))), apply_to = function)
#endif

#include <algorithm>
#include <atomic>
#include <charconv>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <pthread.h>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include <simdjson.h>

using namespace simdjson;

struct ji_parser {
  ji_parser() {}  // explicit, so that it is compiled inside the target region
  ondemand::parser parser;
  std::vector<ji_node> nodes;
  const uint8_t *buf = nullptr;
  size_t len = 0;
  size_t max_depth = 0;
  int error = 0;
  size_t error_offset = 0;
  std::string message;
  std::vector<std::string_view> keys;  // scratch for duplicate-key checks
};

namespace {

// Thrown inside a stream's worker when its reader stopped reading.
constexpr int JI_CANCELLED = 1100;

struct failure {
  int code;
  const uint8_t *where;  // may be null: use the document's current location
};

bool is_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(uint8_t(s.back()))) s.remove_suffix(1);
  return s;
}

// JSON number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool valid_number(std::string_view s, bool &integral) {
  size_t i = 0, n = s.size();
  integral = true;
  if (i < n && s[i] == '-') i++;
  if (i >= n) return false;
  if (s[i] == '0') {
    i++;
  } else if (s[i] >= '1' && s[i] <= '9') {
    while (i < n && s[i] >= '0' && s[i] <= '9') i++;
  } else {
    return false;
  }
  if (i < n && s[i] == '.') {
    integral = false;
    i++;
    size_t start = i;
    while (i < n && s[i] >= '0' && s[i] <= '9') i++;
    if (i == start) return false;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    integral = false;
    i++;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    size_t start = i;
    while (i < n && s[i] >= '0' && s[i] <= '9') i++;
    if (i == start) return false;
  }
  return i == n;
}

// Offset of the first byte that does not start or continue a valid UTF-8 sequence.
size_t first_invalid_utf8(const uint8_t *p, size_t n) {
  size_t i = 0;
  while (i < n) {
    uint8_t c = p[i];
    if (c < 0x80) { i++; continue; }
    size_t need;
    uint32_t cp;
    if (c >= 0xC2 && c <= 0xDF) { need = 1; cp = c & 0x1F; }
    else if (c >= 0xE0 && c <= 0xEF) { need = 2; cp = c & 0x0F; }
    else if (c >= 0xF0 && c <= 0xF4) { need = 3; cp = c & 0x07; }
    else return i;
    for (size_t k = 1; k <= need; k++) {
      if (i + k >= n || (p[i + k] & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    if ((need == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
        (need == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
      return i;
    i += need + 1;
  }
  return n;
}

// Where a document's records go as they are completed (see ji_stream).
struct record_sink {
  virtual ~record_sink() = default;
  // How the records sit: JI_RECORDS_ELEMENTS or JI_RECORDS_SINGLE; set before the first record.
  virtual void shape(int shape) = 0;
  // The subtree at the end of the parser's tape is a complete record.
  virtual void record_done() = 0;
  // The last record has been read.
  virtual void records_end() = 0;
};

class walker {
 public:
  explicit walker(ji_parser &p) : p(p) {}

  // Streams the records at the end of `path`, starting at `level` with `v`: the elements of an
  // array there, or the value itself. Everything else in the document is validated the same
  // way but leaves nothing on the tape.
  template <class V>
  void navigate(V &v, size_t depth, size_t level, const std::vector<std::string_view> &path, record_sink &sink) {
    ondemand::json_type type;
    check(v.type().get(type), v);
    bool container = type == ondemand::json_type::array || type == ondemand::json_type::object;
    if (container && depth > p.max_depth) throw failure{JI_ERROR_TOO_DEEP, location(v)};
    if (level == path.size()) {
      if (type != ondemand::json_type::array) {
        sink.shape(JI_RECORDS_SINGLE);
        value(v, depth);
        sink.record_done();
        sink.records_end();
        return;
      }
      sink.shape(JI_RECORDS_ELEMENTS);
      elements(v, [&](ondemand::value &e) {
        value(e, depth + 1);
        sink.record_done();
      });
      sink.records_end();
      return;
    }
    if (type != ondemand::json_type::object) {
      discard(v, depth);
      return;
    }
    members(v, [&](std::string_view key, ondemand::value &fv) {
      if (key == path[level]) {
        navigate(fv, depth + 1, level + 1, path, sink);
      } else {
        discard(fv, depth + 1);
      }
    });
  }

  // `depth` counts the arrays and objects around the value, itself included when it is one.
  template <class V>
  void value(V &v, size_t depth) {
    ondemand::json_type type;
    check(v.type().get(type), v);
    bool container = type == ondemand::json_type::array || type == ondemand::json_type::object;
    if (container && depth > p.max_depth) throw failure{JI_ERROR_TOO_DEEP, location(v)};
    switch (type) {
      case ondemand::json_type::array: array(v, depth); break;
      case ondemand::json_type::object: object(v, depth); break;
      case ondemand::json_type::number: number(v); break;
      // Scalars other than numbers keep no offset: errors about them name a JSON path.
      case ondemand::json_type::string: {
        std::string_view s = in_place(token(v));
        if (s.data()) {
          ondemand::raw_json_string raw;
          check(v.get_raw_json_string().get(raw), v);
        } else {
          check(v.get_string().get(s), v);
        }
        push_string(s, nullptr);
        break;
      }
      case ondemand::json_type::boolean: {
        bool b;
        check(v.get_bool().get(b), v);
        push(b ? JI_TRUE : JI_FALSE, nullptr);
        break;
      }
      case ondemand::json_type::null: {
        bool is_null = false;
        check(v.is_null().get(is_null), v);
        if (!is_null) throw failure{N_ATOM_ERROR, location(v)};
        push(JI_NULL, nullptr);
        break;
      }
    }
  }

 private:
  ji_parser &p;

  // Validates a value outside the records, keeping nothing of it.
  template <class V>
  void discard(V &v, size_t depth) {
    size_t mark = p.nodes.size();
    value(v, depth);
    p.nodes.resize(mark);
  }

  // value::raw_json_token() returns the view; document's wraps it in a result.
  static std::string_view token(ondemand::value &v) { return v.raw_json_token(); }
  static std::string_view token(ondemand::document &d) {
    std::string_view raw;
    if (d.raw_json_token().get(raw)) return {};
    return raw;
  }

  template <class V>
  const uint8_t *location(V &v) {
    std::string_view raw = token(v);
    return raw.data() ? reinterpret_cast<const uint8_t *>(raw.data()) : nullptr;
  }

  // The text of a string token (its quotes, then any blanks before the next token) read in
  // place in the input, when it has no escape sequence; null otherwise. Most strings have
  // none, and reading them in place spares their copy into the parser's string buffer, pages
  // the process would otherwise touch for the first time (stage 1 has already checked every
  // string for UTF-8 and control characters).
  static std::string_view in_place(std::string_view raw) {
    std::string_view text = trim(raw);
    if (text.size() < 2 || text.front() != '"' || text.back() != '"') return {};
    text = text.substr(1, text.size() - 2);
    if (std::memchr(text.data(), '\\', text.size())) return {};
    return text.empty() ? std::string_view(raw.data() + 1, 0) : text;
  }

  // The key of field `f`, whose value is `fv`, read in place when it has no escape sequence:
  // it ends at the last quote before the value's token (a colon and blanks between).
  std::string_view key_in_place(ondemand::field &f, ondemand::value &fv) {
    const char *start = f.key().raw(), *end = token(fv).data();
    if (!end) return {};
    while (end > start && (is_space(uint8_t(end[-1])) || end[-1] == ':')) end--;
    if (end == start || end[-1] != '"') return {};
    std::string_view text(start, size_t(end - 1 - start));
    if (std::memchr(text.data(), '\\', text.size())) return {};
    return text;
  }

  // A bad string is reported where it starts; other errors where the parser stopped.
  template <class V>
  void check(error_code e, V &v) {
    if (e) throw failure{e, e == STRING_ERROR ? location(v) : nullptr};
  }

  size_t push(ji_type type, const uint8_t *at) {
    size_t index = p.nodes.size();
    ji_node n{};
    n.type = uint8_t(type);
    n.offset = at ? uint32_t(at - p.buf) : 0;
    n.end = uint32_t(index + 1);
    p.nodes.push_back(n);
    return index;
  }

  void push_string(std::string_view s, const uint8_t *at) {
    size_t i = push(JI_STRING, at);
    p.nodes[i].ptr = reinterpret_cast<const uint8_t *>(s.data());
    p.nodes[i].len = uint32_t(s.size());
  }

  template <class V>
  void number(V &v) {
    std::string_view raw = token(v);
    const uint8_t *at = reinterpret_cast<const uint8_t *>(raw.data());
    std::string_view tok = trim(raw);
    bool integral;
    if (!valid_number(tok, integral)) throw failure{NUMBER_ERROR, at};
    size_t i = push(JI_DOUBLE, at);
    ji_node &n = p.nodes[i];
    n.ptr = at;
    n.len = uint32_t(tok.size());
    const char *first = tok.data(), *last = tok.data() + tok.size();
    if (integral) {
      int64_t value;
      auto r = std::from_chars(first, last, value);
      if (r.ec == std::errc() && r.ptr == last) { n.type = JI_INT; n.num.i = value; return; }
      uint64_t uvalue;
      auto u = std::from_chars(first, last, uvalue);
      if (u.ec == std::errc() && u.ptr == last) { n.type = JI_UINT; n.num.u = uvalue; return; }
    }
    double d;
    auto r = std::from_chars(first, last, d);
    if (r.ec == std::errc() && r.ptr == last) { n.type = JI_DOUBLE; n.num.d = d; return; }
    n.type = JI_BIGNUM;
  }

  template <class V>
  void array(V &v, size_t depth) {
    size_t i = push(JI_ARRAY, location(v));
    uint32_t count = elements(v, [&](ondemand::value &e) { value(e, depth + 1); });
    p.nodes[i].len = count;
    p.nodes[i].end = uint32_t(p.nodes.size());
  }

  // Calls visit(element) for each element of array `v` and returns how many there are.
  template <class V, class Visit>
  uint32_t elements(V &v, Visit &&visit) {
    ondemand::array a;
    check(v.get_array().get(a), v);
    uint32_t count = 0;
    for (auto element : a) {
      ondemand::value e;
      if (auto err = std::move(element).get(e)) throw failure{err, nullptr};
      visit(e);
      count++;
    }
    return count;
  }

  template <class V>
  void object(V &v, size_t depth) {
    size_t i = push(JI_OBJECT, location(v));
    uint32_t count = members(v, [&](std::string_view key, ondemand::value &fv) {
      push_string(key, nullptr);
      value(fv, depth + 1);
    });
    p.nodes[i].len = count;
    p.nodes[i].end = uint32_t(p.nodes.size());
  }

  // Calls visit(key, value) for each member of object `v` and returns how many there are.
  // Duplicate keys are an error: small objects are checked by a scan, which a 64-bit filter of
  // the keys seen so far skips for most keys; large objects switch to a hash set.
  template <class V, class Visit>
  uint32_t members(V &v, Visit &&visit) {
    ondemand::object o;
    check(v.get_object().get(o), v);
    uint32_t count = 0;
    size_t keys_start = p.keys.size();
    std::unique_ptr<std::unordered_set<std::string_view>> large;
    uint64_t seen = 0;
    for (auto member : o) {
      ondemand::field f;
      if (auto err = std::move(member).get(f)) throw failure{err, nullptr};
      const uint8_t *key_at = reinterpret_cast<const uint8_t *>(f.key().raw()) - 1;
      ondemand::value fv = f.value();
      std::string_view key = key_in_place(f, fv);
      if (!key.data())
        if (auto err = f.unescaped_key().get(key)) throw failure{err, key_at};
      if (duplicate(key, keys_start, large, seen)) throw failure{JI_ERROR_DUPLICATE_KEY, key_at};
      p.keys.push_back(key);
      visit(key, fv);
      count++;
    }
    p.keys.resize(keys_start);
    return count;
  }

  bool duplicate(std::string_view key, size_t start,
                 std::unique_ptr<std::unordered_set<std::string_view>> &large, uint64_t &seen) {
    if (large) return !large->insert(key).second;
    size_t n = p.keys.size() - start;
    // Equal keys have equal length and end bytes, so a key whose bit is clear is new.
    uint64_t bit = uint64_t(1) << ((key.size() * 7 + (key.empty() ? 0 : uint8_t(key.front()) + uint8_t(key.back()) * 3)) & 63);
    bool maybe = seen & bit;
    seen |= bit;
    if (maybe)
      for (size_t k = start; k < p.keys.size(); k++)
        if (p.keys[k] == key) return true;
    if (n >= 32) {
      large.reset(new std::unordered_set<std::string_view>(p.keys.begin() + long(start), p.keys.end()));
      large->insert(key);
    }
    return false;
  }
};

// Offset of the opening quote of the string left open at the end of the input (the input
// holds an odd number of unescaped quotes), or of the first control character inside a string
// when `control` is set; `len` when there is none.
size_t string_problem(const uint8_t *p, size_t len, bool control) {
  bool inside = false;
  size_t start = len;
  for (size_t i = 0; i < len; i++) {
    uint8_t c = p[i];
    if (inside) {
      if (control && c < 0x20) return i;
      if (c == '\\') i++;
      else if (c == '"') inside = false;
    } else if (c == '"') {
      inside = true;
      start = i;
    }
  }
  return inside && !control ? start : len;
}

void fail(ji_parser &p, int code, size_t offset) {
  p.error = code;
  p.error_offset = offset > p.len ? p.len : offset;
  bool at_end = true;
  for (size_t i = p.error_offset; i < p.len; i++)
    if (!is_space(p.buf[i])) { at_end = false; break; }
  if (at_end && (code == TAPE_ERROR || code == INCOMPLETE_ARRAY_OR_OBJECT || code == UNCLOSED_STRING)) {
    p.message = "unexpected end of input";
    return;
  }
  switch (code) {
    case JI_ERROR_DUPLICATE_KEY: p.message = "duplicate key in object"; break;
    case JI_ERROR_TOO_DEEP: p.message = "nesting deeper than " + std::to_string(p.max_depth) + " levels"; break;
    case JI_ERROR_TOO_LARGE: p.message = "document larger than 4 GiB"; break;
    case NUMBER_ERROR: p.message = "invalid number"; break;
    case STRING_ERROR: p.message = "invalid escape sequence or unpaired surrogate in a string"; break;
    case UNESCAPED_CHARS: p.message = "control character in a string (it must be escaped)"; break;
    case UNCLOSED_STRING: p.message = "string is never closed"; break;
    case INCORRECT_TYPE:
    case T_ATOM_ERROR:
    case F_ATOM_ERROR:
    case N_ATOM_ERROR: p.message = "invalid literal (expected true, false or null)"; break;
    case TAPE_ERROR: p.message = "unexpected character or missing ',' ':' ']' or '}'"; break;
    case INCOMPLETE_ARRAY_OR_OBJECT: p.message = "document ends inside an array or object"; break;
    case TRAILING_CONTENT: p.message = "unexpected content after the JSON value"; break;
    case EMPTY: p.message = "no JSON value (empty input)"; break;
    case UTF8_ERROR: p.message = "invalid UTF-8"; break;
    case DEPTH_ERROR: p.message = "nesting deeper than " + std::to_string(p.max_depth) + " levels"; break;
    default: p.message = error_message(error_code(code)); break;
  }
}

}  // namespace

extern "C" {

size_t ji_padding(void) { return SIMDJSON_PADDING; }


ji_parser *ji_parser_create(size_t max_depth) {
  if (!ji_cpu_supported()) return nullptr;
  try {
    auto *p = new ji_parser();
    p->max_depth = max_depth;
    return p;
  } catch (...) {
    return nullptr;
  }
}

void ji_parser_destroy(ji_parser *parser) { delete parser; }

}  // extern "C"

namespace {

// Parses and validates a whole document, handing its root value to `visit(walker, value)` when
// it is an array or an object; scalars go on the tape. Returns 0 or an error code (the parser's
// message and offset describe it).
template <class Visit>
int walk_document(ji_parser *p, const uint8_t *buf, size_t len, size_t reserve, Visit &&visit) {
  p->nodes.clear();
  p->keys.clear();
  p->buf = buf;
  p->len = len;
  p->error = 0;
  if (len > UINT32_MAX - 1) { fail(*p, JI_ERROR_TOO_LARGE, 0); return p->error; }
  // Growing the tape by copying costs more than the parse itself on large inputs; reserve
  // about what it needs (pages that are never written are never committed).
  if (p->nodes.capacity() < reserve) {
    try {
      p->nodes.reserve(reserve);
    } catch (const std::bad_alloc &) {
      fail(*p, MEMALLOC, 0);
      return p->error;
    }
  }
  ondemand::document doc;
  // simdjson's own depth limit sits above ours so that ours reports the error.
  if (auto err = p->parser.allocate(len, p->max_depth + 2)) { fail(*p, err, 0); return p->error; }
  auto it = p->parser.iterate(padded_string_view(buf, len, len + SIMDJSON_PADDING));
  if (auto err = std::move(it).get(doc)) {
    size_t offset = 0;
    if (err == UTF8_ERROR) offset = first_invalid_utf8(buf, len);
    if (err == UNCLOSED_STRING || err == UNESCAPED_CHARS) offset = string_problem(buf, len, err == UNESCAPED_CHARS);
    fail(*p, err, offset);
    return p->error;
  }
  walker w(*p);
  try {
    ondemand::json_type type;
    if (auto err = doc.type().get(type)) throw failure{err, nullptr};
    if (type == ondemand::json_type::array || type == ondemand::json_type::object) {
      ondemand::value v;
      if (auto err = doc.get_value().get(v)) throw failure{err, nullptr};
      visit(w, v);
    } else if (type == ondemand::json_type::number) {
      // A number is read from its raw token, which leaves the document where it was: only
      // whitespace may follow the token.
      w.value(doc, 1);
      std::string_view raw;
      if (auto err = doc.raw_json_token().get(raw)) throw failure{err, nullptr};
      for (size_t i = size_t(reinterpret_cast<const uint8_t *>(raw.data()) - buf) + raw.size(); i < len; i++)
        if (!is_space(buf[i])) throw failure{TRAILING_CONTENT, buf + i};
    } else {
      w.value(doc, 1);
    }
    // Past the root value, the document has no current location unless something trails it.
    const char *rest;
    if (type != ondemand::json_type::number && !doc.current_location().get(rest))
      throw failure{TRAILING_CONTENT, reinterpret_cast<const uint8_t *>(rest)};
  } catch (const failure &f) {
    if (f.code == JI_CANCELLED) return f.code;
    size_t offset = len;
    if (f.where) {
      offset = size_t(f.where - buf);
    } else {
      const char *loc;
      if (!doc.current_location().get(loc)) offset = size_t(reinterpret_cast<const uint8_t *>(loc) - buf);
    }
    fail(*p, f.code, offset);
    return p->error;
  } catch (const std::bad_alloc &) {
    fail(*p, MEMALLOC, 0);
    return p->error;
  } catch (...) {
    // Nothing else is expected; an exception must not leave a worker thread (or reach Swift).
    fail(*p, UNEXPECTED_ERROR, 0);
    return p->error;
  }
  return 0;
}

}  // namespace

struct ji_stream final : record_sink {
  ji_parser *p;
  const uint8_t *buf;
  size_t len;
  std::vector<std::string> path_storage;
  std::vector<std::string_view> path;
  bool threaded;
  pthread_t worker{};
  bool has_worker = false;
  std::mutex m;
  std::condition_variable cv;
  std::vector<std::vector<ji_node>> ready;  // complete batches, oldest first
  std::vector<std::vector<ji_node>> spare;  // batches handed back, reused
  std::vector<ji_node> held;                // the batch the reader has
  std::vector<ji_node> previous;            // the one before it, valid until the next call
  bool started = false;
  bool finished = false;
  // Whether `path` is set (under `m`): the worker waits for it before walking, so that a stream
  // may start before its path is known (see ji_stream_prepare).
  bool routed = false;
  std::atomic<bool> cancelled{false};
  int error = 0;
  int shape_ = JI_RECORDS_MISSING;
  size_t complete = 0;  // tape length up to the end of the last complete record
  // Records completed, and where reading is: before the records, among them, or past them
  // (read by the reader once the walk has finished, under `m`).
  size_t records_done = 0;
  enum { before_records, in_records, after_records } position = before_records;

  // A worker hands a batch over once it holds this many nodes, at most two waiting.
  size_t batch_nodes = 0;
  static constexpr size_t max_ready = 2;

  void shape(int s) override {
    std::lock_guard<std::mutex> lock(m);
    shape_ = s;
    position = in_records;
  }

  void records_end() override {
    std::lock_guard<std::mutex> lock(m);
    position = after_records;
  }

  void record_done() override {
    if (cancelled.load(std::memory_order_relaxed)) throw failure{JI_CANCELLED, nullptr};
    records_done++;
    if (threaded && p->nodes.size() >= batch_nodes) {
      std::unique_lock<std::mutex> lock(m);
      cv.wait(lock, [&] { return ready.size() < max_ready || cancelled; });
      if (cancelled) throw failure{JI_CANCELLED, nullptr};
      ready.push_back(std::move(p->nodes));
      complete = 0;
      if (!spare.empty()) {
        p->nodes = std::move(spare.back());
        spare.pop_back();
      }
      p->nodes.clear();
      p->nodes.reserve(batch_nodes + batch_nodes / 4);
      cv.notify_all();
    }
    complete = p->nodes.size();
  }

  // Waits until the path is set; false when the stream is destroyed first.
  bool wait_for_path() {
    std::unique_lock<std::mutex> lock(m);
    cv.wait(lock, [&] { return routed || cancelled; });
    return routed && !cancelled;
  }

  void run() {
    int code;
    try {
      code = walk_document(p, buf, len, threaded ? batch_nodes + batch_nodes / 4 : len / 8 + 16,
                           [&](walker &w, ondemand::value &v) {
                             if (!wait_for_path()) throw failure{JI_CANCELLED, nullptr};
                             w.navigate(v, 1, 0, path, *this);
                           });
      if (!wait_for_path() && code == 0) code = JI_CANCELLED;
    } catch (...) {
      // Out of memory while describing an error: the short message needs no allocation.
      code = p->error = MEMALLOC;
      p->message = "out of memory";
      p->error_offset = 0;
    }
    std::lock_guard<std::mutex> lock(m);
    if (code == 0 && p->nodes.size() > complete && path.empty()) {
      // A scalar root: the whole document is one value.
      shape_ = JI_RECORDS_SINGLE;
      complete = p->nodes.size();
    }
    p->nodes.resize(std::min(complete, p->nodes.size()));
    try {
      if (!p->nodes.empty()) ready.push_back(std::move(p->nodes));
    } catch (...) {
      code = p->error = MEMALLOC;
      p->message = "out of memory";
    }
    p->nodes = std::vector<ji_node>();
    error = code;
    finished = true;
    cv.notify_all();
  }

  // The worker's stack: the walker recurses a few frames per nesting level, and threads other
  // than the main one may get as little as 512 KB (macOS).
  size_t stack_size() const { return std::max<size_t>(size_t(8) << 20, p->max_depth * 4096); }
};

extern "C" {

int ji_parse(ji_parser *p, const uint8_t *buf, size_t len) {
  return walk_document(p, buf, len, len / 8 + 16, [](walker &w, ondemand::value &v) { w.value(v, 1); });
}

// A stream of `len` bytes at `buf` with no path yet, its worker started when `batch_nodes` is
// not 0.
static ji_stream *new_stream(ji_parser *p, const uint8_t *buf, size_t len, size_t batch_nodes) {
  try {
    auto *s = new ji_stream();
    s->p = p;
    s->buf = buf;
    s->len = len;
    s->threaded = batch_nodes != 0;
    s->batch_nodes = batch_nodes;
    if (s->threaded) {
      pthread_attr_t attr;
      bool ok = false;
      if (pthread_attr_init(&attr) == 0) {
        ok = pthread_attr_setstacksize(&attr, s->stack_size()) == 0 &&
             pthread_create(&s->worker, &attr, [](void *stream) -> void * {
               static_cast<ji_stream *>(stream)->run();
               return nullptr;
             }, s) == 0;
        pthread_attr_destroy(&attr);
      }
      s->has_worker = s->started = ok;
      if (!ok) s->threaded = false;  // no thread to be had: parse on the reader's thread
    }
    return s;
  } catch (...) {
    return nullptr;
  }
}

// Sets the path of `s`, whose worker (if any) waits for it; false when out of memory.
static bool set_path(ji_stream *s, const uint8_t *const *path, const size_t *path_lengths, size_t path_count) {
  std::lock_guard<std::mutex> lock(s->m);
  try {
    for (size_t i = 0; i < path_count; i++)
      s->path_storage.emplace_back(reinterpret_cast<const char *>(path[i]), path_lengths[i]);
    for (auto &key : s->path_storage) s->path.emplace_back(key);
  } catch (...) {
    return false;
  }
  s->routed = true;
  s->cv.notify_all();
  return true;
}

ji_stream *ji_stream_start(ji_parser *p, const uint8_t *buf, size_t len, const uint8_t *const *path,
                           const size_t *path_lengths, size_t path_count, size_t batch_nodes) {
  // A worker started now waits for the path, set next.
  ji_stream *s = new_stream(p, buf, len, batch_nodes);
  if (s && !set_path(s, path, path_lengths, path_count)) {
    ji_stream_destroy(s);
    return nullptr;
  }
  return s;
}

ji_stream *ji_stream_prepare(ji_parser *p, const uint8_t *buf, size_t len, size_t batch_nodes) {
  if (batch_nodes == 0) return nullptr;
  ji_stream *s = new_stream(p, buf, len, batch_nodes);
  if (s && !s->has_worker) {
    ji_stream_destroy(s);
    return nullptr;
  }
  return s;
}

int ji_stream_route(ji_stream *s, const uint8_t *const *path, const size_t *path_lengths, size_t path_count) {
  return set_path(s, path, path_lengths, path_count) ? 1 : 0;
}

int ji_stream_next(ji_stream *s, const ji_node **nodes, size_t *count) {
  if (!s->started) {
    s->started = true;
    s->run();
  }
  std::unique_lock<std::mutex> lock(s->m);
  if (s->previous.capacity() > 0) {
    s->previous.clear();
    s->spare.push_back(std::move(s->previous));
  }
  s->previous = std::move(s->held);
  s->held = std::vector<ji_node>();
  s->cv.wait(lock, [&] { return !s->ready.empty() || s->finished; });
  if (!s->ready.empty()) {
    s->held = std::move(s->ready.front());
    s->ready.erase(s->ready.begin());
    s->cv.notify_all();
    *nodes = s->held.data();
    *count = s->held.size();
    return 1;
  }
  *nodes = nullptr;
  *count = 0;
  return s->error ? -1 : 0;
}

long ji_stream_error_record(ji_stream *s) {
  std::lock_guard<std::mutex> lock(s->m);
  return s->position == ji_stream::in_records ? long(s->records_done) : -1;
}

int ji_stream_shape(ji_stream *s) {
  std::lock_guard<std::mutex> lock(s->m);
  return s->shape_;
}

void ji_stream_destroy(ji_stream *s) {
  {
    std::lock_guard<std::mutex> lock(s->m);
    s->cancelled = true;
    s->cv.notify_all();
  }
  if (s->has_worker) pthread_join(s->worker, nullptr);
  delete s;
}

const ji_node *ji_nodes(const ji_parser *p, size_t *count) {
  *count = p->nodes.size();
  return p->nodes.data();
}

const char *ji_error_message(const ji_parser *p) { return p->message.c_str(); }

size_t ji_error_offset(const ji_parser *p) { return p->error_offset; }

void ji_line_column(const uint8_t *buf, size_t len, size_t offset, size_t *line, size_t *column) {
  if (offset > len) offset = len;
  size_t lines = 1, line_start = 0;
  for (const void *nl; (nl = memchr(buf + line_start, '\n', offset - line_start)) != nullptr;) {
    line_start = size_t(static_cast<const uint8_t *>(nl) - buf) + 1;
    lines++;
  }
  size_t characters = 1;
  for (size_t i = line_start; i < offset; i++)
    if ((buf[i] & 0xC0) != 0x80) characters++;
  *line = lines;
  *column = characters;
}

}  // extern "C"

#if JI_HASWELL_REGION
#pragma clang attribute pop
#endif

// Outside the target region: it must run on any x86-64 CPU.
extern "C" int ji_cpu_supported(void) {
#if JI_HASWELL_REGION
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("pclmul") &&
         __builtin_cpu_supports("popcnt");
#else
  return 1;
#endif
}
