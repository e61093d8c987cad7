# tests/constraint: test programs of this area.
