import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { core } from "./core";

/** Placeholder: typed links between notes. */
export function linksApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api" }).use(core(ctx));
}
