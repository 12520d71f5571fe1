/** A time as "YYYY-MM-DD HH:MM" UTC: the same text on the server and in every browser (no hydration mismatch). */
export const dateTimeText = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
