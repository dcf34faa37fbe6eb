// The emails area's public face: what the admin's other areas may use.
export { EmailStatusBadge } from "./email-list-item";
