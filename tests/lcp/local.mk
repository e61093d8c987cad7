# tests/lcp: test programs of this area.
