import type { Feature } from "../platform/feature.js";
import { childRoutes } from "./children.js";
import { sizeFinderRoutes } from "./finder.js";

/** The size finder and children's profiles (decision 046). */
export const sizeFit: Feature = {
  name: "size-fit",
  routes: async (api) => {
    await api.register(childRoutes, { prefix: "/users" });
    await api.register(sizeFinderRoutes);
  },
};
