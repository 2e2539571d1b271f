"""The lower stage: merged syntax statements become the IR, with a table of where each IR
node was written (positions) for the checks that follow.
"""
