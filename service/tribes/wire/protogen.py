"""Write a game's ``.proto`` from its move and view dataclasses (the other half of ``auto``).

``python -m tribes.wire.protogen <game module> <Prefix> <out.proto>`` (``make game-protos``)
renders every message and enum ``tribes.wire.auto`` maps, with the classes' docstrings and
the fields' trailing ``#`` comments as proto comments. Numbers are stable: when the file
exists, every message field and enum value keeps the number it has there and new ones
take the next free number, so regenerating after a change never renumbers the wire.
A test regenerates each file and compares it with the committed one.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import inspect
import pathlib
import re
import sys
import typing

from tribes.wire.auto import FieldType, fields_of, snake, types_of, upper_snake

_BLOCK = re.compile(r"^(message|enum) (\w+) \{\n(.*?)^\}", re.MULTILINE | re.DOTALL)
_NUMBERED = re.compile(r"^\s*(?:optional |repeated )?(?:[\w.]+ )?(\w+) = (\d+);", re.MULTILINE)


def existing_numbers(text: str) -> dict[str, dict[str, int]]:
    """Per message or enum name, its member names and numbers in an existing .proto."""
    out: dict[str, dict[str, int]] = {}
    for _, name, body in _BLOCK.findall(text):
        out[name] = {m.group(1): int(m.group(2)) for m in _NUMBERED.finditer(body)}
    return out


def _number(known: dict[str, int], name: str, taken: set[int], start: int = 1) -> int:
    number = known[name] if name in known else max([start - 1, *taken, *known.values()]) + 1
    taken.add(number)
    return number


def _comment(obj: object) -> list[str]:
    doc = inspect.getdoc(obj) or ""
    first = doc.split("\n\n")[0].strip()
    return [f"// {line}".rstrip() for line in first.splitlines()] if first else []


def _field_comments(cls: type) -> dict[str, str]:
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):
        return {}
    return {
        m.group(1): m.group(2).strip()
        for m in re.finditer(r"^\s+(\w+): [^#\n]+#\s*(.+)$", source, re.MULTILINE)
    }


class Generator:
    def __init__(self, prefix: str, package: str = "tribes.v1") -> None:
        self.prefix = prefix
        self.package = package

    def _type(self, kind: FieldType) -> str:
        base = kind.base
        if base is int:
            return "int32"
        if base is str:
            return "string"
        if base is bool:
            return "bool"
        return f"{self.prefix}{base.__name__}"

    def _label(self, kind: FieldType) -> str:
        if kind.repeated:
            return "repeated "
        scalar = not dataclasses.is_dataclass(kind.base)
        return "optional " if kind.optional and scalar else ""

    def render(
        self,
        title: str,
        move_types: typing.Sequence[type],
        view_type: type,
        existing: str = "",
    ) -> str:
        known = existing_numbers(existing)
        classes, enums = types_of([view_type, *move_types])
        lines = [
            f"// {title}: the moves and the view, generated from the rule module's dataclasses",
            "// by tribes.wire.protogen (`make game-protos`); edit the dataclasses, not this file.",
            "// Numbers are kept across regenerations.",
            'syntax = "proto3";',
            "",
            f"package {self.package};",
            "",
        ]
        move_name = f"{self.prefix}Move"
        lines += [f"// A {title} move: one arm per decision kind.", f"message {move_name} {{"]
        lines.append("  oneof kind {")
        taken: set[int] = set()
        for cls in move_types:
            arm = snake(cls.__name__)
            number = _number(known.get(move_name, {}), arm, taken)
            lines.append(f"    {self.prefix}{cls.__name__} {arm} = {number};")
        lines += ["  }", "}", ""]
        ordered = [
            view_type,
            *move_types,
            *(c for c in classes if c not in (view_type, *move_types)),
        ]
        for cls in ordered:
            lines += self._message(cls, known)
        for kind in enums:
            lines += self._enum(kind, known)
        return "\n".join(lines).rstrip() + "\n"

    def _message(self, cls: type, known: dict[str, dict[str, int]]) -> list[str]:
        name = self.prefix + cls.__name__
        numbers = known.get(name, {})
        comments = _field_comments(cls)
        out = [*_comment(cls), f"message {name} {{"]
        taken: set[int] = set()
        for field_name, kind in fields_of(cls):
            number = _number(numbers, field_name, taken)
            if field_name in comments:
                out.append(f"  // {comments[field_name]}")
            out.append(f"  {self._label(kind)}{self._type(kind)} {field_name} = {number};")
        out += ["}", ""]
        return out

    def _enum(self, kind: type[enum.Enum], known: dict[str, dict[str, int]]) -> list[str]:
        name = self.prefix + kind.__name__
        head = upper_snake(name)
        numbers = known.get(name, {})
        out = [*_comment(kind), f"enum {name} {{", f"  {head}_UNSPECIFIED = 0;"]
        taken = {0}
        for member in kind:
            value = f"{head}_{member.name}"
            out.append(f"  {value} = {_number(numbers, value, taken)};")
        out += ["}", ""]
        return out


def game_types(module_name: str) -> tuple[str, list[type], type]:
    """(title, move classes, view class) of a game package exposing ``GAME``."""
    module = importlib.import_module(module_name)
    game = module.GAME
    hints = typing.get_type_hints(game.view)
    view_type = hints["return"]
    moves = importlib.import_module(f"{module_name}.moves")
    return game.title, list(typing.get_args(moves.Move)), view_type


def render_game(module_name: str, prefix: str, path: pathlib.Path) -> str:
    title, move_types, view_type = game_types(module_name)
    existing = path.read_text() if path.exists() else ""
    return Generator(prefix).render(title, move_types, view_type, existing)


def main(argv: list[str]) -> int:
    module_name, prefix, out = argv
    path = pathlib.Path(out)
    path.write_text(render_game(module_name, prefix, path))
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
