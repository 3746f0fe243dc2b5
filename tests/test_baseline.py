"""The reference baseline on hand-written documents (needs WordNet 3.0, provisioned by make setup)."""

import datetime as dt

from kg_count.answer.baseline import answer_baseline, event_lemmas, question_keywords
from kg_count.io.conll import Document, Token
from kg_count.io.questions import parse_question


def doc(doc_id, dct, text):
    tokens = [Token(f"{doc_id}.b1.{i}", word, "BODY", "b1", i) for i, word in enumerate(text.split(), start=1)]
    return Document(doc_id, dt.date.fromisoformat(dct), tokens)


DOCS = {
    d.doc_id: d
    for d in [
        doc("a", "2016-05-02", "A man was shot and could kill again in Columbus , Mississippi"),
        doc("b", "2016-05-20", "Police say the killing in Columbus was gang related"),
        doc("c", "2016-06-01", "The killing in Columbus is unsolved"),
        doc("d", "2016-05-03", "A fire destroyed a house in Columbus"),
        doc("e", "2016-05-09", "The company will sack 30 workers , John Smith said"),
    ]
}


def question(qid, **fields):
    return parse_question(qid, {"event_type": "killing", "subtask": int(qid[0]), **fields})


def test_event_lemmas_come_from_the_task_synsets():
    assert {"killing", "kill"} <= event_lemmas("killing")
    assert {"injure", "wound", "injured"} <= event_lemmas("injuring")
    assert {"fire", "sack", "dismiss"} <= event_lemmas("job_firing")


def test_keywords_are_iri_surface_forms_and_names():
    q = question(
        "2-1",
        location={"city": "http://dbpedia.org/resource/Columbus,_Mississippi"},
        participant={"full_name": "John Smith"},
    )
    assert question_keywords(q) == ["Columbus, Mississippi", "John Smith"]


def test_matching_uses_lemma_tokens_place_and_dct():
    city = {"city": "http://dbpedia.org/resource/Columbus"}
    answers = answer_baseline(
        {
            "2-1": question("2-1", location=city, time={"month": "05/2016"}),
            "2-2": question("2-2", location=city, time={"day": "01/06/2016"}),
            "2-3": question("2-3", location=city, time={"year": "2015"}),
            "3-1": question("3-1", location=city, time={"year": "2016"}),
            "2-4": parse_question(
                "2-4",
                {"event_type": "job_firing", "subtask": 2, "time": {"year": "2016"}, "participant": {"last": "Smith"}},
            ),
        },
        DOCS,
    )
    assert sorted(answers["2-1"].documents) == ["a", "b"] and answers["2-1"].numerical_answer == 2
    assert answers["2-2"].documents == ["c"]
    assert answers["2-3"].numerical_answer == 0 and answers["2-3"].documents == []
    assert answers["3-1"].numerical_answer == 3
    assert answers["2-4"].documents == ["e"]


def test_s1_is_answered_only_when_documents_match():
    city = {"city": "http://dbpedia.org/resource/Columbus"}
    answers = answer_baseline(
        {
            "1-1": question("1-1", location=city, time={"day": "01/06/2016"}),
            "1-2": question("1-2", location=city, time={"day": "02/06/2016"}),
        },
        DOCS,
    )
    assert list(answers) == ["1-1"]
    assert answers["1-1"].numerical_answer is None and answers["1-1"].documents == ["c"]
