import type { AppContext } from "../context";

/**
 * A kind of background job: what it does and how it is retried, side by side (as Outline's
 * BaseTask). Payloads are JSON values stored in jobs.payload.
 */
export interface JobDefinition<P> {
  /** The jobs.kind value, e.g. "embed-note". */
  kind: string;
  /** The most runs a job gets, the first included (1 = never retried). */
  attempts: number;
  /** Milliseconds to wait before the next run after failed run number `attempt` (1, 2, ...). */
  backoff(attempt: number): number;
  /** How many due jobs of this kind one run takes together (their payloads in one call). Default 1. */
  batchSize?: number;
  /** Does the work. Throwing makes every job of the run fail (and be retried per attempts/backoff). */
  perform(ctx: AppContext, payloads: P[]): Promise<void>;
}

const definitions = new Map<string, JobDefinition<unknown>>();

/** Registers a job kind (once per kind, at module load) and answers it. */
export function defineJob<P>(definition: JobDefinition<P>): JobDefinition<P> {
  if (!Number.isInteger(definition.attempts) || definition.attempts < 1) {
    throw new Error(`Job ${definition.kind}: attempts must be a whole number of at least 1`);
  }
  definitions.set(definition.kind, definition as JobDefinition<unknown>);
  return definition;
}

export function jobDefinition(kind: string): JobDefinition<unknown> | undefined {
  return definitions.get(kind);
}

/**
 * Something that turns rows of an outbox (changes recorded by triggers in the writer's
 * transaction) into jobs: the worker runs every relay before it claims jobs. `immediate` asks for
 * jobs due at once (runDueJobs) rather than after the relay's usual delay.
 */
export type Relay = (ctx: AppContext, options: { immediate: boolean }) => Promise<unknown>;

const relays = new Map<string, Relay>();

/** Registers a relay (once per name, at module load). */
export function defineRelay(name: string, relay: Relay) {
  relays.set(name, relay);
}

export function allRelays(): Relay[] {
  return [...relays.values()];
}

/** Exponential backoff: `first` ms, then times `factor` each retry, never more than `max` ms. */
export function exponentialBackoff(first: number, factor: number, max: number) {
  return (attempt: number) => Math.min(max, first * factor ** Math.max(0, attempt - 1));
}
