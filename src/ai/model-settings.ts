import type { AppContext } from "../context";
import { ValidationError } from "../services/errors";
import { authorizeAdmin } from "../services/policies";
import type { CurrentUser } from "../services/users";
import { readGlobalSetting, writeGlobalSettings } from "./settings";

/** GlobalAiModelSettings of the reference's API contract: the chat model per task (docs/decisions.md, decision 14). */
export interface GlobalAiModelSettings {
  /** Generating (and regenerating) multiple-choice questions. */
  questionGenerationModel: string;
  /** Checking questions: the automatic check after generation and the learner's contest. */
  evaluationModel: string;
  /** Every other chat task. */
  othersModel: string;
}

export const DEFAULT_CHAT_MODEL = "gpt-4o-mini";
export const MODEL_SETTING_KEYS = ["questionGenerationModel", "evaluationModel", "othersModel"] as const;
export type ModelSettingKey = (typeof MODEL_SETTING_KEYS)[number];
/** Longest model name accepted (provider ids, fine-tuned ones included, are far shorter). */
export const MAX_MODEL_NAME_LENGTH = 200;
export const MODEL_NAME_MESSAGE = `must be a model name of 1 to ${MAX_MODEL_NAME_LENGTH} characters`;
export const ADMIN_ONLY_MESSAGE = "Only an administrator can manage the AI models";

/** One model setting, or the default when it was never set. */
export async function modelFor(ctx: AppContext, key: ModelSettingKey): Promise<string> {
  return (await readGlobalSetting(ctx, key))?.trim() || DEFAULT_CHAT_MODEL;
}

export async function currentModelSettings(ctx: AppContext): Promise<GlobalAiModelSettings> {
  const [questionGenerationModel, evaluationModel, othersModel] = await Promise.all(MODEL_SETTING_KEYS.map((key) => modelFor(ctx, key)));
  return { questionGenerationModel: questionGenerationModel!, evaluationModel: evaluationModel!, othersModel: othersModel! };
}

/**
 * POST /settings/current-model-version (admin only): writes the settings given (a missing one
 * keeps its value) and answers all three. A blank or over-long name is refused field by field.
 */
export async function updateModelSettings(
  ctx: AppContext,
  current: CurrentUser,
  input: Partial<Record<ModelSettingKey, unknown>>,
): Promise<GlobalAiModelSettings> {
  authorizeAdmin(current, ADMIN_ONLY_MESSAGE);
  const values: Partial<GlobalAiModelSettings> = {};
  const errors: Record<string, string> = {};
  for (const key of MODEL_SETTING_KEYS) {
    const raw = input[key];
    if (raw === undefined || raw === null) continue;
    const value = typeof raw === "string" ? raw.trim() : "";
    if (!value || value.length > MAX_MODEL_NAME_LENGTH) errors[key] = MODEL_NAME_MESSAGE;
    else values[key] = value;
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  await writeGlobalSettings(ctx, values);
  return currentModelSettings(ctx);
}
