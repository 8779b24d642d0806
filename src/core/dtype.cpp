#include "ingot/dtype.h"

namespace ingot {

std::optional<ScalarType> dtype_from_name(std::string_view name) {
#define INGOT_DTYPE_PARSE(cpp, enumerator, str) \
  if (name == #str) return ScalarType::enumerator;
  INGOT_FORALL_SCALAR_TYPES(INGOT_DTYPE_PARSE)
#undef INGOT_DTYPE_PARSE
  return std::nullopt;
}

}  // namespace ingot
