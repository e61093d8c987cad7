# tests/dynamics: test programs of this area.
