import { count, eq } from "drizzle-orm";
import type { AppContext } from "../../context";
import { accounts } from "../../db/schema";
import { TooManyRequestsError, ValidationError } from "../errors";

export const PASSWORD_MIN_LENGTH = 8;
const PASSWORD_MAX_LENGTH = 256;
const USERNAME_PATTERN = /^[A-Za-z0-9_.@-]{3,50}$/;
/** A real argon2id hash of a throw-away password, verified against for unknown users so timing does not tell. */
let decoyHash: Promise<string> | undefined;

function validateCredentials(username: string, password: string) {
  const errors: Record<string, string> = {};
  if (!username.trim()) errors.username = "Please enter a username";
  else if (!USERNAME_PATTERN.test(username))
    errors.username = "Use 3 to 50 letters, digits or . _ - @ (no spaces)";
  if (!password) errors.password = "Please enter a password";
  else if (password.length < PASSWORD_MIN_LENGTH)
    errors.password = `The password must be at least ${PASSWORD_MIN_LENGTH} characters long`;
  else if (password.length > PASSWORD_MAX_LENGTH)
    errors.password = `The password must be at most ${PASSWORD_MAX_LENGTH} characters long`;
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

/**
 * Creates an account with a password. The first account of a fresh instance is an admin.
 * The admin decision and the insert happen in one transaction so two first sign-ups cannot both win.
 */
export async function signUp(ctx: AppContext, username: string, password: string) {
  validateCredentials(username, password);
  const passwordHash = await Bun.password.hash(password, { algorithm: "argon2id" });
  return ctx.db.transaction((tx) => {
    const taken = tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.externalIdentifier, username)).get();
    if (taken) throw new ValidationError({ username: "This username is already taken" });
    const existing = tx.select({ n: count() }).from(accounts).get()!.n;
    return tx
      .insert(accounts)
      .values({ externalIdentifier: username, passwordHash, admin: existing === 0, createdAt: ctx.clock.now() })
      .returning()
      .get();
  });
}

/**
 * Checks a username and password. Failed attempts are counted per username and per client
 * address; after 5 failures in 15 minutes further attempts are refused for 15 minutes.
 */
export async function signIn(ctx: AppContext, username: string, password: string, clientAddress: string) {
  const errors: Record<string, string> = {};
  if (!username.trim()) errors.username = "Please enter a username";
  if (!password) errors.password = "Please enter a password";
  if (Object.keys(errors).length) throw new ValidationError(errors);

  const now = Date.now();
  const keys = [`user:${username.toLowerCase()}`, `ip:${clientAddress}`];
  const lockedMs = Math.max(...keys.map((key) => ctx.signInLimiter.lockedFor(key, now)));
  if (lockedMs > 0) {
    const minutes = Math.ceil(lockedMs / 60_000);
    throw new TooManyRequestsError(
      `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    );
  }
  const account = ctx.db.select().from(accounts).where(eq(accounts.externalIdentifier, username)).get();
  decoyHash ??= Bun.password.hash("engram-decoy-password", { algorithm: "argon2id" });
  const hash = account?.passwordHash ?? (await decoyHash);
  const valid = (await Bun.password.verify(password, hash)) && !!account?.passwordHash;
  if (!valid || !account) {
    for (const key of keys) ctx.signInLimiter.recordFailure(key, now);
    throw new ValidationError({ password: "Wrong username or password" });
  }
  for (const key of keys) ctx.signInLimiter.recordSuccess(key);
  return account;
}
