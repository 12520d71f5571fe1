import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { core } from "./core";

/** Placeholder: note accessories (URL, image with mask) and uploaded images. */
export function accessoriesApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api" }).use(core(ctx));
}
