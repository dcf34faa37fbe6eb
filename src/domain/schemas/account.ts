import { z } from "zod";
import {
  ACCOUNT_LINK_TOKEN_MAX,
  EMAIL_MAX,
  FULL_NAME_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  SECOND_FACTOR_CODE_MAX,
  USERNAME_MAX,
} from "../limits.js";
import { profileAddressFields } from "./address.js";
import { requiredText } from "./common.js";

/** A user as the API answers it (docs/product.md §3): never the password or its hash. */
export const user = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  fullName: z.string(),
  phone: z.string(),
  altPhone: z.string(),
  address: z.string(),
  complex: z.string(),
  suburb: z.string(),
  city: z.string(),
  province: z.string(),
  zipCode: z.string(),
  deliveryInstructions: z.string(),
  /** The string "true" marks an admin (kept for compatibility). */
  isAdmin: z.enum(["true", "false"]),
  createdAt: z.string(),
});
export type User = z.infer<typeof user>;

const email = z
  .string({ message: "email is required" })
  .trim()
  .min(1, "email is required")
  .max(EMAIL_MAX, `email must be at most ${EMAIL_MAX} characters`)
  .pipe(z.email({ message: "email must be a valid email address" }));

/** A password someone is choosing (sign up, reset, change): the server also refuses common ones. */
const newPassword = (field: string) =>
  z
    .string({ message: `${field} is required` })
    .min(PASSWORD_MIN, `${field} must be at least ${PASSWORD_MIN} characters`)
    .max(PASSWORD_MAX, `${field} must be at most ${PASSWORD_MAX} characters`);

/** A password someone types to prove who they are: any length, checked against the stored hash. */
const typedPassword = (field: string) =>
  z
    .string({ message: `${field} is required` })
    .min(1, `${field} is required`)
    .max(PASSWORD_MAX);

export const registerInput = z.object({
  username: requiredText("username", USERNAME_MAX).refine(
    (value) => /^[\p{L}\p{N}._-]+$/u.test(value),
    "username may use letters, numbers, dots, dashes and underscores only",
  ),
  email,
  password: newPassword("password"),
  fullName: requiredText("fullName", FULL_NAME_MAX),
  ...profileAddressFields,
  /** The sign-up form's e-mail marketing box: unticked unless the customer ticks it (POPIA s69). */
  marketingEmail: z.boolean({ message: "marketingEmail must be true or false" }).default(false),
});
export type RegisterInput = z.input<typeof registerInput>;

export const loginInput = z.object({
  /** Username or e-mail. */
  username: requiredText("username", EMAIL_MAX),
  password: typedPassword("password"),
  /** An admin with two-step sign-in: the 6-digit code, or a recovery code (asked for after the password). */
  code: z
    .string()
    .trim()
    .max(SECOND_FACTOR_CODE_MAX, `code must be at most ${SECOND_FACTOR_CODE_MAX} characters`)
    .optional(),
});
export type LoginInput = z.infer<typeof loginInput>;

export const profileInput = z.object({
  fullName: requiredText("fullName", FULL_NAME_MAX),
  email,
  ...profileAddressFields,
  /** Required when the e-mail address changes: the signed-in person's password. */
  currentPassword: z.string().max(PASSWORD_MAX).optional(),
});
export type ProfileInput = z.input<typeof profileInput>;

/** The answer of the password endpoints: a sentence to show as it is. */
export const accountMessage = z.object({ message: z.string() });
export type AccountMessage = z.infer<typeof accountMessage>;

export const forgotPasswordInput = z.object({ email });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordInput>;

export const resetPasswordInput = z.object({
  /** From the e-mailed link's ?token= (32 random bytes, base64url). */
  token: z.string({ message: "token is required" }).trim().min(1, "token is required").max(ACCOUNT_LINK_TOKEN_MAX),
  password: newPassword("password"),
});
export type ResetPasswordInput = z.infer<typeof resetPasswordInput>;

/** POST /api/auth/confirm-email: the token of the link mailed to a new address. */
export const confirmEmailInput = z.object({
  token: z.string({ message: "token is required" }).trim().min(1, "token is required").max(ACCOUNT_LINK_TOKEN_MAX),
});

export const changePasswordInput = z.object({
  currentPassword: typedPassword("currentPassword"),
  newPassword: newPassword("newPassword"),
});
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;

/** GET /api/auth/address: whether the account's address is proven its own (the profile's "not yet confirmed"). */
export const addressProof = z.object({ email: z.string(), confirmed: z.boolean() });
export type AddressProof = z.infer<typeof addressProof>;
