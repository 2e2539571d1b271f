"""The resolve stage: `extends`, override, insert and remove make a house rule one whole
ruleset (resolve), with its lineage and its changelog.
"""
