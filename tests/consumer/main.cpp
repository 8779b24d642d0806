// Compiles against the installed headers (including the generated ones) and links libingot.
#include <iostream>

#include <ingot/ingot.h>

int main() {
  const ingot::Device cpu("cpu");
  std::cout << "consumer: linked ingot, device " << cpu << "\n";
  return cpu.type == ingot::DeviceType::CPU ? 0 : 1;
}
