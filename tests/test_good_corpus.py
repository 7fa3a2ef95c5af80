from support.corpus_factory import good_files


def test_the_good_corpus_is_clean(findings):
    assert findings() == []


def test_good_fixture_has_every_part():
    files = good_files()
    assert any(p.startswith("spec/rfcs/") for p in files)
    assert any(p.startswith("schemas/examples/") for p in files)
