#include "ingot/storage.h"

namespace ingot {

Storage Storage::allocate(size_t nbytes, Device device) {
  Allocator& allocator = allocator_for(device.type);
  Storage s;
  s.impl_ = std::make_shared<Impl>();
  s.impl_->data = allocator.allocate(nbytes, device);
  s.impl_->nbytes = nbytes;
  s.impl_->device = device;
  s.impl_->allocator = &allocator;
  return s;
}

Storage Storage::from_blob(void* data, size_t nbytes, Device device,
                           std::function<void(void*)> deleter) {
  Storage s;
  s.impl_ = std::make_shared<Impl>();
  s.impl_->data = data;
  s.impl_->nbytes = nbytes;
  s.impl_->device = device;
  s.impl_->deleter = std::move(deleter);
  return s;
}

}  // namespace ingot
