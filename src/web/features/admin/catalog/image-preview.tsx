/** A thumbnail of the image URL being typed, once it looks like one. */
export function ImagePreview({ url }: { url: string | undefined }) {
  const shown = url?.trim();
  if (!shown || !/^(https?:\/\/|\/)\S+$/.test(shown)) return <span aria-hidden="true" className="size-11 shrink-0" />;
  return (
    <img
      src={shown}
      alt=""
      width={44}
      height={44}
      className="size-11 shrink-0 rounded-md border border-stone-200 bg-stone-50 object-contain"
    />
  );
}
