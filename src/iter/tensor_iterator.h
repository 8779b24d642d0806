// TensorIterator (DESIGN.md §5): broadcasts operands, picks the common dtype, allocates or checks
// outputs, reorders dims so dim 0 moves fastest, coalesces dims, and hands kernels byte strides.
// Stubs and kernel libraries take TensorIteratorBase&, never Tensor&: only the iterator knows the
// sub-range a 32-bit split selected.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ingot/tensor.h"
#include "iter/function_ref.h"

namespace ingot {

struct OperandInfo {
  // User-provided, so emplacing one does not zero it first (every member has an initializer).
  OperandInfo() noexcept {}

  Tensor tensor;                      // the operand, broadcast and permuted views not applied
  char* data = nullptr;               // element 0 of this (sub-)iteration
  DimVector stride_bytes;  // per iteration dim, dim 0 fastest; 0 where broadcast
  ScalarType dtype = kFloat32;        // the operand's dtype as stored
  bool is_output = false;
  bool will_resize = false;  // output allocated or resized by the iterator
};

class TensorIteratorBase;
class TensorIterator;

class TensorIteratorConfig {
 public:
  // Outputs first, then inputs. An undefined output tensor is allocated by build().
  TensorIteratorConfig& add_output(const Tensor& t);
  TensorIteratorConfig& add_input(const Tensor& t);
  // Name used in error messages ("add: shapes [2, 3] and [4] cannot be broadcast"); not copied:
  // a literal, or text that outlives the iterator built from this config.
  TensorIteratorConfig& name(std::string_view op_name);
  // Default true: every operand must share one dtype (else TypeError).
  TensorIteratorConfig& check_all_same_dtype(bool v);
  // Compute the common dtype of the inputs by type promotion.
  TensorIteratorConfig& promote_inputs_to_common_dtype(bool v);
  // With promotion: an integral/bool common dtype becomes float32 (true division, atan2, exp).
  TensorIteratorConfig& promote_integer_inputs_to_float(bool v);
  // Outputs allocated by the iterator get the common dtype.
  TensorIteratorConfig& cast_common_dtype_to_outputs(bool v);
  // A given output must satisfy can_cast(common dtype, output dtype) (else TypeError).
  TensorIteratorConfig& enforce_safe_casting_to_output(bool v);
  // Default true: outputs may be allocated/resized to the broadcast shape.
  TensorIteratorConfig& resize_outputs(bool v);
  // Fixes the dtype of allocated outputs (comparisons: bool) regardless of the common dtype.
  TensorIteratorConfig& declare_static_output_dtype(ScalarType dtype);
  // Fixes the common dtype instead of computing it (where: the condition takes no part).
  TensorIteratorConfig& declare_static_common_dtype(ScalarType dtype);
  // Default true: reject outputs with internal overlap and inputs that partially overlap an output.
  TensorIteratorConfig& check_mem_overlap(bool v);
  // Default false. True: operands added after this are referred to, not shared (no reference
  // counting); for callers whose tensors outlive the iterator (TensorIteratorBase::borrow_operands).
  TensorIteratorConfig& borrow_operands(bool v);

  // Moves the operands into the iterator (no reference-count traffic): a config builds once.
  TensorIterator build();

 private:
  friend class TensorIteratorBase;
  SmallVector<Tensor, 4> tensors_;
  int num_outputs_ = 0;
  std::string_view name_ = "op";  // a literal, or text that outlives the iterator (name())
  bool check_all_same_dtype_ = true;
  bool promote_inputs_to_common_dtype_ = false;
  bool promote_integer_inputs_to_float_ = false;
  bool cast_common_dtype_to_outputs_ = false;
  bool enforce_safe_casting_to_output_ = false;
  bool resize_outputs_ = true;
  std::optional<ScalarType> static_output_dtype_;
  std::optional<ScalarType> static_common_dtype_;
  bool check_mem_overlap_ = true;
  bool borrow_operands_ = false;
};

class TensorIteratorBase {
 public:
  int ndim() const { return static_cast<int>(shape_.size()); }
  IntArrayRef shape() const { return shape_; }
  int64_t numel() const;
  int ntensors() const { return static_cast<int>(operands_.size()); }
  int noutputs() const { return num_outputs_; }
  int ninputs() const { return ntensors() - num_outputs_; }
  // The op's name for error messages. Names are not copied (no per-call string building): they
  // are string literals, or text that outlives the iterator and its config.
  std::string_view name() const { return name_; }

  const Tensor& tensor(int arg) const { return operands_[arg].tensor; }
  const Tensor& output(int i = 0) const { return operands_[i].tensor; }
  // Moves output `i` out of the iterator (the structured ops' result: no reference-count traffic);
  // the iterator is done with after this.
  Tensor take_output(int i = 0) { return std::move(operands_[i].tensor); }
  const Tensor& input(int i = 0) const { return operands_[num_outputs_ + i].tensor; }
  ScalarType dtype(int arg = 0) const { return operands_[arg].dtype; }
  ScalarType input_dtype(int i = 0) const { return operands_[num_outputs_ + i].dtype; }
  // The dtype the op computes in (set when promoting; else the inputs' shared dtype).
  ScalarType common_dtype() const { return common_dtype_; }
  Device device() const { return device_; }
  DeviceType device_type() const { return device_.type; }

  IntArrayRef strides(int arg) const { return operands_[arg].stride_bytes; }  // bytes
  char* data_ptr(int arg) const { return operands_[arg].data; }
  const OperandInfo& operand(int arg) const { return operands_[arg]; }

  // Every operand is contiguous in iteration order (one dim, stride == itemsize), or numel <= 1.
  bool is_contiguous() const;
  // Operand `arg` is a single element repeated (every stride zero).
  bool is_scalar(int arg) const;
  // Operand `arg` is a 0-dim CPU input on a non-CPU iterator: read it on the host, pass it by value.
  bool is_cpu_scalar(int arg) const;
  // Operand `arg`'s data pointer and every byte stride are multiples of its element size, so
  // typed loads and stores are valid. Tensors made by ingot always are; the predicate is for
  // kernels that need more (vector loads) or memory wrapped from outside.
  bool is_aligned(int arg) const;
  // Calls `f` with sub-iterators of at most `max_dims` dims that together cover this one once:
  // the dims beyond `max_dims` (the slowest) are walked here, one index at a time.
  void for_each_within_dims(int max_dims, FunctionRef<void(const TensorIteratorBase&)> f) const;
  // Every operand's largest byte offset fits in INT32_MAX, and so does numel().
  bool can_use_32bit_indexing() const;
  // Sub-iterators that each satisfy can_use_32bit_indexing() and together cover this one once.
  std::vector<TensorIteratorBase> with_32bit_indexing() const;
  // Restricts dim `dim` to [start, start + size), moving the data pointers.
  void narrow(int dim, int64_t start, int64_t size);

  // Names the op in the error messages of a following build_* call ("atan2: shapes ...").
  void set_name(std::string_view op_name) { name_ = op_name; }
  // The following build_* call refers to its operand tensors instead of sharing them: each
  // reference count change is an atomic instruction, a sizable part of a tiny op. Only for an
  // iterator that ends before its operands do (the generated structured ops: a local iterator in
  // a function taking the tensors by reference). Outputs it allocates are owned as always.
  void borrow_operands() { borrow_operands_ = true; }
  // Meta-step builders shared by every backend (the generated structured ops call these).
  void build_binary_op(const Tensor& out, const Tensor& a, const Tensor& b);
  void build_binary_float_op(const Tensor& out, const Tensor& a, const Tensor& b);
  void build_comparison_op(const Tensor& out, const Tensor& a, const Tensor& b);
  void build_unary_op(const Tensor& out, const Tensor& a);
  void build_unary_float_op(const Tensor& out, const Tensor& a);
  void build_ternary_op(const Tensor& out, const Tensor& a, const Tensor& b, const Tensor& c);
  // where(cond, a, b): cond must be bool; a and b promote.
  void build_where_op(const Tensor& out, const Tensor& cond, const Tensor& a, const Tensor& b);

  // ---- Reduction mode (iterator_reduce.cpp). Reduces `self` over the dims set in `dims_mask`
  // (bit d: dim d of self) into `outs` (one or two: values and indices, var and mean). An undefined
  // output is allocated with `out_dtypes[i]`, an empty one resized; any other must have the result
  // shape (self's shape without the reduced dims, or with them as 1 under keepdim). The iteration
  // runs over self's shape, the outputs stepping 0 bytes along reduced dims; output(i) is the
  // caller's tensor.
  void build_reduction(const std::vector<Tensor>& outs, const std::vector<ScalarType>& out_dtypes,
                       const Tensor& self, uint64_t dims_mask, bool keepdim);
  bool is_reduction() const { return is_reduction_; }
  uint64_t reduction_dims_mask() const { return reduction_dims_mask_; }
  bool reduction_keepdim() const { return reduction_keepdim_; }
  // Elements reduced into each output (the product of self's reduced sizes).
  int64_t reduction_size() const;

 protected:
  void build(TensorIteratorConfig& config);
  // build() steps, in order (tensor_iterator.cpp, iterator_dims.cpp, iterator_overlap.cpp).
  void populate_operands(TensorIteratorConfig& config);
  void compute_device();
  void compute_shape(const TensorIteratorConfig& config);
  void check_broadcast_numel(IntArrayRef shape) const;
  void check_resizable(int arg, IntArrayRef shape) const;
  void compute_types(const TensorIteratorConfig& config);
  void check_mem_overlap() const;
  // The common case in one step: every given operand is contiguous with the iteration shape, so
  // outputs are allocated contiguous and the iteration is one dim (what the two steps below would
  // give, without reordering or coalescing). False, changing nothing, when it does not apply.
  bool fast_set_up();
  // fast_set_up() once its condition holds: allocates the outputs that will_resize and sets the
  // one-dim iteration.
  void set_up_contiguous();
  // Before all of the steps above, in one pass over the operands: the inputs are contiguous,
  // non-empty, dimensioned tensors of one shape, dtype and device, none a wrapped number, and every
  // output is undefined or the same, with no static dtype declared. Device, shape and common dtype
  // are then the inputs', so it goes straight to set_up_contiguous(). False, changing nothing,
  // when it does not apply; what the steps would reject never qualifies, so errors are theirs.
  bool uniform_set_up(const TensorIteratorConfig& config);
  void compute_strides_and_allocate();
  void coalesce_dimensions();

  SmallVector<OperandInfo, 4> operands_;
  DimVector shape_;  // iteration shape, dim 0 fastest
  int num_outputs_ = 0;
  ScalarType common_dtype_ = kFloat32;
  Device device_;
  std::string_view name_;
  bool borrow_operands_ = false;
  bool is_reduction_ = false;
  uint64_t reduction_dims_mask_ = 0;
  bool reduction_keepdim_ = false;
};

// The mask of dims a reduction of a `ndim`-d tensor covers: `dims` wrapped (negative counts from
// the end) and checked (IndexError out of range, ValueError when repeated); none or empty: all.
uint64_t reduction_dims_mask(std::string_view op, int64_t ndim, std::optional<IntArrayRef> dims);

// Narrows a count or offset for 32-bit kernel arguments; ValueError instead of silent wrap-around.
inline int32_t checked_int32(int64_t value, std::string_view what) {
  INGOT_CHECK(value >= INT32_MIN && value <= INT32_MAX, ValueError, what, ": value ", value,
              " does not fit in int32 (split the iterator with with_32bit_indexing())");
  return static_cast<int32_t>(value);
}

class TensorIterator : public TensorIteratorBase {
 public:
  TensorIterator() = default;
  static TensorIterator unary_op(const Tensor& out, const Tensor& a);
  static TensorIterator binary_op(const Tensor& out, const Tensor& a, const Tensor& b);
  static TensorIterator nullary_op(const Tensor& out);

 private:
  friend class TensorIteratorConfig;
};

}  // namespace ingot
