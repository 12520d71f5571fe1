/**
 * The check behind every API test file (tests/support/contract.ts): it finds what differs from
 * the reference's schemas in recorded answers, matches paths to the reference's templates, and
 * lets through only the differences listed in tests/api/openapi-differences.ts (ANSWER_DIFFERENCES).
 */
import { describe, expect, test } from "bun:test";
import { contractViolations, operationOf } from "../support/contract";

const note = { id: 7, noteTopology: { id: 7, titleOrPredicate: "Cells", shortDetails: "" }, createdAt: "2026-01-01T00:00:00.000Z" };

describe("the wire-contract check", () => {
  test("matches a request to the reference's operation, fixed segments before parameters", () => {
    expect(operationOf("POST", "/api/notebooks/create")?.template).toBe("/api/notebooks/create");
    expect(operationOf("POST", "/api/notebooks/12")?.template).toBe("/api/notebooks/{notebook}");
    expect(operationOf("GET", "/api/notes/12/note-info")?.template).toBe("/api/notes/{note}/note-info");
    expect(operationOf("POST", "/api/notebooks/anki")).toBeUndefined(); // Engram's own
    expect(operationOf("GET", "/api/backups")).toBeUndefined();
  });

  test("names a missing required field, a wrong type and a wrong shape, by path", () => {
    const violations = contractViolations([
      { method: "GET", path: "/api/notes/7", status: 200, body: { note, notebook: { id: 1 } } },
      { method: "GET", path: "/api/conversation/unread", status: 200, body: 3 },
      { method: "GET", path: "/api/user", status: 200, body: { id: "1", name: "A" } },
    ]);
    expect(violations).toContain("GET /api/notes/{note} 200.note.updatedAt: missing");
    expect(violations).toContain("GET /api/conversation/unread 200: number here, array in the reference");
    expect(violations).toContain("GET /api/user 200.externalIdentifier: missing");
    expect(violations).toContain("GET /api/user 200.id: string here, integer in the reference");
  });

  test("lets listed differences, errors and answers of operations it does not know through", () => {
    const updated = { ...note, updatedAt: "2026-01-01T00:00:00.000Z", parentId: null };
    expect(
      contractViolations([
        { method: "GET", path: "/api/memory-trackers/3", status: 200, body: { id: 3, note: updated } },
        { method: "GET", path: "/api/notes/7", status: 404, body: { message: "Note not found" } },
        { method: "GET", path: "/api/backups", status: 200, body: { anything: true } },
      ]).filter((line) => line.includes("parentId") || line.includes("404") || line.includes("backups")),
    ).toEqual([]);
  });
});
