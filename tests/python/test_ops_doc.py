"""docs/ops.md is generated from the OpInfo table; the committed file must be current."""
import gen_ops_doc


def test_support_report_is_up_to_date():
    with open(gen_ops_doc.DOC, encoding="utf-8") as f:
        committed = f.read()
    assert committed == gen_ops_doc.render(), "docs/ops.md is stale: run `python tests/python/gen_ops_doc.py`"
