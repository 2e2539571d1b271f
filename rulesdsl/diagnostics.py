"""Diagnostics: errors and warnings carried as values, with positions, until the CLI prints them.

Every stage returns its diagnostics instead of raising, so one run reports everything it found.
Codes are stable; docs/diagnostics.md describes each one (a test keeps the two in step).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast


@dataclass(frozen=True, slots=True)
class Pos:
    """A span in a source file; lines and columns count from 1 (every front end gives these,
    and the syntax tree holds them as ``syntax.Pos``)."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int


_SET_FILE, _SET_LINE, _SET_COLUMN, _SET_END_LINE, _SET_END_COLUMN = (
    cast(Any, vars(Pos)[name]).__set__
    for name in ("file", "line", "column", "end_line", "end_column")
)


def _pos_init(self: Pos, file: str, line: int, column: int, end_line: int, end_column: int) -> None:
    """``Pos.__init__``: the one ``dataclasses`` writes for a frozen class sets each field
    through ``object.__setattr__`` (2.0 us a position); this one through the slots' own
    descriptors (1.5 us). A parse makes a position for every syntax node (issue 44: 121,000
    for 5,000 features). The same signature, the same fields set, nothing else changed."""
    _SET_FILE(self, file)
    _SET_LINE(self, line)
    _SET_COLUMN(self, column)
    _SET_END_LINE(self, end_line)
    _SET_END_COLUMN(self, end_column)


setattr(Pos, "__init__", _pos_init)  # noqa: B010  (mypy: a method is not assigned to)


class _OpenPos:
    """A :class:`Pos` while it is made: the same slots without the frozen ``__setattr__``, so
    its fields are set as any object's; then it becomes the Pos (the same layout, so Python
    lets its class change). Twice as fast as ``Pos(...)``, whose fields are set through the
    slots' descriptors: the DSL's parse makes a position for every syntax node (issue 44:
    121,000 for 5,000 features, an eighth of the parse)."""

    __slots__ = Pos.__slots__

    def __init__(self, file: str, line: int, column: int, end_line: int, end_column: int) -> None:
        self.file = file
        self.line = line
        self.column = column
        self.end_line = end_line
        self.end_column = end_column
        self.__class__ = Pos  # type: ignore[assignment]


new_pos = cast(Callable[[str, int, int, int, int], Pos], _OpenPos)
"""``Pos(file, line, column, end_line, end_column)``, made faster (see :class:`_OpenPos`)."""


Severity = Literal["error", "warning"]

CODES: Mapping[str, str] = {
    "E001": "syntax error: a token the grammar does not expect here",
    "E002": "syntax error: a character that starts no token",
    "E003": "the file cannot be read",
    "E004": "a control character or half a surrogate pair in a string",
    "E005": "a number too large",
    "E006": "a ruleset file over the size limit",
    "E007": "a string over the size limit",
    "E008": "a table with more rows than the size limit",
    "E101": "unknown name (mode, feature, table, book, context value, parameter, ...)",
    "E102": "duplicate definition",
    "E103": "a declared name that the generated module or Python uses itself",
    "E104": "unknown unit",
    "E105": "unknown language",
    "E106": "a name or language code that is malformed or too long",
    "E110": "missing or repeated header statement (ruleset, version, languages)",
    "E111": "malformed version or version requirement",
    "E112": "an edition of the language the compiler does not know",
    "W112": "a newer edition of the language would change the ruleset's answers",
    "E120": "a YAML ruleset that does not match its schema",
    "E121": "a YAML key written twice in one mapping",
    "E122": "a YAML tag, merge key or collection key, which plain YAML rulesets do not use",
    "E130": "a chart's header that could name a mode or a language",
    "E131": "a chart's number that may hold a decimal comma or a thousands separator",
    "E132": "a mode's or group's name inside a chart's cell of one mode or of all",
    "E133": "a chart that changes rows a variant inherits from its base",
    "E201": "a value of the wrong kind for where it stands",
    "E202": "a zero, negative or vanishingly small divisor",
    "E203": "a unit that does not fit where it stands",
    "E204": "a row with the wrong number of cells",
    "E205": "an `as` reference that does not resolve to a value (missing or circular)",
    "E206": "a decision table with no `otherwise` row, or rows after it",
    "E207": "a range or dice row written backwards",
    "E208": "a cell or effect of the wrong shape (several values where one goes, no name)",
    "E209": "a count that must be whole or at least one",
    "E210": "a yes/no input or value used as a number or compared wrongly",
    "E211": "a table cell reference that does not fit its table or input",
    "E212": "a number that is not finite or too large",
    "E213": "a negative movement cost",
    "E214": "a decision input's default the input cannot take",
    "E215": "a decision input without a default after one with a default",
    "E240": "`along` outside the cost cell of an edge layer",
    "E241": "a place state (`may not end`, `must stop`) outside the cost cell of a place layer",
    "E242": "a negative `along` cost",
    "E243": "a hex grid with diagonals",
    "E244": "a layer with two scopes (an edge layer with `one per place`)",
    "W240": "a place state on an impassable or prohibited entry, which no unit enters",
    # modifier policies, two contexts, keywords (issue 11)
    "E230": "an unknown `combine` policy",
    "E231": "a `clamp` whose low bound is above its high bound",
    "E232": "a cell ambiguous for a mode in two groups that give different values",
    "E233": "two single context values that disagree with no combination for them",
    "E234": "a combination `a & b` where no modifier keyed by two contexts reads it",
    "E235": "`precedence` lines that contradict each other or repeat a group",
    "E236": "a modifier keyed by the same context twice, or by two that share a value",
    "E237": "a `precedence` on a row of a table or a modifier (it goes on a layer or its rows)",
    "E220": "a share of the allowance that is not a part of it (`share 3/2`, `share 1/0`)",
    "E221": "a step used as a cost that answers in another unit than the cost unit",
    "E222": "a step used as a cost whose input is named like an argument of move_cost",
    "E420": "a step used as a cost whose input is named like an argument of the route functions",
    "E223": "a cost written in another unit than the ruleset's cost unit",
    "E224": "two steps used as costs that take the same input in different units",
    "E225": "arithmetic in a decision whose units do not fit (adding hex to MP)",
    "E226": "an unknown function in a decision, or one given the wrong number of arguments",
    "E227": "arithmetic on what cannot be computed with (a table cell, a division by an input)",
    "E228": "arithmetic in a decision nested too deeply",
    "E229": "a decision that gives a number on some rows only, or with `-> MODIFIER`",
    "E250": "a sight rule that blocks at a total that is not positive",
    "E251": "a sight rule that counts something other than between, target or both",
    "E252": "a sight cell value that is not a number, `blocked` or a step, or keyed by `a & b`",
    "E253": "a results row with a number of outcomes other than the number of columns",
    "E254": "a results row or natural roll naming an outcome the table does not declare",
    "E255": "results table columns that overlap, leave a gap, or do not end with `above`",
    "E256": "a natural roll the dice cannot make",
    "E257": "a results table without `by`, or with plain dice rows",
    "E258": "a dice modifier named twice on one trigger",
    "E259": "a natural roll given twice",
    "E260": "a sight rule crossed in a unit other than distances, or a step cell without `crossed`",
    "E261": "a step in a sight column whose input is not in the rule's `crossed` unit",
    "E262": "a unit type or keyword given two values in one sight cell",
    "E263": "`target inside` on a sight rule that counts the target's place already",
    "E264": "a modifier value that is a step whose input is named like the modifier's arguments",
    "E265": "a best group whose `combine` is not `highest` or `lowest`",
    "E266": "an item in two best groups of one modifier",
    "E267": "a best group inside a modifier that combines by `highest` or `lowest`",
    "E313": "modifiers given together on a trigger push totals outside every row",
    "E320": "a results table's `round` that is neither `down` nor `up`",
    "E321": "results columns `at` points mixed with other bounds, or without a `round`",
    "E322": "results table column bounds in different units",
    "E323": "a natural roll with one outcome per column on a dice table that has no columns",
    "E324": "a column shift that goes neither `left` nor `right`",
    "E325": "a column shift on a dice table that has no columns",
    "E326": "`at least` on outcomes declared in another order than the rows give them",
    "E327": "results columns that are categories mixed with bounded ones, or with a `round`",
    "E328": "a column shift on a results table whose columns are categories",
    "E430": "a decision picking a results table's column whose outcomes are not its columns",
    "E431": "a results table whose categories are picked by a decision that gives a number",
    "E432": "a decision reading the total of a modifier that needs more than its items",
    "E470": "a modifier's factor read along a line of sight whose values are steps of `crossed`",
    "E471": "a modifier's factor read along a line of sight whose values depend on the viewer",
    "E472": "a modifier's factor read along a line of sight named like another argument",
    "E473": "an effect keyed by a name that is no unit type or keyword",
    "E474": "an effect keyed by unit type with no value for everyone",
    "E475": "an effect keyed by the same unit type twice",
    "E476": "an effect keyed by unit type that feeds another rule",
    "E477": "an effect two keywords of a unit type give different values",
    "E480": "a roll due on any step without a band of a state",
    "E481": "a roll due on any step whose values combine",
    "E482": "a layer column for a roll due on any step",
    "E483": "a change of a state that ends with a word other than capped",
    "E484": "a roll due on the first step in a band without a band of a state",
    "E485": "a roll due on the first step in a band whose values combine",
    "E486": "a layer column for a roll due on the first step in a band",
    "E487": "a unit type given two ranges of a state by its keywords",
    "E513": "a change capped at a bound that is not a whole number",
    "E514": "a change capped at a bound outside the state's range",
    "E342": "a second modifier `on doubles` in one results table",
    "E343": "a column shift overridden with a negative number of columns",
    "W342": "a column shift named `doubles` without `on doubles`, which the dice do not apply",
    "E290": "a kind of move whose allowance factor is not above 0",
    "E386": "a unit type whose own allowance is not above 0",
    "E291": "a roll due on something other than entering, crossing, ending or first entering",
    "E292": "a roll column in a layer that does not match when the roll is due",
    "E293": "a roll cell entry with a place state or `along`",
    "E433": "a pair of keys in a roll cell that is not one kind of move and one unit",
    "E434": "a pair of keys given twice in one roll cell",
    "E435": "a pair of keys in a roll cell for a unit that may not make the kind of move",
    "E294": "a kind of move's own cost that is not per distance",
    "E295": "a roll whose values combine by a policy other than sum, highest or lowest",
    "E296": "a dice outcome's effect on a modifier that is not a number, or given twice",
    "E297": "a whole-move rule that names a feature twice",
    "E299": "a whole-move limit that is not a whole number, 0 or more",
    "E493": "a whole-move bonus beside a unit type with facing that spends its speed exactly",
    "E421": "a whole-move bonus that adds 0 or less to the allowance",
    "E400": "a state's range that is not two whole numbers, the lower first",
    "E401": "a state change that is 0, not a whole number, or wider than the state's range",
    "E402": "a state line that changes the state twice for one feature or kind of move",
    "E404": "a roll's state bound (`when altitude below 4`) that is not a whole number",
    "E496": "`sail by` names no arcs block",
    "E497": "`sail by` gives no cost for an arc of its arcs",
    "E510": "`sail by` costs a name that is no arc of its arcs",
    "E511": "`sail by` gives an arc's cost twice",
    "E512": "`sail by` makes every point of sail impassable",
    "E517": "`speed by` names no arcs block",
    "E518": "`speed by` gives no speed for an arc of its arcs",
    "E519": "`speed by` names an arc that is not in its arcs, or one twice",
    "E520": "`speed by` or `speed when` gives a speed below 0",
    "E523": "a wind strength of `sail when` or `speed when` one letter from another: a typo",
    "E524": "`sail when` or `speed when` gives a wind strength twice",
    "E440": "a drift line in a ruleset without a grid (downwind is a grid's direction)",
    "E441": "a second drift line (a ruleset has one)",
    "E442": "a drift that is not a whole number of places, 0 or more",
    "E443": "a drift entry naming something other than a unit type or keyword",
    "E444": "a drift line that gives one unit type or keyword (or all) two entries",
    "E445": "two keywords of a unit type that give it different drift entries",
    "E446": "a drift band that names no declared state or is not a whole number",
    "E460": "a modifier's band bound (`when altitude above 6`) that is not a whole number",
    "E461": "a modifier's band value keyed by a context value (a band gives one value)",
    "E462": "a modifier's context or given value named `state` in a ruleset with states",
    "E463": "a sight rule's band bound (`when altitude below 5`) that is not a whole number",
    "E464": "an override of a sight rule's band whose cell is not `below N` or `above N`",
    "E465": "a unit type's range of a state (`bomber 0 to 6`) that is not two whole numbers",
    "E466": "a unit type's range of a state that goes outside the state's range for all",
    "E467": "a unit type given two ranges of one state",
    "W290": "a roll rule that no layer column uses",
    "W291": "a roll cell's unit type or keyword entry that wins over its kind of move's entry",
    "E340": "`turn mode N at KIND` naming no kind of move",
    "E341": "a facing rule giving a turn mode at one kind of move twice",
    "W340": "a roll on a dice table whose modifiers can reach a total no row covers",
    "E350": "a dice outcome's effect on a sight rule or the cost that is not a number",
    "E351": "a dice outcome that feeds a sight rule or the cost, named like a feature",
    "E352": "a dice outcome that gives a sight rule or the cost a value twice",
    "E353": "a dice outcome's cost in another unit than the cost unit, or a sight value's unit",
    "E354": "a whole-map condition whose sight value is a step",
    "E355": "a dice outcome's effect named after a roll, which an outcome cannot feed",
    "W350": "a dice outcome's effect named nearly like the cost, a sight rule or a modifier",
    "E270": "a worked example whose stated answer is not the module's answer",
    "E271": "an inherited worked example whose answer the variant changes, not restated",
    "E272": "a worked example's question the module cannot answer (function, name, arguments)",
    "E273": "a worked example's argument or answer in the wrong unit",
    "E450": "a worked example's route gives a state where the rules carry none",
    "E451": "a worked example's route state not by name, or one unknown, twice or missing",
    "E452": "a worked example's route state that is not a whole number in its range",
    "E453": "a worked example's route gives the wind where no unit type tacks or wears",
    "E454": "a worked example's wind that is not a heading of the grid",
    "E455": "a worked example's values by name for another argument than the state",
    "E456": "a worked example's free move leg that is not a kind of leg and an amount",
    "E457": "a worked example's modifier items for a decision, not in parentheses",
    "E458": "a worked example's line of sight gives a state to a rule with no band of one",
    "E488": "a worked example asks effect() where no effect is keyed by unit type",
    "E489": "a worked example states a field of an answer that is not a route's state",
    "E490": "a worked example states the state after a route given no state at the start",
    "E491": "a worked example's state after a route not every state by name, a whole number",
    "E492": "a worked example's places entered earlier that are not steps of a route's rolls",
    "E521": "a worked example's places entered earlier that name a turn of a facing route",
    "E522": "a worked example's facing route that comes back to a place it entered",
    "E525": "a worked example's wind strength that no `sail when` or `speed when` names",
    "E526": "a worked example's wind without the strength the unit's rules read",
    "E275": "a worked example declared twice",
    "E280": "a facing rule for a name that is not a unit type (mode)",
    "E281": "a facing rule on a grid the ruleset does not declare",
    "E282": "a facing rule on a grid with no shape (neither hex nor square)",
    "E283": "a turn cost on the wrong grid (per hexside on a square grid, per 90 deg on a hex one)",
    "E284": "a clause given twice in one facing rule",
    "E285": "turn modes by speed out of order, or leaving speeds uncovered",
    "E286": "a facing rule that says nothing of what a turn costs",
    "E287": "a negative cost or speed in a facing rule",
    "E288": "a second facing rule for one unit type",
    "E410": "a limit on the turns in one place that is not a whole number of turns, 1 or more",
    "E411": "a limit on the turns in one place counted in other words than its grid's",
    "E412": "turn costs by speed out of order, or leaving speeds without a turn cost",
    "E289": "`remove facing` of a unit type the base gives no facing rule",
    "W280": "a pivot for a unit that may turn at any place (turn mode 0)",
    "E370": "arcs counted in something other than degrees or hexsides",
    "E371": "an arc's span in degrees with no width, or going round more than once",
    "E372": "an arc's span in hexsides naming a hexside that is not a whole number 0 to 5",
    "E373": "arcs that leave bearings in no arc",
    "E374": "an arc listed twice in one arcs block",
    "E375": "`signed` on a decision input that is not a number",
    "E376": "a table keyed by arcs whose rows are not exactly those arcs",
    "W375": "`abs(input)` of a decision input that is never below 0 (not `signed`)",
    "E277": "a facing off the grid whose angle is not in degrees, above 0 and at most 180",
    "E278": "a grid move (backward, sideslip) in a facing off the grid",
    "E301": "a dice table leaves a total uncovered",
    "E302": "dice table rows overlap",
    "E303": "a dice modifier pushes totals outside every row",
    "E304": "a malformed dice expression",
    "E501": "unknown base ruleset in `extends`",
    "E502": "the base's version does not satisfy the `extends` requirement",
    "E503": "a cycle in `extends`",
    "E504": "an override or remove of something the base does not have",
    "E505": "two overrides of the same cell",
    "E506": "`override`, `remove` or `extends` in a ruleset that extends nothing",
    "E507": "the base of a variant has errors (reported once, for the base's own file)",
    "E508": "`override example` or `remove example` naming no example of the base",
    "E509": "`override example` of a question the example does not have, or of several at once",
    "W003": "a ruleset file that is a symbolic link, skipped by the build",
    "W009": "a sheet or deck too long to print: the build makes no PDF of it",
    "W010": "a deck with nothing on it yet: the build makes no PDF of it",
    "W101": "a label missing in one of the ruleset's languages",
    "W130": "an inherited row that a chart leaves out, kept (only `remove` drops it)",
    "W131": "rows above a chart's header, taken as its title and not read",
    "W132": "a chart that is not UTF-8, read as cp1252 (what Excel saves as CSV on Windows)",
    "W250": "a results table outcome that no row gives",
    "W251": "a sight rule that no layer column uses",
    "W320": "a results table's `round` whose columns are bounded by `up to` and `above`",
    "W262": "a cell gives a unit the value of a keyword of lower precedence than one it carries",
    "W263": "`ignores others` silencing other features' rolls or sight where it has no value",
    "W601": "a breaking, rules-level or additive change without a matching version bump",
    "W610": "a ruleset language with no catalog of the sheets' own words (English headings)",
    "E610": "a translation catalog (.po) that cannot be read, is too large or names no language",
    "E611": "`i18n merge` into a YAML label written as a plain string (no mapping to add to)",
    "E612": "`i18n merge` of a catalog in the ruleset's first (source) language",
    "E613": "`i18n merge` cannot find a label's string in the file's text",
    "W611": "`i18n merge`: a fuzzy entry, skipped",
    "W612": "`i18n merge`: an untranslated entry, skipped",
    "W613": "`i18n merge`: an entry for an item the ruleset no longer has, skipped",
    "W614": "`i18n merge`: an entry whose source label changed since extraction, skipped",
    "W700": "a sheet or card prints text past its cut line or the printable area",
    "W701": "a sheet or card prints text inside its safe zone",
    "W702": "the loss check cannot place a rendered document's text",
    "W703": "a sheet or card prints text over other text",
    "E700": "`--strict`: a sheet or card prints text past its cut line or the printable area",
    "E701": "`--strict`: a sheet or card prints text inside its safe zone",
    "E702": "`--strict`: the loss check cannot place a rendered document's text",
    "E703": "`--strict`: a sheet or card prints text over other text",
}

Stage = Literal["front end", "resolve", "lower", "checks", "tools"]
"""The stage that judges a fault. What can be judged on the IR is the checks' (so every front
end gets it); lowering keeps what only the syntax can tell."""

_OWNED: tuple[tuple[Stage, str], ...] = (
    ("front end", "E001 E002 E003 E004 E005 E006 E120 E121 E122 E244 E228"),
    ("resolve", "E501 E502 E503 E504 E505 E507 E508 E509 E289"),
    (
        "lower",
        "E101 E102 E104 E105 E110 E201 E203 E204 E205 E208 E209 E210 E211 E230 E232 E233 "
        "E234 E236 E240 E241 E242 E251 E252 E254 E257 E275 E506 W240 E225 E226 E227 "
        "E280 E281 E282 E283 E284 E285 E286 E287 E288 W280 W262 E262 E263 E265 E266 E267 "
        "E290 E291 E292 E293 E294 E295 E296 W290 W291",
    ),
    ("lower", "E297 E299 E493"),
    ("lower", "E496 E497 E510 E511 E512"),
    ("lower", "E517 E518 E519 E520"),
    ("lower", "E523 E524"),
    ("lower", "E433 E434 E435"),
    ("lower", "E421"),
    ("lower", "E277 E278"),
    ("lower", "E340 E341"),
    ("lower", "E410 E411 E412"),
    ("lower", "E370 E371 E372 E373 E374 E375 E376 W375"),
    ("lower", "E214 E215"),
    ("lower", "E112"),
    ("lower", "E237"),
    ("lower", "E229"),
    ("lower", "E386"),
    ("lower", "E400 E401 E402 E404"),
    ("lower", "E440 E441 E442 E443 E444 E445 E446"),
    ("lower", "E460 E461 E462 E463 E464"),
    ("lower", "E465 E466 E467"),
    ("tools", "W112"),
    ("lower", "E320 E323 E324 E325 E342 E343 W342"),
    ("lower", "E350 E351 E352 E353 E354 E355 W350"),
    (
        "checks",
        "E007 E008 E103 E106 E111 E202 E206 E207 E212 E213 E220 E221 E222 E223 E224 E231 E235 E243 "
        "E250 E253 E255 E256 E258 E259 E260 E261 E301 E302 E303 E304 E313 W101 W250 W251 W610 "
        "E270 E271 E272 E273 E264",
    ),
    ("checks", "E321 E322 E326 W320"),
    ("checks", "E327 E328"),
    ("checks", "E430 E431 E432"),
    ("checks", "E470 E471 E472"),
    ("lower", "E473 E474 E475 E476"),
    ("checks", "E477"),
    ("lower", "E480 E481 E482"),
    ("lower", "E483 E484 E485 E486 E487"),
    ("lower", "E513 E514"),
    ("checks", "E420"),
    ("checks", "E450 E451 E452 E453 E454 E455 E456 E457 E458"),
    ("checks", "E488 E489 E490 E491 E492"),
    ("checks", "E521 E522"),
    ("checks", "E525 E526"),
    ("checks", "W340 W263"),
    (
        "tools",
        "W003 W009 W010 W601 E130 E131 E132 E133 W130 E610 E611 E612 E613 W611 W612 W613 W614 "
        "W700 W701 W702 W703 E700 E701 E702 E703 W131 W132",
    ),
)

STAGE_OF: Mapping[str, Stage] = {code: stage for stage, codes in _OWNED for code in codes.split()}
"""Each code of :data:`CODES` -> the stage that owns it (``tests/test_codes.py`` holds both
in step, and finds each code raised in its owner's modules)."""


_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)
"""What a diagnostic never prints as is: C0 and C1 control characters and DEL (a terminal
acts on them: ``ESC ] 0 ;`` sets its title), line and paragraph separators, the controls
that reorder text (U+202E ...), and lone surrogates (which no output encoding can write)."""


_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escaped(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    return _SHORT.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def escape(text: str) -> str:
    """``text`` with each unsafe character written as a visible escape (``\\x1b``,
    ``\\u202e``, ``\\ud800``); plain text, accents and other scripts stay as they are."""
    return _UNSAFE.sub(_escaped, text)


@dataclass(frozen=True)
class Related:
    """Another place that explains a diagnostic (the base's definition in a conflict)."""

    pos: Pos
    message: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "message", escape(self.message))


@dataclass(frozen=True)
class Diagnostic:
    """A problem found. Its message and hint are escaped when it is made (see ``escape``), so
    that every output (text, JSON, ``watch``, the language server) shows the same safe text."""

    code: str
    message: str
    pos: Pos | None
    hint: str | None = None
    severity: Severity = "error"
    related: tuple[Related, ...] = field(default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "message", escape(self.message))
        if self.hint is not None:
            object.__setattr__(self, "hint", escape(self.hint))

    @property
    def is_error(self) -> bool:
        return self.severity == "error"


def error(
    code: str,
    message: str,
    pos: Pos | None,
    hint: str | None = None,
    related: Iterable[Related] = (),
) -> Diagnostic:
    return Diagnostic(code, message, pos, hint, "error", tuple(related))


def warning(code: str, message: str, pos: Pos | None, hint: str | None = None) -> Diagnostic:
    return Diagnostic(code, message, pos, hint, "warning")


MAX_OF_A_CODE = 100
"""The most diagnostics of one code that lowering lists for a file (the parser stops after 50
syntax errors). Past it one more diagnostic says how many were left out: a 2 MiB line of a
million wrong words would otherwise make a million diagnostics (2.7 GB)."""


class Cap:
    """Counts a stage's diagnostics per code, so that it makes at most :data:`MAX_OF_A_CODE`
    of each; ask :meth:`admits` before making one (a hint may cost a search)."""

    def __init__(self) -> None:
        self._made: dict[str, int] = {}
        self._first_left_out: dict[str, Pos | None] = {}

    def admits(self, code: str, pos: Pos | None) -> bool:
        made = self._made.get(code, 0)
        self._made[code] = made + 1
        if made < MAX_OF_A_CODE:
            return True
        self._first_left_out.setdefault(code, pos)
        return False

    def left_out(self) -> list[Diagnostic]:
        """One error per code that went past the cap, at the first one left out."""
        return [
            error(
                code,
                f"{self._made[code] - MAX_OF_A_CODE:,} more errors {code} from here on "
                f"are not listed (at most {MAX_OF_A_CODE} of one kind are)",
                pos,
                "fix the ones listed and check again",
            )
            for code, pos in self._first_left_out.items()
        ]


class CappedList(list[Diagnostic]):
    """Diagnostics collected under a :class:`Cap`: :meth:`append` keeps at most
    :data:`MAX_OF_A_CODE` of a code, and :attr:`offered` counts every one appended, kept or
    not (a reader that asks whether a row had errors compares it before and after)."""

    def __init__(self, found: Iterable[Diagnostic] = ()) -> None:
        super().__init__()
        self._cap = Cap()
        self.offered = 0
        for diag in found:
            self.append(diag)

    def append(self, diag: Diagnostic) -> None:
        self.offered += 1
        if left_out_before(diag) or self._cap.admits(diag.code, diag.pos):
            super().append(diag)

    def extend(self, found: Iterable[Diagnostic]) -> None:
        for diag in found:
            self.append(diag)

    def with_left_out(self) -> list[Diagnostic]:
        """The diagnostics kept, then one per code past the cap saying how many it left out."""
        return [*self, *self._cap.left_out()]


def left_out_before(diag: Diagnostic) -> bool:
    """Whether ``diag`` is a :class:`Cap`'s word on the diagnostics it left out (a later cap
    keeps it, and counts it as none of them)."""
    return diag.message.endswith(f"are not listed (at most {MAX_OF_A_CODE} of one kind are)")


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A hint naming the closest valid names, or listing the few there are."""
    import difflib  # only when a name is wrong: not part of every run's start-up (issue 44)

    pool = sorted(set(candidates))
    close = difflib.get_close_matches(name, pool, n=3, cutoff=0.6)
    if close:
        return "did you mean " + " or ".join(f"'{c}'" for c in close) + "?"
    if not pool:
        return None
    if len(pool) <= 8:
        return "expected one of: " + ", ".join(pool)
    return f"there are {len(pool)} names of this kind; see the ruleset's declarations"


# ---- rendering ----------------------------------------------------------------------------


def _lines(path: str, text: str) -> list[str]:
    """Lines as the DSL's parser counts them: at ``\\n``."""
    return [line.removesuffix("\r") for line in text.split("\n")]


class SourceLines:
    """The lines of each source, split once when a diagnostic first quotes that source:
    splitting the whole text for every diagnostic made a run's report quadratic (32,000
    diagnostics in a 450 KB chart took over a minute)."""

    def __init__(
        self, sources: Mapping[str, str], split: Callable[[str, str], list[str]] = _lines
    ) -> None:
        self._sources = sources
        self._split = split
        """A file's lines by its path and text: the compiler gives its front end's
        (:meth:`rulesdsl.compiler.Compiler.source_lines`)."""
        self._lines: dict[str, list[str] | None] = {}

    def line(self, file: str, number: int) -> str | None:
        """Line ``number`` (from 1) of ``file`` as written, or None."""
        if file not in self._lines:
            text = self._sources.get(file)
            self._lines[file] = None if text is None else self._split(file, text)
        lines = self._lines[file]
        if lines is None or not 1 <= number <= len(lines):
            return None
        return lines[number - 1]


def _source_lines(pos: Pos, sources: SourceLines) -> list[str]:
    """The quoted line, escaped, and a caret under the span, which counts characters of the
    line as written (a tab is one), so the caret is placed by the escaped text before it."""
    written = sources.line(pos.file, pos.line)
    if written is None:
        return []
    line = written.expandtabs(1)
    start = max(pos.column - 1, 0)
    width = pos.end_column - pos.column if pos.end_line == pos.line else len(line) - start
    before, span = escape(line[:start]), escape(line[start : start + max(1, width)])
    gutter = f"{pos.line:>4} | "
    caret = " " * (len(gutter) - 2) + "| " + " " * len(before) + "^" * max(1, len(span))
    return [gutter + escape(line), caret]


def _where(pos: Pos) -> str:
    return f"{escape(pos.file)}:{pos.line}:{pos.column}"


def render_text(diag: Diagnostic, sources: Mapping[str, str] | SourceLines) -> str:
    """``path:line:col: error[CODE]: message``, the source line, a caret, then the hint; the
    message, hint and notes are escaped already, the path and the quoted lines are here.
    A caller that renders many diagnostics passes one :class:`SourceLines` for all."""
    if not isinstance(sources, SourceLines):
        sources = SourceLines(sources)
    where = _where(diag.pos) if diag.pos else "rulesdsl"
    out = [f"{where}: {diag.severity}[{diag.code}]: {diag.message}"]
    if diag.pos:
        out += _source_lines(diag.pos, sources)
    for rel in diag.related:
        out.append(f"{_where(rel.pos)}: note: {rel.message}")
        out += _source_lines(rel.pos, sources)
    if diag.hint:
        out.append(f"  = hint: {diag.hint}")
    return "\n".join(out)


def to_data(diags: Iterable[Diagnostic]) -> list[dict[str, object]]:
    """What :func:`to_json` prints, as data (for a verb that prints more beside it)."""

    def pos(p: Pos | None) -> dict[str, object] | None:
        if p is None:
            return None
        return {
            "file": escape(p.file),
            "line": p.line,
            "column": p.column,
            "end_line": p.end_line,
            "end_column": p.end_column,
        }

    return [
        {
            "code": d.code,
            "severity": d.severity,
            "message": d.message,
            "hint": d.hint,
            "position": pos(d.pos),
            "related": [{"message": r.message, "position": pos(r.pos)} for r in d.related],
        }
        for d in diags
    ]


def to_json(diags: Iterable[Diagnostic]) -> str:
    """A JSON array for tools: one object per diagnostic, positions as numbers."""
    return json.dumps(to_data(diags), ensure_ascii=False, indent=2)


def sort_key(diag: Diagnostic) -> tuple[str, int, int, str]:
    p = diag.pos
    return (p.file, p.line, p.column, diag.code) if p else ("", 0, 0, diag.code)
