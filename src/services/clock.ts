/**
 * The one source of "now" for all server code. Outside production, tests can freeze it
 * (time_travel) or shift it (time_travel_relative_to_now).
 */
export class Clock {
  private frozenAt: number | undefined;

  now(): Date {
    return new Date(this.frozenAt ?? Date.now());
  }

  /** Freezes the clock at the instant. */
  travelTo(instant: Date) {
    this.frozenAt = instant.getTime();
  }

  /** Freezes the clock at the real now plus the hours (negative goes back). */
  travelRelativeToNow(hours: number) {
    this.frozenAt = Date.now() + hours * 3_600_000;
  }

  reset() {
    this.frozenAt = undefined;
  }
}
