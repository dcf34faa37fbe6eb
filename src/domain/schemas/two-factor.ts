import { z } from "zod";
import { PASSWORD_MAX, SECOND_FACTOR_CODE_MAX, SECOND_FACTOR_CODE_MIN } from "../limits.js";

/** A 6-digit code from an authenticator app, or one of the ten recovery codes ("abcde-fghjk"). */
export const secondFactorCode = z
  .string({ message: "code is required" })
  .trim()
  .min(SECOND_FACTOR_CODE_MIN, "code must be the 6-digit code from your authenticator app, or a recovery code")
  .max(SECOND_FACTOR_CODE_MAX, "code must be the 6-digit code from your authenticator app, or a recovery code");

export const secondFactorCodeInput = z.object({ code: secondFactorCode });

export const twoFactorStatus = z.object({
  enabled: z.boolean(),
  enabledAt: z.string().nullable(),
  recoveryCodesLeft: z.number().int(),
  /** ADMIN_2FA=required: the admin panel stays shut until it is on. */
  required: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatus>;

/** A new secret to enrol: as text to type, as an otpauth:// URI, and as a QR code (an SVG data URL). */
export const twoFactorSetup = z.object({ secret: z.string(), uri: z.string(), qrCode: z.string() });
export type TwoFactorSetup = z.infer<typeof twoFactorSetup>;

/** Shown once, when two-step sign-in is turned on. */
export const twoFactorEnabled = z.object({ recoveryCodes: z.array(z.string()) });
export type TwoFactorEnabled = z.infer<typeof twoFactorEnabled>;

/** An admin with no second factor (ADMIN_2FA=optional) confirms a step-up action with their password. */
export const stepUpPasswordInput = z.object({
  password: z.string({ message: "password is required" }).min(1, "password is required").max(PASSWORD_MAX),
});
export type StepUpPasswordInput = z.infer<typeof stepUpPasswordInput>;

/** GET /api/auth/2fa/fresh: whether this session may take a step-up action now, and what it gives if not. */
export const stepUpFreshness = z.object({ fresh: z.boolean(), confirmWith: z.enum(["code", "password"]) });
export type StepUpFreshness = z.infer<typeof stepUpFreshness>;
