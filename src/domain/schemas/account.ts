import { z } from "zod";
import { requiredText, text } from "./common.js";

/** A user as the API answers it (docs/product.md §3): never the password or its hash. */
export const user = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  fullName: z.string(),
  phone: z.string(),
  address: z.string(),
  city: z.string(),
  zipCode: z.string(),
  /** The string "true" marks an admin (kept for compatibility). */
  isAdmin: z.enum(["true", "false"]),
  createdAt: z.string(),
});
export type User = z.infer<typeof user>;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

const email = z
  .string({ message: "email is required" })
  .trim()
  .min(1, "email is required")
  .max(254, "email must be at most 254 characters")
  .pipe(z.email({ message: "email must be a valid email address" }));

export const registerInput = z.object({
  username: requiredText("username", 40).refine(
    (value) => /^[\p{L}\p{N}._-]+$/u.test(value),
    "username may use letters, numbers, dots, dashes and underscores only",
  ),
  email,
  password: z
    .string({ message: "password is required" })
    .min(PASSWORD_MIN, `password must be at least ${PASSWORD_MIN} characters`)
    .max(PASSWORD_MAX, `password must be at most ${PASSWORD_MAX} characters`),
  fullName: requiredText("fullName", 120),
  phone: text(30).default(""),
  address: text(200).default(""),
  city: text(80).default(""),
  zipCode: text(10).default(""),
});
export type RegisterInput = z.input<typeof registerInput>;

export const loginInput = z.object({
  /** Username or e-mail. */
  username: requiredText("username", 254),
  password: z.string({ message: "password is required" }).min(1, "password is required").max(PASSWORD_MAX),
});
export type LoginInput = z.infer<typeof loginInput>;

export const profileInput = z.object({
  fullName: requiredText("fullName", 120),
  email,
  phone: text(30).default(""),
  address: text(200).default(""),
  city: text(80).default(""),
  zipCode: text(10).default(""),
});
export type ProfileInput = z.input<typeof profileInput>;
