import type { AppContext } from "./context";

/**
 * The one home of what a running Engram instance keeps in memory beside its database: the AI
 * client and its time limit, the job worker's state, the backup scheduler, the live AI runs and
 * the shutdown steps. Each module declares its slot once with `instanceSlot` and reads it with
 * `instanceValue(ctx, slot)`; the value is made on first use and lives as long as the instance
 * (tests start many instances in one process, each with its own).
 */
export interface InstanceSlot<T> {
  readonly name: string;
  readonly create: (ctx: AppContext) => T;
}

/** Declares a piece of instance state: its name (for debugging) and how to make its first value. */
export const instanceSlot = <T>(name: string, create: (ctx: AppContext) => T): InstanceSlot<T> => ({ name, create });

/** The values of one instance's slots (AppContext.state). */
export class InstanceState {
  readonly values = new Map<InstanceSlot<unknown>, unknown>();
}

/** The instance's value for the slot, made on first use. */
export function instanceValue<T>(ctx: AppContext, slot: InstanceSlot<T>): T {
  const { values } = ctx.state;
  if (!values.has(slot)) values.set(slot, slot.create(ctx));
  return values.get(slot) as T;
}
