"""``bleuprint presets``: every preset with a signature that rebuilds it."""

from __future__ import annotations

import subprocess
import sys

from bleuprint import BLEUScore, presets


def test_presets_lists_signatures_that_rebuild_the_preset() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "bleuprint.cli", "presets"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0 and completed.stderr == ""
    header, rule, *rows = completed.stdout.splitlines()
    assert header.split() == ["preset", "signature"] and set(rule) <= {"-", " "}
    listed = dict(row.split(maxsplit=1) for row in rows)
    assert list(listed) == list(presets.PRESETS)
    for name, signature in listed.items():
        assert BLEUScore.from_signature(signature) == presets.get(name).build()
    # The russian definition as its statement gives it: letter words, an uncapped ratio.
    assert "tok:letters" in listed["russian"] and "bp:ratio[false]" in listed["russian"]
