import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { core } from "./core";

/** Placeholder: the note graph export. */
export function graphApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api" }).use(core(ctx));
}
