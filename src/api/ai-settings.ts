import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { core } from "./core";

/** Placeholder: AI model settings and the available models. */
export function aiSettingsApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api" }).use(core(ctx));
}
