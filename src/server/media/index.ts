import type { Feature } from "../platform/feature.js";
import { adminMediaRoutes, mediaRoutes } from "./routes.js";
import { mediaStore } from "./store.js";

/** Product photos (media/README.md): stored in MEDIA_DIR or a bucket, served cookie-less and cached for a year. */
export const media: Feature = {
  name: "media",
  setup: (app) => void app.decorate("media", mediaStore(app.config.media)),
  adminRoutes: async (admin) => void (await admin.register(adminMediaRoutes, { store: admin.media })),
  siteRoutes: async (site) => void (await site.register(mediaRoutes, { store: site.media })),
};
