# INGOT_SANITIZE=address,undefined instruments every target in the tree; the first report is fatal
# so CI cannot pass with a sanitizer error in its log.
set(INGOT_SANITIZE "" CACHE STRING "Comma-separated -fsanitize= list (empty: none)")
if(INGOT_SANITIZE)
  add_compile_options(-fsanitize=${INGOT_SANITIZE} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${INGOT_SANITIZE})
endif()
