import type { Feature } from "../platform/feature.js";
import { adminReturnRoutes, returnRoutes } from "./routes.js";

/** Returns, cancellations and complaints as requests the server decides (decision 016). */
export const returns: Feature = { name: "returns", routes: returnRoutes, adminRoutes: adminReturnRoutes };
