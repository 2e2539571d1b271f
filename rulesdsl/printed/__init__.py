"""The printed outputs: quick-reference sheets (HTML, Markdown, PDF) and cards, and their layout."""
