// The C library allocator's thresholds (see ji_keep_freed_memory in CSimdJSON.h).
#include "CSimdJSON.h"

#include <cstdlib>  // first: it defines __GLIBC__ under glibc
#if defined(__GLIBC__)
#include <malloc.h>
#endif

int ji_keep_freed_memory(long mapping_threshold, long trim_threshold) {
#if defined(__GLIBC__)
  int set = 1;
  if (mapping_threshold > 0) set &= mallopt(M_MMAP_THRESHOLD, int(mapping_threshold)) == 1;
  if (trim_threshold > 0) set &= mallopt(M_TRIM_THRESHOLD, int(trim_threshold)) == 1;
  return set;
#else
  (void)mapping_threshold;
  (void)trim_threshold;
  return 0;
#endif
}

int ji_allocator_maps(size_t size, int count) {
#if defined(__GLIBC__)
  // Held until the end: each block takes a free chunk of the heap, if one is large enough, so
  // that the next has to come from somewhere else.
  void *blocks[64];
  if (count < 1 || count > 64) return -1;
  int mapped = 0, held = 0;
  while (held < count && !mapped) {
    void *block = malloc(size);
    if (!block) break;
    blocks[held++] = block;
    // glibc's chunk header, the word before the block, holds its size with flag bits; 0x2
    // (IS_MMAPPED) marks a block mapped for itself.
    mapped = (reinterpret_cast<size_t *>(block)[-1] & 0x2) != 0;
  }
  for (int i = 0; i < held; i++) free(blocks[i]);
  return held == 0 ? -1 : mapped;
#else
  (void)size;
  (void)count;
  return -1;
#endif
}
