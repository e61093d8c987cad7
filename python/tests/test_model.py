"""linkage.load and Model: files as published, overrides, errors."""

import os
import subprocess

import pytest

import linkage
from conftest import SRCDIR, mech

MJCF = """<mujoco model="drop">
  <option timestep="0.002" gravity="0 0 -9.81"/>
  <worldbody>
    <geom name="floor" type="plane" size="1 1 0.1"/>
    <body name="ball" pos="0 0 2">
      <freejoint name="ball"/>
      <geom type="sphere" size="0.1" mass="2"/>
    </body>
  </worldbody>
</mujoco>
"""


def test_load_yaml_as_published():
    m = linkage.load(mech("pendulum.yaml"))
    assert (m.nq, m.nv, m.nlink, m.nactuator) == (1, 1, 2, 0)
    assert m.name == "pendulum"
    assert m.link_names == ["world", "bob"]
    assert m.joint_names == ["hinge"]
    assert m.timestep == 0.001
    assert m.gravity == (0.0, 0.0, -9.81)
    assert m.joint("hinge") == {"link": 1, "type": "revolute", "qadr": 0, "vadr": 0, "nq": 1,
                                "nv": 1}
    assert m.link_index("bob") == 1
    assert m.total_mass == pytest.approx(1.0)
    assert m.path.endswith("pendulum.yaml")


def test_load_arm_names():
    m = linkage.load(mech("arm7.yaml"))
    assert m.nq == m.nv == 7
    assert m.nactuator == 7
    assert m.actuator_index("j4") == 3
    with pytest.raises(KeyError):
        m.actuator_index("j8")
    with pytest.raises(KeyError):
        m.joint("nope")
    with pytest.raises(KeyError):
        m.link_index("nope")
    with pytest.raises(IndexError):
        m.link_index(99)


def test_overrides_dict_and_list():
    m = linkage.load(mech("pendulum.yaml"), overrides={"options.timestep": 0.0005,
                                                       "options.gravity": [0, 0, -1.62]})
    assert m.timestep == 0.0005
    assert m.gravity == (0.0, 0.0, -1.62)
    m2 = linkage.load(mech("pendulum.yaml"), overrides=["options.timestep=0.002"])
    assert m2.timestep == 0.002


def test_override_checked_like_the_file():
    with pytest.raises(linkage.Error) as e:
        linkage.load(mech("pendulum.yaml"), overrides={"options.timestep": -1})
    assert e.value.status == "LK_SCHEMA_ERROR"
    assert "timestep" in e.value.message


def test_missing_file():
    with pytest.raises(linkage.Error) as e:
        linkage.load("/nonexistent/robot.yaml")
    assert e.value.status == "LK_IO_ERROR"
    assert e.value.path == "/nonexistent/robot.yaml"


def test_bad_file_error_is_the_cli_message(tmp_path, builddir):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nlinks:\n  - name: a\n    mass: 1.0\n    massx: 2\n")
    with pytest.raises(linkage.Error) as e:
        linkage.load(bad)
    err = e.value
    assert err.status == "LK_SCHEMA_ERROR"
    assert err.path == str(bad)
    assert (err.line, err.column) == (5, 5)
    assert "massx" in err.message
    cli = subprocess.run([os.path.join(builddir, "tools", "linkage"), "check", str(bad)],
                         capture_output=True, text=True)
    assert cli.returncode != 0
    assert str(err) in cli.stderr.splitlines()


def test_parse_error_line_and_column(tmp_path):
    bad = tmp_path / "syntax.yaml"
    bad.write_text("name: x\nlinks: [a, b\n")
    with pytest.raises(linkage.Error) as e:
        linkage.load(str(bad))
    assert e.value.status == "LK_PARSE_ERROR"
    assert e.value.line >= 2
    assert str(e.value).startswith(str(bad) + ":")


def test_load_urdf_with_package_path():
    m = linkage.load(mech("jaw-gripper.urdf"), package_path=[os.path.join(SRCDIR, "mechanisms")])
    assert m.nlink > 2
    assert m.nv >= 1


def test_load_mjcf_free_fall(tmp_path):
    f = tmp_path / "drop.xml"
    f.write_text(MJCF)
    m = linkage.load(f)
    assert (m.nq, m.nv) == (7, 6)
    assert m.timestep == 0.002
    d = m.data()
    assert d.q[2] == 2.0
    d.step(100)
    # semi-implicit Euler: z_n = z0 - g h^2 n (n + 1) / 2, exactly
    h, g, n = 0.002, 9.81, 100
    assert d.q[2] == pytest.approx(2.0 - g * h * h * n * (n + 1) / 2, abs=1e-12)
    assert d.v[2] == pytest.approx(-g * h * n, abs=1e-12)


def test_load_argument_types():
    with pytest.raises(TypeError):
        linkage.load(mech("pendulum.yaml"), overrides=[1, 2])
    with pytest.raises(TypeError):
        linkage.load(42)
