/**
 * The one home of what a running Engram instance keeps in memory beside its database: the AI
 * client and its time limit, the job worker's state, the backup scheduler, the live AI runs, the
 * kept answers of the versioned caches, the binary embedding index's copy and the shutdown steps. Each module declares its slot once with `instanceSlot` and reads it with
 * `instanceValue(ctx, slot)`; the value is made on first use and lives as long as the instance
 * (AppContext.state: tests start many instances in one process, each with its own).
 */

/** Whatever carries an instance's state (the app context). */
export interface HasInstanceState {
  state: InstanceState;
}

export interface InstanceSlot<T, Ctx extends HasInstanceState = HasInstanceState> {
  readonly name: string;
  readonly create: (ctx: Ctx) => T;
}

/** Declares a piece of instance state: its name (for debugging) and how to make its first value. */
export const instanceSlot = <T, Ctx extends HasInstanceState = HasInstanceState>(
  name: string,
  create: (ctx: Ctx) => T,
): InstanceSlot<T, Ctx> => ({ name, create });

/** The values of one instance's slots. */
export class InstanceState {
  readonly values = new Map<InstanceSlot<unknown, never>, unknown>();
}

/** The instance's value for the slot, made on first use. */
export function instanceValue<T, Ctx extends HasInstanceState>(ctx: Ctx, slot: InstanceSlot<T, Ctx>): T {
  const { values } = ctx.state;
  if (!values.has(slot)) values.set(slot, slot.create(ctx));
  return values.get(slot) as T;
}
