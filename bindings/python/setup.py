"""Puts the training kit's C library inside the wheel: `pip install evoharness` then needs no build
and no environment variable. The metadata is in pyproject.toml; this file only adds the library.

The library is ``$EVOHARNESS_WHEEL_LIB`` when set (a ``libevoharness_train.so`` built before),
else this checkout builds it: ``cargo build --profile $EVOHARNESS_WHEEL_PROFILE`` (default
``dist``: fat LTO, what hosts ship) of ``evoharness-train-c`` without tract (the package runs
policies on ONNX Runtime from the ``onnxruntime`` wheel). ``bindings/python/build-wheel.sh``
builds the wheel and gives it its manylinux tag (auditwheel); there is no source distribution,
as the library's Rust sources live outside this folder.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1
    from wheel.bdist_wheel import bdist_wheel

LIBRARY = "libevoharness_train.so"
HERE = pathlib.Path(__file__).resolve().parent


def native_library() -> pathlib.Path:
    given = os.environ.get("EVOHARNESS_WHEEL_LIB")
    if given:
        path = pathlib.Path(given)
        if not path.is_file():
            raise SystemExit(f"EVOHARNESS_WHEEL_LIB={given}: no such file")
        return path
    root = HERE.parents[1]
    if not (root / "bindings" / "train-c" / "Cargo.toml").is_file():
        raise SystemExit("no library: set EVOHARNESS_WHEEL_LIB, or build from an evoharness checkout")
    profile = os.environ.get("EVOHARNESS_WHEEL_PROFILE", "dist")
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", root / "target")) / "no-tract"
    subprocess.run(["cargo", "build", "--locked", "--profile", profile, "-p", "evoharness-train-c",
                    "--no-default-features", "--target-dir", str(target)], cwd=root, check=True)
    # cargo names the dev profile's folder "debug".
    return target / ("debug" if profile == "dev" else profile) / LIBRARY


class BuildPyWithLibrary(build_py):
    """The package's modules, and the native library beside them."""

    def run(self):
        super().run()
        dest = pathlib.Path(self.build_lib) / "evoharness" / LIBRARY
        shutil.copyfile(native_library(), dest)


class WithLibrary(Distribution):
    """A distribution with a native part: installed to platlib, in a platform wheel."""

    def has_ext_modules(self):
        return True


class PlatformWheel(bdist_wheel):
    """A platform wheel that fits every Python 3: the library is loaded with ctypes, so it has
    no Python ABI (``py3-none-linux_x86_64``; auditwheel then names the manylinux policy)."""

    def get_tag(self):
        _, _, plat = super().get_tag()
        return "py3", "none", plat


setup(distclass=WithLibrary, cmdclass={"build_py": BuildPyWithLibrary, "bdist_wheel": PlatformWheel})
