import { z } from "zod";
import { LAUNCH_ITEM_ID_MAX } from "../limits.js";

/** An item's id as content/launch-checklist.md writes it after its title (`{#information-officer}`). */
export const LAUNCH_ITEM_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const launchItemParams = z.object({
  itemId: z
    .string()
    .max(LAUNCH_ITEM_ID_MAX, `itemId must be at most ${LAUNCH_ITEM_ID_MAX} characters`)
    .regex(LAUNCH_ITEM_ID, "itemId must be an item's id: lower-case letters, digits and single hyphens"),
});

/** PUT /api/admin/launch-checklist/{itemId}: tick (true) or untick (false). */
export const launchItemInput = z.object({ done: z.boolean() });
export type LaunchItemInput = z.infer<typeof launchItemInput>;

/** One duty of "Before you open", as the owner's file says it, with the tick as it stands. */
export const launchItem = z.object({
  id: z.string(),
  title: z.string(),
  /** Where the duty comes from: statute sections and the body that runs it. */
  source: z.string(),
  /** The explanation, rendered from the file's Markdown on the server (raw HTML shown as text). */
  html: z.string(),
  done: z.boolean(),
  /** Who last ticked or unticked it, and when; null when nobody ever has. */
  changedAt: z.string().nullable(),
  changedBy: z.string().nullable(),
});
export type LaunchItem = z.infer<typeof launchItem>;

/** GET /api/admin/launch-checklist. */
export const launchChecklist = z.object({
  title: z.string(),
  introHtml: z.string(),
  /** PAYFAST_MODE=live: open items then matter now, not some day. */
  live: z.boolean(),
  items: z.array(launchItem),
  /** How many items are not ticked. */
  open: z.number().int(),
});
export type LaunchChecklist = z.infer<typeof launchChecklist>;
