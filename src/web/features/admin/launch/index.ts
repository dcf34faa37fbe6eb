// The launch area's public face: what the admin's other areas may use.
export { LaunchChecklistNote } from "./launch-checklist-note";
