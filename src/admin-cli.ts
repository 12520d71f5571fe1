/**
 * `engram admin ...` / `npm run admin -- ...`: getting back into an Engram whose only admin forgot
 * their password, from the machine it runs on (whoever can run this can read the database anyway).
 * Works while Engram runs (SQLite's WAL lets both write).
 *   engram admin list                      the accounts, with their roles
 *   engram admin grant <login>             makes the account an admin (and enables it)
 *   engram admin reset-password <login>    prints a one-time password-reset link (24 hours)
 */
import { type Config, ConfigError, readConfig } from "./config";
import { type AppContext, createContext } from "./context";
import { createPasswordReset, PASSWORD_RESET_HOURS } from "./services/admin/users";

type Out = { log: (line: string) => void; error: (line: string) => void };
const USAGE = "Usage: engram admin list | engram admin grant <login> | engram admin reset-password <login>";

/** Runs an admin command; answers the exit code. */
export async function runAdminCommand(
  args: string[],
  env: Record<string, string | undefined> = process.env,
  out: Out = console,
): Promise<number> {
  const [command, login] = args;
  if (!command || (command !== "list" && !login)) {
    out.error(USAGE);
    return 2;
  }
  let config: Config;
  try {
    config = readConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    out.error(`Engram admin failed: ${error.message}`);
    return 1;
  }
  let ctx: AppContext;
  try {
    ctx = await createContext(config);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    out.error(`Engram admin failed: ${error.message}`);
    return 1;
  }
  try {
    if (command === "list") {
      for (const { account } of await ctx.stores.accounts.listWithNames()) {
        out.log(`${account.externalIdentifier}${account.admin ? " (admin)" : ""}${account.disabledAt ? " (disabled)" : ""}`);
      }
      return 0;
    }
    const account = await ctx.stores.accounts.byLogin(login!);
    if (!account) {
      out.error(`No account "${login}". See them with: engram admin list`);
      return 1;
    }
    if (command === "grant") {
      await ctx.stores.accounts.grantAdmin(account.id);
      out.log(`${login} is an admin now.`);
      return 0;
    }
    if (command === "reset-password") {
      const { path } = await createPasswordReset(ctx, account.id);
      const origin = config.publicUrl?.origin ?? `http://localhost:${config.port}`;
      out.log(`Open this link within ${PASSWORD_RESET_HOURS} hours to set a new password for ${login} (it works once): ${origin}${path}`);
      return 0;
    }
    out.error(USAGE);
    return 2;
  } finally {
    await ctx.database.close();
  }
}

if (import.meta.main) process.exit(await runAdminCommand(process.argv.slice(2)));
