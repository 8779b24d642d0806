// Compiles against the installed headers (including the generated ones), links libingot and
// checks that a tensor made through it holds what was asked for.
#include <ingot/ingot.h>

#include <iostream>

int main() {
  const ingot::Tensor t = ingot::full({2, 3}, 1.5);
  const double sum_of_corners =
      t.select(0, 0).select(0, 0).item<double>() + t.select(0, 1).select(0, 2).item<double>();
  std::cout << "consumer: " << t << "\n";
  const bool ok = t.numel() == 6 && t.dtype() == ingot::kFloat32 && sum_of_corners == 3.0;
  return ok ? 0 : 1;
}
