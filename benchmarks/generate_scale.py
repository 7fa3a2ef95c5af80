"""Benchmark: `wopgen models` and `wopgen api` on the repository corpus and on a synthetic corpus.

Baselines, measured in the same run on the same input:
- models: plain datamodel-code-generator (`generate(folder)`, default options except its built-in
  formatter, the cheapest it has; its default is black and isort) on the same schema files, the
  least any generator built on it must do. Reported beside it, for information: the same plain run
  with wopgen's formatting instead (no formatter in the library, then the one ruff pass over the
  package that `wopgen models` makes). Datamodel-code-generator with wopgen's options on the plain
  schema files, then the ruff pass: what the options cost (typing, constraints, validators). And
  with wopgen's options on exactly the files wopgen feeds it (the corpus plus the derived event
  classes it has the library generate), followed by the same ruff pass, so that ratio is what
  wopgen adds around the library (loading the corpus, deriving the variants, writing the input,
  post-processing);
- api: `yaml.safe_dump` of the same two documents, i.e. only the serialisation, no reading of the
  description, no bundling.
Reported: for the models, the median CPU seconds (this process and the formatter's processes) and
wall seconds of --repeat rounds (the synthetic corpus: --synthetic-repeat rounds, 3 unless given);
the functions are timed in turn, so one round's figures saw the same load, and each CPU ratio
ours/baseline is the median of the ratios within a round, with their range (a shared machine runs
whole rounds fast or slow at random); for the API, the shortest wall seconds and the ratio. On a
shared machine the CPU ratio is the steadier one.

    python benchmarks/generate_scale.py [--size 1000] [--repeat 3] [--synthetic-repeat N]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).parent))
from synthetic import write_corpus
from timing import best_of, each_round, own_and_child_cpu, paired_ratios

from wopgen.corpus import load
from wopgen.corpus.api import read_api
from wopgen.generate.api import asyncapi_document, generate_api, openapi_document
from wopgen.generate.models import (
    format_modules,
    generate_models,
    generator_config,
    generator_input,
    write_generator_input,
)

REPO = Path(__file__).resolve().parents[1]

OPERATION = """\
  - operationId: put{n}
    method: post
    path: /v1/s{n:04d}/{{id}}
    tag: synthetic
    summary: Store s{n:04d}
    description: Stores one s{n:04d}.
    rfc: null
    capability: null
    auth: bearer
    parameters:
      - {{name: id, in: path, required: true, description: The id., schema: {{type: string}}}}
    request: {{schema: s{n:04d}}}
    responses:
      "200": {{schema: s{n:04d}, description: Stored.}}
    errors: []
"""


def write_api(root: Path, count: int) -> None:
    """One operation per synthetic schema, so the API bundles every schema."""
    head = "info: {title: Synthetic, version: '1.0.0'}\ntags:\n  - {name: synthetic, description: All.}\noperations:\n"
    (root / "spec/api").mkdir(parents=True, exist_ok=True)
    (root / "spec/api/operations.yaml").write_text(head + "".join(OPERATION.format(n=n) for n in range(count)))


def plain_codegen(folder: Path, *, ruff: bool = False) -> None:
    """Plain datamodel-code-generator on `folder`: its built-in formatter, or (`ruff`) none and then
    the ruff pass `wopgen models` makes."""
    from datamodel_code_generator import GenerateConfig, generate
    from datamodel_code_generator.enums import DataModelType, InputFileType
    from datamodel_code_generator.format import Formatter

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = generate(
            folder,
            config=GenerateConfig(
                input_file_type=InputFileType.JsonSchema,
                output_model_type=DataModelType.PydanticV2BaseModel,
                disable_timestamp=True,
                formatters=[] if ruff else [Formatter.BUILTIN],
            ),
        )
    if ruff:
        _ruff_pass(result)


def same_options_codegen(folder: Path) -> None:
    from datamodel_code_generator import generate

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _ruff_pass(generate(folder, config=generator_config()))


def _ruff_pass(result: Any) -> None:
    assert isinstance(result, dict)
    with tempfile.TemporaryDirectory() as tmp:
        format_modules({tuple(key): text for key, text in result.items()}, Path(tmp) / "out")


def plain_dump(documents: list[dict[str, Any]]) -> None:
    for document in documents:
        yaml.safe_dump(document, sort_keys=False)


def measure(label: str, root: Path, repeat: int) -> None:
    corpus = load(root)
    api = read_api(corpus)
    documents = [openapi_document(corpus, api)] + ([asyncapi_document(corpus, api)] if api.channels else [])
    with tempfile.TemporaryDirectory() as tmp:
        plain, fed = Path(tmp) / "plain", Path(tmp) / "fed"
        plain.mkdir()
        fed.mkdir()
        for path in corpus.schemas:  # the schema files alone (examples live beside them)
            shutil.copy(root / path, plain / Path(path).name)
        write_generator_input(generator_input(corpus)[0], fed)  # what wopgen feeds the library, written once
        rounds = each_round(  # in turn, round after round: all see the same load on a shared machine
            repeat,
            {
                "plain": lambda: plain_codegen(plain),
                "plain+ruff": lambda: plain_codegen(plain, ruff=True),
                "options": lambda: same_options_codegen(plain),
                "library": lambda: same_options_codegen(fed),
                "ours": lambda: generate_models(load(root)),
                "loading": lambda: load(root),
            },
            own_and_child_cpu,  # the formatter runs in child processes
        )
    timed = {name: (statistics.median(walls), statistics.median(cpus)) for name, (walls, cpus) in rounds.items()}
    base_api = best_of(repeat, plain_dump, documents)[0]
    ours_api = best_of(repeat, lambda: generate_api(load(root)))[0]
    files = len(generate_models(corpus))
    (ours_wall, ours_cpu), (plain_wall, plain_cpu) = timed["ours"], timed["plain"]
    middle, least, most = paired_ratios(rounds, "plain")["ours"]
    print(
        f"{label:<28} models: datamodel-codegen {plain_cpu:7.2f} CPU s  wopgen models {ours_cpu:7.2f} CPU s  "
        f"ratio {middle:5.2f}  (rounds {least:.2f}-{most:.2f}; wall "
        f"{plain_wall:.2f}s / {ours_wall:.2f}s, ratio {ours_wall / plain_wall:.2f}; {files} files)"
    )
    for name, what in (
        ("plain+ruff", "plain, with wopgen's ruff pass"),
        ("options", "wopgen's options on the files, ruff"),
        ("library", "wopgen's options and input, ruff"),
    ):
        wall, cpu = timed[name]
        print(
            f"{'':<36} {what:<36} {cpu:7.2f} CPU s  ratio {paired_ratios(rounds, name)['ours'][0]:5.2f}  "
            f"(wall {wall:.2f}s, ratio {ours_wall / wall:.2f})"
        )
    print(f"{'':<36} loading the corpus alone {timed['loading'][1]:.2f} CPU s")
    print(
        f"{'':<28} api:    yaml.safe_dump    {base_api:7.3f}s  wopgen api    {ours_api:7.3f}s  "
        f"ratio {ours_api / base_api:5.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=1000, help="schemas in the synthetic corpus")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--synthetic-repeat", type=int, default=None, help="rounds on the synthetic corpus (default: 3)"
    )
    args = parser.parse_args()
    measure(f"repository ({len(load(REPO).schemas)} schemas)", REPO, args.repeat)
    with tempfile.TemporaryDirectory() as tmp:
        root = write_corpus(Path(tmp) / "synthetic", args.size)
        write_api(root, args.size)
        rounds = args.synthetic_repeat if args.synthetic_repeat is not None else 3
        measure(f"synthetic ({args.size} schemas)", root, max(1, rounds))


if __name__ == "__main__":
    main()
