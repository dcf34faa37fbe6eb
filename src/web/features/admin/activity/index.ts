// The activity area's public face: what the admin's other areas may use.
export { ActivityEntry } from "./activity-entry";
