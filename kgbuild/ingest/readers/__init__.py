"""Source readers: files, directories and corpus files in, `Document` records out.

`read_sources` streams one Document (or one ReadProblem) at a time, so a bad file or
record is reported and the rest of the input is still read.
"""

from kgbuild.ingest.readers.files import SUPPORTED_EXTENSIONS, read_sources
from kgbuild.ingest.readers.problems import ReadProblem

__all__ = ["SUPPORTED_EXTENSIONS", "ReadProblem", "read_sources"]
