"""GAIA510 cases: stock sentences survive small edits (W10), other text does not match."""

from gaia.engine.lang import claim, note
from gaia.engine.lang import claim as C

__all__ = ["worth"]

# Exact stock sentence.
worth = claim("The idea merits sustained verification effort.", title="worth")  # want "GAIA510 worth still holds the scaffold's stock sentence 'The idea merits sustained verification effort.' .generic axis text."

# Final period dropped, case changed, whitespace doubled (the reference passes these).
tension_resolution = claim("the idea resolves an ANCHORED open tension", title="tension_resolution")  # want "GAIA510 tension_resolution" "GAIA507"
mechanism_insight = claim(  # want "GAIA507 criterion .mechanism_insight. has no reader-flow path to worth"
    "The idea supplies a new,   testable\n mechanistic understanding!",  # want "GAIA510 mechanism_insight"
    title="mechanism_insight",
)

# Curly apostrophe, content= keyword.
downstream_reach = claim(content="The idea\u2019s results feed an anchored chain of downstream problems.")  # want "GAIA510 downstream_reach" "GAIA507"

# The legacy verification_cost wording, through an alias of claim, not assigned.
C("A bounded next check or executed first check is recorded.")  # want "GAIA510 a claim still holds"

# Adjacent literals and a placeholder-free f-string are static text.
testability_timing = claim(("The idea is testable " "within an open verification window."))  # want "GAIA510 testability_timing" "GAIA507"
verification_cost = claim(f"A bounded, decisive first check of the idea exists.")  # want "GAIA510 verification_cost" "GAIA507"

# Not reported: idea-specific text, a longer sentence, a note, a non-literal.
specific = claim("One week of symbolic algebra checks the dropped term.")
longer = claim("The idea merits sustained verification effort because the gap is real.")
remark = note("The idea merits sustained verification effort.")
text = "The idea merits sustained verification effort."
indirect = claim(text)
