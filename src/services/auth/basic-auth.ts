import type { AppContext } from "../../context";
import { ensureTestAccount, isTestIdentity } from "../testability/test-identities";

/** Decodes `Authorization: Basic base64(name:password)`; undefined when absent or malformed. */
export function parseBasicAuth(header: string | null): { name: string; password: string } | undefined {
  if (!header?.startsWith("Basic ")) return undefined;
  let decoded: string;
  try {
    decoded = atob(header.slice(6).trim());
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  return { name: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * Non-production only: the account for basic-auth credentials, either a test identity
 * (password "password") or a real account with its own password.
 */
export async function identifyWithBasicAuth(ctx: AppContext, name: string, password: string) {
  if (isTestIdentity(name, password)) return await ensureTestAccount(ctx, name);
  const account = await ctx.stores.accounts.byLogin(name);
  if (account?.passwordHash && (await Bun.password.verify(password, account.passwordHash))) return account;
  return undefined;
}
