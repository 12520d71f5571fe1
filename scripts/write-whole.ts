import { renameSync, writeFileSync } from "node:fs";

/** Writes a file whole in one rename, so a build running at once never reads half of it. */
export function writeWhole(file: string, text: string | Uint8Array) {
  const staged = `${file}.${process.pid}`;
  writeFileSync(staged, text);
  renameSync(staged, file);
}
