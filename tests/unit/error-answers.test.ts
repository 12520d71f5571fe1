/**
 * The error contract at its one place (src/api/errors.ts): a request that fails its schema is a
 * 400 with field messages; an answer that fails its route's response schema is the server's fault,
 * a 500 with a failure report, never a 400 the caller could not fix.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { t, ValidationError } from "elysia";
import { errorAnswer } from "../../src/api/errors";
import { readConfig } from "../../src/config";
import { createSqliteContext } from "../../src/context";
import { listFailureReports } from "../../src/services/failure-reports";

const dataDir = mkdtempSync(join(tmpdir(), "engram-errors-"));
const ctx = createSqliteContext(readConfig({ ENGRAM_MODE: "test", ENGRAM_DATA_DIR: dataDir, PORT: "0" }));
afterAll(() => {
  ctx.sqlite.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const schema = t.Object({ name: t.String({ error: "must be text" }) });
const admin = { account: { admin: true }, user: {} } as Parameters<typeof listFailureReports>[1];

describe("error answers", () => {
  test("a body that fails its schema is 400 with the field's message", () => {
    const { status, body } = errorAnswer(ctx, "VALIDATION", new ValidationError("body", schema, { name: 3 }));
    expect(status).toBe(400);
    expect(body).toEqual({ message: "binding error", errorType: "BINDING_ERROR", errors: { name: "must be text" } });
  });

  test("an answer that fails its response schema is 500 and a failure report", async () => {
    const before = (await listFailureReports(ctx, admin)).length;
    const original = console.error;
    console.error = () => {};
    try {
      const { status, body } = errorAnswer(ctx, "VALIDATION", new ValidationError("response", schema, { name: 3 }));
      expect(status).toBe(500);
      expect(body.errorType).toBe("INTERNAL_SERVER_ERROR");
    } finally {
      console.error = original;
    }
    expect((await listFailureReports(ctx, admin)).length).toBe(before + 1);
  });
});
