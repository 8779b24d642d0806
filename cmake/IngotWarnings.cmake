# Warnings are errors (STYLE.md); one function so every target gets the same set.
function(ingot_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wno-unused-parameter)
  if(INGOT_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
