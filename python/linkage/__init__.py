"""Linkage from Python: articulated multibody dynamics with complementarity
contact and exact static/dynamic friction.

    import linkage
    model = linkage.load("mechanisms/pendulum.yaml")
    data = model.data(); data.step(1000); print(data.time, data.q)

The heavy lifting is the C library (through the _linkage extension);
this package adds the Pythonic argument handling. See docs/python.md.
"""

import os as _os

from . import _linkage
from ._linkage import (Data, Error, IslandReport, Model, Recorder, StepError, StepReport,
                       contact_dtype, link_force_dtype, tactile_dtype)

__all__ = ["load", "Model", "Data", "Recorder", "Error", "StepError", "StepReport", "IslandReport",
           "contact_dtype", "link_force_dtype", "tactile_dtype", "lcp", "grasp"]


def _yaml_value(value):
    """A Python value as the YAML text an override takes."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, dict):
        return "{" + ", ".join("%s: %s" % (k, _yaml_value(v)) for k, v in value.items()) + "}"
    try:
        items = list(value)
    except TypeError:
        raise TypeError("override value %r is not a number, string, list or dict" % (value,))
    return "[" + ", ".join(_yaml_value(float(v) if hasattr(v, "dtype") else v)
                           for v in items) + "]"


def load(path, overrides=None, package_path=None):
    """Load a mechanism file (YAML, URDF or MJCF) into a finalized Model.

    overrides: {"options.timestep": 0.0005, "materials.wood.mu_static": 0.5}
        (or a list of "KEY=VALUE" strings), applied to the document before
        the model is built and checked like the file's own values (the
        linkage program's --set).
    package_path: directories where a URDF's package://PKG/... names are
        looked for (a list, or one string with ':' between directories);
        None: only the directories above the file.

    Raises linkage.Error with the file, line, column and the message the
    linkage program prints; FileNotFoundError-like cases are linkage.Error
    with status 'LK_IO_ERROR'.
    """
    if overrides is None:
        sets = []
    elif isinstance(overrides, dict):
        sets = ["%s=%s" % (k, _yaml_value(v)) for k, v in overrides.items()]
    elif isinstance(overrides, str):
        sets = [overrides]
    else:
        sets = list(overrides)
    if package_path is not None and not isinstance(package_path, str):
        package_path = ":".join(_os.fspath(p) for p in package_path)
    return _linkage._load(_os.fspath(path), sets, package_path)


from . import grasp, lcp  # noqa: E402  (they import the names above)

