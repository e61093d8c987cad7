# tests/grasp: test programs of this area.
