"""Sphinx configuration for bleuprint's documentation."""

from __future__ import annotations

import importlib
import inspect
import re
from importlib.resources import files
from typing import Any

import attrs
from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

from bleuprint import __version__, presets
from bleuprint._help import shown_signature

project = "bleuprint"
author = "The bleuprint developers"
copyright = "2026, the bleuprint developers"
release = version = __version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
]
myst_enable_extensions = ["dollarmath", "colon_fence", "deflist"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build"]
html_theme = "furo"
html_title = f"bleuprint {version}"
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True}
suppress_warnings = ["myst.header"]

# Formulas render without a network, at build and at view time: MathJax comes from the
# django-static-mathjax package (the `docs` extra) and is copied into _static. The SVG
# component with every TeX extension is one file that loads nothing else (no fonts either).
_MATHJAX = files("mathjax") / "static" / "mathjax"
html_static_path = [
    str(_MATHJAX / "es5" / "tex-svg-full.js"),
    str(_MATHJAX / "LICENSE"),
    "_static/wrap-code.css",
]
# Code blocks wrap their long lines rather than scroll (a doctest line is read whole).
html_css_files = ["wrap-code.css"]
mathjax_path = "tex-svg-full.js"

# The annotations name the array aliases of bleuprint.typing by their short names.
autodoc_type_aliases = {
    name: f"bleuprint.typing.{name}" for name in ("IntArray", "FloatArray", "BoolArray", "Segment")
}

# Every reference must resolve (`-n`), bleuprint's own by being documented. Names of other
# projects cannot be linked without intersphinx, which needs the network: they stay plain.
nitpicky = True
nitpick_ignore_regex = [
    ("py:.*", r"(collections|collections\.abc|typing|os|pathlib)\..*"),
    ("py:.*", r"(numpy|npt|dask|distributed|pandas|attrs|attr|math|torch|torchmetrics)(\..*)?"),
    ("py:meth", r"str\..*"),
    # the private type variables of typing.implements (a part narrowed to the protocol asked)
    # and of the FromScalar adapters' base (the scalar part it adapts)
    ("py:class", r"bleuprint\.(typing\._Part|_scalar_parts\._Call)"),
    # the engine's counting parts, which pairwise scores and MBR take the engine's counting as
    # (typing.PairwiseScorer's parameter): engine machinery, not documented
    ("py:class", r"bleuprint\._counting\.Counting"),
    # the compact rows of per-segment statistics that sacreBLEU's tests resample (the drop-in
    # command's machinery, not documented)
    ("py:class", r"bleuprint\._resampling\.CompactRows"),
    ("py:class", r"bleuprint\._resampling\.SegmentRows"),
]


def _resolve(name: str) -> Any:
    """The object a dotted name documented by autodoc stands for."""
    parts = name.split(".")
    for split in range(len(parts), 0, -1):
        try:
            target: Any = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for attribute in parts[split:]:
            target = getattr(target, attribute)
        return target
    raise LookupError(name)


_FORWARD_ALIAS = re.compile(r"TypeAliasForwardRef\('([\w.]+)'\)")


# Sphinx calls its event handlers with these seven arguments, positionally.
def _attrs_signature(  # noqa: PLR0917
    app: Sphinx, what: str, name: str, obj: Any, options: Any, args: str | None, ret: str | None
) -> tuple[str, str | None] | None:
    """Show an attrs class's factory defaults as the values they make (``Whitespace()``)
    rather than attrs' sentinel (``NOTHING``), as ``help()`` does."""
    if what not in {"class", "exception"} or not attrs.has(obj):
        return None
    signature = shown_signature(obj)
    if signature is None:
        return None
    parameters = [
        parameter.replace(annotation=inspect.Parameter.empty)
        for parameter in signature.parameters.values()
    ]
    shown = signature.replace(parameters=parameters, return_annotation=inspect.Signature.empty)
    return str(shown), ret


def _tidy_annotations(  # noqa: PLR0917
    app: Sphinx, what: str, name: str, obj: Any, options: Any, args: str | None, ret: str | None
) -> None:
    """Fix two things in the types autodoc recorded for the description.

    An alias of ``autodoc_type_aliases`` inside a generic (``list[FloatArray]``) is recorded
    as ``TypeAliasForwardRef('...')``: it becomes the alias's name. A module function the
    engine binds as a method (``count_stream = ...``) annotates its first parameter, the
    engine itself, with a small Protocol: as a method, that parameter is ``self``, not listed.
    """
    annotations = app.env.current_document.autodoc_annotations.get(name)
    if not annotations:
        return
    for key, text in annotations.items():
        annotations[key] = _FORWARD_ALIAS.sub(r"~\1", text)
    if what != "method" or not inspect.isfunction(obj):
        return
    owner_name, _, member = name.rpartition(".")
    if isinstance(inspect.getattr_static(_resolve(owner_name), member), staticmethod):
        return
    first = next(iter(inspect.signature(obj).parameters), None)
    if first is not None:
        annotations.pop(first, None)


class _FromPresets(SphinxDirective):
    """A directive whose reference text is made from the presets registry, so that a new
    preset or definition module is documented without a line on any page. It is used on
    Markdown pages, which MyST parses the text of; autodoc writes reStructuredText, hence the
    ``eval-rst`` block, as on the pages themselves."""

    def directives(self) -> list[str]:
        raise NotImplementedError

    def run(self) -> list[nodes.Node]:
        lines = StringList()
        for line in ("```{eval-rst}", *self.directives(), "```"):
            lines.append(line, self.get_source_info()[0])
        container = nodes.container()
        nested_parse_with_titles(self.state, lines, container)
        return container.children


class _PresetModules(_FromPresets):
    """``{preset-modules} bleuprint.compat``: the reference of each definition module of that
    package, in the registry's order."""

    required_arguments = 1

    def directives(self) -> list[str]:
        package = f"{self.arguments[0]}."
        modules = dict.fromkeys(presets.origin(name) for name in presets.PRESETS)
        return [
            line
            for module in modules
            if module.startswith(package)
            for line in (f".. automodule:: {module}", "   :members:", "")
        ]


class _PresetConstructors(_FromPresets):
    """``{preset-constructors}``: the named constructor of every preset, ``BLEUScore.<name>``
    (made on first use, they are not in the class's namespace, which autodoc's members are)."""

    def directives(self) -> list[str]:
        return [
            f".. automethod:: bleuprint.BLEUScore.{presets.get(name).constructor}"
            for name in presets.PRESETS
        ]


def setup(app: Sphinx) -> None:
    app.add_directive("preset-modules", _PresetModules)
    app.add_directive("preset-constructors", _PresetConstructors)
    app.connect("autodoc-process-signature", _attrs_signature)
    # after autodoc's own handler (priority 500) has recorded the annotations
    app.connect("autodoc-process-signature", _tidy_annotations, priority=600)
