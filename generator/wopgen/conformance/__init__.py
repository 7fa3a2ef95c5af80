"""Conformance: the spec's scenarios, run against a host in-process or over HTTP."""
