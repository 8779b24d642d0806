#include "iter/tensor_iterator.h"

#include "ingot/type_promotion.h"

namespace ingot {

namespace {

// A Tensor that refers to t's metadata without owning it: a shared_ptr aliasing t's TensorImpl
// with no control block, so copying and destroying it touch no reference count.
Tensor unowned(const Tensor& t) {
  return t.defined() ? Tensor(std::shared_ptr<TensorImpl>(std::shared_ptr<TensorImpl>(), t.impl())) : Tensor();
}

}  // namespace

TensorIteratorConfig& TensorIteratorConfig::add_output(const Tensor& t) {
  INGOT_CHECK(tensors_.size() == static_cast<size_t>(num_outputs_), ValueError, name_,
              ": add_output must come before add_input");
  tensors_.push_back(borrow_operands_ ? unowned(t) : t);
  ++num_outputs_;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::add_input(const Tensor& t) {
  tensors_.push_back(borrow_operands_ ? unowned(t) : t);
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::borrow_operands(bool v) {
  borrow_operands_ = v;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::name(std::string_view op_name) {
  name_ = op_name;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::check_all_same_dtype(bool v) {
  check_all_same_dtype_ = v;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::promote_inputs_to_common_dtype(bool v) {
  promote_inputs_to_common_dtype_ = v;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::promote_integer_inputs_to_float(bool v) {
  promote_integer_inputs_to_float_ = v;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::cast_common_dtype_to_outputs(bool v) {
  cast_common_dtype_to_outputs_ = v;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::enforce_safe_casting_to_output(bool v) {
  enforce_safe_casting_to_output_ = v;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::resize_outputs(bool v) {
  resize_outputs_ = v;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::declare_static_output_dtype(ScalarType dtype) {
  static_output_dtype_ = dtype;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::declare_static_common_dtype(ScalarType dtype) {
  static_common_dtype_ = dtype;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::check_mem_overlap(bool v) {
  check_mem_overlap_ = v;
  return *this;
}

TensorIterator TensorIteratorConfig::build() {
  TensorIterator iter;
  iter.build(*this);
  return iter;
}

void TensorIteratorBase::build(TensorIteratorConfig& config) {
  populate_operands(config);
  if (uniform_set_up(config)) return;
  compute_device();
  compute_shape(config);
  compute_types(config);
  if (config.check_mem_overlap_) check_mem_overlap();
  if (fast_set_up()) return;
  compute_strides_and_allocate();
  coalesce_dimensions();
}

void TensorIteratorBase::populate_operands(TensorIteratorConfig& config) {
  name_ = config.name_;
  num_outputs_ = config.num_outputs_;
  operands_.clear();
  operands_.reserve(config.tensors_.size());
  for (size_t i = 0; i < config.tensors_.size(); ++i) {
    OperandInfo& op = operands_.emplace_back();  // built in place: OperandInfo is large
    op.tensor = std::move(config.tensors_[i]);  // build() consumes the config
    op.is_output = static_cast<int>(i) < num_outputs_;
    INGOT_CHECK(op.is_output || op.tensor.defined(), ValueError, name_, ": input ",
                static_cast<int>(i) - num_outputs_, " is an undefined tensor");
    if (op.tensor.defined()) op.dtype = op.tensor.dtype();
  }
  INGOT_CHECK(!operands_.empty(), ValueError, name_, ": the iterator needs at least one operand");
}

bool TensorIteratorBase::uniform_set_up(const TensorIteratorConfig& config) {
  if (ninputs() == 0 || config.static_common_dtype_ || config.static_output_dtype_) return false;
  const TensorImpl& first = *operands_[num_outputs_].tensor.impl();
  // 0-dim inputs are left to compute_device: a CPU one rides along with another device.
  if (first.sizes.empty()) return false;
  const IntArrayRef sizes = first.sizes;
  const ScalarType dtype = first.dtype;
  const Device device = first.storage.device();
  if (config.promote_integer_inputs_to_float_ && !is_floating_type(dtype)) return false;
  for (const OperandInfo& op : operands_) {
    if (!op.tensor.defined()) continue;  // an output to allocate (inputs are defined)
    const TensorImpl& t = *op.tensor.impl();
    if (t.dtype != dtype || !t.is_contiguous || t.numel == 0 || t.is_wrapped_number ||
        IntArrayRef(t.sizes) != sizes || t.storage.device() != device) {
      return false;
    }
  }
  device_ = device;
  common_dtype_ = dtype;
  shape_ = sizes;
  for (OperandInfo& op : operands_) {
    if (op.tensor.defined()) continue;
    op.dtype = dtype;
    op.will_resize = true;
  }
  if (config.check_mem_overlap_) check_mem_overlap();
  set_up_contiguous();
  return true;
}

namespace {

std::string operand_name(int arg, int num_outputs) {
  return arg < num_outputs ? detail::concat("output ", arg)
                           : detail::concat("input ", arg - num_outputs);
}

}  // namespace

// 0-dim CPU inputs ride along with any device (PyTorch's CPU scalars); everything else must agree.
void TensorIteratorBase::compute_device() {
  std::optional<Device> device;
  int first = -1;
  for (int i = 0; i < ntensors(); ++i) {
    const Tensor& t = operands_[i].tensor;
    if (!t.defined()) continue;
    const bool cpu_scalar = !operands_[i].is_output && t.dim() == 0 && t.device().is_cpu();
    if (cpu_scalar) continue;
    if (!device) {
      device = t.device();
      first = i;
      continue;
    }
    INGOT_CHECK(t.device() == *device, ValueError, name_,
                ": expected all operands on one device, but ", operand_name(first, num_outputs_),
                " is on ", *device, " and ", operand_name(i, num_outputs_), " is on ", t.device());
  }
  device_ = device.value_or(Device());
}

void TensorIteratorBase::compute_types(const TensorIteratorConfig& config) {
  if (config.static_common_dtype_) {
    common_dtype_ = *config.static_common_dtype_;
  } else if (config.promote_inputs_to_common_dtype_ && ninputs() > 0) {
    SmallVector<const Tensor*, 4> inputs;
    for (int i = num_outputs_; i < ntensors(); ++i) inputs.push_back(&operands_[i].tensor);
    common_dtype_ = tensors_result_type(ArrayRef<const Tensor*>(inputs.data(), inputs.size()));
    if (config.promote_integer_inputs_to_float_ && !is_floating_type(common_dtype_)) {
      common_dtype_ = kFloat32;
    }
  } else {
    // Without promotion the first defined operand (inputs before outputs) sets the dtype.
    const int start = ninputs() == 0 ? 0 : num_outputs_;
    common_dtype_ = config.static_output_dtype_.value_or(kFloat32);
    for (int i = start; i < ntensors(); ++i) {
      if (operands_[i].tensor.defined()) {
        common_dtype_ = operands_[i].dtype;
        break;
      }
    }
  }
  const ScalarType result_dtype = config.static_output_dtype_.value_or(common_dtype_);
  const bool outputs_may_differ =
      config.cast_common_dtype_to_outputs_ || config.static_output_dtype_.has_value();
  const bool inputs_may_differ =
      config.promote_inputs_to_common_dtype_ || config.static_common_dtype_.has_value();

  for (int i = 0; i < ntensors(); ++i) {
    OperandInfo& op = operands_[i];
    if (!op.tensor.defined()) {
      op.dtype = result_dtype;  // allocated by compute_strides_and_allocate
      continue;
    }
    const bool may_differ = op.is_output ? outputs_may_differ : inputs_may_differ;
    const ScalarType expected = op.is_output ? result_dtype : common_dtype_;
    INGOT_CHECK(!config.check_all_same_dtype_ || may_differ || op.dtype == expected, TypeError,
                name_, ": expected all operands to have dtype ", expected, ", but ",
                operand_name(i, num_outputs_), " has dtype ", op.dtype);
    INGOT_CHECK(!op.is_output || !config.enforce_safe_casting_to_output_ ||
                    can_cast(result_dtype, op.dtype),
                TypeError, name_, ": result type ", result_dtype,
                " can't be cast to the desired output type ", op.dtype, " (",
                operand_name(i, num_outputs_), ")");
  }
}

int64_t TensorIteratorBase::numel() const {
  int64_t n = 1;
  for (int64_t s : shape_) n *= s;
  return n;
}

bool TensorIteratorBase::is_contiguous() const {
  if (numel() <= 1) return true;
  if (ndim() != 1) return false;
  for (const auto& op : operands_) {
    if (op.stride_bytes[0] != static_cast<int64_t>(element_size(op.dtype))) return false;
  }
  return true;
}

bool TensorIteratorBase::is_scalar(int arg) const {
  for (int64_t s : operands_[arg].stride_bytes) {
    if (s != 0) return false;
  }
  return true;
}

bool TensorIteratorBase::is_cpu_scalar(int arg) const {
  const Tensor& t = operands_[arg].tensor;
  return !operands_[arg].is_output && t.dim() == 0 && t.device().is_cpu() && !device_.is_cpu();
}

TensorIterator TensorIterator::unary_op(const Tensor& out, const Tensor& a) {
  TensorIterator iter;
  iter.build_unary_op(out, a);
  return iter;
}

TensorIterator TensorIterator::binary_op(const Tensor& out, const Tensor& a, const Tensor& b) {
  TensorIterator iter;
  iter.build_binary_op(out, a, b);
  return iter;
}

TensorIterator TensorIterator::nullary_op(const Tensor& out) {
  return TensorIteratorConfig().add_output(out).name("nullary_op").build();
}

}  // namespace ingot
