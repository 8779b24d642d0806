"""No phantom API in kernels/registration.h: every REGISTER_*_OP family it defines is used by some
functor header in kernels/ops/, so each family is compiled and exercised (or it goes)."""
import os
import re

from conftest import REPO_ROOT

KERNELS = os.path.join(REPO_ROOT, "kernels")


def _families():
    with open(os.path.join(KERNELS, "registration.h")) as f:
        return sorted(set(re.findall(r"^#define (REGISTER_[A-Z0-9_]*_OP(?:_NO_BOOL)?)\(", f.read(), re.M)))


def _uses():
    text = ""
    ops = os.path.join(KERNELS, "ops")
    for name in sorted(os.listdir(ops)):
        with open(os.path.join(ops, name)) as f:
            text += f.read()
    return set(re.findall(r"^(REGISTER_[A-Z0-9_]*)\(\w+\);", text, re.M))


def test_the_registration_header_defines_families():
    assert "REGISTER_BINARY_OP" in _families()


def test_every_registration_family_is_used_by_a_functor_header():
    unused = [m for m in _families() if m not in _uses()]
    assert not unused, f"kernels/registration.h defines families no kernels/ops/*.h uses: {unused}"
