import { useEffect } from "react";
import { publicConfig } from "./public-config";

/** Sets the document title of a page: "Return Policy | Snug & Dry". */
export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = `${title} | ${publicConfig.name}`;
  }, [title]);
}
