"""The missing-part policy: fail where make test would have installed the part."""

from __future__ import annotations

import pytest

from tests.support import parts


def test_a_part_make_test_installs_fails_when_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parts, "make_test_installs_packages", lambda: True)
    with pytest.raises(pytest.fail.Exception, match="chromium is missing — make test installs"):
        parts.missing_part("chromium is missing")


def test_a_part_nothing_installs_skips(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parts, "make_test_installs_packages", lambda: True)
    with pytest.raises(pytest.skip.Exception, match=r"python3\.12 is missing"):
        parts.missing_part("python3.12 is missing", installable=False)


def test_without_root_and_apt_a_missing_part_skips(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parts, "make_test_installs_packages", lambda: False)
    with pytest.raises(pytest.skip.Exception, match="promtool is missing"):
        parts.missing_part("promtool is missing")


def test_debian_has_names_only_packages_apt_knows() -> None:
    """What decides whether the Dockerfile's Python counts as installable here."""
    assert not parts.debian_has("python3.99-venv")
    if parts.shutil.which("apt-cache") is not None:
        assert parts.debian_has("bash")
