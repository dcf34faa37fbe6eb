import { type DragEvent, useId, useRef, useState } from "react";
import { MAX_UPLOAD_BYTES } from "#domain/limits.js";
import { Button } from "#web/components/ui/button.js";
import { errorMessage } from "#web/lib/api.js";
import { useUploadPhoto } from "./api/upload-photo";

const ACCEPT = "image/jpeg,image/png,image/webp,image/heic,image/heif,.heic,.heif";
const MAX_MB = MAX_UPLOAD_BYTES / 1024 / 1024;

interface PhotoUploadProps {
  /** What the photo is of, for the button's name: "product photo", "photo for size M". */
  label: string;
  /** The uploaded photo's URL, for the form's image field. */
  onUploaded: (url: string) => void;
  compact?: boolean;
}

/**
 * Uploads a photo, picked or dropped here: the server checks it, strips its metadata and makes its
 * renditions, then the form's image field gets the photo's URL. Too large a file is refused here
 * before it is sent (the server refuses it too).
 */
export function PhotoUpload({ label, onUploaded, compact = false }: PhotoUploadProps) {
  const input = useRef<HTMLInputElement>(null);
  const statusId = useId();
  const upload = useUploadPhoto();
  const [problem, setProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);

  const send = (file: File | undefined) => {
    if (!file) return;
    setProblem(null);
    if (file.size > MAX_UPLOAD_BYTES) {
      setProblem(`That photo is larger than ${MAX_MB} MB: save it smaller (or as JPEG) and upload it again.`);
      return;
    }
    upload.mutate(file, {
      onSuccess: (photo) => onUploaded(photo.url),
      onError: (error) => setProblem(errorMessage(error, "The photo could not be uploaded")),
    });
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    send(event.dataTransfer.files[0]);
  };

  return (
    <fieldset
      className={`grid min-w-0 gap-1 rounded-lg border border-dashed p-2 ${dragging ? "border-brand-700 bg-brand-50" : "border-stone-300"}`}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <legend className="sr-only">Upload {label}</legend>
      <div className="flex flex-wrap items-center gap-2">
        <Button
          variant="outline"
          size="sm"
          aria-describedby={statusId}
          disabled={upload.isPending}
          onClick={() => input.current?.click()}
        >
          {upload.isPending ? "Uploading..." : `Upload ${label}`}
        </Button>
        {!compact && (
          <span className="text-xs text-stone-600">or drop it here. JPEG, PNG or WebP, up to {MAX_MB} MB.</span>
        )}
      </div>
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          send(event.target.files?.[0]);
          event.target.value = "";
        }}
      />
      <p
        id={statusId}
        role={problem ? "alert" : "status"}
        className={`text-xs ${problem ? "font-medium text-red-700" : "text-stone-600"}`}
      >
        {problem ?? (upload.isSuccess ? "Photo uploaded: save the product to show it." : "")}
      </p>
    </fieldset>
  );
}
