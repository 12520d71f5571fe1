/** A configuration problem, printed as one line ("Engram cannot start: …") by whoever starts Engram. */
export class ConfigError extends Error {}
