// Refcounted device memory. Tensors share a Storage; views differ only in sizes, strides, offset.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

#include "ingot/device.h"

namespace ingot {

// Hands out raw memory of one device type (each backend registers its own; CPU memory is
// 64-byte aligned, CUDA memory comes from stream-ordered pools). `device` picks the device's index.
class Allocator {
 public:
  virtual ~Allocator() = default;
  virtual void* allocate(size_t nbytes, Device device) = 0;
  // `nbytes` is what allocate() was asked for.
  virtual void deallocate(void* ptr, size_t nbytes, Device device) = 0;
};

// The allocator registered for `type`; throws NotImplementedError when none is.
Allocator& allocator_for(DeviceType type);
// Backends call this once at start-up (static registration); null removes the entry (tests).
void register_allocator(DeviceType type, Allocator* allocator);

class Storage {
 public:
  Storage() = default;
  // Fresh memory of `nbytes` from the device's allocator (never null, even for 0 bytes).
  static Storage allocate(size_t nbytes, Device device);
  // Wraps memory the caller owns; `deleter` (if any) runs when the last reference goes.
  static Storage from_blob(void* data, size_t nbytes, Device device,
                           std::function<void(void*)> deleter = {});

  bool defined() const { return static_cast<bool>(impl_); }
  void* data() const { return impl_ ? impl_->data : nullptr; }
  size_t nbytes() const { return impl_ ? impl_->nbytes : 0; }
  Device device() const { return impl_ ? impl_->device : Device(); }
  long use_count() const { return impl_.use_count(); }
  bool is_same(const Storage& other) const { return impl_ == other.impl_; }

 private:
  struct Impl {
    Impl() noexcept {}  // user-provided: make_shared need not zero it first
    void* data = nullptr;
    size_t nbytes = 0;
    Device device;
    Allocator* allocator = nullptr;  // allocate(): hands the memory back to it (no deleter to allocate)
    std::function<void(void*)> deleter;
    ~Impl() {
      if (allocator != nullptr) {
        allocator->deallocate(data, nbytes, device);
      } else if (deleter) {
        deleter(data);
      }
    }
  };
  std::shared_ptr<Impl> impl_;
};

}  // namespace ingot
