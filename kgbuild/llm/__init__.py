"""The one gateway to language models: cache -> limits -> retries -> client, with accounting.

Stages ask through `Gateway.ask(request, ReplyModel)` (`kgbuild.llm.ask`): the reply read as a
pydantic record with safe repair (`kgbuild.llm.reply`), re-asked with the error a bounded number
of times, unusable replies dropped from the cache. Nothing outside `kgbuild.llm.client` imports
`openai`.
"""
