# INGOT_SANITIZE=address,undefined,... instruments every target in the tree; the first report is
# fatal so CI cannot pass with a sanitizer error in its log. The asan preset (clang) adds
# float-cast-overflow and implicit-integer-truncation, which g++'s "undefined" lacks or does not
# have. The Python extension is instrumented too; Python loads the runtime through LD_PRELOAD
# (scripts/sanitized-python).
set(INGOT_SANITIZE "" CACHE STRING "Comma-separated -fsanitize= list (empty: none)")
if(INGOT_SANITIZE)
  add_compile_options(-fsanitize=${INGOT_SANITIZE} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${INGOT_SANITIZE})
endif()
