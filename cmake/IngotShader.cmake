# compile_shader (src/shader/): the CPU path runs the host C++ compiler found here at run time
# (INGOT_SHADER_CXX overrides it); its identity and ingot's version are part of the cache key.
set_property(SOURCE ${PROJECT_SOURCE_DIR}/src/shader/cpu_compiler.cpp APPEND PROPERTY
             COMPILE_DEFINITIONS INGOT_VERSION="${PROJECT_VERSION}"
                                 INGOT_SHADER_DEFAULT_CXX="${CMAKE_CXX_COMPILER}")
