"""The build of bleuprint's compiled kernel, a C extension; the rest of the configuration is
in pyproject.toml.

The extension is optional: where it cannot be built (no C compiler, no Python headers), the
build says so in one line and goes on, and bleuprint runs on its plain-Python kernel.
"""

from __future__ import annotations

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, CompileError, ExecError, LinkError, PlatformError

BUILD_ERRORS = (CCompilerError, CompileError, ExecError, LinkError, PlatformError, OSError)


class OptionalBuildExt(build_ext):
    """Builds the kernel if it can, else warns and leaves bleuprint to its Python kernel."""

    def run(self) -> None:
        try:
            super().run()
        except BUILD_ERRORS as error:  # no compiler at all
            self._not_built(error)

    def build_extension(self, ext: Extension) -> None:
        if self.compiler.compiler_type == "unix":
            # A fused multiply-add would round unlike the scalar code the kernel matches.
            ext.extra_compile_args = ["-ffp-contract=off"]
        try:
            super().build_extension(ext)
        except BUILD_ERRORS as error:
            self._not_built(error)

    def _not_built(self, error: Exception) -> None:
        reason = (str(error).strip().splitlines() or [type(error).__name__])[-1]
        if len(reason) > 80:  # a failed command quotes every argument
            reason = reason[:77] + "..."
        print(
            f"WARNING: bleuprint's compiled kernel was not built ({reason}); "
            "bleuprint will run on its plain-Python kernel (slower, same numbers)",
            file=sys.stderr,
        )


setup(
    ext_modules=[
        Extension(
            "bleuprint._kernels._compiled",
            ["src/bleuprint/_kernels/_compiled.c"],
            libraries=[] if sys.platform == "win32" else ["m"],
            optional=True,  # (an editable install then skips copying what was not built)
        )
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
