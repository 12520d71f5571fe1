import { describe, expect, test } from "bun:test";
import { fieldErrorsInWords } from "../../islands/lib/api";
import { DETAILS_MAX_LENGTH, TITLE_MAX_LENGTH } from "../../islands/note-show/FieldLimit";
import { MAX_DETAILS_LENGTH, MAX_TITLE_LENGTH } from "../../src/services/notes/validation";

describe("field limits", () => {
  test("the note page knows the server's limits", () => {
    expect(TITLE_MAX_LENGTH).toBe(MAX_TITLE_LENGTH);
    expect(DETAILS_MAX_LENGTH).toBe(MAX_DETAILS_LENGTH);
  });

  test('a 400\'s field messages read as words, not "binding error"', () => {
    expect(fieldErrorsInWords({ newTitle: "size must be between 1 and 150" })).toBe("Title: size must be between 1 and 150");
    expect(fieldErrorsInWords({ details: "size must be at most 200000", "settings.linkType": "is invalid" })).toBe(
      "Details: size must be at most 200000; Link type: is invalid",
    );
    expect(fieldErrorsInWords({ body: "is required" })).toBe("is required");
  });
});
