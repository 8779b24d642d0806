// NumPy/PyTorch-style printing: nested brackets, one column width, a shared float format, and
// "..." for tensors over kSummarizeThreshold elements (three items kept at each end of a dim).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/element.h"
#include "ingot/factories.h"
#include "ingot/tensor.h"

namespace ingot {

namespace {

constexpr int64_t kSummarizeThreshold = 1000;
constexpr int64_t kEdgeItems = 3;
constexpr int64_t kEllipsis = -1;

enum class FloatStyle { Integral, Fixed, Scientific };

class Printer {
 public:
  explicit Printer(const Tensor& t) : t_(t), summarize_(t.numel() > kSummarizeThreshold) {
    std::vector<Scalar> shown;
    collect(0, static_cast<const char*>(t_.data_ptr()), shown);
    style_ = choose_style(shown);
    for (const Scalar& s : shown) width_ = std::max(width_, format(s).size());
  }

  void render(std::ostream& os, int64_t d, const char* p, size_t indent) const {
    if (d == t_.dim()) {
      const std::string s = format(read_element(t_.dtype(), p));
      os << std::string(width_ - s.size(), ' ') << s;
      return;
    }
    os << '[';
    bool first = true;
    for (int64_t i : shown_indices(d)) {
      if (!first) {
        if (d == t_.dim() - 1) {
          os << ", ";
        } else {
          os << ',' << std::string(static_cast<size_t>(t_.dim() - d - 1), '\n')
             << std::string(indent + 1, ' ');
        }
      }
      first = false;
      if (i == kEllipsis) {
        os << "...";
      } else {
        render(os, d + 1, element(p, d, i), indent + 1);
      }
    }
    os << ']';
  }

 private:
  std::vector<int64_t> shown_indices(int64_t d) const {
    const int64_t n = t_.size(d);
    std::vector<int64_t> out;
    if (!summarize_ || n <= 2 * kEdgeItems) {
      for (int64_t i = 0; i < n; ++i) out.push_back(i);
      return out;
    }
    for (int64_t i = 0; i < kEdgeItems; ++i) out.push_back(i);
    out.push_back(kEllipsis);
    for (int64_t i = n - kEdgeItems; i < n; ++i) out.push_back(i);
    return out;
  }

  const char* element(const char* p, int64_t d, int64_t i) const {
    return p + i * t_.stride(d) * static_cast<int64_t>(t_.itemsize());
  }

  void collect(int64_t d, const char* p, std::vector<Scalar>& out) const {
    if (d == t_.dim()) {
      out.push_back(read_element(t_.dtype(), p));
      return;
    }
    for (int64_t i : shown_indices(d)) {
      if (i != kEllipsis) collect(d + 1, element(p, d, i), out);
    }
  }

  static FloatStyle choose_style(const std::vector<Scalar>& values) {
    double max_abs = 0, min_abs = INFINITY;
    bool integral = true;
    for (const Scalar& s : values) {
      if (!s.is_floating_point()) return FloatStyle::Integral;
      const double v = s.to<double>();
      if (!std::isfinite(v)) continue;
      integral = integral && v == std::nearbyint(v);
      if (v != 0) {
        max_abs = std::max(max_abs, std::fabs(v));
        min_abs = std::min(min_abs, std::fabs(v));
      }
    }
    if (integral && max_abs < 1e8) return FloatStyle::Integral;
    if (max_abs >= 1e8 || min_abs < 1e-4 || max_abs / min_abs > 1e3) return FloatStyle::Scientific;
    return FloatStyle::Fixed;
  }

  std::string format(const Scalar& s) const {
    if (s.is_bool()) return s.to<bool>() ? "True" : "False";
    if (s.is_integral()) return std::to_string(s.to<int64_t>());
    const double v = s.to<double>();
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    char buf[64];
    switch (style_) {
      case FloatStyle::Integral:
        std::snprintf(buf, sizeof(buf), "%.0f.", v);
        break;
      case FloatStyle::Fixed:
        std::snprintf(buf, sizeof(buf), "%.4f", v);
        break;
      case FloatStyle::Scientific:
        std::snprintf(buf, sizeof(buf), "%.4e", v);
        break;
    }
    return buf;
  }

  const Tensor& t_;
  bool summarize_;
  FloatStyle style_ = FloatStyle::Fixed;
  size_t width_ = 0;
};

}  // namespace

std::string Tensor::str() const {
  if (!defined()) return "tensor(undefined)";
  std::ostringstream os;
  const std::string prefix = "tensor(";
  os << prefix;
  if (numel() == 0) {
    os << "[]";
    if (dim() != 1) {
      os << ", size=(";
      for (int64_t d = 0; d < dim(); ++d) os << (d ? ", " : "") << size(d);
      os << ')';
    }
  } else {
    Tensor host = *this;
    if (!device().is_cpu()) {
      host = empty(sizes(), dtype());
      host.copy_(*this);
    }
    Printer(host).render(os, 0, static_cast<const char*>(host.data_ptr()), prefix.size());
  }
  os << ", dtype=" << dtype();
  if (!device().is_cpu()) os << ", device=" << device();
  os << ')';
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const Tensor& t) { return os << t.str(); }

}  // namespace ingot
