import { t } from "elysia";
import { MAX_ADDITIONAL_INSTRUCTIONS_LENGTH } from "../../services/admin/assistant";

/** Request bodies shared by several routes. */

/** {additionalInstructions}: instructions the AI is given (blank clears them). */
export const AdditionalInstructionsBody = t.Object(
  {
    additionalInstructions: t.String({
      maxLength: MAX_ADDITIONAL_INSTRUCTIONS_LENGTH,
      error: `must be text of at most ${MAX_ADDITIONAL_INSTRUCTIONS_LENGTH} characters`,
    }),
  },
  { additionalProperties: true },
);
