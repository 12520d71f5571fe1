/**
 * Voice dictation: POST /audio/audio-to-text takes one chunk of
 * recorded audio, has it transcribed as SRT (the transcription model), drops a last segment that
 * may be cut mid-speech, and has the Others model clean the text up as an append to the note's
 * details. Unlike the reference, only signed-in users may call it (docs/decisions.md, decision 10), and the upload is
 * size-limited and checked by its bytes.
 */
import { askForDetailsFromTranscript, transcribeToSrt } from "../../ai/transcription";
import type { AppContext } from "../../context";
import { ServiceUnavailableError, UnauthorizedError, ValidationError } from "../errors";
import type { CurrentUser } from "../users";

export const MAX_AUDIO_BYTES = 20 * 1024 * 1024;
export const MAX_PROCESSING_INSTRUCTIONS_LENGTH = 10_000;
/** The client sends the last 500 characters (with an ellipsis); some room beyond that. */
export const MAX_PREVIOUS_DETAILS_LENGTH = 2_000;
export const AUDIO_TYPE_MESSAGE = "must be an audio file (MP3, WAV, MP4/M4A, WebM or Ogg) of at most 20 MB";
export const FAILED_TO_PROCESS_AUDIO = "Failed to process audio";

/** TextFromAudioWithCallInfo of the reference's API contract. */
export interface TextFromAudioJson {
  completionFromAudio: { deleteFromEnd: number; completion: string };
  rawSRT: string;
  endTimestamp: string;
}

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/** The audio container by its first bytes (the browser's content type is not trusted). */
export function detectAudioType(bytes: Uint8Array): { type: string; extension: string } | undefined {
  if (bytes.length < 12) return undefined;
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WAVE") return { type: "audio/wav", extension: "wav" };
  if (ascii(bytes, 0, 3) === "ID3" || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0)) return { type: "audio/mpeg", extension: "mp3" };
  if (ascii(bytes, 4, 8) === "ftyp") return { type: "audio/mp4", extension: "m4a" };
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return { type: "audio/webm", extension: "webm" };
  if (ascii(bytes, 0, 4) === "OggS") return { type: "audio/ogg", extension: "ogg" };
  return undefined;
}

/**
 * The SRT to use and where it ends: mid-speech, the last segment (maybe cut off) is dropped when
 * there are others; endTimestamp is the end time of the last segment kept ("" without one).
 */
export function trimSrt(srt: string, isMidSpeech: boolean): { srt: string; endTimestamp: string } {
  let segments = srt
    .trim()
    .split(/\r?\n[ \t]*\r?\n/)
    .map((segment) => segment.trim())
    .filter(Boolean);
  if (isMidSpeech && segments.length > 1) segments = segments.slice(0, -1);
  const last = segments.at(-1) ?? "";
  const endTimestamp = /-->\s*(\S+)/.exec(last)?.[1] ?? "";
  return { srt: segments.join("\n\n"), endTimestamp };
}

interface AudioRequest {
  file: File;
  additionalInstructions: string;
  isMidSpeech: boolean;
  previousDetails: string;
}

const isBlob = (value: unknown): value is Blob => typeof Blob !== "undefined" && value instanceof Blob;

async function validAudioRequest(body: unknown): Promise<AudioRequest> {
  const fields = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const errors: Record<string, string> = {};
  let file: File | undefined;
  const upload = fields.uploadAudioFile;
  if (!isBlob(upload) || upload.size === 0 || upload.size > MAX_AUDIO_BYTES) errors.uploadAudioFile = AUDIO_TYPE_MESSAGE;
  else {
    const bytes = new Uint8Array(await upload.arrayBuffer());
    const detected = detectAudioType(bytes);
    if (!detected) errors.uploadAudioFile = AUDIO_TYPE_MESSAGE;
    // The transcription API tells the format by the file name's extension.
    else file = new File([bytes], `audio.${detected.extension}`, { type: detected.type });
  }
  const text = (name: string, max: number): string => {
    const value = fields[name];
    if (value === undefined || value === null) return "";
    if (typeof value !== "string" || value.length > max) {
      errors[name] = `must be text of at most ${max} characters`;
      return "";
    }
    return value;
  };
  const additionalInstructions = text("additionalProcessingInstructions", MAX_PROCESSING_INSTRUCTIONS_LENGTH).trim();
  const previousDetails = text("previousNoteDetailsToAppendTo", MAX_PREVIOUS_DETAILS_LENGTH);
  const mid = fields.isMidSpeech;
  if (mid !== undefined && mid !== null && !["true", "false", "", true, false].includes(mid as string | boolean))
    errors.isMidSpeech = "must be true or false";
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { file: file!, additionalInstructions, isMidSpeech: mid === true || mid === "true", previousDetails };
}

/** The model's completion made safe: a whole number of characters to delete (0 or more) and text. */
function validCompletion(raw: unknown): TextFromAudioJson["completionFromAudio"] | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const { deleteFromEnd, completion } = raw as { deleteFromEnd?: unknown; completion?: unknown };
  if (typeof completion !== "string") return undefined;
  const remove = typeof deleteFromEnd === "number" && Number.isFinite(deleteFromEnd) ? Math.max(0, Math.floor(deleteFromEnd)) : 0;
  return { deleteFromEnd: remove, completion };
}

export async function audioToText(ctx: AppContext, current: CurrentUser | undefined, body: unknown): Promise<TextFromAudioJson> {
  if (!current) throw new UnauthorizedError("Please sign in");
  const request = await validAudioRequest(body);
  const { srt, endTimestamp } = trimSrt(await transcribeToSrt(ctx, request.file), request.isMidSpeech);
  // Silence: nothing to add, and no need to ask the model.
  if (!srt) return { completionFromAudio: { deleteFromEnd: 0, completion: "" }, rawSRT: "", endTimestamp };
  const completion = validCompletion(
    await askForDetailsFromTranscript(ctx, {
      srt,
      additionalInstructions: request.additionalInstructions,
      previousDetails: request.previousDetails,
    }),
  );
  if (!completion) throw new ServiceUnavailableError(FAILED_TO_PROCESS_AUDIO);
  return { completionFromAudio: completion, rawSRT: srt, endTimestamp };
}
