import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "#web/lib/api.js";

export interface UploadedPhoto {
  /** The URL for the product's image field: the photo's renditions are found from it. */
  url: string;
  width: number;
  height: number;
  widths: number[];
}

/** POST /api/admin/media: one photo as multipart field `file` (JPEG, PNG or WebP, at most 10 MB). */
export function uploadPhoto(file: File) {
  const body = new FormData();
  body.append("file", file);
  return apiRequest<UploadedPhoto>("POST", "/api/admin/media", body);
}

export function useUploadPhoto() {
  return useMutation({ mutationFn: uploadPhoto });
}
