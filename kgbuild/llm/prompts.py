"""Prompt templates as versioned YAML files, with project overrides.

A template file (`prompts/<lang>/<name>.yaml`) holds:

- `id`, `version`: `key` = "id@version" names the prompt in requests and the LLM cache key,
  so bump `version` whenever the wording changes;
- `description`, and `placeholders`: name -> what the code fills in;
- `system`, `user` and named `fragments` (texts the code chooses between, e.g. the
  schema-constrained or the schema-free type guidance): `str.format` templates with plain
  `{name}` placeholders; literal braces are written `{{` and `}}`;
- `output_schema`: JSON Schema of the reply (the subset in `kgbuild.llm.json_schema`);
- `examples`: few-shot pairs; `input` gives placeholder values for the example's user
  message (placeholders it omits take the live values, e.g. the schema block) and
  `output` is the reply, which must satisfy `output_schema`.

Every problem is a ConfigError naming the file and the field, found when the file loads.
"""

from __future__ import annotations

import difflib
import json
import string
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    StrictInt,
    ValidationError,
    ValidationInfo,
    model_validator,
)

from kgbuild.errors import ConfigError
from kgbuild.ids import content_hash
from kgbuild.llm.json_schema import schema_problems, value_problems
from kgbuild.llm.types import ChatMessage, Reask
from kgbuild.resources import PROMPTS, shipped_dir

if TYPE_CHECKING:
    from kgbuild.config import Config

_ORIGIN = "kgbuild_prompt_origin"  # validation context key: the file a template comes from


def shipped_prompts_dir() -> Path:
    """`kgbuild/prompts/`, shipped inside the package (see kgbuild.resources)."""
    return shipped_dir(PROMPTS)


def placeholders_in(text: str) -> list[str]:
    """Names of the `{name}` placeholders of a format string, in order; ValueError if malformed."""
    names: list[str] = []
    for _, field, spec, conversion in string.Formatter().parse(text):
        if field is None:
            continue
        if not field.isidentifier() or spec or conversion:
            raise ValueError(f"placeholder {{{field}{'!' + conversion if conversion else ''}"
                             f"{':' + spec if spec else ''}}} is not a plain {{name}}")
        names.append(field)
    return list(dict.fromkeys(names))


class PromptExample(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    input: dict[str, str | int | float] = Field(default_factory=dict)
    output: Any


class PromptTemplate(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1, pattern=r"^[A-Za-z0-9_.\-]+$")
    version: StrictInt = Field(ge=1)
    description: str
    placeholders: dict[str, str] = Field(default_factory=dict)
    system: str = ""
    user: str
    fragments: dict[str, str] = Field(default_factory=dict)
    output_schema: dict[str, Any] = Field(default_factory=dict)
    examples: list[PromptExample] = Field(default_factory=list)

    _origin: str = PrivateAttr("")

    @model_validator(mode="after")
    def _consistent(self, info: ValidationInfo) -> PromptTemplate:
        origin = (info.context or {}).get(_ORIGIN) or f"prompt '{self.id}'"
        self._origin = origin  # a private attribute: allowed on a frozen model

        def fail(field: str, problem: str, hint: str = "") -> ConfigError:
            # Not a ValueError: pydantic lets it through unwrapped, keeping file and field.
            return ConfigError(f"{origin}: {field}", problem, hint)

        texts = {"system": self.system, "user": self.user, **{f"fragments.{k}": v for k, v in self.fragments.items()}}
        for field, text in texts.items():
            try:
                used = placeholders_in(text)
            except ValueError as exc:
                raise fail(field, str(exc), "write literal braces as {{ and }}") from None
            undeclared = [n for n in used if n not in self.placeholders]
            if undeclared:
                raise fail(field, f"placeholder {{{undeclared[0]}}} is not declared under 'placeholders'",
                           f"declared: {', '.join(self.placeholders) or 'none'}")
        for problem in schema_problems(self.output_schema):
            raise fail("output_schema", problem)
        for i, example in enumerate(self.examples):
            unknown = [k for k in example.input if k not in self.placeholders]
            if unknown:
                raise fail(f"examples[{i}].input.{unknown[0]}", "not a declared placeholder")
            problems = value_problems(example.output, self.output_schema)
            if problems:
                raise fail(f"examples[{i}].output", f"does not match output_schema: {problems[0]}")
        return self

    # ------------------------------------------------ identity

    @property
    def key(self) -> str:
        """`id@version`: ChatRequest.template, part of the LLM cache key."""
        return f"{self.id}@{self.version}"

    @property
    def origin(self) -> str:
        """The file the template was loaded from (or `prompt '<id>'` if built in code)."""
        return self._origin

    def content_hash(self) -> str:
        return content_hash(json.dumps(self.model_dump(mode="json"), sort_keys=True, ensure_ascii=False))

    def used_placeholders(self) -> set[str]:
        """Placeholders that `render` needs values for (fragments are filled separately)."""
        return set(placeholders_in(self.system)) | set(placeholders_in(self.user))

    def require(self, available: set[str], fragments: tuple[str, ...] = ()) -> None:
        """Fail early (at setup, not per chunk) if the code cannot fill this template."""
        missing = sorted(self.used_placeholders() - available)
        if missing:
            raise ConfigError(f"{self.origin}: user", f"placeholder {{{missing[0]}}} is never filled in by kgbuild",
                              f"available here: {', '.join(sorted(available))}")
        for name in fragments:
            if name not in self.fragments:
                raise ConfigError(f"{self.origin}: fragments", f"fragment '{name}' is missing",
                                  "copy it from the shipped template")

    def reask(self, max_reasks: int, *, fragment: str | None = None, stage: str | None = None) -> Reask:
        """How to ask again after an unusable reply, in this template's words: its `user` text (a
        re-ask prompt such as reask.yaml, whose key then joins the request's template) or one of its
        fragments (words that belong to the asking template itself). Either fills in `{error}` only."""
        if fragment is None:
            field, text = "user", self.user
        elif fragment in self.fragments:
            field, text = f"fragments.{fragment}", self.fragments[fragment]
        else:
            raise ConfigError(f"{self.origin}: fragments", f"fragment '{fragment}' is missing",
                              "copy it from the shipped template")
        other = [n for n in placeholders_in(text) if n != "error"]
        if other or "error" not in placeholders_in(text):
            raise ConfigError(f"{self.origin}: {field}", "a re-ask text must use the placeholder {error} and no other",
                              f"found: {', '.join(placeholders_in(text)) or 'none'}")
        return Reask(max_reasks=max(0, max_reasks), message=text, stage=stage,
                     template=self.key if fragment is None else None)

    # ------------------------------------------------ rendering

    def _fill(self, field: str, text: str, values: dict[str, str]) -> str:
        missing = [n for n in placeholders_in(text) if n not in values]
        if missing:
            raise ConfigError(f"{self.origin}: {field}", f"placeholder {{{missing[0]}}} has no value",
                              f"values given: {', '.join(sorted(values)) or 'none'}")
        return text.format_map(values)

    def fragment(self, name: str, **values: object) -> str:
        if name not in self.fragments:
            raise ConfigError(f"{self.origin}: fragments", f"fragment '{name}' is missing")
        return self._fill(f"fragments.{name}", self.fragments[name], {k: str(v) for k, v in values.items()})

    def render(self, **values: object) -> list[ChatMessage]:
        """System message, the examples as user/assistant turns, then the user message."""
        vals = {k: str(v) for k, v in values.items()}
        messages: list[ChatMessage] = []
        if self.system.strip():
            messages.append(ChatMessage(role="system", content=self._fill("system", self.system, vals)))
        for i, example in enumerate(self.examples):
            filled = {**vals, **{k: str(v) for k, v in example.input.items()}}
            messages.append(ChatMessage(role="user", content=self._fill(f"examples[{i}].input", self.user, filled)))
            messages.append(ChatMessage(role="assistant", content=json.dumps(example.output, ensure_ascii=False)))
        messages.append(ChatMessage(role="user", content=self._fill("user", self.user, vals)))
        return messages


def _dotted(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + str(part)
    return out or "(top level)"


def load_template(path: Path) -> PromptTemplate:
    """Read and check one template file; ConfigError naming the file and field."""
    where = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(where, f"cannot read prompt file: {exc}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise ConfigError(f"{where}:{mark.line + 1}" if mark else where,
                          f"invalid YAML: {getattr(exc, 'problem', exc)}") from None
    if not isinstance(data, dict):
        raise ConfigError(where, "a prompt file must be a mapping with id, version, description, system, user, ...")
    try:
        return PromptTemplate.model_validate(data, context={_ORIGIN: where})
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        loc = tuple(err["loc"])
        if err["type"] == "extra_forbidden":
            close = difflib.get_close_matches(str(loc[-1]), list(PromptTemplate.model_fields), n=1)
            hint = f"did you mean '{close[0]}'?" if close else f"allowed: {', '.join(PromptTemplate.model_fields)}"
            raise ConfigError(f"{where}: {_dotted(loc)}", "unknown key", hint) from None
        raise ConfigError(f"{where}: {_dotted(loc)}", f"{err['msg']} (got {err.get('input')!r:.60})") from None


class PromptLibrary:
    """The templates of one language; files in `override_dir` win over the shipped ones.

    An override is looked up as `<override_dir>/<lang>/<name>.yaml`, then
    `<override_dir>/<name>.yaml`. Loaded templates are kept per library instance.
    """

    def __init__(self, language: str, override_dir: Path | None = None, shipped_dir: Path | None = None) -> None:
        self.language = language
        self.override_dir = override_dir
        self.shipped_dir = (shipped_dir or shipped_prompts_dir()) / language
        if not self.shipped_dir.is_dir():
            langs = sorted(p.name for p in self.shipped_dir.parent.glob("*") if p.is_dir())
            raise ConfigError("extract.prompt_language", f"no shipped prompts for language '{language}'",
                              f"available: {', '.join(langs) or 'none'} (looked in {self.shipped_dir.parent})")
        if override_dir is not None and not override_dir.is_dir():
            raise ConfigError("extract.prompts_dir", f"not a directory: {override_dir}")
        self._loaded: dict[str, PromptTemplate] = {}

    def path_of(self, name: str) -> Path:
        candidates = []
        if self.override_dir is not None:
            candidates += [self.override_dir / self.language / f"{name}.yaml", self.override_dir / f"{name}.yaml"]
        candidates.append(self.shipped_dir / f"{name}.yaml")
        for path in candidates:
            if path.is_file():
                return path
        known = sorted(p.stem for p in self.shipped_dir.glob("*.yaml"))
        raise ConfigError(f"prompt '{name}'", "no such prompt template", f"shipped: {', '.join(known)}")

    def get(self, name: str) -> PromptTemplate:
        if name not in self._loaded:
            self._loaded[name] = load_template(self.path_of(name))
        return self._loaded[name]


def prompt_library(config: Config) -> PromptLibrary:
    """The configured prompt language, and a project's own prompt directory when it has one: the one
    way the build, the solver and the graph strategies find their templates."""
    ex_cfg = config.extract
    prompts_dir = (config.root / ex_cfg.prompts_dir).resolve() if ex_cfg.prompts_dir else None
    return PromptLibrary(ex_cfg.prompt_language, prompts_dir)
