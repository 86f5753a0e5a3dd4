"""What a program's manual writes for the reader to type or set (`extract/code_text.py`): an editor's command after
a colon (`:ptag`), an option in single quotes ('previewheight'), a key or command in double quotes ("n", "3n"), a
placeholder in braces (`{motion}`); and quoted code making a chunk a manual's.

Every passage is from a Vim help page that no labelled technical set draws a passage from (`windows.txt`,
`usr_03.txt`, `usr_10.txt`, `usr_25.txt`, `usr_30.txt`,
`visual.txt`; held-out-11 draws from twenty other pages), rendered as
`bench/vimdoc_markdown.py` does, checked by script against every set's `source` field and text.
"""

from __future__ import annotations

from pathlib import Path

from kgbuild.extract.code_text import is_technical, mask_code, quoted_code
from kgbuild.extract.offline import OfflineExtractor
from tests.test_technical_relations import classes, extract, extractor

__all__ = ["extractor"]  # the fixture, used by name below


def _same(text: str) -> str:
    return text


def test_an_ex_command_and_a_quoted_option(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # windows.txt, under "CTRL-W }": the command is written bare after its colon, the option in single quotes.
    found = classes(extract(tmp_path, extractor, """# windows.txt

## 11. Using hidden buffers

Use identifier under cursor as a tag and perform a :ptag on
it.  Make the new Preview window (if required) N high.  If N is
not given, 'previewheight' is used.
"""))
    assert found.get(":ptag") == "CodeElement"
    assert found.get("previewheight") == "CodeElement"


def test_a_quoted_key_in_a_manual(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # usr_03.txt, "03.8 Simple searches": what to type, in double quotes; a plain word in quotes is no key.
    found = classes(extract(tmp_path, extractor, """# usr_03.txt

## 03.8 Simple searches

And then type "n" several times.  You will move to each #include in the text.
You can also use a count if you know which match you want.  Thus "3n" finds
the third match.
"""))
    assert found.get("n") == "CodeElement"
    assert found.get("3n") is None  # a count before a key: not a name (`is_identifier`), nor anyone's


def test_a_braced_placeholder_in_backticks_is_code(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # usr_10.txt, "10.9 Using an external program": `{motion}` is not a MyST role before code.
    found = classes(extract(tmp_path, extractor, """# usr_10.txt

## 10.9 Using an external program

The command "!`{motion}``{program}`" takes a block of text and filters it
through an external program.  In other words, it runs the system command
represented by `{program}`, giving it the block of text represented by `{motion}`
as input.
"""))
    assert found.get("{motion}") == "CodeElement"
    assert found.get("{program}") == "CodeElement"


def test_a_colon_is_a_command_only_before_a_word_after_a_space() -> None:
    # usr_30.txt's ":make" in quotes; a time, a URL, a note's colon, code run on after a key are not commands.
    masked = mask_code("The \":make\" command redirects the output.  Note: at 10:30 see http://x.org or "
                       "\"&File.&Save`<Tab>`:w\".", _same)
    spans = {masked.text[a:b] for a, b in masked.spans}
    assert ":make" not in spans  # quoted: a manual's chunk reads it (`quoted_code`), not every chunk
    assert spans == {"<Tab>"}
    masked = mask_code("Run it with :make and then :cnext.  Great :p", _same)
    assert {masked.text[a:b] for a, b in masked.spans} == {":make", ":cnext"}  # not the emoticon


def test_quoted_code_is_a_manual_s_and_plain_quoted_words_are_not_code() -> None:
    # usr_25.txt, "Related options" (its heading here without the section number that made it a manual's already).
    text = ("Related options:\n'breakat' specifies the characters where a break can be inserted.\n'showbreak' "
            "specifies a string to show at the start of broken line.\nSet 'textwidth' to zero to avoid a "
            "paragraph to be split.")
    masked = mask_code(text, _same)
    assert is_technical(masked, ["usr_25.txt", "Breaking lines"])
    assert {masked.text[a:b] for a, b in quoted_code(masked).spans} == {"breakat", "showbreak", "textwidth"}
    # visual.txt, "1. Using Visual mode": an option's value that is a plain word ("exclusive") is that word; the
    # option is code.
    masked = mask_code("The highlighted text normally includes the character under the cursor.\nHowever, when the "
                       "'selection' option is set to \"exclusive\" and the cursor is\nafter the Visual area, the "
                       "character under the cursor is not included.", _same)
    assert {masked.text[a:b] for a, b in masked.quoted} == {"selection"}


def test_a_chunk_its_quotes_make_a_manual_s_stays_one_once_they_are_code() -> None:
    # Written for this test in the shape of Vim's help: options quoted, no backticks or code block, so the quotes
    # alone make the chunk a manual's.
    # `quoted_code` kept `has_code` false and dropped the quotes, so the same chunk then read as prose: its
    # quotes parsed as code but the technical pass skipped and the heading taken for its topic.
    masked = mask_code("Set 'hlsearch' and 'incsearch' and then 'ignorecase' before you go home.", _same)
    assert is_technical(masked, ["Searching"])
    assert is_technical(quoted_code(masked), ["Searching"])


def test_quoted_words_of_another_language_are_not_code(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # 2Wiki, al-Mu'tasim (two sentences of it; in no labelled set): an encyclopedia glosses Arabic terms in double
    # quotes. Three of them made the chunk a manual's and each a CodeElement; a manual's keys and commands are ASCII.
    found = classes(extract(tmp_path, extractor, """# Al-Mu'tasim

A younger son of Caliph Harun al-Rashid, he rose to prominence through his formation of a private army composed
predominantly of Turkish slave-soldiers ("ghilmān"). With the support of the powerful chief "qādī", Ahmad ibn Abi
Duwad, he continued to implement the rationalist Islamic doctrine of Mu'tazilism and the persecution of its opponents
through the inquisition ("miḥna").
"""))
    assert not {"ghilmān", "miḥna", "qādī"} & {name for name, cls in found.items() if cls == "CodeElement"}
