"""Frozen records: the report and KB classes, cheap to declare and to build, pydantic on demand.

A one-shot ``trt-why build.log`` declares about thirty of these classes and builds a few hundred
instances; as pydantic models that alone (importing pydantic, collecting the fields) was a third
of its start-up. A record is a plain frozen object declared with pydantic's vocabulary::

    class Evidence(Record):
        \"\"\"A log line that a signature matched.\"\"\"
        line: int = field(description="1-based line number.")
        role: str = field(default="trigger", description="trigger, support or exclude.")

and keeps pydantic's method names (``model_construct``, ``model_copy``, ``model_dump``,
``model_dump_json``, ``model_validate``, ``model_validate_json``, ``model_json_schema``,
``model_fields``). The methods that validate, serialize or describe go through a pydantic model
generated from the same declaration the first time one of them is called (:meth:`Record.pydantic_model`),
so JSON output, JSON Schemas and validation errors are pydantic's own; building and reading
records never imports pydantic. Building a record checks names, not types: the engine builds
them from values it produced, as it did with ``model_construct``; input from outside (YAML,
JSON) goes through ``model_validate``.

Checks beyond types: ``field(check=fn)`` (``fn(value) -> value``, raising ValueError) runs after
the field's type check; a ``_check(self)`` method runs after the whole record validated.

The engine's own small classes are records too, for the same reason (a dataclass costs about half
a millisecond to declare, and the ``dataclasses`` module five to import): ``class X(Record,
kw_only=False)`` also takes its fields by position, ``frozen=False`` makes it mutable (and
unhashable, as a mutable dataclass), and a ``__post_init__`` method runs after ``__init__``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

if TYPE_CHECKING:
    from pydantic import BaseModel
    from typing_extensions import Self, dataclass_transform
else:
    def dataclass_transform(**_kwargs: object) -> Callable[[Any], Any]:
        return lambda cls: cls

R = TypeVar("R", bound="Record")

_MISSING: Any = type("_Missing", (), {"__repr__": lambda self: "MISSING"})()


class FrozenRecordError(AttributeError):
    """A record's fields cannot be assigned; use ``model_copy(update=...)``."""


class FieldSpec:
    """One declared field: its default and what pydantic needs to validate and describe it."""

    __slots__ = ("check", "constraints", "default", "default_factory", "description", "name")

    def __init__(self, default: Any, default_factory: Callable[[], Any] | None, description: str | None,
                 check: Callable[[Any], Any] | None, constraints: dict[str, Any]) -> None:
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.description = description
        self.check = check
        self.constraints = constraints

    @property
    def required(self) -> bool:
        return self.default is _MISSING and self.default_factory is None

    def __repr__(self) -> str:
        return f"FieldSpec({self.name!r}, required={self.required}, description={self.description!r})"


def field(default: Any = _MISSING, *, default_factory: Callable[[], Any] | None = None,
          description: str | None = None, check: Callable[[Any], Any] | None = None, **constraints: Any) -> Any:
    """Declare a field: like ``pydantic.Field`` (``pattern``, ``ge``, ``min_length``... are passed on)."""
    return FieldSpec(default, default_factory, description, check, constraints)


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(field,))
class Record:
    """Base of the frozen records (see the module's docstring)."""

    model_fields: ClassVar[dict[str, FieldSpec]] = {}
    _order: ClassVar[tuple[tuple[str, Any, Callable[[], Any] | None], ...]] = ()
    _frozen: ClassVar[bool] = True
    _kw_only: ClassVar[bool] = True
    _post_init: ClassVar[Callable[[Any], None] | None] = None
    _pydantic: ClassVar[type[BaseModel] | None] = None

    def __init_subclass__(cls, *, frozen: bool | None = None, kw_only: bool | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._frozen = cls._frozen if frozen is None else frozen
        cls._kw_only = cls._kw_only if kw_only is None else kw_only
        fields: dict[str, FieldSpec] = {}
        for base in reversed(cls.__mro__[1:]):
            fields.update(getattr(base, "model_fields", {}))
        for name, annotation in cls.__dict__.get("__annotations__", {}).items():  # noqa: RUF063 - no inspect import
            if "ClassVar" in str(annotation):
                continue
            spec = cls.__dict__.get(name, _MISSING)
            if not isinstance(spec, FieldSpec):
                spec = FieldSpec(spec, None, None, None, {})
            spec.name = name
            fields[name] = spec
            if name in cls.__dict__:
                delattr(cls, name)  # instances hold the value; a class attribute would hide a missing one
        cls.model_fields = fields
        cls._order = tuple((n, f.default, f.default_factory) for n, f in fields.items())
        cls._post_init = getattr(cls, "__post_init__", None)
        cls._pydantic = None
        if not cls._kw_only:
            setattr(cls, "__match_args__", tuple(fields))  # noqa: B010 - declared by no base
        if not cls._frozen:  # a mutable record: assignable and, as a mutable dataclass, unhashable
            cls.__setattr__ = object.__setattr__  # type: ignore[method-assign,assignment]
            cls.__delattr__ = object.__delattr__  # type: ignore[method-assign]
            cls.__hash__ = None  # type: ignore[assignment]

    def __init__(self, *args: Any, **values: Any) -> None:
        if args:
            values = self._positional(args, values)
        state = self.__dict__
        given = 0
        get = values.get
        for name, default, factory in self._order:
            value = get(name, _MISSING)
            if value is _MISSING:
                if factory is not None:
                    value = factory()
                elif default is _MISSING:
                    raise TypeError(f"{type(self).__name__}: missing field {name!r}")
                else:
                    value = default
            else:
                given += 1
            state[name] = value
        if given != len(values):
            unknown = sorted(set(values) - set(self.model_fields))
            raise TypeError(f"{type(self).__name__}: unexpected field {unknown[0]!r}")
        if self._post_init is not None:
            self._post_init()

    def _positional(self, args: tuple[Any, ...], values: dict[str, Any]) -> dict[str, Any]:
        name = type(self).__name__
        if self._kw_only:
            raise TypeError(f"{name}: fields are given by name")
        if len(args) > len(self._order):
            raise TypeError(f"{name}: {len(args)} values for {len(self._order)} fields")
        named = dict(zip([n for n, _d, _f in self._order], args, strict=False))
        twice = named.keys() & values.keys()
        if twice:
            raise TypeError(f"{name}: field {sorted(twice)[0]!r} given twice")
        return {**named, **values}

    @classmethod
    def model_construct(cls, **values: Any) -> Self:
        """Build from trusted values (no type check), as pydantic's ``model_construct``."""
        return cls(**values)

    @classmethod
    def from_fields(cls, values: dict[str, Any]) -> Self:
        """A record from a dict holding exactly its fields (no defaults filled in, no post-init): for data
        this code wrote itself, such as the KB cache. Raises KeyError when the names differ."""
        if values.keys() != cls.model_fields.keys():
            raise KeyError(f"{cls.__name__}: fields {sorted(values.keys() ^ cls.model_fields.keys())} differ")
        return _rebuild(cls, values)

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenRecordError(f"{type(self).__name__} is frozen: use model_copy(update={{{name!r}: ...}})")

    def __delattr__(self, name: str) -> None:
        raise FrozenRecordError(f"{type(self).__name__} is frozen")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        return hash((type(self), *self.__dict__.values()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.__dict__.items())})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.__dict__.copy()))

    def model_copy(self, *, update: dict[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy with some fields replaced (not validated, as in pydantic)."""
        values = self.__dict__.copy()
        if deep:
            import copy

            values = copy.deepcopy(values)
        if update:
            for name in update:
                if name not in self.model_fields:
                    raise TypeError(f"{type(self).__name__}: unexpected field {name!r}")
            values.update(update)
        return _rebuild(type(self), values)

    @classmethod
    def field_types(cls) -> dict[str, Any]:
        """Each field's annotation, evaluated in the class's module (nested records as their classes)."""
        namespace = vars(sys.modules[cls.__module__])
        annotations: dict[str, Any] = {}
        for klass in reversed(cls.__mro__):
            annotations.update(klass.__dict__.get("__annotations__", {}))  # noqa: RUF063 - no inspect import
        return {name: eval(annotations[name], namespace) if isinstance(annotations[name], str)
                else annotations[name] for name in cls.model_fields}

    # --- through pydantic --------------------------------------------------------------------

    @classmethod
    def pydantic_model(cls) -> type[BaseModel]:
        """The pydantic model generated from this declaration (built once, on first use)."""
        model = cls.__dict__.get("_pydantic")
        if model is None:
            model = _generate(cls)
            cls._pydantic = model
        return model

    def to_pydantic(self) -> BaseModel:
        """This record as an instance of :meth:`pydantic_model` (nested records converted)."""
        converted: BaseModel = _to_pydantic(self)
        return converted

    def model_dump(self, **kwargs: Any) -> dict[str, Any]:
        """As ``pydantic.BaseModel.model_dump`` (``mode="json"`` for JSON-ready values)."""
        return self.to_pydantic().model_dump(**kwargs)

    def model_dump_json(self, **kwargs: Any) -> str:
        """As ``pydantic.BaseModel.model_dump_json``: the CLI's ``--format json``."""
        return self.to_pydantic().model_dump_json(**kwargs)

    @classmethod
    def model_validate(cls, obj: Any, **kwargs: Any) -> Self:
        """Validate a dict (or a record) into a record; raises ``pydantic.ValidationError``."""
        if type(obj) is cls:
            return obj
        kwargs.setdefault("from_attributes", True)
        return _from_pydantic(cls.pydantic_model().model_validate(obj, **kwargs))  # type: ignore[no-any-return]

    @classmethod
    def model_validate_json(cls, data: str | bytes, **kwargs: Any) -> Self:
        """Validate JSON text into a record; raises ``pydantic.ValidationError``."""
        return _from_pydantic(cls.pydantic_model().model_validate_json(data, **kwargs))  # type: ignore[no-any-return]

    @classmethod
    def model_json_schema(cls, **kwargs: Any) -> dict[str, Any]:
        """The JSON Schema, as pydantic writes it for the generated model."""
        return cls.pydantic_model().model_json_schema(**kwargs)


def _rebuild(cls: type[R], values: dict[str, Any]) -> R:
    """A record from values that came from a record of the same class (a copy, a pickle)."""
    obj = object.__new__(cls)
    obj.__dict__.update(values)
    return obj


def _generate(cls: type[Record]) -> type[BaseModel]:
    """The pydantic model of a record class: the same fields, defaults, descriptions and checks."""
    from typing import Annotated

    from pydantic import AfterValidator, ConfigDict, Field, create_model, model_validator

    types = cls.field_types()
    definitions: dict[str, Any] = {}
    for name, spec in cls.model_fields.items():
        kind = _resolve(types[name])
        if spec.check is not None:
            kind = Annotated[kind, AfterValidator(spec.check)]
        extra: dict[str, Any] = dict(spec.constraints, description=spec.description)
        if spec.default_factory is not None:
            extra["default_factory"] = _pydantic_factory(spec.default_factory)
        elif spec.default is not _MISSING:
            extra["default"] = spec.default
        definitions[name] = (kind, Field(**extra))
    validators: dict[str, Any] = {}
    check = getattr(cls, "_check", None)
    if check is not None:
        def after(model: Any) -> Any:
            check(_from_pydantic(model))
            return model

        validators["_check"] = model_validator(mode="after")(after)
    model: type[BaseModel] = create_model(
        cls.__name__, __config__=ConfigDict(extra="forbid", frozen=True), __doc__=cls.__doc__,
        __module__=cls.__module__, __validators__=validators, **definitions)
    model.__record__ = cls  # type: ignore[attr-defined]
    return model


def _resolve(kind: Any) -> Any:
    """An evaluated annotation with every record class in it replaced by its pydantic model."""
    from typing import get_args, get_origin

    if isinstance(kind, type) and issubclass(kind, Record):
        return kind.pydantic_model()
    origin = get_origin(kind)
    if origin is None:
        return kind
    args = get_args(kind)
    resolved = tuple(_resolve(a) for a in args)
    if resolved == args:
        return kind
    import types
    import typing

    if origin in (types.UnionType, typing.Union):
        out = resolved[0]
        for arg in resolved[1:]:
            out = out | arg
        return out
    return origin[resolved] if len(resolved) != 1 else origin[resolved[0]]


def _pydantic_factory(factory: Callable[[], Any]) -> Callable[[], Any]:
    if isinstance(factory, type) and issubclass(factory, Record):
        record = factory
        return lambda: record().to_pydantic()
    return factory


def _to_pydantic(value: Any) -> Any:
    if isinstance(value, Record):
        model = type(value).pydantic_model()
        return model.model_construct(**{k: _to_pydantic(v) for k, v in value.__dict__.items()})
    if isinstance(value, list):
        return [_to_pydantic(v) for v in value]
    if isinstance(value, dict):
        return {k: _to_pydantic(v) for k, v in value.items()}
    return value


def _from_pydantic(value: Any) -> Any:
    record = getattr(type(value), "__record__", None)
    if record is not None:
        return _rebuild(record, {k: _from_pydantic(v) for k, v in value.__dict__.items()})
    if isinstance(value, list):
        return [_from_pydantic(v) for v in value]
    if isinstance(value, dict):
        return {k: _from_pydantic(v) for k, v in value.items()}
    return value
