"""A logistic regression over named binary features and encoder vectors, trained with SciPy.

The score of an example is ``bias + sum of its features' weights + sum over its dense blocks of
(vector - center) / scale . W[block]``: named features come from the parse (part of speech, tense,
connectives, ...), the vector from the encoder (kg_count.learning.encoder), and a block names which
weight vector reads it (the relation asked, the annotation style, ...). Training minimises
L2-regularised log loss with L-BFGS. The model file is JSON: bias, threshold (and thresholds by kind
of input where they differ), feature weights, per block its weights (float16 precision) with the
vectors' center and scale, and the settings it was trained with.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from kg_count.errors import SetupError
from kg_count.io.atomic import atomic_writer
from kg_count.settings import settings


def logit(probability: float, floor: float = 1e-9) -> float:
    """log(p / (1 - p)) of ``probability`` kept within [floor, 1 - floor]."""
    probability = min(max(probability, floor), 1 - floor)
    return math.log(probability / (1 - probability))


@dataclass
class Example:
    """One training example: active feature names, the row of its vector in the vectors matrix
    (-1: none), the dense blocks that read it, the label, and how much its log loss weighs."""

    features: Sequence[str]
    label: int
    row: int = -1
    blocks: tuple[str, ...] = ()
    weight: float = 1.0


@dataclass
class LinearModel:
    """Weights by feature name, dense block weights and a bias; ``probability`` scores one example.
    ``thresholds`` holds decision thresholds by kind of input where they differ from ``threshold``;
    ``trained_with`` the settings sections the model was fitted with."""

    weights: dict[str, float]
    bias: float
    threshold: float = 0.5
    blocks: dict[str, np.ndarray] = field(default_factory=dict)
    center: np.ndarray | None = None
    scale: np.ndarray | None = None
    thresholds: dict[str, float] = field(default_factory=dict)
    trained_with: dict[str, dict] = field(default_factory=dict)

    def threshold_for(self, kind: str) -> float:
        """The decision threshold for inputs of ``kind`` (``threshold`` unless one is set for it)."""
        return self.thresholds.get(kind, self.threshold)

    def logit(self, features: Iterable[str], vector: np.ndarray | None = None, blocks: Iterable[str] = ()) -> float:
        """The score before the sigmoid (unknown feature names and blocks weigh nothing)."""
        score = self.bias + sum(map(self.weights.get, features, repeat(0.0)))
        if vector is not None and self.blocks:
            standard = (vector - self.center) / self.scale
            score += sum(float(standard @ self.blocks[b]) for b in blocks if b in self.blocks)
        return score

    def probability(
        self, features: Iterable[str], vector: np.ndarray | None = None, blocks: Iterable[str] = ()
    ) -> float:
        """P(label = 1) for the active ``features`` and, where the model has dense blocks, ``vector``."""
        score = self.logit(features, vector, blocks)
        return 1.0 / (1.0 + math.exp(-max(-35.0, min(35.0, score))))

    retrain = "kg-count train"

    def to_json(self) -> dict:
        """The model as a JSON object: bias, threshold(s), the weights that are not zero, the settings it
        was trained with and, when it has dense blocks, their weights with the vectors' center and
        scale (float16 precision)."""
        data = {
            "bias": self.bias,
            "threshold": self.threshold,
            "weights": {k: round(v, 5) for k, v in sorted(self.weights.items()) if abs(v) > 1e-6},
        }
        if self.thresholds:
            data["thresholds"] = dict(sorted(self.thresholds.items()))
        if self.trained_with:
            data["settings"] = self.trained_with
        if self.blocks:

            def half(vector):
                return [float(x) for x in np.asarray(vector, dtype=np.float16)]

            data["dense"] = {
                "center": half(self.center),
                "scale": half(self.scale),
                "blocks": {name: half(w) for name, w in sorted(self.blocks.items())},
            }
        return data

    @classmethod
    def from_json(cls, data: dict, **fields):
        """The model a ``to_json`` object describes; ``fields`` are a subclass's own fields, read by its caller."""
        model = cls(
            {k: float(v) for k, v in data["weights"].items()},
            float(data["bias"]),
            float(data.get("threshold", 0.5)),
            thresholds={k: float(v) for k, v in data.get("thresholds", {}).items()},
            trained_with=data.get("settings", {}),
            **fields,
        )
        if "dense" in data:
            dense = data["dense"]
            model.center = np.array(dense["center"], dtype=np.float32)
            model.scale = np.array(dense["scale"], dtype=np.float32)
            model.blocks = {k: np.array(v, dtype=np.float32) for k, v in dense["blocks"].items()}
        return model

    def save(self, path: str | Path) -> None:
        """Write the model as JSON, atomically."""
        with atomic_writer(path) as handle:
            json.dump(self.to_json(), handle, indent=0, sort_keys=True)

    @classmethod
    def load(cls, path: str | Path):
        """Read a model file; SetupError naming it when it is missing or broken."""
        try:
            return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, AttributeError, TypeError) as error:
            raise SetupError(f"{path}: cannot read the model ({error}); retrain with {cls.retrain}") from None


def _sparse_design(examples: Sequence, min_count: int):
    """The named features seen at least ``min_count`` times (name -> column) and the examples' 0/1 matrix."""
    from scipy.sparse import csr_matrix

    counts: dict[str, int] = {}
    for example in examples:
        for f in set(example.features):
            counts[f] = counts.get(f, 0) + 1
    names = sorted(f for f, n in counts.items() if n >= min_count)
    column = {f: i for i, f in enumerate(names)}
    rows, cols = [], []
    for r, example in enumerate(examples):
        for c in sorted({column[f] for f in example.features if f in column}):
            rows.append(r)
            cols.append(c)
    return column, csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(examples), len(names)))


def _dense_design(examples: Sequence, vectors: np.ndarray, block_names: list[str]):
    """The dense blocks' design: the vectors' center and scale, the standardised vectors, which blocks each
    example uses (examples x blocks), each example's vector row, and the examples -> vector rows matrix (so
    gradients are summed per vector before the product with it)."""
    from scipy.sparse import csr_matrix

    n = len(examples)
    used = np.array([e.row for e in examples if e.row >= 0])
    center = vectors[used].astype(np.float32).mean(axis=0)
    scale = vectors[used].astype(np.float32).std(axis=0) + 1e-3
    standard = (vectors.astype(np.float32) - center) / scale
    block_of = {b: i for i, b in enumerate(block_names)}
    member_rows, member_blocks = [], []
    for r, e in enumerate(examples):
        if e.row >= 0:
            for b in e.blocks:
                member_rows.append(r)
                member_blocks.append(block_of[b])
    member = csr_matrix((np.ones(len(member_rows)), (member_rows, member_blocks)), shape=(n, len(block_names)))
    row_of = np.array([max(e.row, 0) for e in examples])
    to_vector = csr_matrix((np.ones(n), (row_of, np.arange(n))), shape=(len(vectors), n))
    return center, scale, standard, member, row_of, to_vector


def train(
    examples: Sequence,
    l2: float = 1.0,
    min_count: int = 2,
    vectors: np.ndarray | None = None,
    dense_l2: float = 10.0,
    max_iterations: int | None = None,
) -> LinearModel:
    """Fit a model on ``Example``s (or ``(features, label)`` pairs), each example's log loss weighted by its
    ``weight``; features seen fewer than ``min_count`` times are dropped. ``vectors`` holds the rows examples
    point to; each block gets its own weight vector, fitted with penalty ``dense_l2`` on standardised vectors."""
    from scipy.optimize import minimize

    examples = [e if isinstance(e, Example) else Example(e[0], e[1]) for e in examples]
    column, x = _sparse_design(examples, min_count)
    y = np.array([e.label for e in examples], dtype=float)
    weight = np.array([e.weight for e in examples], dtype=float)
    block_names = sorted({b for e in examples for b in e.blocks}) if vectors is not None else []
    dimension = vectors.shape[1] if block_names else 0
    if block_names:
        center, scale, standard, member, row_of, to_vector = _dense_design(examples, vectors, block_names)
    sparse_size = len(column)

    def loss(theta):
        w, b = theta[:sparse_size], theta[-1]
        z = x @ w + b
        value = 0.5 * l2 * w @ w
        if block_names:
            dense = theta[sparse_size:-1].reshape(len(block_names), dimension)
            scores = standard @ dense.T.astype(np.float32)  # (vectors, blocks)
            z = z + np.asarray(member.multiply(scores[row_of]).sum(axis=1)).ravel()
            value += 0.5 * dense_l2 * np.sum(dense * dense)
        p = 1.0 / (1.0 + np.exp(-np.clip(z, -35, 35)))
        value += np.sum(weight * (np.logaddexp(0, z) - y * z))
        g = weight * (p - y)
        gradient = [x.T @ g + l2 * w]
        if block_names:
            per_vector = (to_vector @ member.multiply(g[:, None]).tocsr()).toarray()  # (vectors, blocks)
            gradient.append((per_vector.T.astype(np.float32) @ standard + dense_l2 * dense).ravel())
        gradient.append([g.sum()])
        return value, np.concatenate(gradient)

    size = sparse_size + len(block_names) * dimension + 1
    iterations = max_iterations or settings().training.max_iterations
    theta = minimize(
        loss,
        np.zeros(size),
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": iterations},
    ).x
    model = LinearModel({f: float(theta[i]) for f, i in column.items()}, float(theta[-1]))
    if block_names:
        dense = theta[sparse_size:-1].reshape(len(block_names), dimension)
        model.blocks = {b: dense[i].astype(np.float32) for i, b in enumerate(block_names)}
        model.center, model.scale = center.astype(np.float32), scale.astype(np.float32)
    return model
