// Dim ops (softmax-likes and scans): the host side every such op shares. A stub is one call:
// it names its kernel (kernels/ops/softmax.h, kernels/ops/scan.h) and the dtype rule of its family.
#pragma once

#include <optional>
#include <string_view>
#include <tuple>

#include "ingot/tensor.h"

namespace ingot::native {

// Softmax-likes: the result dtype is `dtype`, else self's; either must be floating (TypeError).
Tensor softmax_like(std::string_view op, const Tensor& self, int64_t dim,
                    std::optional<ScalarType> dtype);
Tensor& softmax_like_out(std::string_view op, Tensor& out, const Tensor& self, int64_t dim,
                         std::optional<ScalarType> dtype);

// Value scans: the result dtype is `dtype`, else int64 for bool and integer inputs, else self's.
Tensor scan(std::string_view op, const Tensor& self, int64_t dim, std::optional<ScalarType> dtype);
Tensor& scan_out(std::string_view op, Tensor& out, const Tensor& self, int64_t dim,
                 std::optional<ScalarType> dtype);

// Index scans: values in self's dtype and int64 indices.
std::tuple<Tensor, Tensor> index_scan(std::string_view op, const Tensor& self, int64_t dim);
std::tuple<Tensor&, Tensor&> index_scan_out(std::string_view op, Tensor& values, Tensor& indices,
                                            const Tensor& self, int64_t dim);

}  // namespace ingot::native
