# Runs codegen/ over ops/ops.yaml at build time; outputs land in the build tree, never committed.
# The generator rewrites a file only when its text changes (Ninja's restat then skips dependents),
# so an ops.yaml edit rebuilds little.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(INGOT_GENERATED_INCLUDE_DIR ${CMAKE_CURRENT_BINARY_DIR}/generated/include)
# Private generated files (dispatch_stubs.h): on the library's PRIVATE include path.
set(INGOT_GENERATED_DIR ${CMAKE_CURRENT_BINARY_DIR}/generated)
# Keep in sync with codegen/generate.py:outputs().
set(INGOT_GENERATED_HEADERS
  ${INGOT_GENERATED_INCLUDE_DIR}/ingot/generated/functions.h
  ${INGOT_GENERATED_INCLUDE_DIR}/ingot/generated/tensor_methods.inc
  ${INGOT_GENERATED_DIR}/dispatch_stubs.h)
set(INGOT_GENERATED_SOURCES ${INGOT_GENERATED_DIR}/generated_ops.cpp)
set(INGOT_OP_TABLE ${INGOT_GENERATED_DIR}/op_table.json)
file(GLOB INGOT_CODEGEN_SCRIPTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/codegen/*.py)
add_custom_command(
  OUTPUT ${INGOT_GENERATED_HEADERS} ${INGOT_GENERATED_SOURCES} ${INGOT_OP_TABLE}
  COMMAND ${Python3_EXECUTABLE} -m codegen.generate
          --ops ${CMAKE_CURRENT_SOURCE_DIR}/ops/ops.yaml
          --include-dir ${INGOT_GENERATED_INCLUDE_DIR}
          --source-dir ${INGOT_GENERATED_DIR}
  WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
  DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/ops/ops.yaml ${INGOT_CODEGEN_SCRIPTS}
  COMMENT "Generating ingot ops from ops/ops.yaml"
  VERBATIM)
add_custom_target(ingot_codegen DEPENDS ${INGOT_GENERATED_HEADERS} ${INGOT_GENERATED_SOURCES} ${INGOT_OP_TABLE})

# The dispatch lint always runs under ctest; the generator's pytest suite joins when the
# interpreter has pytest (configure with -DPython3_EXECUTABLE=.venv/bin/python to get it).
if(INGOT_BUILD_TESTS)
  add_test(NAME ops_dispatch_lint COMMAND ${Python3_EXECUTABLE} -m codegen.lint ops/ops.yaml
           WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
  execute_process(COMMAND ${Python3_EXECUTABLE} -c "import pytest, yaml"
                  RESULT_VARIABLE INGOT_PYTEST_RC OUTPUT_QUIET ERROR_QUIET)
  if(INGOT_PYTEST_RC EQUAL 0)
    add_test(NAME codegen_pytest
             COMMAND ${Python3_EXECUTABLE} -m pytest -q -p no:cacheprovider tests/codegen
             WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
  endif()
endif()
