"""HumanEval/17 parse_music: notes 'o', 'o|', '.|' separated by single spaces, or ''."""

_NOTES = {"o", "o|", ".|"}


def pre(music_string: str) -> bool:
    if music_string == "":
        return True  # no notes
    return all(note in _NOTES for note in music_string.split(" "))
