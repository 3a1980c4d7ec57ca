"""The usage lines of :mod:`adversary.cli`'s module docstring against the parsers: every flag a line names is
one its command takes, and the class-file forms (``table --matrix FILE ...``, ``play --matrix FILE``) are there."""

from __future__ import annotations

import argparse
import re

import adversary.cli as cli


def usage_lines() -> dict:
    """command -> the text of its usage lines (a line ``littlestone CMD ...`` and the indented lines after it)."""
    block = cli.__doc__.split("::", 1)[1].split("\n\n", 2)[1]
    out: dict = {}
    current = None
    for line in block.splitlines():
        m = re.match(r"\s*littlestone (\w+)", line)
        if m:
            current = m.group(1)
            out[current] = out.get(current, "") + "\n" + line
        elif current is not None:
            out[current] += "\n" + line
    return out


def flags_of(parser: argparse.ArgumentParser) -> set:
    if hasattr(parser, "complete"):
        parser.complete()  # a command's arguments are added when it first runs or shows its help
    flags = set()
    for action in parser._actions:
        flags.update(action.option_strings)
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                flags |= flags_of(sub)
    return flags


def test_every_command_has_usage_lines_naming_only_its_flags():
    lines = usage_lines()
    parser = cli.build_parser()
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    assert set(lines) <= set(cli.COMMANDS)
    for command, text in lines.items():
        named = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", text))
        unknown = named - flags_of(subs[command])
        assert not unknown, f"{command}'s usage lines name {sorted(unknown)}, which it does not take"


def test_the_class_file_forms_are_listed():
    lines = usage_lines()
    assert re.search(r"littlestone table --matrix FILE \.\.\.", lines["table"])
    assert "--matrix FILE" in lines["play"]
