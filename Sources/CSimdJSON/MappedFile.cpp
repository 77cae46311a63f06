// Files mapped into memory for parsing in place (see ji_map_file in CSimdJSON.h).
//
// A mapped file that another process truncates makes reads of the pages past its new end
// raise SIGBUS, which would stop the process. A handler for SIGBUS, installed with the first
// mapping, recognises a fault inside a live mapping, puts a zeroed page of anonymous memory in
// place of the lost one, marks the mapping damaged and returns, so the read goes on with
// zeros; the import then reports the file as changed rather than anything it read from it. A
// fault anywhere else goes to the handler installed before (or to the default action).
#include "CSimdJSON.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>

namespace {

// The live mappings. A slot is claimed by swapping its `start` from 0; the handler reads the
// slots without a lock (it may run on any thread, at any moment).
struct mapping_slot {
  std::atomic<uintptr_t> start{0};
  std::atomic<uintptr_t> end{0};
  std::atomic<int> damaged{0};
};
constexpr int slot_count = 64;
mapping_slot slots[slot_count];

struct sigaction previous_action;
std::once_flag install_once;

size_t page_size() { return size_t(sysconf(_SC_PAGESIZE)); }

// Bytes of a mapping of `size` bytes of a file: whole pages, the padding included.
size_t mapped_length(size_t size) { return (size + ji_padding() + page_size() - 1) & ~(page_size() - 1); }

// Pages mapped at once, read from the file if not cached (Linux); elsewhere as they are read.
#ifdef MAP_POPULATE
constexpr int populate = MAP_POPULATE;
#else
constexpr int populate = 0;
#endif

void on_sigbus(int signal, siginfo_t *info, void *context) {
  uintptr_t address = reinterpret_cast<uintptr_t>(info->si_addr);
  for (auto &slot : slots) {
    uintptr_t start = slot.start.load(std::memory_order_acquire);
    if (start == 0 || address < start || address >= slot.end.load(std::memory_order_acquire)) continue;
    uintptr_t page = address & ~uintptr_t(page_size() - 1);
    void *zeroed = mmap(reinterpret_cast<void *>(page), page_size(), PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (zeroed == MAP_FAILED) break;  // no memory for the page: the fault stands
    slot.damaged.store(1, std::memory_order_release);
    return;
  }
  if (previous_action.sa_flags & SA_SIGINFO) {
    if (previous_action.sa_sigaction) {
      previous_action.sa_sigaction(signal, info, context);
      return;
    }
  } else if (previous_action.sa_handler != SIG_DFL && previous_action.sa_handler != SIG_IGN) {
    previous_action.sa_handler(signal);
    return;
  }
  // The default action: restored, it takes effect when the faulting read runs again.
  struct sigaction restore {};
  restore.sa_handler = SIG_DFL;
  sigemptyset(&restore.sa_mask);
  sigaction(SIGBUS, &restore, nullptr);
}

void install_handler() {
  struct sigaction action {};
  action.sa_sigaction = on_sigbus;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  sigaction(SIGBUS, &action, &previous_action);
}

mapping_slot *slot_of(const uint8_t *base) {
  uintptr_t start = reinterpret_cast<uintptr_t>(base);
  for (auto &slot : slots)
    if (slot.start.load(std::memory_order_acquire) == start) return &slot;
  return nullptr;
}

}  // namespace

extern "C" {

uint8_t *ji_map_file(int fd, size_t size) {
  if (size == 0) {
    errno = EINVAL;
    return nullptr;
  }
  std::call_once(install_once, install_handler);
  // Zeroed anonymous pages for the whole length and the padding, then the file over them:
  // the padding reads as zeros whether or not it falls in the file's last page.
  size_t length = mapped_length(size);
  void *area = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (area == MAP_FAILED) return nullptr;
  mapping_slot *slot = nullptr;
  for (auto &candidate : slots) {
    uintptr_t expected = 0;
    if (candidate.start.compare_exchange_strong(expected, reinterpret_cast<uintptr_t>(area))) {
      slot = &candidate;
      break;
    }
  }
  if (!slot) {
    munmap(area, length);
    errno = EMFILE;
    return nullptr;
  }
  slot->damaged.store(0, std::memory_order_relaxed);
  slot->end.store(reinterpret_cast<uintptr_t>(area) + length, std::memory_order_release);
  if (mmap(area, size, PROT_READ, MAP_PRIVATE | MAP_FIXED | populate, fd, 0) == MAP_FAILED) {
    int error = errno;
    ji_unmap_file(static_cast<uint8_t *>(area), size);
    errno = error;
    return nullptr;
  }
  return static_cast<uint8_t *>(area);
}

int ji_mapped_file_damaged(const uint8_t *base) {
  mapping_slot *slot = slot_of(base);
  return slot && slot->damaged.load(std::memory_order_acquire);
}

void ji_unmap_file(uint8_t *base, size_t size) {
  if (mapping_slot *slot = slot_of(base)) {
    slot->end.store(0, std::memory_order_release);
    slot->start.store(0, std::memory_order_release);
  }
  munmap(base, mapped_length(size));
}

}  // extern "C"
