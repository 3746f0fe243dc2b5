"""The HTML evaluation report: plots and worst questions, written atomically."""

import json

from kg_count.cli import main
from kg_count.evaluate.html_report import bar_chart

DBR = "http://dbpedia.org/resource/"


def test_bar_chart_orders_count_classes_numerically():
    svg = bar_chart("accuracy", {"10+": 5.0, "2": 50.0, "0": 100.0})
    assert svg.index(">0<") < svg.index(">2<") < svg.index(">10+<")
    assert svg.count("<rect") == 3


def test_report_has_plots_and_the_worst_question_first(tmp_path):
    gold = {
        "2-1": {"numerical_answer": 2, "answer_docs": {"I1": ["a"], "I2": ["b"]}},
        "2-2": {"numerical_answer": 1, "answer_docs": {"I3": ["c"]}},
    }
    system = {
        "2-1": {"numerical_answer": 9, "answer_docs": ["x"]},
        "2-2": {"numerical_answer": 1, "answer_docs": ["c"]},
    }
    (tmp_path / "gold.json").write_text(json.dumps(gold))
    (tmp_path / "system.json").write_text(json.dumps(system))
    assert (
        main(
            [
                "evaluate",
                "--gold",
                str(tmp_path / "gold.json"),
                "--system",
                str(tmp_path / "system.json"),
                "--report",
                str(tmp_path / "report"),
            ]
        )
        == 0
    )
    page = (tmp_path / "report" / "index.html").read_text()
    assert "<svg" in page and "accuracy by count" in page and "RMSE by count" in page
    assert page.index("2-1") < page.index("2-2")
    assert [p.name for p in (tmp_path / "report").iterdir()] == ["index.html"]


def test_bar_charts_show_whole_titles_and_labels_with_a_y_axis():
    import re

    title = "document F1 by property pair"
    svg = bar_chart(title, {"location+participant": 34.4, "time+participant": 100.0})
    width = float(re.search(r'<svg width="([\d.]+)"', svg)[1])
    assert width >= len(title) * 7
    assert ">location+participant</text>" in svg and ">time+participant</text>" in svg
    assert ">100.0</text>" in svg and ">100</text>" in svg and ">0</text>" in svg
    top_value_y = float(re.search(r'y="([\d.]+)"[^>]*>100\.0</text>', svg)[1])
    assert top_value_y > 16


def test_worst_questions_read_as_text_with_incidents_and_marked_documents(tmp_path):
    from kg_count.evaluate.html_report import StoreView, write_report
    from kg_count.incidents.views.incident_views import DocumentView, IncidentView
    from kg_count.io.answers import GoldAnswer, SystemAnswer
    from kg_count.io.questions import parse_question

    question = parse_question(
        "2-1",
        {
            "event_type": "killing",
            "subtask": 2,
            "location": {"city": "http://dbpedia.org/resource/Memphis,_Tennessee"},
            "time": {"month": "01/2017"},
            "verbose_question": "How many ['killing'] events happened in 01/2017 (month) in ('Memphis',) ?",
        },
    )
    documents = {d: DocumentView(d, "2017-01-1" + d[-1], f"Title of {d}") for d in ("d1", "d2", "d3")}
    members = (documents["d1"], documents["d3"])
    incident = IncidentView("inc1", "2017-01-10", "Memphis, Tennessee", "Tennessee", 1, 2, 0.91, ("killing",), members)
    view = StoreView(
        documents, {"inc1": incident}, {"d1": "inc1", "d3": "inc1"}, lambda ids: {i: f"# turtle of {i}\n" for i in ids}
    )
    gold = {"2-1": GoldAnswer(2, {"g1": ["d1"], "g2": ["d2"]})}
    system = {"2-1": SystemAnswer(1, ["d1", "d3"])}
    page = write_report(tmp_path, {"subtask": 2}, gold, system, {"2-1": question}, view).read_text()
    assert "How many killing incidents happened in Memphis, Tennessee in January 2017?" in page
    assert "[&#x27;killing&#x27;]" not in page and "['killing']" not in page
    assert "Title of d1" in page and "killed 1, injured 2" in page and "(confidence 0.91)" in page
    assert "class='doc missed'>&#10007; Title of d2" in page and "class='doc extra'>+ Title of d3" in page
    assert "href='incidents/inc1.ttl'" in page
    assert (tmp_path / "incidents" / "inc1.ttl").read_text() == "# turtle of inc1\n"


def test_the_report_shows_the_answer_prior_of_the_questions_shapes(tmp_path):
    from kg_count.evaluate.html_report import write_report
    from kg_count.answer.answer_prior import fit_prior
    from kg_count.io.answers import GoldAnswer, SystemAnswer
    from kg_count.io.questions import parse_question

    question = parse_question(
        "2-1", {"subtask": 2, "event_type": "killing", "location": {"state": DBR + "Ohio"}, "time": {"year": "2016"}}
    )
    prior = fit_prior([(question, 2)] * 9 + [(question, 0)], {"2": 0.75}, pseudo=10.0)
    gold = {"2-1": GoldAnswer(2, {"I1": ["a"], "I2": ["b"]})}
    page = write_report(tmp_path, {"subtask": 2}, gold, {"2-1": SystemAnswer(2, ["a"])}, {"2-1": question}, prior=prior)
    text = page.read_text()
    assert "Answer prior (weight 0.75" in text and "location+time state+year killing" in text
