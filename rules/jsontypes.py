"""JSON as a type: what ``json.loads`` gives and ``json.dumps`` takes, said once (a leaf module)."""

Json = dict[str, "Json"] | list["Json"] | str | int | float | bool | None
