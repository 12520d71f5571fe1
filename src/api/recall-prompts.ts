import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { core } from "./core";

/** Placeholder: recall prompts (multiple-choice questions): question, answer, contest, regenerate. */
export function recallPromptsApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api" }).use(core(ctx));
}
