// ---- maps: boards, routes and reach ----
/** A place: a string, a number, or an array of them ([q, r] on a grid), compared by value. */
export type BoardPlace = string | number | boolean | null | readonly BoardPlace[];
/** A mapping a board is given: a Map, or a plain object (places named by strings). */
type Given<K, V> = ReadonlyMap<K, V> | Readonly<Record<string, V>>;
/** A user's map: the features of each place and edge, and who neighbours whom. */
export declare class Board {
  constructor(
    places: Given<BoardPlace, Iterable<FeatureName>>,
    options?: {
      edges?: Given<readonly [BoardPlace, BoardPlace], Iterable<FeatureName>> | null;
      neighbours?: ((place: BoardPlace) => Iterable<BoardPlace>) | null;
      grid?: GridName | null;
    },
  );
  /** Each place (as first given) and its features. */
  readonly places: ReadonlyMap<BoardPlace, readonly FeatureName[]>;
  readonly edges: ReadonlyMap<readonly [BoardPlace, BoardPlace], readonly FeatureName[]>;
  readonly grid: GridName | null;
  /** The features of ``place`` (compared by value); undefined when it is not on the board. */
  featuresOf(place: BoardPlace): readonly FeatureName[] | undefined;
  /** The places next to ``place``, each with the distance of the step. */
  neighbours(place: BoardPlace): readonly (readonly [BoardPlace, number])[];
}
/** One step of a route: from ``start`` into ``end`` (a place with ``features``), across an
 * edge with ``edge`` features, for ``cost``. */
export declare class RouteStep {
  readonly start: BoardPlace;
  readonly end: BoardPlace;
  readonly features: readonly FeatureName[];
  readonly edge: readonly FeatureName[];
  readonly cost: number | Marker;
}
/** A route's total (a marker when a step is one), its steps, whether it is legal (``reason``
 * says why not), the kind of move it was costed for and the rolls due along it. */
export declare class Route {
  readonly total: number | Marker;
  readonly steps: readonly RouteStep[];
  readonly legal: boolean;
  readonly reason: string;
  readonly move: MoveName | "";
  readonly rolls: readonly RollDue[];
  /** The whole-move rules the route carries (`crosses`), by id; only in a module with whole-move rules. */
  readonly marks?: readonly string[];
  /** The state after the route (STATES), when one was given; else null. */ // [state]
  readonly state: Readonly<Record<StateName, number>> | null; // [state]
  /** Given ``wind``, where the wind carries the unit after a legal move; else null. */ // [drift]
  readonly drift: BoardPlace | null; // [drift]
}
/** Each place the unit may end in, to its cheapest cost (places compared by value), and the
 * move's state it was searched with. */
export declare class Reach implements ReadonlyMap<BoardPlace, number> {
  readonly size: number;
  readonly move: MoveName | "";
  readonly budget: number;
  readonly speed: number | null;
  readonly turnMode: number | null;
  get(place: BoardPlace): number | undefined;
  has(place: BoardPlace): boolean;
  keys(): MapIterator<BoardPlace>;
  values(): MapIterator<number>;
  entries(): MapIterator<[BoardPlace, number]>;
  [Symbol.iterator](): MapIterator<[BoardPlace, number]>;
  forEach(callback: (cost: number, place: BoardPlace, reach: ReadonlyMap<BoardPlace, number>) => void, thisArg?: unknown): void;
}
/** The dice outcomes that feed the cost rolled in places (where the rules have some). */
export type PlacedOutcomes = ReadonlyMap<BoardPlace, Iterable<PlaceName>> | Readonly<Record<string, Iterable<PlaceName>>>;
export type RouteOptions = {
  allowance?: number | null;
  move?: MoveName | null;
  /** The places entered earlier in the game, for the rolls due on first entering. */
  entered?: Iterable<BoardPlace> | null;
  outcomes?: PlacedOutcomes | null;
  /** The unit's state at the start (every state of STATES). */ // [state]
  state?: Readonly<Record<StateName, number>> | null; // [state]
  /** The heading the wind blows from: a unit type that drifts ends downwind (Route.drift). */ // [drift]
  wind?: number | null; // [drift] // [no wind strength]
  wind?: number | readonly [number, WindStrength] | null; // [drift] // [wind strength]
} & StepInputs;
/** The cost of moving ``mode`` along ``route`` (places of ``board``, the start first). */
export declare function routeCost(board: Board, mode: ModeName, route: Iterable<BoardPlace>, options?: RouteOptions): Route;
/** The cheapest legal route from ``start`` to ``goal``, or null when there is none. */
export declare function cheapestRoute(
  board: Board,
  mode: ModeName,
  start: BoardPlace,
  goal: BoardPlace,
  options?: RouteOptions,
): Route | null;
/** Each place where ``mode`` may end its move from ``start`` for at most ``budget``. */
export declare function reachable(
  board: Board,
  mode: ModeName,
  start: BoardPlace,
  budget?: number | null,
  options?: { allowance?: number | null; move?: MoveName | null; outcomes?: PlacedOutcomes | null } & StepInputs, // [no state]
  options?: { allowance?: number | null; move?: MoveName | null; outcomes?: PlacedOutcomes | null; state?: Readonly<Record<StateName, number>> | null } & StepInputs, // [state]
): Reach;
