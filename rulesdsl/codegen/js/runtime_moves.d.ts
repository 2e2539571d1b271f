// ---- movement costs, kinds of move and rolls due (the same in every generated module) ----
export declare class Flat { readonly amount: number }
export declare class Share {
  readonly numerator: number;
  readonly denominator: number;
  readonly but: number;
  /** This share of ``allowance`` (a finite number, at least 0). */
  of(allowance: number): number;
}
export type OnceCost = Flat | Share | StepCost;
/** A cost per distance: a number, a marker, or the name of a parameter the ruleset leaves open. */
export type PerDistance = number | Marker | string;
export interface Mode {
  readonly id: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly keywords: readonly string[];
  /** The unit type's own allowance, when it has one (issue 40). */
  readonly allowance?: number;
}
export interface Layer {
  readonly id: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly scope: string;
  readonly features: readonly string[];
}
export declare class MoveKind {
  readonly id: string;
  readonly label: string;
  readonly factor: number;
  readonly amount: number;
  readonly barred: ReadonlySet<string>;
  readonly modes: ReadonlySet<string> | null;
}
export declare class RollRule {
  readonly id: string;
  readonly label: string;
  readonly on: RollTime;
  readonly dice: string | null;
  readonly table: string | null;
  readonly combine: string;
}
export type RollTime = "crossing" | "entering" | "first_entering" | "ending"; // [no step rolls] // [no first step]
export type RollTime = "crossing" | "entering" | "first_entering" | "ending" | "any_step"; // [step rolls] // [no first step]
export type RollTime = "crossing" | "entering" | "first_entering" | "ending" | "first_step"; // [no step rolls] // [first step]
export type RollTime = "crossing" | "entering" | "first_entering" | "ending" | "any_step" | "first_step"; // [step rolls] // [first step]
export declare class RollDue {
  readonly step: number;
  readonly place: unknown;
  readonly on: RollTime;
  readonly roll: string;
  readonly dice: string | null;
  readonly table: string | null;
  readonly modifier: number;
  readonly features: readonly string[];
  readonly move: string;
}
export type PathStep = "straight" | "diagonal" | "s" | "d";
