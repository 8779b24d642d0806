"""Fixtures state what they expect in their first line: `# expect: [path:]line: message part`."""
import re

_EXPECT_RE = re.compile(r"^# expect: (?:(?P<path>[^:]+):)?(?P<line>\d+): (?P<text>.+)$")


def expectation(yaml_path: str):
    """(path or None, line, message part), or None for `# expect nothing`."""
    with open(yaml_path, encoding="utf-8") as f:
        first = f.readline().rstrip("\n")
    if first == "# expect nothing":
        return None
    m = _EXPECT_RE.match(first)
    assert m, f"{yaml_path}: first line must be '# expect: [path:]line: text' or '# expect nothing'"
    return m["path"], int(m["line"]), m["text"]
