/**
 * How a notebook's attachments are keyed: by their path as compared (its parts, NFC, lower
 * case). An import stages the files it reads under a key of its own until it publishes them; a
 * real key never starts with "/", so a staged file neither collides with the notebook's files nor
 * is found as one. No server module here: the import worker keys its files too.
 */
import { pathParts } from "./vault-paths";

export const attachmentPathKey = (path: string) => pathParts(path).join("/").toLowerCase();

export const stagedPathKey = (operationId: number, pathKey: string) => `/${operationId}/${pathKey}`;

/** SQL LIKE pattern of the staged keys (published ones never match it). */
export const STAGED_PATH_KEYS = "/%";
