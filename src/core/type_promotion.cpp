#include "ingot/type_promotion.h"

#include <optional>

namespace ingot {

namespace {

// Rank of a floating dtype by range; float16 and bfloat16 share a rank because neither holds the other.
int float_rank(ScalarType t) {
  switch (t) {
    case kFloat16:
    case kBFloat16:
      return 0;
    case kFloat32:
      return 1;
    default:
      return 2;
  }
}

ScalarType promote_integral(ScalarType a, ScalarType b) {
  if (is_signed_type(a) == is_signed_type(b)) return element_size(a) >= element_size(b) ? a : b;
  const ScalarType s = is_signed_type(a) ? a : b;  // the other one is uint8, the only unsigned type
  return element_size(s) > 1 ? s : kInt16;
}

enum class Category { Bool, Integral, Floating };

Category category(ScalarType t) {
  if (t == kBool) return Category::Bool;
  return is_floating_type(t) ? Category::Floating : Category::Integral;
}

std::optional<ScalarType> promote_opt(std::optional<ScalarType> a, std::optional<ScalarType> b) {
  if (!a) return b;
  if (!b) return a;
  return promote_types(*a, *b);
}

// A lower-priority group (0-dim tensors, wrapped numbers) changes the result only when its
// category is higher than the higher-priority group's.
std::optional<ScalarType> combine_categories(std::optional<ScalarType> higher,
                                             std::optional<ScalarType> lower) {
  if (!higher) return lower;
  if (!lower) return higher;
  if (category(*lower) > category(*higher)) return promote_types(*higher, *lower);
  return higher;
}

struct ResultTypeState {
  std::optional<ScalarType> dimensioned, zero_dim, wrapped;

  void add(ScalarType dtype, bool is_wrapped, bool is_zero_dim) {
    if (is_wrapped) {
      // A wrapped float stands for the default floating dtype, not its C++ width.
      wrapped = promote_opt(wrapped, is_floating_type(dtype) ? kFloat32 : dtype);
    } else if (is_zero_dim) {
      zero_dim = promote_opt(zero_dim, dtype);
    } else {
      dimensioned = promote_opt(dimensioned, dtype);
    }
  }
  ScalarType result() const {
    const auto r = combine_categories(dimensioned, combine_categories(zero_dim, wrapped));
    INGOT_CHECK(r.has_value(), ValueError, "result_type: needs at least one operand");
    return *r;
  }
};

}  // namespace

ScalarType promote_types(ScalarType a, ScalarType b) {
  if (a == b) return a;
  if (a == kBool) return b;
  if (b == kBool) return a;
  const bool fa = is_floating_type(a), fb = is_floating_type(b);
  if (fa && fb) {
    if (float_rank(a) == float_rank(b)) return kFloat32;  // float16 + bfloat16
    return float_rank(a) > float_rank(b) ? a : b;
  }
  if (fa) return a;
  if (fb) return b;
  return promote_integral(a, b);
}

ScalarType result_type(const std::vector<TensorOrScalar>& operands) {
  ResultTypeState state;
  for (const auto& op : operands) {
    if (const auto* t = std::get_if<Tensor>(&op)) {
      INGOT_CHECK(t->defined(), ValueError, "result_type: operand is an undefined tensor");
      state.add(t->dtype(), t->is_wrapped_number(), t->dim() == 0);
    } else {
      state.add(std::get<Scalar>(op).dtype(), true, true);
    }
  }
  return state.result();
}

ScalarType tensors_result_type(ArrayRef<Tensor> tensors) {
  ResultTypeState state;
  for (const Tensor& t : tensors) {
    INGOT_CHECK(t.defined(), ValueError, "result_type: operand is an undefined tensor");
    state.add(t.dtype(), t.is_wrapped_number(), t.dim() == 0);
  }
  return state.result();
}

ScalarType tensors_result_type(ArrayRef<const Tensor*> tensors) {
  ResultTypeState state;
  for (const Tensor* t : tensors) {
    INGOT_CHECK(t->defined(), ValueError, "result_type: operand is an undefined tensor");
    state.add(t->dtype(), t->is_wrapped_number(), t->dim() == 0);
  }
  return state.result();
}

ScalarType result_type(const Tensor& a, const Tensor& b) { return result_type({a, b}); }

ScalarType result_type(const Tensor& a, const Scalar& b) { return result_type({a, b}); }

bool can_cast(ScalarType from, ScalarType to) {
  if (is_floating_type(from) && is_integral_type(to, false)) return false;
  if (from != kBool && to == kBool) return false;
  return true;
}

}  // namespace ingot
