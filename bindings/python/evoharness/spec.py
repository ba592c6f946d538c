"""``MODULE:NAME`` specs: how the command lines name a world's factory, a teacher or another
callable of the user's (``--world``, ``--teacher``, ``--agent teacher:...``). Needs no torch:
evaluation and recording load them too."""

from __future__ import annotations

import importlib
import importlib.util
import pathlib
import sys


def load_object(spec: str, what: str = "object"):
    """``MODULE:NAME`` (an importable module, or a path to a ``.py`` file) -> the object."""
    if not isinstance(spec, str) or ":" not in spec:
        raise ValueError(f"{what} {spec!r}: give it as MODULE:NAME (a module or a .py file, a "
                         "colon, then the name in it)")
    mod, _, name = spec.rpartition(":")
    if not mod or not name:
        raise ValueError(f"{what} {spec!r}: give it as MODULE:NAME")
    if mod.endswith(".py") or "/" in mod:
        p = pathlib.Path(mod)
        if not p.is_file():
            raise ValueError(f"{what} {spec!r}: no file {mod}")
        # The file's folder goes on the path, so a world and its teacher can import each other.
        sys.path.insert(0, str(p.resolve().parent))
        key = f"_evoharness_user_{abs(hash(str(p.resolve())))}_{p.stem}"
        module = sys.modules.get(key)
        if module is None:
            specobj = importlib.util.spec_from_file_location(key, p)
            module = importlib.util.module_from_spec(specobj)
            sys.modules[key] = module
            specobj.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(mod)
        except ImportError as e:
            raise ValueError(f"{what} {spec!r}: cannot import {mod}: {e}") from e
    obj = module
    for part in name.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"{what} {spec!r}: {mod} has no {name!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise ValueError(f"{what} {spec!r}: {name} is not callable")
    return obj


__all__ = ["load_object"]
