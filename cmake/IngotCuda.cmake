# The CUDA backend runtime (src/backend/cuda/). The driver and NVRTC are dlopen'ed at run time, so
# the build needs only the CUDA headers: one libingot runs with or without a GPU, and it links no
# CUDA library (libcuda, libnvrtc, libcudart).
find_package(CUDAToolkit QUIET)
find_path(INGOT_CUDA_INCLUDE_DIR NAMES cuda.h nvrtc.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
if(INGOT_CUDA_INCLUDE_DIR AND EXISTS "${INGOT_CUDA_INCLUDE_DIR}/nvrtc.h")
  set(INGOT_CUDA_DEFAULT ON)
else()
  set(INGOT_CUDA_DEFAULT OFF)
endif()
option(INGOT_CUDA "Build the CUDA backend (needs the CUDA headers at build time, not a GPU)"
       ${INGOT_CUDA_DEFAULT})

# Adds the CUDA runtime tests to the C++ test target (called from tests/cpp/CMakeLists.txt).
function(ingot_cuda_add_tests target)
  if(NOT INGOT_CUDA)
    return()
  endif()
  file(GLOB tests CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/cpp/cuda/test_*.cpp)
  target_sources(${target} PRIVATE ${tests})
  target_include_directories(${target} SYSTEM PRIVATE ${INGOT_CUDA_INCLUDE_DIR})
  target_compile_definitions(${target} PRIVATE INGOT_HAS_CUDA=1)
endfunction()

if(NOT INGOT_CUDA)
  message(STATUS "ingot: CUDA backend off (INGOT_CUDA=OFF or no cuda.h/nvrtc.h found)")
  return()
endif()
message(STATUS "ingot: CUDA backend on (headers in ${INGOT_CUDA_INCLUDE_DIR})")

file(GLOB INGOT_CUDA_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/backend/cuda/*.cpp)
target_sources(ingot PRIVATE ${INGOT_CUDA_SOURCES})
target_include_directories(ingot SYSTEM PRIVATE ${INGOT_CUDA_INCLUDE_DIR})
target_compile_definitions(ingot PRIVATE INGOT_HAS_CUDA=1)
target_link_libraries(ingot PRIVATE ${CMAKE_DL_LIBS})
