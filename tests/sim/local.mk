# tests/sim: test programs of this area.
