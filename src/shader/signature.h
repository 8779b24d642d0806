// The __global__ functions of a compile_shader source and their parameter lists, read from the
// text (comments and literals blanked first), so that arguments bind by declared type on every
// backend. Macros are not expanded: a kernel signature must be written out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ingot/scalar_type.h"

namespace ingot::shader {

// The C scalar types a parameter can have; Half/BFloat16 share ingot's 16-bit layouts.
enum class CType : uint8_t { Bool, I8, U8, I16, U16, I32, U32, I64, U64, F16, BF16, F32, F64, Void };

enum class ParamKind : uint8_t {
  Scalar,        // by value
  Pointer,       // T*: a tensor
  PointerArray,  // T**, T* const*: a list of tensors
  ErrorBuffer,   // ingot::ErrorBuffer*: bound by ingot
  Unsupported,   // a struct by value, ...: an error when launched
};

struct ParamType {
  ParamKind kind = ParamKind::Unsupported;
  CType ctype = CType::Void;  // the element type for pointers
  std::string spelled;        // the declaration's type text, template arguments substituted
};

struct ParsedParam {
  std::string name;
  std::string type_text;  // before template substitution
};

struct ParsedKernel {
  std::string name;
  std::vector<std::string> template_params;  // names, in order; empty for a plain kernel
  std::vector<ParsedParam> params;
};

// Every __global__ function defined or declared in `source`, first occurrence of a name kept.
std::vector<ParsedKernel> parse_kernels(const std::string& source);

// "scale<float, 4>" -> {"scale", {"float", "4"}}; a plain name has no arguments.
struct KernelRequest {
  std::string base;
  std::vector<std::string> template_args;
};
KernelRequest parse_kernel_request(const std::string& name);

// The type of `param` with the kernel's template parameters replaced by `args`.
ParamType classify_param(const ParsedParam& param, const std::vector<std::string>& template_params,
                         const std::vector<std::string>& args);

// The ingot dtype whose elements a CType pointer reads (nullopt for U16/U32/U64 and void).
std::optional<ScalarType> dtype_of_ctype(CType t);
const char* ctype_name(CType t);
int ctype_size(CType t);

}  // namespace ingot::shader
