import type { Feature } from "../platform/feature.js";
import { type LaunchChecklistContent, readLaunchChecklist } from "./content.js";
import { adminLaunchChecklistRoutes } from "./routes.js";

/** The owner's "Before you open" (content/launch-checklist.md): read at start, or given already read. */
export const launchChecklist = (content?: LaunchChecklistContent): Feature => ({
  name: "launch-checklist",
  setup: (app) => void app.decorate("launchChecklist", content ?? readLaunchChecklist(app.config)),
  adminRoutes: async (admin) =>
    void (await admin.register(adminLaunchChecklistRoutes, { content: admin.launchChecklist })),
});
