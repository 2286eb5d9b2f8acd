"""The test command's check of the installed Firefox ESR: its major version read from `--version`, and a
reason to upgrade it (or skip it) when it is older than the version puppeteer-core's WebDriver BiDi needs."""

import stat

import pytest

from site_build.environments import FIREFOX_MIN_VERSION, firefox_too_old, firefox_version


def fake_firefox(tmp_path, said):
    path = tmp_path / "firefox-esr"
    path.write_text(f"#!/bin/sh\necho '{said}'\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


@pytest.mark.parametrize("said, major", [("Mozilla Firefox 153.8.0esr", 153), ("Mozilla Firefox 128.5.1esr", 128),
                                         ("Mozilla Firefox 140.0", 140), ("no version here", None)])
def test_the_major_version_is_read_from_what_firefox_says(tmp_path, said, major):
    assert firefox_version(fake_firefox(tmp_path, said)) == major


def test_an_older_esr_gets_the_reason_and_a_new_enough_one_none(tmp_path):
    old = firefox_too_old(fake_firefox(tmp_path, "Mozilla Firefox 128.5.1esr"))
    assert old is not None and "128" in old and str(FIREFOX_MIN_VERSION) in old and "upgrade" in old
    assert firefox_too_old(fake_firefox(tmp_path, f"Mozilla Firefox {FIREFOX_MIN_VERSION}.0esr")) is None


def test_no_firefox_is_not_called_too_old(tmp_path):
    assert firefox_too_old(str(tmp_path / "absent")) is None
