/** The counter shows from this share of a limit on, so that the limit is known before it bites. */
export const COUNTER_FROM = 0.8;
