"""bench/pod_markdown.py: the POD -> Markdown rule the technical passage picker's --pod mode stands on."""

from __future__ import annotations

from typing import Any

from test_coe import bench_module


def pod_markdown() -> Any:
    return bench_module("pod_markdown")


# Written for this test (no Perl page and no gold set holds it).
POD = """=encoding utf8

=head1 NAME

Shelf::Tidy - sorts a bookshelf

=head2 The C<< sort_by >> method and B<I<spines>>

Call C<$shelf-E<gt>sort_by('height')> before L<the lending rules|Shelf::Lend>; see
L<Shelf::Tidy/"Edge cases">, L</Limits> and F<~/.shelfrc>. It compares E<lt>titlesE<gt> X<compare>with C<< $a <=> $b >>.

    my $shelf = Shelf::Tidy->new;

    $shelf->sort_by('height');

=over 4

=item *

Dusty books go last.

=item C<--dry-run>

Prints the new order without moving anything.

=back

=begin html

<p>hidden</p>

=end html

=for comment also hidden

=cut

sub hidden { 1 }

=pod

Visible again.
"""


def test_pod_renders_headings_code_lists_and_inline_codes() -> None:
    md = pod_markdown().pod_to_markdown(POD)
    assert md.startswith("# NAME\n\nShelf::Tidy - sorts a bookshelf\n\n## The `sort_by` method and ***spines***\n")
    assert ("Call `$shelf->sort_by('height')` before the lending rules; see\n\"Edge cases\" in Shelf::Tidy, \"Limits\" "
            "and *~/.shelfrc*. It compares <titles> with `$a <=> $b`.") in md
    assert "```\nmy $shelf = Shelf::Tidy->new;\n\n$shelf->sort_by('height');\n```" in md
    assert "- Dusty books go last.\n\n- `--dry-run`\n\nPrints the new order without moving anything." in md
    assert "hidden" not in md and "=for" not in md and "utf8" not in md
    assert md.endswith("Visible again.\n")
