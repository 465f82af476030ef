import { useState } from 'react';

/** A thumbnail that disappears when the picture cannot be loaded. */
export function ImageThumbnail({ url, alt }: { url: string | null; alt: string }) {
  const [failed, setFailed] = useState(false);
  if (url === null || failed) return null;
  return (
    <img
      src={url}
      alt={alt}
      loading="lazy"
      onError={() => setFailed(true)}
      className="h-20 w-20 shrink-0 rounded-md border object-cover"
      data-testid="image-thumbnail"
    />
  );
}
