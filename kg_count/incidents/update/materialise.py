"""Build the incident graph over a whole store: read reports, cluster, reconcile, write.

The incident graph records a fingerprint of the documents it was built from and of the code and
settings that built it; it is rebuilt whenever either changes, so answers never depend on which
questions are asked, and a changed clustering setting never leaves stale incidents.
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from rdflib import Literal

from kg_count.errors import StoreError
from kg_count.background import running_beside
from kg_count.incidents.store.answer_facts import IncidentFacts
from kg_count.incidents.store.incident_graph import incidents_as_triples
from kg_count.incidents.store.incident_versions import INCIDENTS_SLOT, incident_sparql, write_version
from kg_count.graph.document_graph import document_id
from kg_count.graph.namespaces import KGC
from kg_count.incidents.pairs.pair_context import text_rarities
from kg_count.incidents.grouping.incident_match import MODEL_PATH
from kg_count.incidents.pairs.coreference_model import COREFERENCE_MODEL_PATH, shipped_coreference_model
from kg_count.incidents.grouping.person_status import PERSON_STATUS_PATH
from kg_count.incidents.store.report_cache import (
    load_versions,
    save_columns,
    save_incidents,
    save_reports,
    save_versions,
)
from kg_count.incidents.reports.reports import reports_from_store
from kg_count.incidents.grouping.scored_incidents import grouped_incidents
from kg_count.incidents.update.regroup import regroup_added
from kg_count.incidents.store.stored_incidents import stored_view
from kg_count.incidents.reports.title_vectors import EncoderBeside, encoder_beside
from kg_count.learning.model_files import file_sha256
from kg_count.memory import collector_paused
from kg_count.progress import status
from kg_count.settings import held_settings, settings, stage_fingerprint

if TYPE_CHECKING:
    from kg_count.graph.store import GraphStore

logger = logging.getLogger(__name__)

CLUSTERING_ROOTS = ("kg_count.incidents.update.materialise",)  # grouping, reconciling, scoring and storing incidents


def settings_fingerprint() -> str:
    """A hash of the [clustering] and [confidence] settings in force and of the code of this module and every
    kg_count module it imports (``kg_count.source_closure``)."""
    current = settings()
    return stage_fingerprint((current.clustering, current.confidence), CLUSTERING_ROOTS)


def models_fingerprint(coreference_path: Path | None = None) -> str:
    """A hash of the clustering settings and code, of the coreference model (the shipped one unless
    ``coreference_path`` names another) and of the incident-match and person-status models."""
    models = [
        file_sha256(path) if path.exists() else "none"
        for path in (Path(coreference_path or COREFERENCE_MODEL_PATH), MODEL_PATH, PERSON_STATUS_PATH)
    ]
    return hashlib.sha256("\n".join([settings_fingerprint(), *models]).encode()).hexdigest()


def documents_fingerprint(built_with: str, versions: dict[str, str]) -> str:
    """A hash of ``built_with`` (``models_fingerprint``) and of the documents' content hashes ``versions``."""
    documents = sorted(f"{doc_id} {content}" for doc_id, content in versions.items())
    return hashlib.sha256("\n".join([built_with, *documents]).encode()).hexdigest()


def fingerprint(store: GraphStore, coreference_path: Path | None = None) -> str:
    """A hash of the store's complete documents with their content hashes and of ``models_fingerprint``."""
    return documents_fingerprint(models_fingerprint(coreference_path), store.document_versions())


def stored_fingerprint(store: GraphStore) -> str | None:
    """The fingerprint the store's incident graph was built from, or None when it has none."""
    name = INCIDENTS_SLOT
    query = f"SELECT ?stamp WHERE {{ GRAPH {name} {{ {name} <{KGC.builtFrom}> ?stamp }} }}"
    rows = list(store.values(incident_sparql(store, query)))
    return str(rows[0][0]) if rows else None


def incident_count(store: GraphStore) -> int:
    """The number of incidents in the store's incident graph."""
    query = f"SELECT (COUNT(?i) AS ?n) WHERE {{ GRAPH {INCIDENTS_SLOT} {{ ?i <{KGC.incidentId}> ?id }} }}"
    return int(next(iter(store.values(incident_sparql(store, query))))[0])


def ensure_incidents(
    store: GraphStore,
    force: bool = False,
    coreference_path: Path | None = None,
    beside: EncoderBeside | None = None,
) -> tuple[int, bool]:
    """Bring the store's incident graph up to date unless it is; return (incident count, changed). Reports are
    grouped by the coreference model in ``coreference_path`` (default: the shipped one; SetupError naming
    the file when it cannot be read). When documents were only added since the graph was built with the same
    code, settings and models, only the incidents they can touch are regrouped (``regroup.regroup_added``),
    which gives the incidents grouping everything again gives; otherwise everything is grouped again. Titles are
    encoded in ``beside`` (an ``EncoderBeside`` of the caller's, which may be encoding the new reports' titles
    already, and which a whole grouping closes once they are cached), else in one started here when documents came."""
    with held_settings():
        return _ensure_incidents(store, force, Path(coreference_path or COREFERENCE_MODEL_PATH), beside)


@collector_paused()
def _ensure_incidents(store: GraphStore, force: bool, path: Path, given: EncoderBeside | None) -> tuple[int, bool]:
    built_with, earlier = models_fingerprint(path), stored_fingerprint(store)
    saved = load_versions(earlier) if earlier else None
    wanted = given is None and not force and documents_came(store, built_with, saved)
    with encoder_beside(wanted) as started:  # for their titles
        beside = given or started
        versions = store.document_versions()
        stamp = documents_fingerprint(built_with, versions)
        if not force and earlier == stamp:
            return incident_count(store), False
        coreference = shipped_coreference_model(path)
        grouped = None if force else grouped_versions(store, built_with, earlier, saved)
        if grouped is not None and all(versions.get(doc) == version for doc, version in grouped.items()):
            added = set(versions) - set(grouped)
            status(f"regrouping the incidents {len(added)} new documents can touch")
            regroup_added(store, coreference, versions, added, stamp, earlier, built_with, beside)
            return incident_count(store), True
    if given is not None:  # its titles cached before grouping reads them; its memory (240-340 MB) let go
        given.finish()
        given.close()
    status("grouping the store's reports into incidents")
    reports = reports_from_store(store)
    save_reports(reports, stamp)
    rarity = text_rarities(reports)
    incidents, grouping = grouped_incidents(reports, coreference=coreference, rarity=rarity)
    if grouping.columns is not None:
        save_columns(grouping.columns, rarity, stamp)
        grouping.columns = None  # let go of them before the incidents' triples are built
    facts = [(KGC.builtFrom, Literal(stamp)), (KGC.builtWith, Literal(built_with))]
    write_version(store, incidents_as_triples(incidents, versions), facts)
    status("compacting the store")  # a whole incident graph was written and the last one deleted
    with running_beside(store.compact):  # the files are saved meanwhile
        grouping.pairs.save(stamp)
        save_incidents([stored_view(incident) for incident in incidents], stamp)
        save_versions(built_with, versions, stamp)
    return len(incidents), True


INCIDENTS_BEFORE_ANSWER_FACTS = (
    "the store's incidents were grouped by an earlier kg_count and lack kgc:answerFacts in the form answering reads; "
    "`kg-count build` with this version groups them again"
)


def incidents_for_reading(store: GraphStore) -> None:
    """What commands that only read a store do before reading incidents: group its reports when it has no incident
    graph yet, or one grouped before ``kgc:answerFacts`` (StoreError on a store opened read-only); otherwise leave
    the graph as the last update left it (an update cut short, or documents added with ``--no-incidents``, leave
    the incidents before them in place), warning when documents came since."""
    stored = stored_fingerprint(store)
    if stored is None and store.read_only:
        raise StoreError("the store has no incidents yet: `kg-count build` groups them", store.location)
    answerable = stored is not None and incidents_answerable(store)
    if not answerable and store.read_only:
        raise StoreError(INCIDENTS_BEFORE_ANSWER_FACTS, store.location)
    if not answerable:
        ensure_incidents(store)
    elif stored != fingerprint(store):
        logger.warning("the store's incidents predate some of its documents; `kg-count build` brings them up to date")


def incidents_answerable(store: GraphStore) -> bool:
    """Whether the store's incident graph carries what answering reads of each incident in one literal
    (``kgc:answerFacts``, its documents' ids in it since they left ``kgc:documentIds``): True when its first
    incident's does, or when it has none."""
    name = INCIDENTS_SLOT
    first = (
        f"SELECT ?facts WHERE {{ GRAPH {name} {{ ?i <{KGC.incidentId}> ?id "
        f"OPTIONAL {{ ?i <{KGC.answerFacts}> ?facts }} }} }} LIMIT 1"
    )
    rows = list(store.values(incident_sparql(store, first)))
    if not rows:
        return True
    try:
        return rows[0][0] is not None and bool(IncidentFacts.read(str(rows[0][0])).doc_ids)
    except ValueError:
        return False


def require_answerable_incidents(store: GraphStore) -> None:
    """StoreError naming the store when its incidents were written by a kg_count before ``kgc:answerFacts`` held
    the documents' ids (answers would find none of them, or none of their documents); a build with this version
    groups them again."""
    if not incidents_answerable(store):
        raise StoreError(INCIDENTS_BEFORE_ANSWER_FACTS, store.location)


def documents_came(store: GraphStore, built_with: str, saved: tuple[str, dict[str, str]] | None) -> bool:
    """Whether the store holds more documents than the grouping that ``saved`` its versions (``load_versions``:
    its models' fingerprint and the versions) with ``built_with`` (``models_fingerprint``) grouped; False when it
    saved none. A count, read before the versions are: an update starts encoding on it."""
    return saved is not None and saved[0] == built_with and store.document_count() > len(saved[1])


def grouped_versions(
    store: GraphStore, built_with: str, stamp: str | None = None, saved: tuple[str, dict[str, str]] | None = None
) -> dict[str, str] | None:
    """The content hash of each document the incident graph grouped, by id, when the graph was built with
    ``built_with`` (``models_fingerprint``); None when it was built otherwise, or not at all. Taken from ``saved``,
    what the grouping of the graph's fingerprint ``stamp`` saved (``load_versions``), when ``stamp`` is that of
    ``built_with`` and the saved hashes; else read from the graph."""
    if saved is not None and saved[0] == built_with and documents_fingerprint(built_with, saved[1]) == stamp:
        return saved[1]
    name = INCIDENTS_SLOT
    built = f"ASK {{ GRAPH {name} {{ {name} <{KGC.builtWith}> {Literal(built_with).n3()} }} }}"
    if not store.query(incident_sparql(store, built)).askAnswer:
        return None
    query = f"SELECT ?doc ?version WHERE {{ GRAPH {name} {{ ?doc <{KGC.groupedVersion}> ?version }} }}"
    return {document_id(doc): version for doc, version in store.values(incident_sparql(store, query))}
