"""The QA encoder: offline load from its package, the NumPy forward pass, and encoder-scored passage graphs."""

from __future__ import annotations

import os

import numpy as np
import pytest

from kg_count.qa.passage_graph.analysis import analyse_passage
from kg_count.learning.encoder import DIMENSION, load_encoder, model_zip, token_spans
from kg_count.qa.passage_graph.relation_features import crossed, relation_pair_features, pair_vector
from kg_count.learning.linear_model import Example, LinearModel, train
from kg_count.qa.learned.model_set import shipped_qa_models
from kg_count.qa.passage_graph.passage import parse

PASSAGE = (
    "The police arrested the man after he shot two people outside a bar on Friday. He did not resist. "
    "He will appear in court next week, and prosecutors may seek a long sentence."
)


def test_encoder_loads_offline_from_its_package():
    assert model_zip().name == "model.zip"
    encoder = load_encoder()
    assert encoder.config["num_hidden_layers"] == 6 and encoder.config["hidden_size"] == 384


def test_sentence_vectors_tell_paraphrases_from_unrelated_text():
    encoder = load_encoder()
    first = encoder.sentence_vector("A gunman shot two people outside a bar in Chicago on Friday night.")
    second = encoder.sentence_vector("Two people were wounded in a shooting near a Chicago tavern late Friday.")
    other = encoder.sentence_vector("The recipe calls for two cups of flour and a pinch of salt.")
    assert first @ second > 0.5 > 0.2 > first @ other


def test_token_vectors_are_contextual_and_cover_every_word():
    doc = parse("He fired the gun. The company fired him.")
    vectors = load_encoder().token_vectors(doc)
    assert vectors.shape == (len(doc), DIMENSION)
    assert all(np.abs(vectors[t.i]).sum() > 0 for t in doc)
    first, second = vectors[1], vectors[7]  # "fired" twice, two senses
    assert not np.allclose(first, second)


def test_passages_encoded_ahead_in_another_process_give_the_vectors_encoded_here():
    from kg_count.qa.passage_graph import vectors as passage_vectors
    from kg_count.qa.passage_graph.analysis import parsed_ahead

    texts = [PASSAGE, "He fired the gun. The company fired him.", "Nobody was hurt in the fire on Main Street."]
    groups = {text: [] for text in texts}
    for text, _ in parsed_ahead(groups, encode=True):
        doc = parse(text)
        if passage_vectors._encoder_process is not None:  # where processes can be forked
            assert passage_vectors._ahead[(doc.text, token_spans(doc))].result().dtype == np.float32
        here = load_encoder().token_vectors(doc).astype(np.float16).astype(np.float32)
        assert np.array_equal(passage_vectors.cached_token_vectors(doc), here)
    assert passage_vectors._ahead == {}  # everything encoded ahead was taken, or let go at the end


def test_long_passages_are_read_in_windows():
    encoder = load_encoder()
    text = " ".join(["The police arrested the man after he shot two people."] * 40)
    pieces, offsets = encoder.piece_vectors(text)
    assert len(offsets) > 256 and pieces.shape == (len(offsets), DIMENSION)
    assert np.abs(pieces).sum(axis=1).min() > 0


def test_dense_blocks_are_learned_and_saved(tmp_path):
    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(300, 8)).astype(np.float32)
    direction = rng.normal(size=8)
    examples = [Example(["bias"], int(vectors[i] @ direction > 0), i, ("block",)) for i in range(300)]
    model = train(examples, vectors=vectors, dense_l2=0.1)
    accuracy = np.mean([(model.probability(e.features, vectors[e.row], e.blocks) > 0.5) == e.label for e in examples])
    assert accuracy > 0.95
    model.save(tmp_path / "m.json")
    again = LinearModel.load(tmp_path / "m.json")
    assert (
        abs(again.probability(["bias"], vectors[0], ("block",)) - model.probability(["bias"], vectors[0], ("block",)))
        < 0.01
    )


@pytest.mark.parametrize("style, relation", [("torque", "before"), ("ester", "causes")])
def test_graph_edges_carry_encoder_scored_confidences(style, relation):
    models = shipped_qa_models()
    assert models.uses_encoder
    analysis = analyse_passage("p", PASSAGE, models, style)
    assert analysis.vectors is not None and analysis.vectors.shape[0] == len(analysis.doc)
    events = {e.text: e for e in analysis.events}
    event, anchor = events["shot"], events["arrested"]
    scorer = models.temporal if style == "torque" else models.semantic
    features = crossed(relation, relation_pair_features(analysis.doc, event, anchor))
    expected = scorer.probability(features, pair_vector(analysis.vectors, event, anchor), (relation,))
    assert expected != pytest.approx(scorer.probability(features), abs=1e-3)  # the encoder's share counts
    rows = {row.begin: row.confidence for row in analysis.graph.related(anchor, relation, 0.0)}
    if expected >= 0.05:
        assert rows[event.start] == pytest.approx(expected, abs=1e-3)
    else:
        assert event.start not in rows


def test_sentence_vectors_of_a_batch_are_those_of_each_text_alone():
    """Padding a short text to a long one's length in one forward pass changes nothing of its vector."""
    encoder = load_encoder()
    texts = ["Shot", "Two men were wounded in a shooting on the east side late on Friday night, police said.", "Fire"]
    together = encoder.sentence_vectors(texts)
    alone = np.stack([encoder.sentence_vectors([text])[0] for text in texts])
    assert together.shape == (3, 384)
    assert np.allclose(together, alone, atol=1e-5)
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)


def test_the_fast_gelu_is_bert_s_erf_gelu():
    """The forward pass's GELU (erf by Abramowitz & Stegun 7.1.26) stays within float32 noise of the erf GELU."""
    from scipy.special import erf

    from kg_count.learning.encoder import _gelu

    x = np.linspace(-12.0, 12.0, 200_001, dtype=np.float32)
    exact = 0.5 * x.astype(np.float64) * (1.0 + erf(x.astype(np.float64) / np.sqrt(2.0)))
    assert _gelu(x).dtype == np.float32
    assert np.abs(_gelu(x) - exact).max() < 1e-6


def test_a_dense_layer_over_a_batch_is_the_stacked_product():
    from kg_count.learning.encoder import _dense

    chosen = np.random.default_rng(5)
    x = chosen.standard_normal((3, 7, 16), dtype=np.float32)
    weight, bias = chosen.standard_normal((16, 24), dtype=np.float32), chosen.standard_normal(24, dtype=np.float32)
    assert _dense(x, weight, bias).shape == (3, 7, 24)
    assert np.allclose(_dense(x, weight, bias), x @ weight + bias, atol=1e-5)


def test_title_vectors_read_the_same_encoded_or_from_the_cache(tmp_path):
    from kg_count.incidents.reports.title_vectors import sentence_vectors

    titles = ["Police narcotics delivery guys nabbed with drugs guns and cash", "Police Respond To Shooting In"]
    fresh = sentence_vectors(titles, tmp_path / "vectors.sqlite")
    cached = sentence_vectors(titles, tmp_path / "vectors.sqlite")
    assert list(fresh) == sorted(titles)
    assert all(np.array_equal(fresh[t], cached[t]) and fresh[t].dtype == np.float32 for t in titles)


def test_titles_encoded_beside_are_cached_as_encoding_them_here_gives(tmp_path):
    from kg_count.incidents.reports.title_vectors import encoded_beside, sentence_vectors, uncached

    titles = ["Man shot outside a bar on Main Street", "Two wounded in a drive-by shooting", ""]
    beside, here = tmp_path / "beside.sqlite", tmp_path / "here.sqlite"
    with encoded_beside(titles, beside):
        assert uncached(titles, here) == sorted(titles[:2])
    assert uncached(titles, beside) == []  # the process encoded them into the file
    read, encoded = sentence_vectors(titles, beside), sentence_vectors(titles, here)
    assert list(read) == sorted(titles[:2]) and all(np.array_equal(read[t], encoded[t]) for t in titles[:2])


def test_an_encoder_started_before_its_titles_are_known_caches_them_as_encoding_here_gives(tmp_path):
    from kg_count.incidents.reports.title_vectors import encoded_beside, encoder_beside, sentence_vectors, uncached

    titles = ["Man shot outside a bar on Main Street", "Two wounded in a drive-by shooting"]
    beside, here = tmp_path / "beside.sqlite", tmp_path / "here.sqlite"
    with encoder_beside(cache=beside) as started:
        assert started is not None
        with encoded_beside(titles, beside, started):
            pass
        assert uncached(titles, beside) == []  # cached once the block is left, the process still running
        started.close()
        assert not started.started
        started.encode(["Three hurt when a car hit a porch"])  # a closed encoder forks another when given texts
        assert started.started
        started.finish()
        assert uncached(["Three hurt when a car hit a porch"], beside) == []
    read, encoded = sentence_vectors(titles, beside), sentence_vectors(titles, here)
    assert all(np.array_equal(read[t], encoded[t]) for t in titles)
    with encoder_beside(wanted=False) as none:
        assert none is None


def test_a_block_that_raises_beside_the_encoding_raises_its_own_error(tmp_path):
    from kg_count.incidents.reports.title_vectors import encoded_beside

    with pytest.raises(KeyError, match="stopped"):
        with encoded_beside(["Man shot outside a bar on Main Street"], tmp_path / "vectors.sqlite"):
            raise KeyError("stopped")


def _dies(*_) -> None:
    os._exit(1)


def test_an_encoding_process_that_dies_leaves_the_titles_to_be_encoded_later(tmp_path, monkeypatch):
    from kg_count.incidents.reports import title_vectors

    titles = ["Man shot outside a bar on Main Street"]
    monkeypatch.setattr(title_vectors, "_encode", _dies)
    with title_vectors.encoded_beside(titles, tmp_path / "vectors.sqlite"):
        pass
    assert title_vectors.uncached(titles, tmp_path / "vectors.sqlite") == titles


_HELPER_SCRIPT = """
import json, sys
from pathlib import Path
from kg_count.incidents.reports.title_vectors import sentence_vectors
from kg_count.learning.encoder import load_encoder
vectors = sentence_vectors(json.loads(sys.argv[1]), Path(sys.argv[2]))
listed = {t: v.tolist() for t, v in vectors.items()}
print(json.dumps({"loaded_here": load_encoder.cache_info().currsize, "vectors": listed}))
"""


def test_many_titles_are_encoded_in_a_helper_that_takes_the_encoder_with_it(tmp_path):
    import json
    import subprocess
    import sys

    from kg_count.incidents.reports.title_vectors import sentence_vectors

    titles = ["Man shot outside a bar on Main Street", "Two wounded in a drive-by shooting", "Fire on Elm Street"]
    overrides = tmp_path / "settings.toml"
    overrides.write_text("[batch]\nhelper_encoding_titles = 2\n")
    env = {**os.environ, "KG_COUNT_SETTINGS": str(overrides), "KG_COUNT_PROGRESS": "0"}
    done = subprocess.run(
        [sys.executable, "-c", _HELPER_SCRIPT, json.dumps(titles), str(tmp_path / "helper.sqlite")],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["loaded_here"] == 0  # the helper encoded them: this process never loaded the weights
    here = sentence_vectors(titles, tmp_path / "here.sqlite")
    assert sorted(result["vectors"]) == sorted(titles)
    assert all(np.array_equal(np.array(result["vectors"][t], dtype=np.float32), here[t]) for t in titles)


def test_a_helper_that_dies_leaves_its_titles_to_the_caller(tmp_path, monkeypatch):
    from kg_count.incidents.reports import title_vectors

    titles = ["Man shot outside a bar on Main Street"]
    monkeypatch.setattr(title_vectors, "_encode_in_helper", _dies)
    assert title_vectors.encoded_in_helper(titles, tmp_path / "vectors.sqlite") is False
    assert title_vectors.uncached(titles, tmp_path / "vectors.sqlite") == titles


def _first_documents(source, target, n: int):
    """The first ``n`` documents of the CoNLL file ``source``, written to ``target``."""
    parts = source.read_text(encoding="utf-8").split("#begin document")[1 : n + 1]
    target.write_text("".join("#begin document" + part for part in parts), encoding="utf-8")
    return target


def test_a_build_encodes_its_titles_beside_it_ends_the_encoder_before_grouping_and_starts_none_for_nothing_new(
    tmp_path, monkeypatch
):
    from kg_count.graph.loader import built_store
    from kg_count.incidents.reports.reports import reports_from_store
    from kg_count.incidents.reports.title_vectors import encoder_beside, uncached
    from kg_count.incidents.update.materialise import ensure_incidents
    from tests.helpers import SAMPLE

    monkeypatch.setenv("KG_COUNT_VECTOR_CACHE", str(tmp_path / "vectors.sqlite"))
    docs = _first_documents(SAMPLE / "docs.conll", tmp_path / "docs.conll", 6)
    with encoder_beside(start=False) as titles:
        with built_store(docs, tmp_path / "store", titles=titles) as (store, summary):
            assert titles.started and summary.added == 6
            ensure_incidents(store, beside=titles)
            assert not titles.started  # a whole grouping ends the encoder once its titles are cached
            reports = reports_from_store(store)
    assert reports and uncached(r.title for r in reports) == []
    with encoder_beside(start=False) as titles:
        with built_store(docs, tmp_path / "store", titles=titles) as (_, summary):
            assert summary.skipped == 6 and not titles.started
