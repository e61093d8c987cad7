# tests/model: test programs of this area.
