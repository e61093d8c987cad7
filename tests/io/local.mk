# tests/io: test programs of this area.
