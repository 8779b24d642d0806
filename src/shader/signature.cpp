#include "shader/signature.h"

#include <cctype>
#include <string_view>

#include "ingot/error.h"

namespace ingot::shader {
namespace {

bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The source with comments and the contents of string/char literals replaced by spaces (newlines
// kept), so that the scanner below sees only code.
std::string blank_comments_and_literals(const std::string& s) {
  std::string out = s;
  size_t i = 0;
  const size_t n = s.size();
  while (i < n) {
    if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') out[i++] = ' ';
    } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
      out[i] = out[i + 1] = ' ';
      i += 2;
      while (i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/')) {
        if (s[i] != '\n') out[i] = ' ';
        ++i;
      }
      if (i < n) out[i] = out[i + 1] = ' ', i += 2;
    } else if (s[i] == '"' || s[i] == '\'') {
      const char q = s[i++];
      while (i < n && s[i] != q && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < n) out[i++] = ' ';
        out[i++] = ' ';
      }
      ++i;
    } else if (s[i] == '#') {  // preprocessor lines: not code the scanner should read
      while (i < n && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n') out[i++] = ' ';
        out[i++] = ' ';
      }
    } else {
      ++i;
    }
  }
  return out;
}

std::string trim(std::string_view v) {
  size_t b = 0, e = v.size();
  while (b < e && std::isspace(static_cast<unsigned char>(v[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(v[e - 1]))) --e;
  return std::string(v.substr(b, e - b));
}

// Splits at commas outside (), <>, [] and {}.
std::vector<std::string> split_top_level(std::string_view v) {
  std::vector<std::string> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    const char c = v[i];
    if (c == '(' || c == '<' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == '>' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(trim(v.substr(start, i - start)));
      start = i + 1;
    }
  }
  std::string last = trim(v.substr(start));
  if (!last.empty() || !parts.empty()) parts.push_back(last);
  return parts;
}

// The index of the bracket matching the one at `open` (forward), or npos.
size_t match_forward(const std::string& s, size_t open, char o, char c) {
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    if (s[i] == o) ++depth;
    if (s[i] == c && --depth == 0) return i;
  }
  return std::string::npos;
}

std::vector<std::string> tokens(std::string_view v) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < v.size()) {
    if (std::isspace(static_cast<unsigned char>(v[i]))) {
      ++i;
    } else if (is_ident_char(v[i])) {
      size_t j = i;
      while (j < v.size() && (is_ident_char(v[j]) || (v[j] == ':' && j + 1 < v.size() && v[j + 1] == ':'))) {
        j += v[j] == ':' ? 2 : 1;
      }
      out.emplace_back(v.substr(i, j - i));
      i = j;
    } else if (v[i] == ':' && i + 1 < v.size() && v[i + 1] == ':') {  // a leading ::
      size_t j = i + 2;
      while (j < v.size() && (is_ident_char(v[j]) || (v[j] == ':' && j + 1 < v.size() && v[j + 1] == ':'))) {
        j += v[j] == ':' ? 2 : 1;
      }
      out.emplace_back(v.substr(i, j - i));
      i = j;
    } else {
      out.emplace_back(1, v[i++]);
    }
  }
  return out;
}

// The template parameter names before `pos` when "template <...>" directly precedes it.
std::vector<std::string> template_params_before(const std::string& s, size_t pos) {
  size_t i = pos;
  // Skip back over specifiers that may sit between the template header and __global__.
  for (;;) {
    while (i > 0 && std::isspace(static_cast<unsigned char>(s[i - 1]))) --i;
    size_t j = i;
    while (j > 0 && is_ident_char(s[j - 1])) --j;
    const std::string word = s.substr(j, i - j);
    if (word == "static" || word == "inline" || word == "extern") {
      i = j;
      continue;
    }
    if (i >= 3 && s.compare(i - 3, 3, "\" \"") == 0) {  // extern "C" after blanking
      i -= 3;
      continue;
    }
    break;
  }
  if (i == 0 || s[i - 1] != '>') return {};
  int depth = 0;
  size_t open = std::string::npos;
  for (size_t k = i; k-- > 0;) {
    if (s[k] == '>') ++depth;
    if (s[k] == '<' && --depth == 0) {
      open = k;
      break;
    }
  }
  if (open == std::string::npos) return {};
  size_t k = open;
  while (k > 0 && std::isspace(static_cast<unsigned char>(s[k - 1]))) --k;
  if (k < 8 || s.compare(k - 8, 8, "template") != 0) return {};
  std::vector<std::string> names;
  for (const std::string& p : split_top_level(std::string_view(s).substr(open + 1, i - 2 - open))) {
    std::string decl = p.substr(0, p.find('='));
    const std::vector<std::string> t = tokens(decl);
    if (!t.empty()) names.push_back(t.back());
  }
  return names;
}

}  // namespace

std::vector<ParsedKernel> parse_kernels(const std::string& source) {
  const std::string s = blank_comments_and_literals(source);
  std::vector<ParsedKernel> out;
  const std::string_view key = "__global__";
  for (size_t pos = s.find(key); pos != std::string::npos; pos = s.find(key, pos + key.size())) {
    if ((pos > 0 && is_ident_char(s[pos - 1])) ||
        (pos + key.size() < s.size() && is_ident_char(s[pos + key.size()]))) {
      continue;
    }
    // The name is the identifier before the first '(' that is not __launch_bounds__(...).
    size_t i = pos + key.size();
    std::string name;
    size_t open = std::string::npos;
    while (i < s.size()) {
      if (s[i] == '(') {
        size_t e = i;
        while (e > 0 && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
        size_t b = e;
        while (b > 0 && is_ident_char(s[b - 1])) --b;
        const std::string word = s.substr(b, e - b);
        if (word == "__launch_bounds__" || word == "__attribute__" || word == "alignas") {
          i = match_forward(s, i, '(', ')');
          if (i == std::string::npos) break;
          ++i;
          continue;
        }
        name = word;
        open = i;
        break;
      }
      if (s[i] == ';' || s[i] == '{') break;
      ++i;
    }
    if (open == std::string::npos || name.empty()) continue;
    const size_t close = match_forward(s, open, '(', ')');
    if (close == std::string::npos) continue;
    bool known = false;
    for (const ParsedKernel& k : out) known = known || k.name == name;
    if (known) continue;
    ParsedKernel k;
    k.name = name;
    k.template_params = template_params_before(s, pos);
    for (const std::string& p : split_top_level(std::string_view(s).substr(open + 1, close - open - 1))) {
      if (p == "void" || p.empty()) continue;
      std::string decl = trim(p.substr(0, p.find('=')));
      const std::vector<std::string> t = tokens(decl);
      ParsedParam param;
      // The last identifier is the name when there is a type before it ("float* x").
      if (t.size() >= 2 && is_ident_char(t.back().back()) && t.back() != "__restrict__" &&
          t.back() != "const") {
        param.name = t.back();
        param.type_text = trim(decl.substr(0, decl.rfind(t.back())));
      } else {
        param.name = "arg" + std::to_string(k.params.size());
        param.type_text = decl;
      }
      k.params.push_back(std::move(param));
    }
    out.push_back(std::move(k));
  }
  return out;
}

KernelRequest parse_kernel_request(const std::string& name) {
  KernelRequest r;
  const size_t lt = name.find('<');
  if (lt == std::string::npos) {
    r.base = trim(name);
    return r;
  }
  const size_t gt = name.rfind('>');
  INGOT_CHECK(gt != std::string::npos && gt > lt && trim(name.substr(gt + 1)).empty(), ValueError,
              "compile_shader: kernel name '", name, "' is not of the form name<arg, ...>");
  r.base = trim(name.substr(0, lt));
  r.template_args = split_top_level(std::string_view(name).substr(lt + 1, gt - lt - 1));
  return r;
}

namespace {

std::optional<CType> ctype_of_words(const std::vector<std::string>& words) {
  std::string w;
  for (const std::string& t : words) (w += w.empty() ? "" : " ") += t;
  struct Name {
    const char* spelled;
    CType t;
  };
  static const Name names[] = {
      {"bool", CType::Bool},           {"char", CType::I8},
      {"signed char", CType::I8},      {"int8_t", CType::I8},
      {"unsigned char", CType::U8},    {"uint8_t", CType::U8},
      {"short", CType::I16},           {"short int", CType::I16},
      {"int16_t", CType::I16},         {"unsigned short", CType::U16},
      {"uint16_t", CType::U16},        {"int", CType::I32},
      {"signed", CType::I32},          {"signed int", CType::I32},
      {"int32_t", CType::I32},         {"unsigned", CType::U32},
      {"unsigned int", CType::U32},    {"uint32_t", CType::U32},
      {"long", CType::I64},            {"long int", CType::I64},
      {"long long", CType::I64},       {"long long int", CType::I64},
      {"int64_t", CType::I64},         {"ptrdiff_t", CType::I64},
      {"intptr_t", CType::I64},        {"unsigned long", CType::U64},
      {"unsigned long long", CType::U64}, {"uint64_t", CType::U64},
      {"size_t", CType::U64},          {"uintptr_t", CType::U64},
      {"half", CType::F16},            {"__half", CType::F16},
      {"Half", CType::F16},            {"ingot::Half", CType::F16},
      {"__nv_bfloat16", CType::BF16},  {"bfloat16", CType::BF16},
      {"BFloat16", CType::BF16},       {"ingot::BFloat16", CType::BF16},
      {"float", CType::F32},           {"double", CType::F64},
      {"void", CType::Void},
  };
  if (w.rfind("::", 0) == 0) w = w.substr(2);
  if (w.rfind("std::", 0) == 0) w = w.substr(5);
  for (const Name& n : names) {
    if (w == n.spelled) return n.t;
  }
  return std::nullopt;
}

}  // namespace

ParamType classify_param(const ParsedParam& param, const std::vector<std::string>& template_params,
                         const std::vector<std::string>& args) {
  ParamType out;
  std::vector<std::string> words;
  int stars = 0;
  bool ref = false;
  for (std::string t : tokens(param.type_text)) {
    for (size_t k = 0; k < template_params.size() && k < args.size(); ++k) {
      if (t == template_params[k]) t = args[k];
    }
    if (t == "*") {
      ++stars;
    } else if (t == "&") {
      ref = true;
    } else if (t != "const" && t != "volatile" && t != "__restrict__" && t != "__restrict" &&
               t != "restrict") {
      if (stars > 0 && t != "ingot::ErrorBuffer") words.push_back("?");  // e.g. "float* int"
      for (const std::string& sub : tokens(t)) words.push_back(sub);  // substituted "unsigned int"
    }
    (out.spelled += out.spelled.empty() || t == "*" ? "" : " ") += t;
  }
  if (ref) return out;
  if (words.size() == 1 && stars == 1 &&
      (words[0] == "ingot::ErrorBuffer" || words[0] == "::ingot::ErrorBuffer" || words[0] == "ErrorBuffer")) {
    out.kind = ParamKind::ErrorBuffer;
    return out;
  }
  const std::optional<CType> t = ctype_of_words(words);
  if (!t) return out;
  out.ctype = *t;
  if (stars == 0 && *t != CType::Void) out.kind = ParamKind::Scalar;
  if (stars == 1) out.kind = ParamKind::Pointer;
  if (stars == 2) out.kind = ParamKind::PointerArray;
  return out;
}

std::optional<ScalarType> dtype_of_ctype(CType t) {
  switch (t) {
    case CType::Bool: return kBool;
    case CType::I8: return kInt8;
    case CType::U8: return kUInt8;
    case CType::I16: return kInt16;
    case CType::I32: return kInt32;
    case CType::I64: return kInt64;
    case CType::F16: return kFloat16;
    case CType::BF16: return kBFloat16;
    case CType::F32: return kFloat32;
    case CType::F64: return kFloat64;
    default: return std::nullopt;
  }
}

const char* ctype_name(CType t) {
  static const char* const names[] = {"bool",  "int8",  "uint8",   "int16",    "uint16",
                                      "int32", "uint32", "int64",  "uint64",   "float16",
                                      "bfloat16", "float32", "float64", "void"};
  return names[static_cast<int>(t)];
}

int ctype_size(CType t) {
  static const int sizes[] = {1, 1, 1, 2, 2, 4, 4, 8, 8, 2, 2, 4, 8, 0};
  return sizes[static_cast<int>(t)];
}

}  // namespace ingot::shader
