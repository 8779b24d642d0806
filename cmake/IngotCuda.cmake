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
  # The embedder must refuse a header whose #include it cannot resolve (NVRTC would fail later).
  add_test(NAME embed_sources_rejects_unresolved_include
           COMMAND ${Python3_EXECUTABLE} -m codegen.embed_sources
                   --output ${CMAKE_CURRENT_BINARY_DIR}/unresolved_include.cpp
                   --include-root ${PROJECT_SOURCE_DIR}/tests/cpp/cuda/fixtures
                   ${PROJECT_SOURCE_DIR}/tests/cpp/cuda/fixtures/unresolved_include.h
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(embed_sources_rejects_unresolved_include PROPERTIES
                       PASS_REGULAR_EXPRESSION "does/not/exist.h\" is not under any include root")
endfunction()

# NVRTC (and compile_shader's CPU path) sees only what the library embeds: kernels/, the portable
# ingot/ headers and the CUDA-only device templates, closed over their #include "..." lines by the script.
file(GLOB_RECURSE INGOT_EMBED_KERNELS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/*)
file(GLOB INGOT_EMBED_DEVICE CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/backend/cuda/device/*)
# compile_shader's CPU path gives the host compiler the same headers plus its CUDA dialect.
list(APPEND INGOT_EMBED_DEVICE ${PROJECT_SOURCE_DIR}/src/shader/cpu_dialect.h
     ${PROJECT_SOURCE_DIR}/src/shader/cpu_abi.h)
file(GLOB INGOT_EMBED_INCLUDES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/ingot/*.h)
set(INGOT_EMBED_PORTABLE ${PROJECT_SOURCE_DIR}/include/ingot/portable.h
    ${PROJECT_SOURCE_DIR}/include/ingot/half.h ${PROJECT_SOURCE_DIR}/include/ingot/scalar_type.h)
set(INGOT_EMBEDDED_SOURCES_CPP ${INGOT_GENERATED_DIR}/embedded_kernel_sources.cpp)
add_custom_command(
  OUTPUT ${INGOT_EMBEDDED_SOURCES_CPP}
  COMMAND ${Python3_EXECUTABLE} -m codegen.embed_sources --output ${INGOT_EMBEDDED_SOURCES_CPP}
          --include-root ${PROJECT_SOURCE_DIR} --include-root ${PROJECT_SOURCE_DIR}/include
          --include-root ${PROJECT_SOURCE_DIR}/src
          ${INGOT_EMBED_KERNELS} ${INGOT_EMBED_PORTABLE} ${INGOT_EMBED_DEVICE}
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
  DEPENDS ${PROJECT_SOURCE_DIR}/codegen/embed_sources.py ${PROJECT_SOURCE_DIR}/codegen/generate.py
          ${INGOT_EMBED_KERNELS} ${INGOT_EMBED_INCLUDES} ${INGOT_EMBED_DEVICE}
  COMMENT "Embedding kernel headers for NVRTC"
  VERBATIM)

if(NOT INGOT_CUDA)
  message(STATUS "ingot: CUDA backend off (INGOT_CUDA=OFF or no cuda.h/nvrtc.h found)")
  # The public CUDA API (ingot/cuda.h) still answers: no devices.
  target_sources(ingot PRIVATE ${PROJECT_SOURCE_DIR}/src/backend/cuda/unavailable.cpp
    # compile_shader's CPU path caches with the backend's cache and embeds the same headers.
    ${PROJECT_SOURCE_DIR}/src/backend/cuda/compile_cache.cpp ${PROJECT_SOURCE_DIR}/src/backend/cuda/cache_file.cpp
    ${PROJECT_SOURCE_DIR}/src/backend/cuda/sha256.cpp ${INGOT_EMBEDDED_SOURCES_CPP})
  set_property(SOURCE ${PROJECT_SOURCE_DIR}/src/backend/cuda/compile_cache.cpp APPEND PROPERTY
               COMPILE_DEFINITIONS INGOT_VERSION="${PROJECT_VERSION}")
  target_link_libraries(ingot PRIVATE ${CMAKE_DL_LIBS})
  return()
endif()
message(STATUS "ingot: CUDA backend on (headers in ${INGOT_CUDA_INCLUDE_DIR})")

file(GLOB INGOT_CUDA_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/backend/cuda/*.cpp)
list(FILTER INGOT_CUDA_SOURCES EXCLUDE REGEX "/unavailable\\.cpp$")
target_sources(ingot PRIVATE ${INGOT_CUDA_SOURCES} ${INGOT_EMBEDDED_SOURCES_CPP})
target_include_directories(ingot SYSTEM PRIVATE ${INGOT_CUDA_INCLUDE_DIR})
target_compile_definitions(ingot PRIVATE INGOT_HAS_CUDA=1)
target_link_libraries(ingot PRIVATE ${CMAKE_DL_LIBS})
# Part of every kernel cache key; only the cache's file needs it.
set_property(SOURCE ${PROJECT_SOURCE_DIR}/src/backend/cuda/compile_cache.cpp APPEND PROPERTY
             COMPILE_DEFINITIONS INGOT_VERSION="${PROJECT_VERSION}")

# ingot-precompile: every registered kernel through NVRTC into the cache (CI runs it: no GPU needed).
add_executable(ingot-precompile ${PROJECT_SOURCE_DIR}/tools/ingot_precompile.cpp)
target_link_libraries(ingot-precompile PRIVATE ingot::ingot)
ingot_set_warnings(ingot-precompile)
set_target_properties(ingot-precompile PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tools
                                                  INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
install(TARGETS ingot-precompile RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
