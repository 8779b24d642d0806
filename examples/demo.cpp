// A tour of the public API: factories, views that share storage, copies, printing.
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
            << every_other << "\n";
  return 0;
}
