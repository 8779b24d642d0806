"""What src/native/ and kernels/ provide, scanned from their text (for the dispatch lint)."""
import os
import re
from dataclasses import dataclass, field

SOURCE_EXTENSIONS = (".h", ".hpp", ".cpp", ".cc", ".cu", ".cuh", ".inc")
_STUB_RE = re.compile(r"\bREGISTER_DISPATCH\(\s*(\w+)")
_KERNEL_RE = re.compile(r"\bREGISTER_[A-Z0-9_]*_OP\(\s*(\w+)")
# A function definition: `... name(params) [const] {` (params may span lines, no ';' inside).
_FUNCTION_RE = re.compile(r"\b([A-Za-z_]\w*)\s*\([^;{}()]*(?:\([^;{}()]*\)[^;{}()]*)*\)\s*(?:const\s*)?\{")
_NOT_FUNCTIONS = {"if", "for", "while", "switch", "catch", "return", "sizeof"}


@dataclass
class Location:
    path: str
    line: int


@dataclass
class Provided:
    stubs: dict = field(default_factory=dict)  # stub name -> Location of its REGISTER_DISPATCH
    functions: dict = field(default_factory=dict)  # name -> Location (src/native definitions)
    kernels: list = field(default_factory=list)  # (op name, Location) from kernels/


def _strip_comments(text: str) -> str:
    """Blanks comments and string literals, keeping newlines so line numbers stay right."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', blank, text, flags=re.S)


def _logical_lines(text: str):
    """(first line number, text) per logical line, backslash continuations joined."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        start, cur = i + 1, lines[i]
        while cur.endswith("\\") and i + 1 < len(lines):
            i += 1
            cur = cur[:-1] + " " + lines[i]
        yield start, cur
        i += 1


def _files(root: str):
    if not os.path.isdir(root):
        return
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(SOURCE_EXTENSIONS):
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    yield path, _strip_comments(f.read())


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def scan(root: str) -> Provided:
    p = Provided()
    for path, text in _files(os.path.join(root, "src", "native")):
        for lineno, line in _logical_lines(text):
            if line.lstrip().startswith("#"):
                continue  # macro definitions name parameters, not stubs
            for m in _STUB_RE.finditer(line):
                p.stubs.setdefault(m.group(1), Location(path, lineno))
        for m in _FUNCTION_RE.finditer(text):
            if m.group(1) not in _NOT_FUNCTIONS:
                p.functions.setdefault(m.group(1), Location(path, _line_of(text, m.start())))
    for path, text in _files(os.path.join(root, "kernels")):
        for lineno, line in _logical_lines(text):
            if not line.lstrip().startswith("#"):
                p.kernels += [(m.group(1), Location(path, lineno)) for m in _KERNEL_RE.finditer(line)]
    return p


def find_root(yaml_path: str) -> str:
    """The nearest directory at or above the yaml's that holds src/ or kernels/."""
    d = os.path.dirname(os.path.abspath(yaml_path))
    while True:
        if os.path.isdir(os.path.join(d, "src")) or os.path.isdir(os.path.join(d, "kernels")):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            return os.path.dirname(os.path.abspath(yaml_path))
        d = parent
