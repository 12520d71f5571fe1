import { beforeEach, describe, expect, test } from "bun:test";
import { assimilate, recallingTitles, travelTo } from "../support/learning";
import { injectNotes } from "../support/notes";
import { type HttpClient, useTestServer } from "../support/server";

describe("the recall list parts a note's items", () => {
  const server = useTestServer();
  let learner: HttpClient;
  beforeEach(async () => {
    learner = await server.client().loginAs("old_learner");
  });

  test("a note's review and its spelling question are not next to each other when another note can go between", async () => {
    const ids = await injectNotes(learner, [
      { Title: "Space" },
      { Title: "Moon", "Parent Title": "Space" },
      { Title: "Mars", "Parent Title": "Space" },
    ]);
    expect((await learner.post(`/api/notes/${ids.Moon}/review-setting`, { rememberSpelling: true })).status).toBe(200);
    await travelTo(learner, 1);
    await assimilate(learner, ids.Moon!);
    await assimilate(learner, ids.Mars!);
    // All due at once: in tracker order this would be Moon, Moon (spelling), Mars.
    expect(await recallingTitles(learner)).toEqual(["Moon", "Mars", "Moon (spelling)"]);
    const { toRepeat } = (await learner.get("/api/recalls/recalling?timezone=UTC")).body;
    expect(toRepeat.map((item: { noteId: number }) => item.noteId)).toEqual([ids.Moon, ids.Mars, ids.Moon]);
  });
});
