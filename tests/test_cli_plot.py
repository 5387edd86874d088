"""The charts of ``compare --plot`` and ``score --plot``: size, resolution, names, order, the
baseline, and intervals only where the test computes them. Scores, intervals and p-values are
sacreBLEU's paired tests run beside the command on the shared significance vectors."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from sacrebleu.significance import PairedTest

from bleuprint.cli import plot
from bleuprint.cli.significance import SignificanceTest
from bleuprint.significance import SignificanceResult
from tests.cli_helpers import (
    CANONICAL,
    canonical_sacrebleu,
    fails,
    run,
    succeed,
    write_examples,
    write_vector_systems,
)

pytest.importorskip("matplotlib")
from matplotlib.collections import LineCollection

SYSTEMS = ("-i", "baseline.txt", "sysA.txt", "sysB.txt")
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def systems(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("plotted")
    return folder, write_vector_systems(folder)


def sacrebleu_paired(vectors: dict[str, Any], test: str, **settings: int) -> list[Any]:
    named = list(vectors["hypotheses"].items())
    _, expected = PairedTest(
        named, {"BLEU": canonical_sacrebleu()}, vectors["references"], test_type=test, **settings
    )()
    return list(expected["BLEU"])


def svg_texts(path: Path) -> list[tuple[float, str]]:
    """Every text of an SVG chart (kept as text) with its height on the page, top first."""
    root = ElementTree.parse(path).getroot()
    texts = []
    for element in root.iter(f"{SVG}text"):
        content = "".join(element.itertext())
        y = float(element.get("y", "nan"))
        if "transform" in element.attrib:  # matplotlib places text by translate(x y)
            match = re.search(r"translate\(([-\d.e]+) ([-\d.e]+)\)", element.attrib["transform"])
            if match:
                y = float(match.group(2))
        texts.append((y, content))
    return sorted(texts)


def test_svg_chart_names_sorts_and_marks_the_systems(
    systems: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    folder, vectors = systems
    target = tmp_path / "chart.svg"
    succeed("compare", *CANONICAL, "-r", "ref.txt", *SYSTEMS, "--plot", str(target), cwd=folder)
    expected = sacrebleu_paired(vectors, "bs")
    names = ["baseline", "sysA", "sysB"]
    labels = {
        "baseline": "baseline (baseline)",
        **{
            name: name + (" *" if result.p_value < 0.05 else "")
            for name, result in zip(names[1:], expected[1:])
        },
    }
    by_score = [name for _, name in sorted(zip((r.score for r in expected), names), reverse=True)]
    shown = [text for _, text in svg_texts(target) if text in labels.values()]
    assert shown == [labels[name] for name in by_score]
    root = ElementTree.parse(target).getroot()
    assert root.get("width") == "252pt"  # 3.5 in: one column of a two-column paper
    legend = " ".join(text for _, text in svg_texts(target))
    assert "95% paired bootstrap intervals (1000 resamples)" in legend
    assert "* p < 0.05 against the baseline (paired bootstrap)" in legend


def test_png_chart_is_one_column_wide_at_print_resolution(
    systems: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    from PIL import Image  # noqa: PLC0415 - matplotlib's own dependency

    folder, _ = systems
    target = tmp_path / "chart.png"
    succeed(
        "compare", *CANONICAL, "-r", "ref.txt", *SYSTEMS, "--paired-bs-n", "20",
        "--plot", str(target), cwd=folder,
    )  # fmt: skip
    with Image.open(target) as image:
        assert image.format == "PNG"
        assert image.size[0] == 3.5 * 300
        assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)


def test_score_paired_bs_draws_a_vector_pdf(
    systems: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    folder, _ = systems
    target = tmp_path / "chart.pdf"
    succeed(
        "score", *CANONICAL, "-r", "ref.txt", *SYSTEMS, "--paired-bs", "--paired-bs-n", "20",
        "--plot", str(target), cwd=folder,
    )  # fmt: skip
    content = target.read_bytes()
    assert content.startswith(b"%PDF")
    assert re.search(rb"/MediaBox \[ *0 0 252(\.0+)? ", content)


def test_names_replace_the_file_names(systems: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    folder, _ = systems
    target = tmp_path / "named.svg"
    succeed(
        "score", *CANONICAL, "-r", "ref.txt", *SYSTEMS, "--paired-ar", "--paired-ar-n", "50",
        "--names", "Base MT", "System A", "System B", "--plot", str(target), cwd=folder,
    )  # fmt: skip
    texts = [text for _, text in svg_texts(target)]
    assert "Base MT (baseline)" in texts
    assert any(text.startswith("System A") for text in texts)
    assert not any("sysA" in text for text in texts)


def test_title_and_caption_are_options(
    systems: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    folder, _ = systems
    default, given, neither = (tmp_path / f"{name}.svg" for name in ("default", "given", "none"))
    arguments = ("compare", *CANONICAL, "-r", "ref.txt", *SYSTEMS, "--paired-bs-n", "50")
    succeed(*arguments, "--plot", str(default), cwd=folder)
    succeed(
        *arguments, "--plot", str(given), "--plot-title", "WMT22 en-de",
        "--plot-caption", "Our systems against the baseline.", cwd=folder,
    )  # fmt: skip
    succeed(
        *arguments, "--plot", str(neither), "--plot-title", "", "--plot-caption", "", cwd=folder
    )
    legend = "95% paired bootstrap intervals (50 resamples); * p < 0.05 against the baseline"
    default_texts = " ".join(text for _, text in svg_texts(default))
    assert "BLEU, canonical preset" in default_texts and legend in default_texts
    texts = [text for _, text in svg_texts(given)]
    assert texts[0] == "WMT22 en-de" and texts[-1] == "Our systems against the baseline."
    assert "BLEU, canonical preset" not in texts and not any("bootstrap" in t for t in texts)
    bare = [text for _, text in svg_texts(neither)]
    assert not any("preset" in text or "bootstrap" in text for text in bare)
    assert "baseline (baseline)" in bare


def _figure_of(test: SignificanceTest, vectors: dict[str, Any], **settings: int) -> Any:
    expected = sacrebleu_paired(vectors, test.kind, **settings)
    plotted = [
        plot.PlottedSystem(
            name,
            result.score / 100,
            SignificanceResult(
                result.score / 100,
                result.p_value,
                None if result.mean is None else result.mean / 100,
                None if result.ci is None else result.ci / 100,
            ),
            baseline=index == 0,
        )
        for index, (name, result) in enumerate(zip(["baseline", "sysA", "sysB"], expected))
    ]
    return plot.figure(plotted, test, "title"), expected


def test_intervals_are_sacrebleus_mean_plus_or_minus_ci(systems: tuple[Path, Any]) -> None:
    _, vectors = systems
    chart, expected = _figure_of(SignificanceTest("bs", 100, 12345, 0), vectors, n_samples=100)
    (axes,) = chart.axes
    segments = [
        segment
        for collection in axes.collections
        if isinstance(collection, LineCollection)
        for segment in collection.get_segments()
    ]
    spans = sorted((min(s[:, 0]), max(s[:, 0])) for s in segments if s[0, 1] == s[1, 1])
    wanted = sorted((r.mean - r.ci, r.mean + r.ci) for r in expected)
    assert len(spans) == len(wanted)  # one interval per system, none elsewhere
    for span, interval in zip(spans, wanted):
        assert span == pytest.approx(interval)


def test_approximate_randomization_draws_no_intervals(systems: tuple[Path, Any]) -> None:
    _, vectors = systems
    chart, expected = _figure_of(SignificanceTest("ar", 100, 12345, 0), vectors, n_samples=100)
    (axes,) = chart.axes
    labels = ["baseline (baseline)"] + [
        name + (" *" if result.p_value < 0.05 else "")
        for name, result in zip(["sysA", "sysB"], expected[1:])
    ]
    by_score = [label for _, label in sorted(zip((r.score for r in expected), labels))]
    assert [label.get_text() for label in axes.get_yticklabels()] == by_score  # bottom to top
    assert not [c for c in axes.collections if isinstance(c, LineCollection)]
    legend = chart.get_supxlabel().replace("\n", " ")
    assert legend == (
        "* p < 0.05 against the baseline (approximate randomization, which gives no intervals)."
    )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            ("compare", "-i", "hyp.txt", "better.txt", "--plot", "chart.jpg"),
            "--plot chart.jpg: the chart is written as .png, .pdf, .svg (by the file's "
            "extension), not .jpg",
        ),
        (
            ("compare", "-i", "hyp.txt", "better.txt", "--plot-title", "WMT22"),
            "--plot-title is the chart's title: give --plot too",
        ),
        (
            ("score", "-i", "hyp.txt", "--plot-caption", ""),
            "--plot-caption is the chart's caption: give --plot too",
        ),
        (
            ("score", "-i", "hyp.txt", "-sl", "--plot", "c.png"),
            "--plot charts corpus scores: not with --sentence-level or --dask",
        ),
    ],
)
def test_plot_options_are_checked_before_any_work(
    tmp_path: Path, options: tuple[str, ...], message: str
) -> None:
    files = write_examples(tmp_path)
    fails(run(*options, "-r", "ref.txt", cwd=files), message)
    assert not list(files.glob("c.*")) and not (files / "chart.jpg").exists()
