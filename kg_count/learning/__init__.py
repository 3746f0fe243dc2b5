"""Learned-model machinery shared by every stage: the linear scorer and the pretrained sentence encoder."""
