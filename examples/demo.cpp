#include <iostream>

#include "ingot/ingot.h"

int main() {
  std::cout << "ingot demo\n";
  return 0;
}
