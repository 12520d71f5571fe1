/**
 * The one input rule for text that people send: control characters (C0 except tab, line feed
 * and carriage return, DEL and C1) are removed. The request body parser applies it to every
 * string of a JSON or multipart body; services that check text (titles, search keys) apply it
 * again, so text reaching them by another path follows the same rule.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what this strips.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

export function stripControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, "");
}
