import { integer } from "drizzle-orm/sqlite-core";

/** Milliseconds since the epoch, read by drizzle as a Date. */
export const timestamp = (name: string) => integer(name, { mode: "timestamp_ms" });
export const bool = (name: string) => integer(name, { mode: "boolean" });
export const id = () => integer("id").primaryKey({ autoIncrement: true });
