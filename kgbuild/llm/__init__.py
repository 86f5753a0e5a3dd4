"""The one gateway to language models: cache -> limits -> retries -> client, with accounting.

Nothing outside `kgbuild.llm.client` imports `openai`.
"""
