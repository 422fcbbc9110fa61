"""HumanEval/17 parse_music: notes 'o', 'o|', '.|' separated by single spaces, or ''."""

_NOTES = {"o", "o|", ".|"}


def pre(music_string: str) -> bool:
    if music_string == "":
        return True  # no notes
    notes = music_string.split(" ")
    # ambiguous: empty fields (two spaces in a row, a leading or trailing space): skipped or an error?
    if any(note == "" for note in notes):
        return False
    return all(note in _NOTES for note in notes)
