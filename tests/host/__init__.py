"""Tests of the generated host and the conformance runner."""
