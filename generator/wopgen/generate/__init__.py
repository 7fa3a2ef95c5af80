"""Generators: pure renderers from a Corpus to {relative path: text}, plus the one writer."""
