import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";

/** A random token with the given bits of entropy, base32 (lower case) encoded. */
export function generateRandomToken(bytes = 16): string {
  return encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** What is stored instead of a token: its SHA-256 in hex (Bun's native hasher: it runs on every request). */
export function hashToken(token: string): string {
  return new Bun.CryptoHasher("sha256").update(token).digest("hex");
}
