"""A logistic regression over named binary features, trained with SciPy and shipped as JSON.

Training minimises L2-regularised log loss with L-BFGS; the model file holds the bias and one
weight per feature name, so scoring at run time needs neither SciPy nor NumPy arrays.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from kg_count.errors import SetupError
from kg_count.io.atomic import atomic_writer


@dataclass
class LinearModel:
    """Weights by feature name and a bias; ``probability`` reads a collection of active feature names."""

    weights: dict[str, float]
    bias: float
    threshold: float = 0.5

    def probability(self, features: Iterable[str]) -> float:
        """P(label = 1) for the active ``features`` (unknown names weigh nothing)."""
        score = self.bias + sum(self.weights.get(f, 0.0) for f in features)
        return 1.0 / (1.0 + math.exp(-max(-35.0, min(35.0, score))))

    retrain = "scripts/train_qa_models.py"

    def to_json(self) -> dict:
        """The model as a JSON object: bias, threshold and the weights that are not zero."""
        return {"bias": self.bias, "threshold": self.threshold,
                "weights": {k: round(v, 5) for k, v in sorted(self.weights.items()) if abs(v) > 1e-6}}

    @classmethod
    def from_json(cls, data: dict) -> "LinearModel":
        return cls({k: float(v) for k, v in data["weights"].items()}, float(data["bias"]),
                   float(data.get("threshold", 0.5)))

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


def train(examples: Sequence[tuple[Sequence[str], int]], l2: float = 1.0, min_count: int = 2) -> LinearModel:
    """Fit a model on ``(features, label)`` pairs; features seen fewer than ``min_count`` times are dropped."""
    import numpy as np
    from scipy.optimize import minimize
    from scipy.sparse import csr_matrix

    counts: dict[str, int] = {}
    for features, _ in examples:
        for f in set(features):
            counts[f] = counts.get(f, 0) + 1
    names = sorted(f for f, n in counts.items() if n >= min_count)
    column = {f: i for i, f in enumerate(names)}
    rows, cols = [], []
    for r, (features, _) in enumerate(examples):
        for c in sorted({column[f] for f in features if f in column}):
            rows.append(r)
            cols.append(c)
    x = csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(examples), len(names)))
    y = np.array([label for _, label in examples], dtype=float)

    def loss(theta):
        w, b = theta[:-1], theta[-1]
        z = x @ w + b
        p = 1.0 / (1.0 + np.exp(-np.clip(z, -35, 35)))
        value = np.sum(np.logaddexp(0, z) - y * z) + 0.5 * l2 * w @ w
        g = p - y
        return value, np.append(x.T @ g + l2 * w, g.sum())

    theta = minimize(loss, np.zeros(len(names) + 1), jac=True, method="L-BFGS-B",
                     options={"maxiter": 500}).x
    return LinearModel({f: float(theta[i]) for f, i in column.items()}, float(theta[-1]))
