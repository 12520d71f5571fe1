import { describe, expect, test } from "bun:test";
import { Randomizer } from "../../../src/services/randomizer";
import {
  contestResult,
  LEGITIMATE_QUESTION_ADVICE,
  shuffleChoices,
  validEvaluation,
  validMcq,
} from "../../../src/services/recall-prompts/mcq";

const mcq = (choices: unknown, correctChoiceIndex: unknown = 0, stem: unknown = "What is red?", strictChoiceOrder: unknown = false) => ({
  multipleChoicesQuestion: { stem, choices },
  correctChoiceIndex,
  strictChoiceOrder,
});

describe("validMcq: what a model answered, when usable", () => {
  test("a non-blank stem, 2 to 10 non-blank choices and a correct index among them", () => {
    expect(validMcq(mcq(["apple", "sky"], 1))).toEqual(mcq(["apple", "sky"], 1) as never);
    expect(
      validMcq(
        mcq(
          Array.from({ length: 10 }, (_, i) => `c${i}`),
          9,
        ),
      ),
    ).toBeDefined();
  });

  test.each([
    ["an empty stem (not enough information)", mcq(["a", "b"], 0, "")],
    ["a blank stem", mcq(["a", "b"], 0, "  \n")],
    ["a stem that is not text", mcq(["a", "b"], 0, 42)],
    ["no choices", mcq([], 0)],
    ["one choice", mcq(["a"], 0)],
    [
      "eleven choices",
      mcq(
        Array.from({ length: 11 }, (_, i) => `c${i}`),
        0,
      ),
    ],
    ["a blank choice", mcq(["a", " "], 0)],
    ["a choice that is not text", mcq(["a", 2], 0)],
    ["choices that are not a list", mcq("a, b", 0)],
    ["a correct index past the end", mcq(["a", "b"], 2)],
    ["a negative correct index", mcq(["a", "b"], -1)],
    ["a fractional correct index", mcq(["a", "b"], 0.5)],
    ["a correct index as text", mcq(["a", "b"], "0")],
    ["no question at all", { correctChoiceIndex: 0 }],
    ["null", null],
    ["a string", "question"],
  ])("refuses %s", (_, raw) => {
    expect(validMcq(raw)).toBeUndefined();
  });

  test("a missing strictChoiceOrder counts as false", () => {
    expect(validMcq({ multipleChoicesQuestion: { stem: "s", choices: ["a", "b"] }, correctChoiceIndex: 1 })?.strictChoiceOrder).toBe(false);
  });
});

describe("shuffleChoices", () => {
  const question = mcq(["right", "wrong 1", "wrong 2"], 0) as never;

  test("the testability randomizer 'first' keeps the order", () => {
    expect(shuffleChoices(question, new Randomizer("first"))).toEqual(question);
  });

  test("'last' reverses the choices and the correct index follows its choice", () => {
    const shuffled = shuffleChoices(question, new Randomizer("last"));
    expect(shuffled.multipleChoicesQuestion.choices).toEqual(["wrong 2", "wrong 1", "right"]);
    expect(shuffled.correctChoiceIndex).toBe(2);
  });

  test("a strict order is never shuffled", () => {
    const strict = mcq(["A", "B", "None of the above"], 2, "Which?", true) as never;
    expect(shuffleChoices(strict, new Randomizer("last"))).toEqual(strict);
  });

  test("a seeded shuffle is a permutation whose correct index still points at the right choice, also with equal choices", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const randomizer = new Randomizer("seed");
      randomizer.set("seed", seed);
      const shuffled = shuffleChoices(mcq(["same", "right", "same", "other"], 1) as never, randomizer);
      expect([...shuffled.multipleChoicesQuestion.choices].sort()).toEqual(["other", "right", "same", "same"]);
      expect(shuffled.multipleChoicesQuestion.choices[shuffled.correctChoiceIndex]).toBe("right");
    }
  });

  test("seeded shuffles do change the order sometimes", () => {
    const orders = new Set<string>();
    for (let seed = 1; seed <= 20; seed++) {
      const randomizer = new Randomizer("seed");
      randomizer.set("seed", seed);
      orders.add(shuffleChoices(question, randomizer).multipleChoicesQuestion.choices.join("|"));
    }
    expect(orders.size).toBeGreaterThan(1);
  });
});

describe("validEvaluation", () => {
  test("keeps integer correct choices and defaults missing advice to empty", () => {
    expect(validEvaluation({ correctChoices: [0, "1", 2.5, 2], feasibleQuestion: false })).toEqual({
      correctChoices: [0, 2],
      feasibleQuestion: false,
      improvementAdvices: "",
    });
  });

  test("refuses an answer without a feasibility verdict", () => {
    expect(validEvaluation({ correctChoices: [0], improvementAdvices: "" })).toBeUndefined();
    expect(validEvaluation(undefined)).toBeUndefined();
  });
});

describe("contestResult", () => {
  const choices = ["Paris", "Lyon", "Nice"];

  test("a feasible question whose one correct choice is the stored one stands (the contest is rejected)", () => {
    expect(contestResult({ correctChoices: [0], feasibleQuestion: true, improvementAdvices: "" }, choices, 0)).toEqual({
      rejected: true,
      advice: LEGITIMATE_QUESTION_ADVICE,
    });
    expect(LEGITIMATE_QUESTION_ADVICE).toBe("This seems to be a legitimate question. Please answer it.");
  });

  test("not feasible with the same answer: accepted, the advice is the evaluator's", () => {
    expect(contestResult({ correctChoices: [0], feasibleQuestion: false, improvementAdvices: "Too easy." }, choices, 0)).toEqual({
      rejected: false,
      advice: "Too easy.",
    });
  });

  test("a disputed answer: the advice starts with the original and re-evaluated choices", () => {
    const result = contestResult({ correctChoices: [0, 2], feasibleQuestion: true, improvementAdvices: "Make Nice wrong." }, choices, 1);
    expect(result.rejected).toBe(false);
    expect(result.advice).toBe(
      'Unclear answer detected. The original question assume one correct choice index (0-based) of 1 ("Lyon"). ' +
        'however, the re-evaluation of the question shows that 0 ("Paris"), 2 ("Nice") are correct to the question.\n' +
        "Please make sure the correct answer is correct and unique.\n\nMake Nice wrong.",
    );
  });

  test("no correct choice, or only ones outside the choices, reads 'none'", () => {
    expect(contestResult({ correctChoices: [], feasibleQuestion: true, improvementAdvices: "" }, choices, 0).advice).toContain(
      "shows that none are correct",
    );
    expect(contestResult({ correctChoices: [7], feasibleQuestion: true, improvementAdvices: "" }, choices, 0).advice).toContain(
      "shows that none are correct",
    );
  });
});
