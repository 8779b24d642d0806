// A tour of the public API: factories, views that share storage, copies, printing, and ops
// declared in ops/ops.yaml (broadcasting, type promotion, out=, in-place, typed errors).
#include <ingot/ingot.h>

#include <iostream>

int main() {
  // The CPU is the only backend so far; CUDA will be picked first once it exists.
  const ingot::Device device(ingot::kCPU);
  std::cout << "ingot demo, running on " << device << "\n\n";

  ingot::Tensor a =
      ingot::arange(12, ingot::TensorOptions(ingot::kFloat32).device(device)).reshape({3, 4});
  std::cout << "a = arange(12).reshape({3, 4}):\n" << a << "\n\n";

  // Views share a's storage: no data moves.
  ingot::Tensor at = a.t();
  std::cout << "a.t() is a view (same storage: " << std::boolalpha
            << (at.storage().data() == a.storage().data())
            << "), contiguous: " << at.is_contiguous() << "\n"
            << at << "\n\n";

  ingot::Tensor column = a.select(1, 2);
  column.fill_(-1);
  std::cout << "a.select(1, 2).fill_(-1) writes through to a:\n" << a << "\n\n";

  // copy_ broadcasts the source and converts its dtype into the destination.
  ingot::Tensor b = ingot::zeros({2, 3, 4}, ingot::TensorOptions(ingot::kFloat64).device(device));
  b.copy_(a);
  std::cout << "zeros({2, 3, 4}, float64).copy_(a) broadcasts float32 a into float64:\n"
            << b << "\n\n";

  ingot::Tensor every_other = b.slice(2, 0, std::nullopt, 2).contiguous();
  std::cout << "b.slice(2, 0, end, 2).contiguous() copies a strided view into new memory:\n"
            << every_other << "\n\n";

  // Ops broadcast and promote like PyTorch: int64 row + float32 matrix -> float32.
  ingot::Tensor row = ingot::arange(4, ingot::TensorOptions(ingot::kInt64).device(device));
  std::cout << "add(a, arange(4) as int64, alpha=10) broadcasts the row and promotes to "
            << ingot::add(a, row, 10).dtype() << ":\n"
            << ingot::add(a, row, 10) << "\n\n";

  // float16 inputs compute in float32 and round once; eq + where select elementwise.
  ingot::Tensor h = a.to(ingot::kFloat16);
  ingot::Tensor angle = ingot::atan2(h, ingot::ones_like(h));
  std::cout << "atan2(a as float16, 1) stays float16:\n" << angle << "\n\n";
  ingot::Tensor masked = ingot::where(ingot::eq(a, -1), ingot::zeros_like(a), a.exp());
  std::cout << "where(a == -1, 0, exp(a)):\n" << masked << "\n\n";

  // out= and in-place write into existing memory; an in-place int result of true division
  // cannot hold float32, so it is refused with a typed error naming the op.
  ingot::Tensor counts = ingot::arange(3);
  try {
    counts.div_(2);
  } catch (const ingot::TypeError& e) {
    std::cout << "arange(3).div_(2) raised ingot::TypeError: " << e.what() << "\n";
  }
  try {
    (void)ingot::mul(a, ingot::ones({5}));
  } catch (const ingot::ValueError& e) {
    std::cout << "mul of shapes [3, 4] and [5] raised ingot::ValueError: " << e.what() << "\n";
  }
  return 0;
}
