"""Loads YAML keeping the line of every mapping and key, so errors can say file:line."""
import yaml

from .errors import SourceError


class LineDict(dict):
    """A mapping that remembers its own line and the line of each key (1-based)."""

    line: int = 0
    key_lines: dict


class LineStr(str):
    line: int = 0


def _loader_class(path: str):
    class Loader(yaml.SafeLoader):
        pass

    def construct_mapping(loader, node, deep=False):
        loader.flatten_mapping(node)
        result = LineDict()
        result.line = node.start_mark.line + 1
        result.key_lines = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + 1
            # PyYAML silently keeps the last of two equal keys; a declaration file must not.
            if key in result:
                raise SourceError(path, line, f"duplicate key '{key}' (first at line {result.key_lines[key]})")
            result[key] = loader.construct_object(value_node, deep=True)
            result.key_lines[key] = line
        return result

    def construct_str(loader, node):
        s = LineStr(loader.construct_scalar(node))
        s.line = node.start_mark.line + 1
        return s

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    Loader.add_constructor("tag:yaml.org,2002:str", construct_str)
    return Loader


def load(path: str):
    with open(path, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SourceError(path, data[:e.start].count(b"\n") + 1, f"not valid UTF-8 ({e.reason})") from None
    try:
        return yaml.load(text, Loader=_loader_class(path))  # noqa: S506 (SafeLoader subclass)
    except yaml.reader.ReaderError as e:  # a character YAML does not allow (found by fuzzing)
        raise SourceError(path, text[:e.position].count("\n") + 1,
                          f"invalid YAML: character {e.character!r} is not allowed") from None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark else 1
        context = ""
        if e.context and e.context_mark and e.context_mark is not mark:
            context = f" ({e.context} at line {e.context_mark.line + 1})"
        raise SourceError(path, line, f"invalid YAML: {e.problem or e.context}{context}") from None
