/**
 * Counts failed attempts per key (for sign-in: the username and the client address) and locks a
 * key for a while once it has failed too often. In memory: Engram is one process.
 */
export class RateLimiter {
  private failures = new Map<string, { count: number; firstAt: number; lockedUntil: number }>();

  constructor(private readonly rules: { maxFailures: number; windowMs: number; lockMs: number }) {}

  /** Milliseconds the key is still locked for, 0 when it may try. */
  lockedFor(key: string, now: number): number {
    const entry = this.failures.get(key);
    return entry && entry.lockedUntil > now ? entry.lockedUntil - now : 0;
  }

  recordFailure(key: string, now: number) {
    let entry = this.failures.get(key);
    if (!entry || now - entry.firstAt > this.rules.windowMs) {
      entry = { count: 0, firstAt: now, lockedUntil: 0 };
      this.failures.set(key, entry);
    }
    entry.count += 1;
    if (entry.count >= this.rules.maxFailures) entry.lockedUntil = now + this.rules.lockMs;
    if (this.failures.size > 10_000) this.forgetOldest();
  }

  recordSuccess(key: string) {
    this.failures.delete(key);
  }

  reset() {
    this.failures.clear();
  }

  private forgetOldest() {
    const oldest = this.failures.keys().next().value;
    if (oldest !== undefined) this.failures.delete(oldest);
  }
}
