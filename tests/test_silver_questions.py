"""Silver TORQUE questions from hand-made TimeML documents and MATRES lines."""

from __future__ import annotations

from kg_count.qa.inputs.readers import torque_questions
from kg_count.qa.inputs.timeml import read_timebank
from kg_count.qa.learned.silver_questions import annotated_status, judged_spans, silver_torque
from kg_count.qa.learned.training import fold_of, source_document

DOCUMENT = (
    '<?xml version="1.0" ?><TimeML><DOCID>D1</DOCID>'
    '<DCT><TIMEX3 tid="t0" type="DATE" value="1998-01-08" functionInDocument="CREATION_TIME">'
    "1998-01-08</TIMEX3></DCT><TEXT>"
    'Police <EVENT eid="e1" class="OCCURRENCE">arrested</EVENT> the man after he '
    '<EVENT eid="e2" class="OCCURRENCE">fled</EVENT> the bank. '
    'He will <EVENT eid="e3" class="OCCURRENCE">appear</EVENT> in court, and he did not '
    '<EVENT eid="e4" class="OCCURRENCE">resist</EVENT>.</TEXT>'
    '<MAKEINSTANCE eventID="e1" eiid="ei1" tense="PAST" aspect="NONE" polarity="POS" pos="VERB" />'
    '<MAKEINSTANCE eventID="e2" eiid="ei2" tense="PAST" aspect="NONE" polarity="POS" pos="VERB" />'
    '<MAKEINSTANCE eventID="e3" eiid="ei3" tense="FUTURE" aspect="NONE" polarity="POS" pos="VERB" />'
    '<MAKEINSTANCE eventID="e4" eiid="ei4" tense="PAST" aspect="NONE" polarity="NEG" pos="VERB" />'
    '<TLINK lid="l1" relType="AFTER" timeID="t0" relatedToEventInstance="ei1" />'
    "</TimeML>"
)
MATRES = "D1\tarrested\tfled\t1\t2\tAFTER\nD1\tfled\tappear\t2\t3\tBEFORE\nD1\tarrested\tappear\t1\t3\tVAGUE\n"


def timebank(tmp_path):
    (tmp_path / "TimeBank").mkdir()
    (tmp_path / "matres").mkdir()
    (tmp_path / "TimeBank" / "D1.tml").write_text(DOCUMENT, encoding="utf-8")
    (tmp_path / "matres" / "timebank.txt").write_text(MATRES, encoding="utf-8")
    return tmp_path


def answers(passage: dict, question: str) -> list[str]:
    return passage["question_answer_pairs"][question]["answer"]["spans"]


def test_relations_to_the_document_time_are_read_from_either_side_of_the_link(tmp_path):
    documents, _ = read_timebank(timebank(tmp_path))
    events = {e.text: e for e in documents["D1"].events}
    assert events["arrested"].dct_relation == "BEFORE"
    assert [annotated_status(events[w]) for w in ("arrested", "fled", "appear", "resist")] == [
        "finished",
        "finished",
        "future",
        None,
    ]


def test_before_and_after_questions_are_answered_by_the_events_matres_orders_that_way(tmp_path):
    passages = silver_torque(timebank(tmp_path), sentences=2)
    assert list(passages) == ["docid_D1_sentid_0"]
    passage = passages["docid_D1_sentid_0"]
    questions = passage["question_answer_pairs"]
    before_arrest = next(q for q in questions if q.startswith("What happened before police arrested"))
    after_arrest = next(q for q in questions if q.startswith("What happened after police arrested"))
    assert answers(passage, before_arrest) == ["fled"]
    assert answers(passage, after_arrest) == []  # "appear" is VAGUE to the arrest: judged, not an answer
    assert questions[after_arrest]["judged"]["spans"] == ["fled", "appear"]
    before_flight = next(q for q in questions if q.startswith("What happened before he fled"))
    after_flight = next(q for q in questions if q.startswith("What happened after he fled"))
    assert answers(passage, before_flight) == []
    assert answers(passage, after_flight) == ["arrested", "appear"]
    assert not any(q.startswith("What happened while") for q in questions)  # no EQUAL pair


def test_warm_up_questions_leave_negated_events_unjudged(tmp_path):
    passage = silver_torque(timebank(tmp_path), sentences=2)["docid_D1_sentid_0"]
    assert answers(passage, "What events have already finished?") == ["arrested", "fled"]
    assert answers(passage, "What will happen in the future?") == ["appear"]
    assert answers(passage, "What events have begun but has not finished?") == []
    judged = judged_spans(passage)
    assert {passage["passage"][s:e] for s, e in judged["What will happen in the future?"]} == {
        "arrested",
        "fled",
        "appear",
    }


def test_windows_of_one_sentence_are_passages_of_one_document_and_one_fold(tmp_path):
    passages = silver_torque(timebank(tmp_path), sentences=1)
    assert set(passages) == {"docid_D1_sentid_0", "docid_D1_sentid_1"}
    assert passages["docid_D1_sentid_0"]["passage"] == "Police arrested the man after he fled the bank."
    assert {source_document(pid) for pid in passages} == {"D1"}
    assert len({fold_of(pid, 5) for pid in passages}) == 1
    assert fold_of("D1", 5) == fold_of("docid_D1_sentid_7", 5)


def test_silver_passages_read_as_torque_questions(tmp_path):
    passages = silver_torque(timebank(tmp_path), sentences=2)
    questions = torque_questions(passages, tmp_path / "silver.json")
    assert {q.passage_id for q in questions} == {"docid_D1_sentid_0"}
    defaults = [q for q in questions if q.is_default]
    assert len(defaults) == 3
    finished = next(q for q in defaults if "finished?" in q.question and "not" not in q.question)
    passage = finished.passage
    assert [passage[s:e] for s, e in finished.answers[0]] == ["arrested", "fled"]
    assert judged_spans({"passage": "x", "question_answer_pairs": {"q?": {"answer": {}}}}) is None


def test_cli_writes_silver_questions_that_the_torque_reader_reads(tmp_path, capsys):
    from kg_count.cli import main
    from kg_count.qa.inputs.readers import read_torque

    out = tmp_path / "silver.json"
    assert main(["qa", "silver", "--timebank", str(timebank(tmp_path)), "--out", str(out)]) == 0
    questions = read_torque(out)
    assert {q.passage_id for q in questions} == {"docid_D1_sentid_0"}
    assert "1 passages" in capsys.readouterr().out


def test_cli_names_a_folder_without_matres_and_writes_nothing(tmp_path, capsys):
    from kg_count.cli import main

    (tmp_path / "TimeBank").mkdir()
    out = tmp_path / "silver.json"
    assert main(["qa", "silver", "--timebank", str(tmp_path), "--out", str(out)]) != 0
    assert "no TimeML document with MATRES" in capsys.readouterr().err
    assert not out.exists()


def test_cli_refuses_a_passage_of_no_sentences(tmp_path, capsys):
    from kg_count.cli import main

    out = tmp_path / "silver.json"
    assert main(["qa", "silver", "--timebank", str(timebank(tmp_path)), "--out", str(out), "--sentences", "0"]) != 0
    assert "at least one sentence" in capsys.readouterr().err
    assert not out.exists()
