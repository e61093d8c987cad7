"""linkage.Recorder: a run driven from Python written as the trajectory
rows, the viewer page and SVG plots."""

import numpy as np
import pytest

import linkage
from conftest import mech


def test_rows_frames_page_and_plot(tmp_path):
    m = linkage.load(mech("pendulum.yaml"))
    d = m.data()
    rec = linkage.Recorder(m, fps=50)
    assert rec.columns == ["t", "bob.x", "bob.y", "bob.z", "hinge.q", "hinge.v"]
    for _ in range(500):
        d.step()
        rec.add(d)
    a = rec.array
    assert a.shape == (500, 6)
    assert np.allclose(a[:, 0], 0.001 * np.arange(1, 501))
    assert a[-1, 4] == d.q[0] and a[-1, 5] == d.v[0]
    # the link frame sits at the hinge: it does not move
    assert np.allclose(a[:, 1:4], [0, 0, 1])
    assert rec.nframes == 26  # the first step, then t = 0.02, 0.04, ... 0.5 s (50 a second)
    rec.write_view(tmp_path / "p.html")
    page = (tmp_path / "p.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "pendulum" in page
    rec.write_plot(str(tmp_path / "p.svg"), ["hinge.q", "hinge.v"], title="swing")
    svg = (tmp_path / "p.svg").read_text()
    assert "<svg" in svg and "swing" in svg and "hinge.v" in svg


def test_recorder_errors(tmp_path):
    m = linkage.load(mech("pendulum.yaml"))
    rec = linkage.Recorder(m)
    with pytest.raises(ValueError):
        rec.write_plot(tmp_path / "e.svg", ["hinge.q"])  # nothing recorded
    other = linkage.load(mech("arm7.yaml")).data()
    with pytest.raises(ValueError):
        rec.add(other)
    with pytest.raises(TypeError):
        rec.add("data")
    d = m.data()
    d.step()
    rec.add(d)
    with pytest.raises(KeyError):
        rec.write_plot(tmp_path / "e.svg", ["hinge.x"])
    with pytest.raises(linkage.Error) as e:
        rec.write_view(tmp_path / "no" / "such" / "dir.html")
    assert e.value.status == "LK_IO_ERROR"
    with pytest.raises(TypeError):
        linkage.Recorder("model")
