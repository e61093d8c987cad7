# tests/tools: test programs of this area.
