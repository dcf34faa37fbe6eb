import { z } from "zod";
import { ERROR_CODES } from "../error-codes.js";

/** Every non-2xx JSON answer of the API: a message for people, a stable code for programs. */
export const errorBody = z.object({
  message: z.string(),
  code: z.enum(ERROR_CODES),
});
export type ErrorBody = z.infer<typeof errorBody>;

export const uuidParam = z.object({ id: z.uuid({ message: "id must be a valid id" }) });

/** Text a person types: trimmed, bounded. */
export const text = (max: number) => z.string().trim().max(max);
export const requiredText = (field: string, max = 200) =>
  z
    .string({ message: `${field} is required` })
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`);
