import type { AppContext } from "../context";
import { BadRequestError, ForbiddenError, NotFoundError, ValidationError } from "./errors";
import { schedulerOf } from "./memory/reviews";
import { presentSchedulerSettings, type SchedulerSettingsInput, schedulerChanges, trackerConversion } from "./memory/scheduler-settings";
import type { AccountRow, CurrentUser, UserRow } from "./user-rows";

export type { AccountRow, CurrentUser, UserRow } from "./user-rows";

/** The User JSON of the reference's API contract. */
export function presentUser({ user, account }: CurrentUser) {
  return {
    id: user.id,
    name: user.name,
    externalIdentifier: account.externalIdentifier,
    dailyAssimilationCount: user.dailyAssimilationCount,
    spaceIntervals: user.spaceIntervals,
    ...presentSchedulerSettings(user),
    admin: account.admin,
  };
}
export type UserJson = ReturnType<typeof presentUser>;

export function findUserByAccount(ctx: AppContext, accountId: number): Promise<UserRow | undefined> {
  return ctx.stores.users.byAccount(accountId);
}

/** `{user, externalIdentifier}`; user is absent when the identity has no profile yet. */
export function currentUserInfo(
  account: AccountRow | undefined,
  user: UserRow | undefined,
): { user?: UserJson; externalIdentifier?: string } {
  if (!account) return {};
  return {
    externalIdentifier: account.externalIdentifier,
    ...(user ? { user: presentUser({ user, account }) } : {}),
  };
}
export type CurrentUserInfoJson = { user?: UserJson; externalIdentifier?: string };

const SPACE_INTERVALS_PATTERN = /^\d+((,\s*\d+){1,1000})*$/;

function validateName(name: string, errors: Record<string, string>) {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 100) errors.name = "size must be between 1 and 100";
  return trimmed;
}

/** Creates the signed-in identity's profile (once). */
export async function createProfile(ctx: AppContext, account: AccountRow, input: { name: string }): Promise<CurrentUser> {
  const errors: Record<string, string> = {};
  const name = validateName(input.name, errors);
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const user = await ctx.stores.users.createProfile(account.id, name, ctx.clock.now());
  if (user === "exists") throw new BadRequestError("This account already has a profile");
  return { user, account };
}

export interface UserSettingsInput extends SchedulerSettingsInput {
  name: string;
  dailyAssimilationCount?: number;
  spaceIntervals?: string;
}

/**
 * Changes a user's name, daily assimilation count (0 to 1000 notes) and space intervals
 * (comma-separated whole numbers of days). Only the user themself may do so.
 */
export async function updateUserSettings(
  ctx: AppContext,
  current: CurrentUser,
  userId: number,
  input: UserSettingsInput,
): Promise<CurrentUser> {
  const target = await ctx.stores.users.byId(userId);
  if (!target) throw new NotFoundError("User");
  if (target.id !== current.user.id) throw new ForbiddenError("You can only change your own settings");

  const errors: Record<string, string> = {};
  const name = validateName(input.name, errors);
  const changes: Partial<UserRow> = { name };
  if (input.dailyAssimilationCount !== undefined) {
    const count = input.dailyAssimilationCount;
    if (!Number.isInteger(count) || count < 0 || count > 1000) errors.dailyAssimilationCount = "must be a whole number from 0 to 1000";
    else changes.dailyAssimilationCount = count;
  }
  if (input.spaceIntervals !== undefined) {
    const intervals = input.spaceIntervals.trim();
    if (!SPACE_INTERVALS_PATTERN.test(intervals)) errors.spaceIntervals = "must be whole numbers separated by commas, like 0, 1, 2, 4";
    else changes.spaceIntervals = intervals;
  }
  Object.assign(changes, schedulerChanges(input, errors));
  if (Object.keys(errors).length) throw new ValidationError(errors);
  // A change of scheduler converts the user's trackers once, together with the setting: decided
  // from the user as the saving unit finds it, after any change saved meanwhile.
  const user = await ctx.stores.users.updateSettings(userId, changes, (before) => {
    const after = { ...before, ...changes };
    return schedulerOf(after) === schedulerOf(before) ? undefined : trackerConversion(after);
  });
  if (!user) throw new NotFoundError("User");
  return { user, account: current.account };
}
