import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runAdminCommand } from "../../src/admin-cli";
import { openDatabase } from "../../src/db/connection";
import { hashToken } from "../../src/services/auth/tokens";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function instanceWith(...logins: string[]) {
  const dataDir = mkdtempSync(join(tmpdir(), "engram-admin-cli-"));
  dirs.push(dataDir);
  const { sqlite } = openDatabase(join(dataDir, "engram.db"));
  for (const login of logins)
    sqlite.run("INSERT INTO accounts (external_identifier, admin, disabled_at, created_at) VALUES (?, 0, 1, 0)", [login]);
  sqlite.close();
  return { env: { ENGRAM_DATA_DIR: dataDir }, file: join(dataDir, "engram.db") };
}

async function run(args: string[], env: Record<string, string>) {
  const lines: string[] = [];
  const code = await runAdminCommand(args, { ...env, PORT: "3999" }, { log: (l) => lines.push(l), error: (l) => lines.push(`! ${l}`) });
  return { code, lines };
}

test("grant makes a forgotten account an admin again (and enables it); list shows the roles", async () => {
  const { env, file } = instanceWith("founder", "learner");
  expect(await run(["grant", "founder"], env)).toEqual({ code: 0, lines: ["founder is an admin now."] });
  expect((await run(["list"], env)).lines).toEqual(["founder (admin)", "learner (disabled)"]);
  const { sqlite } = openDatabase(file);
  expect(sqlite.query("SELECT admin, disabled_at FROM accounts WHERE external_identifier = 'founder'").get()).toEqual({
    admin: 1,
    disabled_at: null,
  });
  sqlite.close();
});

test("reset-password prints a one-time link whose token only the link holds", async () => {
  const { env, file } = instanceWith("founder");
  const { code, lines } = await run(["reset-password", "founder"], env);
  expect(code).toBe(0);
  const token = /http:\/\/localhost:3999\/users\/reset-password\/([a-z2-7]+)$/.exec(lines[0]!)![1]!;
  const { sqlite } = openDatabase(file);
  const stored = sqlite.query<{ token_hash: string }, []>("SELECT token_hash FROM password_resets").all();
  expect(stored).toEqual([{ token_hash: hashToken(token) }]);
  sqlite.close();
});

test("an unknown login or a missing argument is a clear error", async () => {
  const { env } = instanceWith("founder");
  expect(await run(["grant", "nobody"], env)).toEqual({ code: 1, lines: ['! No account "nobody". See them with: engram admin list'] });
  expect((await run(["grant"], env)).code).toBe(2);
  expect((await run([], env)).code).toBe(2);
});
