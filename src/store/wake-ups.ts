/**
 * Wake-ups: on PostgreSQL, writes that other processes poll for (a run cancelled, a note's text
 * saved, a job queued) send a NOTIFY on one channel from their own transaction (triggers in
 * migrations-postgres/*_wake_ups.sql), and each process listens on one connection. A wake-up only
 * makes a poller look now instead of at its next tick: the poll stays the carrier, so a lost
 * notification (a reconnect, a listener not yet acknowledged) only delays. SQLite has no
 * notifications: its pollers keep their intervals.
 */
import type { SQL } from "bun";

export const WAKE_CHANNEL = "engram_wake";

/** What a wake-up is about: the payload the triggers send. */
export type WakeTopic = "ai-runs" | "note-revisions" | "jobs";

/** Registers `wake` for a topic; answers how to remove it. */
export type OnWake = (topic: WakeTopic, wake: () => void) => () => void;

/** No notifications (SQLite): nothing to remove either. */
export const neverWakes: OnWake = () => () => undefined;

/**
 * The wake-ups of one PostgreSQL pool: one LISTEN (Bun.sql keeps it on a dedicated connection and
 * re-subscribes after a reconnect), made when the first waker registers, dispatched by topic.
 */
export class PostgresWakeUps {
  private readonly wakers = new Map<WakeTopic, Set<() => void>>();
  private subscription: Promise<SQL.ListenSubscription | undefined> | undefined;
  private closed = false;

  constructor(private readonly client: SQL) {}

  readonly on: OnWake = (topic, wake) => {
    const set = this.wakers.get(topic) ?? new Set();
    this.wakers.set(topic, set);
    set.add(wake);
    this.listen();
    return () => {
      set.delete(wake);
    };
  };

  /** Resolves once the server has acknowledged the LISTEN (tests; the pollers never wait for it). */
  async listening(): Promise<void> {
    this.listen();
    await this.subscription;
  }

  private listen() {
    if (this.subscription || this.closed) return;
    this.subscription = this.client
      .listen(WAKE_CHANNEL, (payload) => {
        for (const wake of this.wakers.get(payload as WakeTopic) ?? []) {
          try {
            wake();
          } catch (error) {
            console.error(`A wake-up for ${payload} failed:`, error);
          }
        }
      })
      .catch((error) => {
        // Polling carries on without it; the next registration tries again.
        console.error("Listening for wake-ups failed (polling carries on):", error);
        this.subscription = undefined;
        return undefined;
      });
  }

  async close(): Promise<void> {
    this.closed = true;
    const subscription = await this.subscription;
    await subscription?.unlisten().catch(() => undefined);
  }
}
