# SLEEF (vectorized libm, PyTorch's choice; Debian: libsleef-dev) for the CPU backend's vector math
# (kernels/vec_math.h, src/backend/cpu/vec_math.cpp). Optional: without it (and without libmvec,
# below) the functors' vector overloads are not declared and every op runs its scalar code.
option(INGOT_USE_SLEEF "Use SLEEF for vectorized transcendental math on the CPU when found" ON)

set(INGOT_VEC_MATH "scalar")
if(INGOT_USE_SLEEF)
  find_path(INGOT_SLEEF_INCLUDE_DIR sleef.h)
  find_library(INGOT_SLEEF_LIBRARY NAMES sleef)
  if(INGOT_SLEEF_INCLUDE_DIR AND INGOT_SLEEF_LIBRARY)
    set(INGOT_VEC_MATH "sleef")
    target_include_directories(ingot SYSTEM PRIVATE ${INGOT_SLEEF_INCLUDE_DIR})
    target_link_libraries(ingot PRIVATE ${INGOT_SLEEF_LIBRARY})
    # PUBLIC in the build tree: the C++ tests that include kernel headers see the same functors.
    target_compile_definitions(ingot PUBLIC $<BUILD_INTERFACE:INGOT_HAS_SLEEF=1>)
    message(STATUS "ingot: CPU vector math uses SLEEF (${INGOT_SLEEF_LIBRARY})")
  else()
    message(STATUS "ingot: SLEEF not found (Debian: apt-get install libsleef-dev); CPU math is scalar")
  endif()
else()
  message(STATUS "ingot: INGOT_USE_SLEEF=OFF; CPU math is scalar")
endif()
# glibc's libmvec (looked up at run time, vec_math.cpp) serves some float32 functions beside SLEEF,
# and on its own when SLEEF is missing: x86-64 Linux only.
option(INGOT_USE_LIBMVEC "Use glibc's libmvec for some float32 functions on x86-64 Linux when present" ON)
if(INGOT_USE_LIBMVEC AND CMAKE_SYSTEM_NAME STREQUAL "Linux" AND CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64)$")
  target_compile_definitions(ingot PUBLIC $<BUILD_INTERFACE:INGOT_HAS_LIBMVEC=1>)
  target_link_libraries(ingot PRIVATE ${CMAKE_DL_LIBS})
  if(NOT INGOT_VEC_MATH STREQUAL "sleef")
    set(INGOT_VEC_MATH "libmvec")
    message(STATUS "ingot: without SLEEF, glibc's libmvec still serves tanh, sinh, asinh, atanh, acosh, log1p, "
                   "sin and cos in float32 where present; the rest of the CPU math is scalar")
  endif()
endif()
# The per-ISA block loops (src/backend/cpu/vec_math.cpp picks one set at run time).
set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/src/backend/cpu/vec_math_avx512.cpp
                            PROPERTIES COMPILE_OPTIONS "-mavx512f")
set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/src/backend/cpu/vec_math_avx2.cpp
                            PROPERTIES COMPILE_OPTIONS "-mavx2;-mfma")
