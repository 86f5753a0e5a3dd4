"""Alignment (KAG §2.4): synonym fusion of entities, concept linking and isA completion.

`fusion` resolves duplicate entities with a cascade of cheap blocks (`blocking`) over
normalised names (`normalize`); it never compares all pairs.
"""
