"""stub"""
from __future__ import annotations
from typing import Any
from tribes_client.render.generic import message_lines
from tribes_client.render.style import Style

def lines(view: Any, style: Style) -> list[str]:
    return message_lines(view)
