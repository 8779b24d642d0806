#include "ingot/scalar.h"

#include <charconv>
#include <cmath>
#include <string>

namespace ingot {

// Python's repr: True/False, integers as is, floats in shortest round-trip form with ".0" added
// to whole numbers so 2.0 stays distinguishable from 2.
std::ostream& operator<<(std::ostream& os, const Scalar& s) {
  switch (s.kind()) {
    case Scalar::Kind::Bool:
      return os << (s.to<bool>() ? "True" : "False");
    case Scalar::Kind::Int:
      return os << s.to<int64_t>();
    case Scalar::Kind::Float: {
      const double d = s.to<double>();
      if (std::isnan(d)) return os << "nan";
      if (std::isinf(d)) return os << (d < 0 ? "-inf" : "inf");
      char buf[64];
      const auto res = std::to_chars(buf, buf + sizeof(buf), d);
      std::string text(buf, res.ptr);
      if (text.find_first_of(".e") == std::string::npos) text += ".0";
      return os << text;
    }
  }
  return os;
}

}  // namespace ingot
