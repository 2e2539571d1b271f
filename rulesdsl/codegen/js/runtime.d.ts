// ---- runtime (the same in every generated module) ----
export declare class Marker {
  readonly name: "IMPASSABLE" | "PROHIBITED" | "BLOCKED" | "GIVEN";
  readonly value: "impassable" | "prohibited" | "blocked" | "given";
}
export declare const IMPASSABLE: Marker;
export declare const PROHIBITED: Marker;
export declare const BLOCKED: Marker;
export declare const GIVEN: Marker;
export declare class Quantity {
  readonly value: number;
  readonly unit: string;
  valueOf(): number;
}
export interface Rate { readonly kind: "rate"; readonly amount: Value; readonly per: Value }
export interface Trade { readonly kind: "trade"; readonly gain: Value; readonly cost: Value }
export interface Span {
  readonly kind: "span"; readonly low: number; readonly high: number; readonly unit: string | null;
}
export interface Dice {
  readonly kind: "dice"; readonly number: number; readonly sides: number; readonly bonus: number;
}
export interface D66 { readonly kind: "d66"; readonly bonus: number }
/** A cell of a table as the module carries it. */
export type Value = number | string | boolean | null | Quantity | Rate | Trade | Span | Dice | D66 | Marker;
export declare class UnknownName extends Error {
  readonly code: "UnknownName";
  readonly kind: string;
  readonly unknown: unknown;
  readonly suggestions: readonly string[];
}
export declare class UnfilledParameter extends Error {
  readonly code: "UnfilledParameter";
  readonly parameter: string;
}
export declare class ArgumentError extends Error {
  readonly functionName: string;
  readonly argument: string;
  readonly value: unknown;
  readonly reason: string;
}
export declare class InvalidArgument extends ArgumentError { readonly code: "InvalidArgument" }
export declare class ArgumentTypeError extends ArgumentError { readonly code: "ArgumentTypeError" }
export declare class ArithmeticFault extends Error {
  readonly code: "ZeroDivisionError" | "OverflowError" | "ValueError";
}
export declare class Table {
  readonly id: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly columns: readonly string[];
  readonly rows: ReadonlyMap<string | number, readonly Value[]>;
}
export declare class Outcome<Id extends string = string> {
  readonly id: Id;
  readonly label: string;
  readonly value: Value;
  /** The outcome's label in every language the ruleset gives. */
  readonly labels: Readonly<Record<string, string>>;
}
export declare class Limit {
  readonly value: number;
  readonly per: number;
  over(distance: number, full?: boolean): number;
}
export declare class StepCost {
  readonly step: string;
  readonly input: string;
}
export interface Feature {
  readonly id: string;
  readonly layer: string;
  readonly labels: Readonly<Record<string, string>>;
  /** Per unit type: the cost per distance (PerDistance). */
  readonly costs: Readonly<Record<string, number | Marker | string>>;
}
export type Combine = "sum" | "highest" | "lowest" | "once";
/** An exact chance (Python's Fraction in lowest terms). */
export interface Fraction { readonly numerator: number; readonly denominator: number }
export declare class DiceRow {
  readonly id: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly low: number | null;
  readonly high: number | null;
  readonly effects: Readonly<Record<string, Value>>;
  readonly chance: Fraction;
  readonly chanceWith: Readonly<Record<string, Fraction>>;
}
export declare class DiceTable {
  readonly id: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly dice: Dice | D66;
  readonly modifiers: Readonly<Record<string, number>>;
  readonly rows: readonly DiceRow[];
  readonly naturals: ReadonlyMap<number, string>;
  readonly naturalAtLeast: ReadonlySet<number>;
}
