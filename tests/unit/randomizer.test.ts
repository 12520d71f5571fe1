import { describe, expect, test } from "bun:test";
import { Randomizer } from "../../src/services/randomizer";

describe("randomizer", () => {
  test("first and last pick the ends; first keeps the order and last reverses it", () => {
    const first = new Randomizer("first");
    const last = new Randomizer("last");
    expect(first.choose([1, 2, 3])).toBe(1);
    expect(last.choose([1, 2, 3])).toBe(3);
    expect(first.shuffle([1, 2, 3, 4])).toEqual([1, 2, 3, 4]);
    expect(last.shuffle([1, 2, 3, 4])).toEqual([4, 3, 2, 1]);
  });

  test("the same seed gives the same sequence, another seed another one", () => {
    const a = new Randomizer("seed");
    a.set("seed", 42);
    const b = new Randomizer("seed");
    b.set("seed", 42);
    const c = new Randomizer("seed");
    c.set("seed", 43);
    const list = Array.from({ length: 20 }, (_, i) => i);
    const shuffled = a.shuffle(list);
    expect(b.shuffle(list)).toEqual(shuffled);
    expect(c.shuffle(list)).not.toEqual(shuffled);
    expect([...shuffled].sort((x, y) => x - y)).toEqual(list);
  });

  test("numbers stay within [0, 1) and choosing from nothing gives undefined", () => {
    const random = new Randomizer("random");
    for (let i = 0; i < 1000; i++) {
      const n = random.next();
      expect(n >= 0 && n < 1).toBe(true);
    }
    expect(random.choose([])).toBeUndefined();
  });
});
