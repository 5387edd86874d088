"""Start-up (issues 12 and 16): ``import bleuprint`` and the command line import only what the
run needs; help and version output is checked like any output; an interrupt while the command
starts is one line and status 130."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import bleuprint
from bleuprint.cli import BLAS_THREAD_VARIABLES, parser
from tests.cli_helpers import CANONICAL, run, write_examples

HEAVY = ("numpy", "matplotlib", "dask", "distributed", "tqdm", "scipy", "multiprocessing")
DEFINITION_PACKAGES = ("bleuprint.compat", "bleuprint.definitions")


def _imported_by(code: str, cwd: Path | None = None) -> set[str]:
    """The top-level names of the modules a fresh interpreter imports while running ``code``
    (those it held before are left out: under CI's coverage, coverage's own start-up imports
    some, such as multiprocessing, in every interpreter)."""
    before = "import sys; _before = set(sys.modules)"
    report = "import json; print(json.dumps(sorted(set(sys.modules) - _before)), file=sys.stderr)"
    completed = subprocess.run(
        [sys.executable, "-c", f"{before}\n{code}\n{report}"],
        capture_output=True, text=True, check=True, cwd=cwd,
    )  # fmt: skip
    modules = json.loads(completed.stderr.splitlines()[-1])
    return {name.split(".")[0] for name in modules} | {
        name for name in modules if name.startswith("bleuprint.")
    }


def test_import_bleuprint_loads_nothing_heavy() -> None:
    imported = _imported_by("import bleuprint")
    assert not imported & {*HEAVY, "attrs", "regex", "bleuprint._engine"}


def test_the_version_loads_no_command() -> None:
    code = "from bleuprint.cli import main\nmain(['--version'])"
    imported = _imported_by(code)
    assert not imported & {*HEAVY, "bleuprint._engine", "bleuprint.cli.score"}


def test_a_score_piped_loads_no_plotting_dask_progress_or_processes(tmp_path: Path) -> None:
    write_examples(tmp_path)
    argv = ["score", *CANONICAL, "-r", "ref.txt", "-i", "hyp.txt", "-b"]
    imported = _imported_by(f"from bleuprint.cli import main\nmain({argv!r})", cwd=tmp_path)
    assert "numpy" in imported and "bleuprint.cli.score" in imported  # it did score
    assert not imported & {"matplotlib", "dask", "distributed", "tqdm", "scipy"}
    assert not imported & {"multiprocessing", "tempfile", "bleuprint.cli.compare", "gzip"}
    assert "shutil" not in imported  # argparse's way of sizing its help


def test_a_score_imports_only_its_presets_definition_and_no_unused_machinery(
    tmp_path: Path,
) -> None:
    write_examples(tmp_path)
    argv = ["score", "-r", "ref.txt", "-i", "hyp.txt", "-b"]  # the default preset: sacrebleu
    imported = _imported_by(f"from bleuprint.cli import main\nmain({argv!r})", cwd=tmp_path)
    definitions = {name for name in imported if name.startswith(DEFINITION_PACKAGES)}
    # (compat._chrf: the chrF definitions' base, which sacreBLEU's module builds its CHRF on)
    assert definitions == {
        "bleuprint.compat",
        "bleuprint.compat.sacrebleu",
        "bleuprint.compat._chrf",
    }
    assert not imported & {"bleuprint.aggregation", "regex", "concurrent", "fractions", "decimal"}
    assert "bleuprint.significance" not in imported  # no test asked for


def test_a_score_with_a_test_loads_the_tests(tmp_path: Path) -> None:
    write_examples(tmp_path)
    argv = ["score", "-r", "ref.txt", "-i", "hyp.txt", "-ci", "--confidence-n", "10"]
    imported = _imported_by(f"from bleuprint.cli import main\nmain({argv!r})", cwd=tmp_path)
    assert "bleuprint.significance" in imported


def test_a_pair_imports_only_its_presets_definition_and_no_significance() -> None:
    stdin = "import io, sys\nsys.stdin = io.TextIOWrapper(io.BytesIO(b'a b c\\na b c\\n'))\n"
    imported = _imported_by(f"{stdin}from bleuprint.cli import main\nmain(['pair'])")
    assert "bleuprint.cli.pair" in imported  # it did score
    definitions = {name for name in imported if name.startswith(DEFINITION_PACKAGES)}
    assert definitions == {"bleuprint.definitions", "bleuprint.definitions.canonical"}
    assert not imported & {"bleuprint.significance", "bleuprint.cli.significance", "regex"}
    assert not imported & {"bleuprint.cli.document", "gzip"}  # text output, standard input


def _blas_variables_after(code: str, **chosen: str) -> dict[str, str | None]:
    """The BLAS thread variables after ``code`` ran in a fresh interpreter whose environment
    holds none of them but ``chosen``."""
    environment = {
        name: value for name, value in os.environ.items() if name not in BLAS_THREAD_VARIABLES
    }
    shown = f"{{name: os.environ.get(name) for name in {BLAS_THREAD_VARIABLES!r}}}"
    report = f"import json, os\nprint(json.dumps({shown}))"
    completed = subprocess.run(
        [sys.executable, "-c", f"{code}\n{report}"], capture_output=True, text=True, check=True,
        env={**environment, **chosen},
    )  # fmt: skip
    return dict(json.loads(completed.stdout.splitlines()[-1]))


COMMAND = (
    "import sys\nfrom bleuprint.cli import command\n"
    "assert 'numpy' not in sys.modules  # BLAS reads the variables once, as numpy loads it\n"
    "sys.argv = ['bleuprint', '--version']\nassert command() == 0"
)


def test_the_command_runs_blas_on_one_thread_where_the_user_chose_nothing() -> None:
    assert _blas_variables_after(COMMAND) == dict.fromkeys(BLAS_THREAD_VARIABLES, "1")


@pytest.mark.parametrize("name", BLAS_THREAD_VARIABLES)
def test_the_command_sets_no_blas_variable_where_the_user_set_one(name: str) -> None:
    expected: dict[str, str | None] = dict.fromkeys(BLAS_THREAD_VARIABLES)
    assert _blas_variables_after(COMMAND, **{name: "3"}) == {**expected, name: "3"}


def test_main_and_import_leave_the_users_process_as_it_was() -> None:
    code = "from bleuprint.cli import main\nassert main(['--version']) == 0"
    assert _blas_variables_after(code) == dict.fromkeys(BLAS_THREAD_VARIABLES)


def _collector_while_writing(call: str, cwd: Path) -> list[list[bool]]:
    """Whether Python's cyclic garbage collector was on, and objects frozen out of its passes,
    when the command run by ``call`` in a fresh interpreter wrote its output."""
    code = (
        "import gc, json, sys\nimport bleuprint.cli.output as output\nseen = []\n"
        "write = output.write_stdout\n"
        "output.write_stdout = lambda text: seen.append("
        "[gc.isenabled(), gc.get_freeze_count() > 0]) or write(text)\n"
        "sys.argv = ['bleuprint', 'score', '-r', 'ref.txt', '-i', 'hyp.txt', '-b']\n"
        f"from bleuprint.cli import command, main\nassert {call} == 0\n"
        "print(json.dumps(seen), file=sys.stderr)"
    )
    completed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=cwd
    )
    return list(json.loads(completed.stderr.splitlines()[-1]))


def test_the_command_collects_garbage_once_started_but_not_its_start_up(tmp_path: Path) -> None:
    # (it is off while the modules load: what they make is never garbage)
    write_examples(tmp_path)
    assert _collector_while_writing("command()", tmp_path) == [[True, True]]
    assert _collector_while_writing("main()", tmp_path) == [[True, False]]  # as it was


def test_looking_a_preset_up_imports_its_module_and_no_distributions_metadata() -> None:
    code = "from bleuprint import presets\nprint('nltk' in presets.PRESETS, presets.get('gleu'))"
    imported = _imported_by(code)
    assert {name for name in imported if name.startswith(DEFINITION_PACKAGES)} == {
        "bleuprint.compat",
        "bleuprint.compat.nltk",
        "bleuprint.compat.gleu",
        # (NLTK's module defines its chrF and its NIST on the shared bases)
        "bleuprint.compat._chrf",
        "bleuprint.compat._nist",
    }
    assert "importlib.metadata" not in imported  # read only for a name bleuprint lacks


@pytest.mark.parametrize(
    "code",
    [
        # a preset's signature names parts of a definition module not imported yet
        "bleu = BLEUScore.from_signature(signature)\nprint(bleu == BLEUScore.nltk(method=3))",
        "print(parse_part('smooth', 'coco-constants').signature)",
        "print(parse_part('smooth', 'sentence-mean[exp[]]').signature)",
    ],
)
def test_a_signature_naming_a_definitions_part_reads_before_the_definition_is_used(
    code: str,
) -> None:
    signature = str(bleuprint.BLEUScore.nltk(method=3).signature())
    setup = (
        "from bleuprint import BLEUScore\nfrom bleuprint._signature import parse_part\n"
        f"signature = {signature!r}\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", setup + code], capture_output=True, text=True, check=False
    )
    assert completed.stderr == ""
    assert completed.stdout in {"True\n", "coco-constants\n", "sentence-mean[exp[]]\n"}


def test_a_users_part_taking_a_definitions_name_is_refused_before_the_definition_is_used() -> None:
    code = (
        "import attrs\nfrom bleuprint import BLEUScore, ConfigurationError, smoothing\n"
        "try:\n"
        "    @attrs.frozen\n"
        "    class Mine(smoothing.NoSmoothing, family='smooth', name='nltk-method3'): pass\n"
        "except ConfigurationError as error:\n    print(error)\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert completed.stdout == (
        "__main__.Mine asks for the smooth part name 'nltk-method3', which "
        "bleuprint.compat.nltk.NLTKMethod3 already has: choose another name, or give "
        "replace=True to take it over\n"
    )


def test_every_public_name_can_be_imported_from_a_fresh_start() -> None:
    names = ", ".join(bleuprint.__all__)
    code = f"from bleuprint import {names}\nprint(sum(x is None for x in ({names},)))"
    completed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert (completed.returncode, completed.stdout, completed.stderr) == (0, "0\n", "")
    assert set(bleuprint.__all__) <= set(dir(bleuprint))


def test_the_lazy_names_are_the_defining_modules_objects() -> None:
    from bleuprint import _engine, exceptions, significance  # noqa: PLC0415

    assert bleuprint.BLEUScore is _engine.BLEUScore
    assert bleuprint.ReferenceLayoutWarning is exceptions.ReferenceLayoutWarning
    assert bleuprint.significance is significance


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="module 'bleuprint' has no attribute 'nothing'"):
        bleuprint.nothing  # noqa: B018


@pytest.mark.parametrize("columns", [None, "57", "0", "-3", "wide", "250"])
def test_the_help_is_as_wide_as_shutil_says(
    monkeypatch: pytest.MonkeyPatch, columns: str | None
) -> None:
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert parser.Formatter("bleuprint")._width == shutil.get_terminal_size().columns - 2


def test_the_help_lists_every_command_and_a_wrong_one_is_named() -> None:
    completed = run("--help")
    assert completed.returncode == 0
    lines = completed.stdout.splitlines()
    listed = [line.split()[0] for line in lines if line[:4] == "    " and line[4:5].isalpha()]
    assert listed == list(parser.COMMANDS)
    completed = run("nonsense")
    assert completed.returncode == 2
    assert "invalid choice: 'nonsense' (choose from 'pair', 'demo'," in completed.stderr


@pytest.mark.parametrize(
    ("argv", "needed"),
    [
        (["score", "-r", "ref.txt"], ("score",)),
        (["--version"], ()),
        (["-h"], parser.COMMANDS),
        (["--version", "--help"], parser.COMMANDS),
        ([], parser.COMMANDS),
        (["scor"], parser.COMMANDS),
    ],
)
def test_only_the_command_run_is_imported(argv: list[str], needed: tuple[str, ...]) -> None:
    commands = parser.build_parser(argv)._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert tuple(commands) == needed


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
@pytest.mark.parametrize("argv", ["--help", "--version", "score --help", "pair -h"])
def test_help_and_version_on_a_full_device_are_one_line_and_status_1(argv: str) -> None:
    line = f"{sys.executable} -m bleuprint.cli {argv} > /dev/full"
    completed = subprocess.run(["sh", "-c", line], capture_output=True, text=True, check=False)
    assert completed.returncode == 1
    full = "No space left on device"
    assert completed.stderr == f"bleuprint: error: cannot write standard output: {full}\n"


def test_help_on_a_closed_standard_output_is_one_line_and_status_1() -> None:
    line = f"{sys.executable} -m bleuprint.cli --help >&-"
    completed = subprocess.run(["sh", "-c", line], capture_output=True, text=True, check=False)
    assert completed.returncode == 1
    assert completed.stderr == "bleuprint: error: standard output is closed\n"


@pytest.fixture
def slow_import(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A module ``attrs`` ahead of the real one on the path, which says it has started, then
    waits: a command's imports in progress, for as long as a test needs."""
    (tmp_path / "attrs.py").write_text(
        "import os, time\n"
        "open(os.environ['STARTED'], 'w').close()\n"
        "time.sleep(60)\n",
        encoding="utf-8",
    )  # fmt: skip
    started = tmp_path / "started"
    path = os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])
    return started, {**_unmeasured(), "PYTHONPATH": path, "STARTED": str(started)}


def _unmeasured() -> dict[str, str]:
    """The environment without coverage's measurement of subprocesses: a signal that lands in
    coverage's own start or exit hooks is coverage's to handle, and says nothing about
    bleuprint's start (under load, CI saw such a child outlive the interrupt)."""
    return {name: value for name, value in os.environ.items() if "COVERAGE" not in name}


@pytest.mark.parametrize("argv", [["pair"], ["score", "-r", "ref.txt"]])
@pytest.mark.usefixtures("interruptible")
def test_sigint_while_the_command_imports_is_one_line_and_130(
    slow_import: tuple[Path, dict[str, str]], argv: list[str]
) -> None:
    _, environment = slow_import
    outcome = _sigint_once_started([sys.executable, "-m", "bleuprint.cli", *argv], environment)
    assert outcome == (130, "", "bleuprint: interrupted\n")


def _sigint_once_started(
    command: list[str], environment: dict[str, str], delay: float = 0
) -> tuple[int, str, str]:
    """The exit status, standard output and error of ``command``, sent SIGINT ``delay``
    seconds after it created the file named by ``environment["STARTED"]``."""
    started = Path(environment["STARTED"])
    process = subprocess.Popen(
        command, env=environment,
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while not started.exists() and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.001)
    assert started.exists(), process.communicate(timeout=10)
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=30)
    return process.returncode, stdout, stderr


# A hook in the child, test-only: a sitecustomize module (Python imports it as it starts) that
# puts an import finder first, which, when the command begins to import bleuprint.cli (inside
# bleuprint.__main__.run, before anything of main()), creates the file STARTED and then waits
# PAUSE seconds: the start-up in progress, at a known point.
START_HOOK = """
import os, sys, time

class _Pause:
    def find_spec(self, name, path=None, target=None):
        if name == "bleuprint.cli":
            open(os.environ["STARTED"], "w").close()
            time.sleep(float(os.environ["PAUSE"]))
        return None

sys.meta_path.insert(0, _Pause())
"""


SCRIPT = Path(sys.executable).with_name("bleuprint")
START_COMMANDS = [
    pytest.param([sys.executable, "-m", "bleuprint"], id="python -m bleuprint"),
    pytest.param(
        [str(SCRIPT)],
        id="script",
        marks=pytest.mark.skipif(not SCRIPT.exists(), reason="no bleuprint script beside Python"),
    ),
]


def _interrupted_at_start(
    tmp_path: Path, command: list[str], pause: float, delay: float
) -> tuple[int, str, str]:
    """The outcome of ``command --version`` sent SIGINT ``delay`` seconds after it began to
    import bleuprint.cli (where the hook waits ``pause`` seconds)."""
    (tmp_path / "sitecustomize.py").write_text(START_HOOK, encoding="utf-8")
    started = tmp_path / "started"
    started.unlink(missing_ok=True)
    path = os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])
    environment = {
        **_unmeasured(),
        "PYTHONPATH": path,
        "STARTED": str(started),
        "PAUSE": str(pause),
    }
    return _sigint_once_started([*command, "--version"], environment, delay)


@pytest.mark.parametrize("command", START_COMMANDS)
@pytest.mark.usefixtures("interruptible")
def test_sigint_while_the_command_loads_is_one_line_and_130(
    tmp_path: Path, command: list[str]
) -> None:
    outcome = _interrupted_at_start(tmp_path, command, pause=60, delay=0)
    assert outcome == (130, "", "bleuprint: interrupted\n")


@pytest.mark.parametrize("command", START_COMMANDS)
@pytest.mark.usefixtures("interruptible")
def test_sigint_at_any_moment_of_the_start_is_one_line_and_130_or_a_finish(
    tmp_path: Path, command: list[str]
) -> None:
    version = f"bleuprint {bleuprint.__version__}\n"
    for delay in (0, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1):
        status, stdout, stderr = _interrupted_at_start(tmp_path, command, pause=0, delay=delay)
        assert (status, stdout, stderr) in {
            (130, "", "bleuprint: interrupted\n"),
            (0, version, ""),
            # Interrupted and said so, then the signal's default action while Python exits
            # (seen once under load in CI): a shell reports 130 all the same, one line.
            (-signal.SIGINT, "", "bleuprint: interrupted\n"),
        } or _interrupted_while_writing(status, stdout, stderr, version), (
            delay,
            status,
            stdout,
            stderr,
        )


# A hook in the child, test-only: a sitecustomize module that registers, before anything of
# bleuprint, a function that sends the process a signal as it exits (functions registered with
# atexit run last first): a signal that arrives once the command is done.
SIGNAL_AT_EXIT = """
import atexit, os, signal
atexit.register(os.kill, os.getpid(), signal.{name})
"""


@pytest.mark.parametrize("command", START_COMMANDS)
@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM"])
@pytest.mark.usefixtures("interruptible")
def test_a_signal_once_the_command_is_done_changes_nothing(
    tmp_path: Path, command: list[str], name: str
) -> None:
    (tmp_path / "sitecustomize.py").write_text(SIGNAL_AT_EXIT.format(name=name), "utf-8")
    path = os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])
    completed = subprocess.run(
        [*command, "--version"], env={**_unmeasured(), "PYTHONPATH": path},
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    version = f"bleuprint {bleuprint.__version__}\n"
    assert (completed.returncode, completed.stdout, completed.stderr) == (0, version, "")


def _interrupted_while_writing(status: int, stdout: str, stderr: str, whole: str) -> bool:
    """Whether the outcome is the interrupt arriving while the version was written (seen once
    under load in CI): 130, a start of the version on standard output, and one line saying how
    much of it at least was taken."""
    said = re.fullmatch(
        r"bleuprint: interrupted while writing standard output: it is incomplete "
        rf"\(at least (\d+) of its {len(whole)} bytes written\)\n",
        stderr,
    )
    return (
        status == 130
        and said is not None
        and whole.startswith(stdout)
        and len(stdout) >= int(said[1])
    )
