"""The offline extractor for Chinese: jieba segmentation and POS tags, dictionary matching against
the schema's and the domain's names and aliases, and rule-based relations.

`ChineseExtractor` (in `extractor`) is chosen per chunk by `kgbuild.extract.routing` when the chunk
is Chinese or `extract.prompt_language` is zh.
"""
