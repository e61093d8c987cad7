# tests/collision: test programs of this area.
