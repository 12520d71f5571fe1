import { describe, expect, test } from "bun:test";
import { detailsBody, detailsParts, withBody } from "../../src/services/notes/note-properties";

describe("a note's properties (front matter at the top of its details)", () => {
  const details = "---\nanki_note_type: Basic\ntags:\n  - spanish\n---\n\nHello  \nHi";

  test("are split from the text, exactly as written", () => {
    const parts = detailsParts(details);
    expect(parts.properties.map((entry) => entry.key)).toEqual(["anki_note_type", "tags"]);
    expect(parts.prefix).toBe("---\nanki_note_type: Basic\ntags:\n  - spanish\n---\n\n");
    expect(parts.body).toBe("Hello  \nHi");
    expect(parts.prefix + parts.body).toBe(details);
  });

  test("an edit of the text keeps them once, as they were; clearing the text keeps them too", () => {
    expect(withBody(details, "Changed")).toBe("---\nanki_note_type: Basic\ntags:\n  - spanish\n---\n\nChanged");
    expect(withBody(withBody(details, "Changed"), "Again")).toBe("---\nanki_note_type: Basic\ntags:\n  - spanish\n---\n\nAgain");
    expect(detailsBody(withBody(details, ""))).toBe("");
    expect(detailsParts(withBody(details, "")).properties).toHaveLength(2);
  });

  test("details without front matter are all text; a rule (---) later on is text", () => {
    expect(detailsParts("Just text\n\n---\n\nmore")).toEqual({ properties: [], prefix: "", body: "Just text\n\n---\n\nmore" });
    expect(withBody("Just text", "New")).toBe("New");
  });
});
