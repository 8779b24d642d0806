#include "backend/cpu/copy.h"

#include "backend/cpu/loops.h"
#include "kernels/cast.h"

namespace ingot {

void cpu_copy_kernel(const TensorIteratorBase& iter) {
  visit_dtype(iter.dtype(0), [&](auto out_tag) {
    using Out = typename decltype(out_tag)::type;
    visit_dtype(iter.input_dtype(0), [&](auto in_tag) {
      using In = typename decltype(in_tag)::type;
      cpu_kernel(iter, [](In v) -> Out { return convert<Out>(v); });
    });
  });
}

void cpu_fill_kernel(const TensorIteratorBase& iter, const Scalar& value) {
  visit_dtype(iter.dtype(0), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T v;
    switch (value.kind()) {
      case Scalar::Kind::Float:
        v = convert<T>(value.to<double>());
        break;
      case Scalar::Kind::Int:
        v = convert<T>(value.to<int64_t>());
        break;
      default:
        v = convert<T>(value.to<bool>());
        break;
    }
    cpu_kernel(iter, [v]() -> T { return v; });
  });
}

}  // namespace ingot
