"""Errors that point at a line of an input file, formatted like a compiler's."""


class SourceError(Exception):
    def __init__(self, path: str, line: int, message: str):
        super().__init__(f"{path}:{line}: error: {message}")
        self.path = path
        self.line = line
        self.message = message


class SourceErrors(Exception):
    """Every error found in one pass, so one build reports them all."""

    def __init__(self, errors: list[SourceError]):
        super().__init__("\n".join(str(e) for e in errors))
        self.errors = errors
