/**
 * "Trigger Fine Tuning": two JSONL files in the chat fine-tuning format
 * (one {"messages": [system, user, assistant]} object per line) built from the suggestions,
 * uploaded through the OpenAI-compatible files API (purpose "fine-tune"), each followed by a
 * fine-tuning job on the configured base model. Nothing polls the jobs: the admin later picks the
 * resulting `ft:` model in Manage Models.
 */

import { APIError, OpenAIError, toFile } from "openai";
import { aiClient } from "../../ai/client";
import { MAX_MODEL_NAME_LENGTH, MODEL_NAME_MESSAGE } from "../../ai/model-settings";
import { evaluationPrompt } from "../../ai/question-evaluation";
import { type McqWithAnswer, QUESTION_INSTRUCTION } from "../../ai/question-generation";
import { readGlobalSetting, writeGlobalSetting } from "../../ai/settings";
import type { AppContext } from "../../context";
import type { SuggestedQuestionRow } from "../../store/fine-tuning/fine-tuning-store";
import { BadRequestError, DomainError, ValidationError } from "../errors";
import { authorizeAdmin } from "../policies";
import type { CurrentUser } from "../users";
import { FINE_TUNING_ADMIN_ONLY } from "./suggestions";

/** The global setting holding the base model of fine-tuning jobs. */
export const FINE_TUNING_BASE_MODEL_KEY = "fineTuningBaseModel";
/**
 * The reference's gpt-3.5-turbo-1106 no longer takes new jobs at OpenAI; this snapshot does and is
 * what Manage Models' default (gpt-4o-mini) is built on.
 */
export const DEFAULT_FINE_TUNING_BASE_MODEL = "gpt-4o-mini-2024-07-18";
/** The reference refuses a file with fewer examples (OpenAI's own minimum is 10 too). */
export const MIN_TRAINING_EXAMPLES = 10;
export const TOO_FEW_EXAMPLES = `Positive feedback cannot be less than ${MIN_TRAINING_EXAMPLES}.`;
export const TRAINING_INITIATED = "Training initiated.";

export interface FineTuningSettings {
  baseModel: string;
}

export async function fineTuningSettings(ctx: AppContext, current: CurrentUser | undefined): Promise<FineTuningSettings> {
  authorizeAdmin(current, FINE_TUNING_ADMIN_ONLY);
  return { baseModel: (await readGlobalSetting(ctx, FINE_TUNING_BASE_MODEL_KEY))?.trim() || DEFAULT_FINE_TUNING_BASE_MODEL };
}

export async function updateFineTuningSettings(
  ctx: AppContext,
  current: CurrentUser | undefined,
  body: unknown,
): Promise<FineTuningSettings> {
  authorizeAdmin(current, FINE_TUNING_ADMIN_ONLY);
  const raw = (body as { baseModel?: unknown } | null)?.baseModel;
  const baseModel = typeof raw === "string" ? raw.trim() : "";
  if (!baseModel || baseModel.length > MAX_MODEL_NAME_LENGTH) throw new ValidationError({ baseModel: MODEL_NAME_MESSAGE });
  await writeGlobalSetting(ctx, FINE_TUNING_BASE_MODEL_KEY, baseModel);
  return { baseModel };
}

interface TrainingExample {
  messages: { role: "system" | "user" | "assistant"; content: string }[];
}

const example = (row: SuggestedQuestionRow, instruction: string, answer: unknown): TrainingExample => ({
  messages: [
    { role: "system", content: row.preservedNoteContent },
    { role: "user", content: instruction },
    { role: "assistant", content: JSON.stringify(answer) },
  ],
});

/** The question-generation file: positive feedback only; the answer is the preserved MCQWithAnswer. */
export function questionGenerationExamples(rows: SuggestedQuestionRow[]): TrainingExample[] {
  return rows.filter((row) => row.positiveFeedback).map((row) => example(row, QUESTION_INSTRUCTION, JSON.parse(row.preservedQuestion)));
}

/**
 * The evaluation file: every suggestion; the answer is the evaluation the model should have given:
 * the preserved correct index when positive, else the admin's real correct answers (or null).
 */
export function evaluationExamples(rows: SuggestedQuestionRow[]): TrainingExample[] {
  return rows.map((row) => {
    const question = JSON.parse(row.preservedQuestion) as McqWithAnswer;
    const real = row.realCorrectAnswers.trim();
    const correctChoices = row.positiveFeedback
      ? [question.correctChoiceIndex]
      : real
        ? real.split(",").map((n) => Number(n.trim()))
        : null;
    return example(row, evaluationPrompt(question.multipleChoicesQuestion), {
      correctChoices,
      feasibleQuestion: row.positiveFeedback,
      improvementAdvices: row.comment,
    });
  });
}

export const toJsonl = (examples: TrainingExample[]) => examples.map((e) => JSON.stringify(e)).join("\n");

/** A provider's refusal, passed on with its own message (e.g. the base model cannot be fine-tuned). */
function providerFailure(error: unknown): never {
  if (error instanceof APIError) {
    const message = (error.error as { message?: unknown } | undefined)?.message;
    throw new DomainError(
      `Trigger Fine-Tuning Failed: ${typeof message === "string" && message ? message : error.message}`,
      502,
      "BAD_GATEWAY",
    );
  }
  if (error instanceof OpenAIError) throw new DomainError("Upload failed.", 502, "BAD_GATEWAY");
  throw error;
}

/**
 * POST /fine-tuning/upload-and-trigger-fine-tuning (admin): checks both files have enough
 * examples before anything is sent, then for the question file and the evaluation file uploads
 * it and creates a job. Answers {message: "Training initiated.", jobs}.
 */
/** What the trigger answers: a job per training file. */
export interface FineTuningTriggerJson {
  message: string;
  jobs: { file: string; trainingFile: string; jobId: string; status: string; model: string }[];
}

export async function uploadAndTriggerFineTuning(ctx: AppContext, current: CurrentUser | undefined): Promise<FineTuningTriggerJson> {
  authorizeAdmin(current, FINE_TUNING_ADMIN_ONLY);
  const client = aiClient(ctx); // "AI is not configured" before anything else
  const { baseModel } = await fineTuningSettings(ctx, current);
  const rows = await ctx.stores.fineTuning.list();
  const files = [
    { prefix: "Question", examples: questionGenerationExamples(rows) },
    { prefix: "Evaluation", examples: evaluationExamples(rows) },
  ];
  for (const file of files) if (file.examples.length < MIN_TRAINING_EXAMPLES) throw new BadRequestError(TOO_FEW_EXAMPLES);
  const stamp = ctx.clock.now().toISOString().replace(/[:.]/g, "-");
  const jobs: FineTuningTriggerJson["jobs"] = [];
  for (const file of files) {
    try {
      const uploaded = await client.files.create({
        file: await toFile(Buffer.from(toJsonl(file.examples), "utf8"), `${file.prefix}-${stamp}.jsonl`, { type: "application/jsonl" }),
        purpose: "fine-tune",
      });
      const job = await client.fineTuning.jobs.create({ training_file: uploaded.id, model: baseModel });
      if (job.status === "failed" || job.status === "cancelled") {
        throw new DomainError(`Trigger Fine-Tuning Failed: ${job.error?.message || `the job was ${job.status}`}`, 502, "BAD_GATEWAY");
      }
      jobs.push({ file: file.prefix, trainingFile: uploaded.id, jobId: job.id, status: job.status, model: baseModel });
    } catch (error) {
      if (error instanceof DomainError) throw error;
      providerFailure(error);
    }
  }
  return { message: TRAINING_INITIATED, jobs };
}
