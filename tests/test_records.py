"""troubleshooter.records: frozen records that read as plain objects and validate through pydantic."""

from __future__ import annotations

import copy
import json
import pickle
import subprocess
import sys

import pytest
from pydantic import BaseModel, ValidationError

from tests.record_samples import Inner, Outer
from troubleshooter.kb.schema import Entry, Step
from troubleshooter.models import Diagnosis, Evidence, Report
from troubleshooter.records import FrozenRecordError, Record


def test_building_checks_names_and_fills_defaults() -> None:
    a = Outer(name="x")
    assert (a.name, a.count, a.tags, a.inner) == ("x", 1, [], Inner())
    assert Outer(name="y").tags is not a.tags  # a default factory runs per record
    with pytest.raises(TypeError, match="missing field"):
        Outer()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected field 'nmae'"):
        Outer(name="x", nmae="y")  # type: ignore[call-arg]
    assert list(Outer(count=3, name="z").__dict__) == list(Outer.model_fields)  # declared order


def test_records_are_frozen_values() -> None:
    a = Outer(name="x", tags=["t"])
    with pytest.raises(FrozenRecordError):
        a.name = "y"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del a.name
    assert a == Outer(name="x", tags=["t"]) and a != Outer(name="x") and a != ("x",)
    assert hash(Inner(label="a")) == hash(Inner(label="a"))
    b = a.model_copy(update={"count": 5})
    assert (b.count, a.count, b.tags is a.tags) == (5, 1, True)
    assert a.model_copy(deep=True).tags is not a.tags
    with pytest.raises(TypeError):
        a.model_copy(update={"nope": 1})
    assert pickle.loads(pickle.dumps(a)) == a and copy.deepcopy(a) == a
    assert repr(Inner(label="a")) == "Inner(label='a')"


def test_validation_goes_through_pydantic() -> None:
    good = Outer.model_validate({"name": "x", "count": "2", "inner": {"label": "b"}})
    assert isinstance(good, Outer) and isinstance(good.inner, Inner) and good.count == 2
    with pytest.raises(ValidationError, match="greater than or equal to 0"):
        Outer.model_validate({"name": "x", "count": -1})
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        Outer.model_validate({"name": "x", "other": 1})
    with pytest.raises(ValidationError, match="label must be lower case"):  # field(check=...)
        Inner.model_validate({"label": "B"})
    with pytest.raises(ValidationError, match="a name without tags cannot count above 9"):  # _check
        Outer.model_validate({"name": "x", "count": 10})
    assert Outer.model_validate(good) is good


def test_json_and_schema_are_pydantics() -> None:
    rec = Outer(name="x", tags=["t"], inner=Inner(label="q"))
    assert json.loads(rec.model_dump_json()) == {"name": "x", "count": 1, "tags": ["t"], "inner": {"label": "q"}}
    assert rec.model_dump() == {"name": "x", "count": 1, "tags": ["t"], "inner": {"label": "q"}}
    assert Outer.model_validate_json(rec.model_dump_json()) == rec
    schema = Outer.model_json_schema()
    assert schema["description"] == "A sample record."
    assert schema["properties"]["count"] == {"default": 1, "description": "How many.", "minimum": 0,
                                             "title": "Count", "type": "integer"}
    model = Outer.pydantic_model()
    assert issubclass(model, BaseModel) and model.__name__ == "Outer" and Outer.pydantic_model() is model
    assert isinstance(rec.to_pydantic(), model)


def test_result_and_kb_classes_are_records() -> None:
    for cls in (Report, Diagnosis, Evidence, Entry, Step):
        assert issubclass(cls, Record) and not issubclass(cls, BaseModel)
    with pytest.raises(ValidationError, match="a step with `code` needs `lang`"):
        Step.model_validate({"text": "run it", "code": "trtexec"})
    with pytest.raises(ValidationError, match="is not a version range"):
        Step.model_validate({"text": "run it", "versions": ">=eight"})


def test_building_and_reading_records_imports_no_pydantic() -> None:
    code = ("import sys\n"
            "from tests.record_samples import Inner, Outer\n"
            "r = Outer(name='x', inner=Inner(label='a')).model_copy(update={'count': 2})\n"
            "assert r.count == 2 and r.inner.label == 'a'\n"
            "print('pydantic' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_positional_mutable_and_post_init_records() -> None:
    from tests.record_samples import Counter, Point

    assert Point(1, 2) == Point(x=1, y=2) and Point(3).y == 0
    assert Point.__match_args__ == ("x", "y")  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="given twice"):
        Point(1, x=2)
    with pytest.raises(TypeError, match="3 values for 2 fields"):
        Point(1, 2, 3)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="by name"):
        Outer("x")  # type: ignore[misc]
    c = Counter(start=4)
    assert c.seen == [4]  # __post_init__ ran
    c.start = 5
    assert c.start == 5
    with pytest.raises(TypeError):
        hash(c)
    assert pickle.loads(pickle.dumps(c)) == c and pickle.loads(pickle.dumps(c)).seen == [4]  # no second post-init
