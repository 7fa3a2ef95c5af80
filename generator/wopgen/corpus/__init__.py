"""Load once, resolve once: the corpus package.

`load(root)` reads every corpus file once into a frozen `Corpus`; the submodules are its parts
(settings, the file list, documents, Markdown, RFC metadata, the API description, the event index).
"""

from wopgen.corpus.load import load
from wopgen.corpus.model import SCHEMA_SUFFIX, Corpus, Example, Instance

__all__ = ["SCHEMA_SUFFIX", "Corpus", "Example", "Instance", "load"]
