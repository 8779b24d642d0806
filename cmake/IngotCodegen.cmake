# Runs codegen/ over ops/ops.yaml at build time; outputs land in the build tree, never committed.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(INGOT_GENERATED_INCLUDE_DIR ${CMAKE_CURRENT_BINARY_DIR}/generated/include)
set(INGOT_GENERATED_DIR ${CMAKE_CURRENT_BINARY_DIR}/generated)
set(INGOT_GENERATED_HEADERS
  ${INGOT_GENERATED_INCLUDE_DIR}/ingot/generated/functions.h
  ${INGOT_GENERATED_INCLUDE_DIR}/ingot/generated/tensor_methods.inc)
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
add_custom_target(ingot_codegen DEPENDS ${INGOT_GENERATED_HEADERS} ${INGOT_GENERATED_SOURCES})
