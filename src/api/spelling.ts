import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { core } from "./core";

/** Placeholder: spelling questions and answers. */
export function spellingApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api" }).use(core(ctx));
}
