/**
 * The one source of randomness for all server code. In production it is truly random; tests
 * set it to `first` / `last` (deterministic picks, no shuffling) or to a seeded generator.
 */
export type RandomizerChoice = "first" | "last" | "seed" | "random";

export class Randomizer {
  private choice: RandomizerChoice;
  private state = 0;

  constructor(initial: RandomizerChoice) {
    this.choice = initial;
  }

  get mode(): RandomizerChoice {
    return this.choice;
  }

  set(choice: RandomizerChoice, seed = 0) {
    this.choice = choice;
    this.state = seed >>> 0;
  }

  /** A number in [0, 1): 0 for `first`, just under 1 for `last`, seeded or real randomness otherwise. */
  next(): number {
    switch (this.choice) {
      case "first":
        return 0;
      case "last":
        return 0.999999999;
      case "seed":
        return this.mulberry32();
      default:
        return crypto.getRandomValues(new Uint32Array(1))[0]! / 2 ** 32;
    }
  }

  /** Picks one element; undefined for an empty list. */
  choose<T>(items: readonly T[]): T | undefined {
    if (items.length === 0) return undefined;
    return items[Math.floor(this.next() * items.length)];
  }

  /** A shuffled copy (Fisher–Yates); `first` keeps the order and `last` reverses it, as the reference does. */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    if (this.choice === "first") return copy;
    if (this.choice === "last") return copy.reverse();
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy;
  }

  private mulberry32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}
